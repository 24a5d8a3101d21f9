#!/bin/sh
# Builds the pt2lint wheel offline from Debian's python3-build, setuptools and wheel:
#   python/tools/build_wheel.sh BUILD_DIR OUT_DIR
# BUILD_DIR holds the compiled binary (make build); the wheel lands in OUT_DIR.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
python=${PYTHON:-/usr/bin/python3}
stage="$build/python-wheel"
rm -rf "$stage"
mkdir -p "$stage"
cp -r "$here/pyproject.toml" "$here/setup.py" "$here/README.md" "$here/src" "$here/../LICENSE" "$stage/"
find "$stage" -name __pycache__ -prune -exec rm -rf {} +
"$python" "$here/tools/stage_binary.py" "$build/pt2lint" "$stage/src/pt2lint" "$stage/platform_tag.txt"
rm -f "$out"/pt2lint-*.whl
cd "$stage"
"$python" -m build --no-isolation --wheel --outdir "$out" . >"$stage/build.log" 2>&1 || {
  cat "$stage/build.log" >&2
  exit 1
}
ls "$out"/pt2lint-*.whl
