#!/bin/sh
# Builds the bundle check_with_torch.py runs on a machine with PyTorch: each TRAINING corpus
# program, its `pt2lint lower` output, and the --rename-nested variant of the nested ones.
# Usage: tests/data/lowering/prepare_torch_check.sh PT2LINT CORPUS OUT_DIR
set -eu
pt2lint=$1 corpus=$2 out=$3
mkdir -p "$out"
for name in counter user_input_mutation dict_out kv_nested_2l conv_bn_train; do
  cp "$corpus/base/$name.pt2" "$out/$name.pt2"
  "$pt2lint" lower -q "$corpus/base/$name.pt2" -o "$out/$name.plain.lowered.pt2"
done
cp "$corpus/multi/kv_prefill_decode.pt2" "$out/kv_prefill_decode.pt2"
"$pt2lint" lower -q "$corpus/multi/kv_prefill_decode.pt2" -o "$out/kv_prefill_decode.plain.lowered.pt2"
"$pt2lint" lower -q --rename-nested "$corpus/base/kv_nested_2l.pt2" -o "$out/kv_nested_2l.renamed.lowered.pt2"
echo "bundle in $out: run  python3 tests/data/lowering/check_with_torch.py $out"
