#!/bin/sh
# Every check of pt2lint's own output that needs PyTorch 2.11, run on the device machine in one call, from the
# repository root. Each check writes its JSON to $OUT; this log collects what each printed.
# Needs `dist/` (make device-bundle) carried for the Python package's tests.
set -u
log="$OUT/device_checks.log"
: > "$log"
check() {
  echo "=== $*" | tee -a "$log"
  timeout 300 "$@" >> "$log" 2>&1
  echo "=== exit $?" | tee -a "$log"
  tail -4 "$log"
}
python3 -c "import torch; print('torch', torch.__version__)" | tee -a "$log"
check python3 tests/customops/run_lowered.py
check python3 tests/data/subgraphs/check_lowered_with_torch.py
check python3 tests/files/device_check_goldens.py
check python3 tests/quiet/device_lowered_aliases.py
check python3 tests/data/device/seedbugs/check_repaired.py
check bash python/tests/device/run_on_device.sh
