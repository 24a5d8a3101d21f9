#!/bin/sh
# Runs every export and measurement script of tests/data/device on the device machine (PyTorch 2.11)
# and packs each folder's output into $OUT. From the repository root:
#     sh tests/data/device/run_all.sh [FOLDER...]     (default: all six)
# Locally, unpack each OUT/NAME.tar.gz into tests/data/device/NAME/.
set -u
D=tests/data/device
W=$(mktemp -d)
python3 -c "import torch, torchvision, timm, transformers; print('torch', torch.__version__, 'torchvision', torchvision.__version__, 'timm', timm.__version__, 'transformers', transformers.__version__)" | tee "$OUT/versions.txt"
cd $D
run() { name=$1; shift; mkdir -p "$W/$name"; echo "== $name"; timeout 420 python3 "$@" > "$W/$name/log.txt" 2>&1; echo "exit $?" >> "$W/$name/log.txt"; tail -3 "$W/$name/log.txt"; }
NAMES=${*:-zoo customops subgraphs measurements seedbugs state}
for name in $NAMES; do
  case $name in
    customops) run customops customops/export_customops.py "$W/customops" & ;;
    subgraphs) run subgraphs subgraphs/export_subgraphs.py "$W/subgraphs" & ;;
    measurements) run measurements measurements/measure.py "$W/measurements" & ;;
    seedbugs) run seedbugs seedbugs/export_seedbugs.py "$W/seedbugs" & ;;
    zoo) run zoo zoo/export_zoo.py "$W/zoo" "$W/zoo/fullsize" & ;;
    state) run state state/export_state.py "$W/state" & ;;
  esac
done
wait
for name in $NAMES; do
  tar -C "$W/$name" -czf "$OUT/$name.tar.gz" .
done
ls -la "$OUT"
