#!/bin/bash
# The device run (docs/python.md): installs the wheel itself (dist/pt2lint-*.whl, from
# `make device-bundle`) into a fresh venv that sees the machine's torch, and runs the whole
# Python suite against it: the torch tests (test_torch_device.py) and the rest, on this
# distribution and Python. Output: $OUT/python_device.txt and $OUT/junit.xml.
#   bash python/tests/device/run_on_device.sh        (from the repository root)
set -u
out=${OUT:-/tmp/pt2lint-device-out}
mkdir -p "$out"
repo=$PWD
venv=/tmp/pt2lint-device-venv
{
  set -x
  uname -srm; ldd --version | head -1; python3 --version
  python3 -c "import torch; print('torch', torch.__version__)"
  wheel=$(ls "$repo"/dist/pt2lint-*.whl)
  ls -l "$wheel"
  rm -rf "$venv"
  python3 -m venv --system-site-packages "$venv" || python3 -m venv --without-pip --system-site-packages "$venv" ||
    { echo "FAIL: cannot create a venv"; exit 1; }
  "$venv/bin/python" -m pip install --no-index --no-deps "$wheel" || { echo "FAIL: pip install"; exit 1; }
  # When python3 is itself a venv (or conda), --system-site-packages shows the base
  # interpreter's site, not the one torch is in: point the new venv at torch's site too.
  if ! "$venv/bin/python" -c "import torch" 2>/dev/null; then
    torch_site=$(python3 -c "import os, torch; print(os.path.dirname(os.path.dirname(torch.__file__)))")
    site=$("$venv/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
    echo "$torch_site" > "$site/zz_device_torch_site.pth"
  fi
  "$venv/bin/python" -c "import torch; print('torch in the venv:', torch.__version__)"
  if ! "$venv/bin/python" -c "import pytest" 2>/dev/null; then
    echo "no pytest here: using Debian's, carried in dist/vendor"
    export PYTHONPATH=$repo/dist/vendor
  fi
  "$venv/bin/python" -c "import pytest, pt2lint; print('pytest', pytest.__version__); print('pt2lint from', pt2lint.__file__)"
  "$venv/bin/pt2lint" check tests/data/demo/kv_cache_broken.pt2; echo "console script exit code $? (1 expected)"
  ldd "$venv"/lib/python3*/site-packages/pt2lint/_bin/pt2lint
  set +x
  cd "$repo/python/tests" &&
    PT2LINT_INSTALLED_VENV=$venv PT2LINT_WHEEL=$wheel "$venv/bin/python" -m pytest -v -rs -p no:cacheprovider -W ignore::DeprecationWarning \
      --junitxml="$out/junit.xml" -s .
  status=$?
  echo "pytest exit code $status"
  if [ $status -eq 0 ]; then echo "PASS: every Python test passed with the installed wheel"; else echo "FAIL"; fi
} 2>&1 | tee "$out/python_device.txt"
