#!/usr/bin/env python3
"""Device check (PyTorch 2.11): PyTorch loads every program `pt2lint lower` wrote from the
custom-op TRAINING programs (tests/customops/lowered/*.lowered.pt2, made with
`pt2lint lower tests/data/device/customops/CASE.pt2 -o ... --op-schemas .../schemas.txt`),
validates it, and runs it for two steps against the eager model, comparing outputs and state.
The eager models are the classes of tests/data/device/customops/export_customops.py, built as
that script built them; the custom ops come from tests/data/device/customops_lib.py.

    python3 tests/customops/run_lowered.py      # writes $OUT/run_lowered.json; exit 1 on FAIL"""
import ast
import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
DEVICE = os.path.join(HERE, "..", "data", "device")
sys.path.insert(0, DEVICE)
from common import judge, low_entropy_  # noqa: E402
import customops_lib  # noqa: E402,F401  (defines the ops)


def eager_classes():
    """The nn.Module classes of export_customops.py, without running its exports."""
    path = os.path.join(DEVICE, "customops", "export_customops.py")
    tree = ast.parse(open(path).read())
    namespace = {"torch": torch, "nn": torch.nn, "ops": torch.ops.pt2lint_test, "lib": torch.ops.pt2lint_lib}
    classes = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    exec(compile(ast.Module(body=classes, type_ignores=[]), path, "exec"), namespace)
    return {node.name: namespace[node.name] for node in classes}


CASES = {  # case -> (class, example inputs of one step)
    "ema_buffer": ("EmaBuffer", lambda i: (torch.randn(3, 4),)),
    "two_caches": ("TwoCaches", lambda i: (torch.randn(1, 1, 4), torch.tensor([i]))),
    "writes_user_input": ("WritesUserInput", lambda i: (torch.randn(3, 4), torch.randn(3, 4))),
    "unknown_mutation": ("UnknownMutation", lambda i: (torch.randn(3, 4),)),
    "define_inplace": ("DefinedInPlace", lambda i: (torch.randn(3, 4),)),
    "define_list_inplace": ("DefinedListInPlace", lambda i: (torch.randn(3, 4),)),
}


def main():
    classes = eager_classes()
    results = {}
    for case, (cls, make_inputs) in CASES.items():
        path = os.path.join(HERE, "lowered", f"{case}.lowered.pt2")
        torch.manual_seed(0)
        eager = low_entropy_(classes[cls]())
        torch.manual_seed(1)
        steps = [(make_inputs(i), {}) for i in range(2)]
        record = judge(path, eager, steps)
        ep = torch.export.load(path) if record.get("torch_load") == "ok" else None
        if ep is not None:
            record["auto_functionalized_v2_nodes"] = sum(
                1 for n in ep.graph.nodes if "auto_functionalized_v2" in str(n.target))
            record["mutated_buffers"] = sorted(ep.graph_signature.buffers_to_mutate.values())
            record["mutated_user_inputs"] = sorted(ep.graph_signature.user_inputs_to_mutate.values())
        ok = all(record.get(k) == "ok" for k in ("torch_load", "torch_validate", "torch_run")) and \
            record.get("same_as_eager") is True
        record["verdict"] = "PASS" if ok else "FAIL"
        results[case] = record
        print(f"{record['verdict']} {case}: {json.dumps(record)}", flush=True)
    out = os.environ.get("OUT")
    if out:
        with open(os.path.join(out, "run_lowered.json"), "w") as f:
            json.dump({"torch": torch.__version__, "results": results}, f, indent=1)
    failed = [c for c, r in results.items() if r["verdict"] != "PASS"]
    print(f"lowered custom-op programs: {len(results) - len(failed)}/{len(results)} PASS",
          "" if not failed else f"(FAIL: {', '.join(failed)})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
