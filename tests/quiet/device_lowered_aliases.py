#!/usr/bin/env python3
"""Device check (PyTorch 2.11): ATEN programs that write aliased state, as `pt2lint lower`
wrote them from the zoo's two aliased-state programs (PyTorch's own run_decompositions fails on
those). For each pair (original TRAINING program, lowered ATEN program) it records what every
consumer does, to back the severity of aliased-state-written in both dialects:
  * torch.export.load of the lowered program;
  * 3 steps of ep.module() on both, same inputs: outputs and every buffer equal?
  * whether the names of the one storage still hold one value after the steps;
  * ep.run_decompositions() on the lowered program.
Inputs (in the repo tree): tests/data/device/zoo/{NAME}.pt2 and
tests/quiet/data/{NAME}.lowered.pt2 (`pt2lint lower tests/data/device/zoo/NAME.pt2 -o ...`).
Writes $OUT/lowered_aliases.json; prints one PASS/FAIL line per program and a summary.
Run from the repository root: python3 tests/quiet/device_lowered_aliases.py
"""
import json
import os
import traceback

import torch

NAMES = ("two_names_one_tensor_written", "shared_submodule_written")


def user_inputs(ep, seed):
    gen = torch.Generator().manual_seed(seed)
    args = []
    for spec in ep.graph_signature.input_specs:
        if spec.kind != torch.export.graph_signature.InputKind.USER_INPUT:
            continue
        node = next(n for n in ep.graph.nodes if n.op == "placeholder" and n.name == spec.arg.name)
        val = node.meta["val"]
        args.append(torch.randint(-4, 5, tuple(val.shape), generator=gen).to(val.dtype) / 4)
    return tuple(args)


def run_steps(ep, steps=3):
    module = ep.module()
    outputs = []
    for step in range(steps):
        out = module(*user_inputs(ep, step))
        outputs.append([t.detach().clone() for t in (out if isinstance(out, (tuple, list)) else (out,))])
    state = {name: b.detach().clone() for name, b in module.named_buffers(remove_duplicate=False)}
    return outputs, state


def judge(name):
    row = {"program": name}
    original = torch.export.load(f"tests/data/device/zoo/{name}.pt2")
    try:
        lowered = torch.export.load(f"tests/quiet/data/{name}.lowered.pt2")
        row["load"] = "ok"
    except Exception as error:  # noqa: BLE001 - recorded, not hidden
        row["load"] = f"{type(error).__name__}: {error}"
        return row
    row["dialects"] = [original.verifiers[0].dialect, lowered.verifiers[0].dialect]
    try:
        out_a, state_a = run_steps(original)
        out_b, state_b = run_steps(lowered)
        row["run"] = "ok"
        row["same_outputs"] = all(torch.equal(x, y) for a, b in zip(out_a, out_b) for x, y in zip(a, b))
        row["same_state"] = sorted(state_a) == sorted(state_b) and all(
            torch.equal(state_a[k], state_b[k]) for k in state_a)
        row["state_names"] = sorted(state_b)
        row["state_values"] = {k: v.flatten()[:4].tolist() for k, v in state_b.items()}
    except Exception as error:  # noqa: BLE001
        row["run"] = f"{type(error).__name__}: {error}"
        row["trace"] = traceback.format_exc()[-1500:]
    try:
        lowered.run_decompositions()
        row["run_decompositions"] = "ok"
    except Exception as error:  # noqa: BLE001
        row["run_decompositions"] = f"{type(error).__name__}: {str(error)[:300]}"
    return row


def main():
    print("torch", torch.__version__)
    rows = [judge(name) for name in NAMES]
    out = os.environ.get("OUT", ".")
    with open(os.path.join(out, "lowered_aliases.json"), "w") as f:
        json.dump(rows, f, indent=1)
    failed = 0
    for row in rows:
        ok = row.get("load") == "ok" and row.get("run") == "ok" and row.get("same_outputs") and row.get("same_state")
        failed += not ok
        print(("PASS" if ok else "FAIL"), json.dumps({k: v for k, v in row.items() if k != "trace"}))
    print(f"SUMMARY: {len(rows) - failed}/{len(rows)} lowered aliased-state programs load, run and match "
          f"their TRAINING originals (run_decompositions results recorded above)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
