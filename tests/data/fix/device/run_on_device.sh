#!/bin/sh
# The device run of docs/fix.md ("Repairs judged by PyTorch"), from the repository root of a
# checkout that has this folder (scripts, bin/pt2lint and its lib/) at $D:
#     D=.devwork/i23 sh $D/run_on_device.sh
# Writes $OUT/fix_device.tar.gz (clean, broken and repaired programs, results.json, log.txt).
set -u
D=${D:-tests/data/fix/device}
W=$(mktemp -d)
python3 -c "import torch, transformers; print('torch', torch.__version__, 'transformers', transformers.__version__)" | tee "$W/versions.txt"
ldd "$D/bin/pt2lint" 2>&1 | grep -i "not found" | tee "$W/ldd_missing.txt"
cat /etc/os-release 2>/dev/null | head -2
cd "$D" && PYTHONUNBUFFERED=1 FIX_DEVICE_SECONDS=110 timeout 165 python3 fix_on_device.py "$W" 2>&1 | tee "$W/log.txt" | grep -v '^   {' | tail -60
tar -C "$W" -czf "$OUT/fix_device.tar.gz" .
cp "$W/results.json" "$W/log.txt" "$OUT/" 2>/dev/null
ls -la "$OUT"
