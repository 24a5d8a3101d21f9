#!/usr/bin/env python3
"""Issue 23's "programs nobody on the team has seen", approximated: make_repairs.py's passes over
real PyTorch 2.11 exports that the repairs were NOT developed against (make_repairs.CLEAN lists
the ten that were). Each export below was judged by PyTorch when it was made (its folder's
script and results); a repair counts only when it is byte for byte that clean source (the
program JSON and the saved state: fix_passes.py's judge), so it needs no device run. Any other
written file is WRONG, and the script exits 1.

usage: held_out.py PT2LINT OUT_DIR [--markdown]
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_repairs  # noqa: E402

HELD_OUT = {
    "mobilenet_v3_train": ("tests/data/device/zoo/tv_mobilenet_v3_train.aten.pt2", "BatchNorm (training), 34 layers"),
    "efficientnet_train": ("tests/data/device/zoo/tv_efficientnet_train.aten.pt2", "BatchNorm (training)"),
    "resnet_train": ("tests/data/device/zoo/timm_resnet_train.aten.pt2", "BatchNorm (training), timm"),
    "llama_static_cache": ("tests/data/device/zoo/hf_llama_static_cache.aten.pt2", "transformers static cache"),
    "multi_prefill_decode": ("tests/data/device/zoo/multi_prefill_decode_reset.aten.pt2", "cache reset"),
    "initial_state": ("tests/data/device/state/initial_state.aten.pt2", "buffers with initial values"),
    "bn_train": ("tests/data/device/state/bn_train.aten.pt2", "BatchNorm (training)"),
    "diff_kv": ("tests/data/device/state/diff_kv.aten.pt2", "KV cache"),
    "etcache_bounded": ("tests/data/device/state/etcache_bounded_static.aten.pt2", "ExecuTorch-style cache"),
    "triton_op": ("tests/data/device/soundness/triton_op.aten.pt2", "Triton cache (triton_op)"),
    "triton_wrap": ("tests/data/device/soundness/triton_wrap.aten.pt2", "Triton cache (wrap_triton)"),
    "unknown_mutation": ("tests/data/device/customops/unknown_mutation.aten.pt2", "custom op, unknown"),
    "define_list_inplace": ("tests/data/device/customops/define_list_inplace.aten.pt2", "custom op, list"),
    "view_family_write": ("tests/data/device/subgraphs/view_family_write.aten.pt2", "writes through views"),
    "user_input_write": ("tests/data/device/subgraphs/user_input_write.aten.pt2", "user-input mutation"),
}

if __name__ == "__main__":
    make_repairs.CLEAN = HELD_OUT
    sys.exit(make_repairs.main())
