#!/bin/sh
# pt2lint in any CI, as a plain shell script: install the wheel, check, keep a JUnit report.
# PT2LINT_WHEEL: the path or URL of the pt2lint wheel, the release artifact (not on PyPI).
# Exit 0: no errors; 1: errors; 2: usage or I/O error.
set -eu
python3 -m venv .pt2lint-venv && .pt2lint-venv/bin/pip install --quiet "${PT2LINT_WHEEL:?the path or URL of the wheel}"
.pt2lint-venv/bin/pt2lint check models/ --format junit -o pt2lint-junit.xml
