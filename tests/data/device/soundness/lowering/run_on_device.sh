#!/bin/sh
# Device side of issue 22's lowering acceptance (H2): judge_lowering.py on the lowered programs.
set -u
D=.devwork/h2
export LD_LIBRARY_PATH="$PWD/$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PT2LINT_BIN="$PWD/$D/bin/pt2lint"
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)" 2>&1 | tee "$OUT/versions.txt"
"$PT2LINT_BIN" --version 2>&1 | head -1
PYTHONUNBUFFERED=1 timeout 220 python3 $D/judge_lowering.py $D tests/data/device/soundness python/src "$OUT/results.json" 2>&1 | tee "$OUT/log.txt" | cut -c1-400 | tail -40
ls -la "$OUT"
