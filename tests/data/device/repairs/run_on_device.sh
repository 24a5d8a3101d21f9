#!/bin/sh
# The device half of issue 23's acceptance, from the repository root of a checkout that has
# this folder at $D with repairs.tar.xz (make_repairs.py's OUT_DIR, packed) beside it:
#     D=.devwork/h3 sh $D/run_on_device.sh
# Writes $OUT/repairs_device.tar.gz (results.json, log.txt, versions.txt).
set -u
D=${D:-tests/data/device/repairs}
W=$(mktemp -d)
python3 -c "import torch; print('torch', torch.__version__)" | tee "$W/versions.txt"
mkdir -p "$W/work" && python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" "$D/repairs.tar.xz" "$W/work"
cp "$D/judge_repairs.py" "$D/customops_lib.py" "$D/common.py" "$W/work/" 2>/dev/null
cd "$W/work" && JUDGE_SECONDS=${JUDGE_SECONDS:-360} timeout 420 python3 judge_repairs.py . "$W/results.json" 2>&1 \
  | tee "$W/log.txt" | tail -25
tar -C "$W" -czf "$OUT/repairs_device.tar.gz" results.json log.txt versions.txt
cp "$W/results.json" "$OUT/" 2>/dev/null
ls -la "$OUT"
