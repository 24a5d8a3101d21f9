"""Issue 23's device acceptance, the half that needs PyTorch: every program `pt2lint fix` repaired
(make_repairs.py, run on the dev machine) is loaded with torch.export.load and run for three steps
beside its clean source. Every output and every buffer after every step must be equal, under the
state renaming the repaired program records (graph_module.metadata["custom"]
["pt2lint.renamed_buffers"]). A repaired program that differs, or does not load or run, is WRONG.
As controls, the unrepaired defects of the lost and swapped write-back passes are run too: the
comparison must see their wrong buffer.

The inputs of each step are the clean program's own sample inputs (saved in the archive by
torch.export.save), floating-point ones moved by a fixed amount each step, so that state written
from the inputs changes from step to step.

    PYTHONUNBUFFERED=1 python3 judge_repairs.py DIR OUT.json     (DIR holds manifest.json)
"""
import json
import os
import sys
import time
import traceback

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
for extra in (HERE, os.path.join(HERE, ".."), os.path.join(HERE, "..", "..", "device")):
    sys.path.insert(0, extra)
from common import compare, recorded_mapping  # noqa: E402

try:
    import customops_lib  # noqa: F401  (pt2lint_test::*, pt2lint_lib::*)
except Exception as e:  # noqa: BLE001
    print("customops_lib unavailable:", e, flush=True)


@torch.library.custom_op("pt2lint_fix::opaque_scale", mutates_args=())
def opaque_scale(x: torch.Tensor) -> torch.Tensor:  # as tests/data/fix/device/fix_on_device.py
    return x * 0.5


@opaque_scale.register_fake
def _(x):
    return torch.empty_like(x)


CONTROLS = {"swap_two", "dropped_write_back", "dropped_first_write_back", "dropped_all_write_backs"}


def clone(x):
    return x.clone() if isinstance(x, torch.Tensor) else x


def steps_of(clean_path, n=3):
    ep = torch.export.load(clean_path)
    args, kwargs = ep.example_inputs if ep.example_inputs is not None else ((), {})

    def moved(x, s):
        if isinstance(x, torch.Tensor) and x.is_floating_point():
            return x + 0.25 * s
        return clone(x)

    return [(tuple(moved(a, s) for a in args), {k: moved(v, s) for k, v in kwargs.items()}) for s in range(n)]


def trace(path, steps):
    module = torch.export.load(path).module()
    out = []
    for args, kwargs in steps:
        res = module(*[clone(a) for a in args], **{k: clone(v) for k, v in kwargs.items()})
        leaves = [t.detach().clone() for t in torch.utils._pytree.tree_leaves(res) if isinstance(t, torch.Tensor)]
        out.append((leaves, {k: v.detach().clone() for k, v in module.named_buffers()}))
    return out




def main():
    root, out_path = sys.argv[1], sys.argv[2]
    deadline = time.time() + float(os.environ.get("JUDGE_SECONDS", "400"))
    cases = json.load(open(os.path.join(root, "manifest.json")))["cases"]
    results = {"torch": torch.__version__, "cases": [], "clean": {}}
    want_of, steps_for = {}, {}
    for case in cases:
        if time.time() > deadline:
            case["device"] = "not run (time)"
            results["cases"].append(case)
            continue
        clean = os.path.join(root, case["clean"])
        if clean not in want_of:
            try:
                steps_for[clean] = steps_of(clean)
                want_of[clean] = trace(clean, steps_for[clean])
                results["clean"][case["model"]] = "runs 3 steps"
            except Exception as e:  # noqa: BLE001
                want_of[clean] = None
                results["clean"][case["model"]] = f"{type(e).__name__}: {str(e)[:300]}"
                print(traceback.format_exc()[-1200:], flush=True)
        want = want_of[clean]
        if want is None:
            case["device"] = "clean source does not run"
        elif "repaired" in case:
            path = os.path.join(root, case["repaired"])
            mapping = recorded_mapping(path)
            try:
                diffs = compare(trace(path, steps_for[clean]), want, mapping)
                case["device"] = "equal to clean (3 steps)" if not diffs else "WRONG"
                case["device_detail"] = diffs[:4]
            except Exception as e:  # noqa: BLE001
                case["device"] = "WRONG"
                case["device_detail"] = [f"{type(e).__name__}: {str(e)[:300]}"]
            case["mapping"] = mapping
        else:
            case["device"] = "not repaired"
        if case["pass"] in CONTROLS and case["command"] == "fix" and want is not None:
            try:
                diffs = compare(trace(os.path.join(root, case["defect"]), steps_for[clean]), want, {})
                case["control"] = "differs from clean" if diffs else "equal to clean"
                case["control_detail"] = diffs[:2]
            except Exception as e:  # noqa: BLE001
                case["control"] = f"fails: {type(e).__name__}: {str(e)[:160]}"
        print(json.dumps({k: case.get(k) for k in ("model", "pass", "command", "local", "device", "control")}),
              flush=True)
        results["cases"].append(case)
        with open(out_path, "w") as f:
            json.dump(results, f, indent=1)
    verdicts = [c.get("device") for c in results["cases"]]
    results["summary"] = {v: verdicts.count(v) for v in sorted(set(map(str, verdicts)))}
    print("SUMMARY", results["summary"], flush=True)
    with open(out_path, "w") as f:
        json.dump(results, f, indent=1)


main()
