#!/bin/sh
# pt2lint in any CI, as a plain shell script: install the wheel, check, keep a JUnit report.
# Exit 0: no errors; 1: errors; 2: usage or I/O error.
set -eu
python3 -m venv .pt2lint-venv && .pt2lint-venv/bin/pip install --quiet pt2lint==0.1.0
.pt2lint-venv/bin/pt2lint check models/ --format junit -o pt2lint-junit.xml
