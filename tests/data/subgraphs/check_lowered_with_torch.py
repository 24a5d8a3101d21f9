#!/usr/bin/env python3
"""On a machine with PyTorch 2.11: loads every program `pt2lint lower` wrote for the device
subgraph corpus (tests/data/subgraphs/lowered/NAME.lowered.pt2, built from
tests/data/device/subgraphs/NAME.pt2) and runs it against eager PyTorch for two steps.

    python3 tests/data/subgraphs/check_lowered_with_torch.py      (writes $OUT/ if set)

The eager models and their two steps of inputs are the ones the export script defines
(tests/data/device/subgraphs/export_subgraphs.py, CASES): its definitions are executed, its
export loop is not. Each lowered file is judged by tests/data/device/common.py's judge(), the
same judge the exported files got: torch.export.load, validate(), ep.module() run on each
step, outputs and every buffer compared with eager. Prints one line per file and a PASS/FAIL
summary; exits 1 on any failure.
"""
import json
import os
import sys
import tempfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
DEVICE = os.path.join(REPO, "tests", "data", "device")
EXPORT_SCRIPT = os.path.join(DEVICE, "subgraphs", "export_subgraphs.py")
LOWERED = os.path.join(HERE, "lowered")


def load_cases():
    """CASES of the export script: (name, model factory, steps, dynamic shapes)."""
    sys.path.insert(0, DEVICE)
    source = open(EXPORT_SCRIPT).read()
    definitions = source.split("\nfor name, make, steps, dyn in CASES:")[0]
    sys.argv = [EXPORT_SCRIPT, tempfile.mkdtemp()]  # the script's Labels(OUT) folder, unused
    namespace = {"__file__": EXPORT_SCRIPT, "__name__": "export_subgraphs_definitions"}
    exec(compile(definitions, EXPORT_SCRIPT, "exec"), namespace)
    return namespace["CASES"]


def main():
    cases = load_cases()
    import common  # noqa: E402  (tests/data/device/common.py, on the path after load_cases)

    print(f"torch {torch.__version__}")
    records, failed = [], 0
    for name, make, steps, _ in cases:
        path = os.path.join(LOWERED, f"{name}.lowered.pt2")
        if not os.path.exists(path):
            failed += 1
            print(f"FAIL {name}: {path} missing")
            records.append({"file": os.path.basename(path), "missing": True})
            continue
        torch.manual_seed(0)
        model = common.low_entropy_(make())
        rec = common.judge(path, model, steps)
        try:
            ep = torch.export.load(path)
            rec["verifiers"] = [v.dialect for v in ep.verifiers]
            rec["mutation_outputs"] = sum(1 for s in ep.graph_signature.output_specs if s.kind.name.endswith("MUTATION"))
        except Exception as e:  # judge() already recorded the load failure
            rec["verifiers"] = f"{type(e).__name__}"
        rec["file"] = os.path.basename(path)
        records.append(rec)
        ok = (rec["torch_load"] == "ok" and rec["torch_validate"] == "ok" and rec["torch_run"] == "ok"
              and rec["same_as_eager"] is True and rec.get("verifiers") == ["ATEN"])
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {rec['file']}: load {rec['torch_load']}, validate {rec['torch_validate']}, "
              f"run {rec['torch_run']}, {len(steps)} steps same as eager: {rec['same_as_eager']}, "
              f"verifiers {rec.get('verifiers')}, {rec.get('mutation_outputs')} mutation output(s)")
    out = os.environ.get("OUT")
    if out:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "subgraphs_lowered_torch.json"), "w") as f:
            json.dump(records, f, indent=1)
    print(f"{'PASS' if not failed else 'FAIL'}: {len(cases) - failed}/{len(cases)} lowered programs load, "
          f"validate and match eager for two steps")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
