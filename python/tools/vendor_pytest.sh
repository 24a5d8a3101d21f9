#!/bin/sh
# Copies Debian's pure-Python pytest (python3-pytest and what it imports) into DIR, for a
# machine without pytest: PYTHONPATH=DIR python -m pytest ...
#   python/tools/vendor_pytest.sh DIR
set -eu
dest=$1
site=/usr/lib/python3/dist-packages
rm -rf "$dest"
mkdir -p "$dest"
for name in pytest _pytest py py.py pluggy iniconfig attr attrs packaging exceptiongroup tomli; do
  if [ -e "$site/$name" ]; then cp -r "$site/$name" "$dest/"; fi
done
find "$dest" -name __pycache__ -prune -exec rm -rf {} +
echo "$dest: $(ls "$dest" | tr '\n' ' ')"
