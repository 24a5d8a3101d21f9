#!/usr/bin/env python3
"""The pt2lint side of issue 22's lowering acceptance (run on the development machine):

  - `lower` on every TRAINING program of tests/data/device/soundness, the kernels' and custom
    ops' writes undeclared and declared (schemas.txt: the `triton::` declarations of the
    kernel_writes PyTorch's analysis recorded in labels.json, and the custom ops' schemas as
    `_schema` prints them). Each refusal is recorded with its message (it must name the op); each
    program written goes to OUT/lowered/ for judge_lowering.py to run in PyTorch;
  - `diff TRAINING ATEN` on every clean pair: exit 0 or 3, never 1.

Writes OUT/lowered.json.   usage: make_lowered.py PT2LINT SOUNDNESS_DIR OUT"""
import json
import os
import subprocess
import sys

PT2LINT, DATA, OUT = sys.argv[1:4]
HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMAS = os.path.join(HERE, "schemas.txt")
os.makedirs(os.path.join(OUT, "lowered"), exist_ok=True)
with open(os.path.join(DATA, "labels.json")) as f:
    labels = [r for r in json.load(f) if "file" in r]

plan = {"lowered": [], "refusals": [], "diffs": []}
for label in labels:
    name = label["file"]
    # TRAINING programs, and the defects passes made of them (no dialect recorded, not .aten).
    if not (label.get("dialect") == "TRAINING" or (label.get("clean_source") and "dialect" not in label
                                                     and not name.endswith(".aten.pt2"))):
        continue
    for declared in (False, True):
        stem = name[:-4] + ("__lowered_declared.pt2" if declared else "__lowered.pt2")
        out = os.path.join(OUT, "lowered", stem)
        args = [PT2LINT, "lower", os.path.join(DATA, name), "-o", out] + (["--op-schemas", SCHEMAS] if declared else [])
        r = subprocess.run(args, capture_output=True, text=True, timeout=120)
        rec = {"source": name, "declared": declared, "exit": r.returncode,
               "message": (r.stderr.strip() or r.stdout.strip())[:600]}
        if r.returncode == 0 and os.path.exists(out):
            rec["lowered"] = stem
            rec["note"] = "writes declared" if declared else "nothing declared"
            plan["lowered"].append(rec)
        else:
            rec["names_the_op"] = any(w in rec["message"] for w in ("triton_kernel_wrapper_mutation", "node '", "node `"))
            plan["refusals"].append(rec)
        print(json.dumps(rec)[:300])

pairs = {}
for label in labels:
    # Clean: nothing expected but the warning of an undeclared kernel or op.
    if set(label.get("expect") or ()) <= {"unknown-op-may-write-state"} and label.get("dialect") in ("TRAINING", "ATEN"):
        pairs.setdefault(label["case"], {})[label["dialect"]] = label["file"]
for case, pair in sorted(pairs.items()):
    if len(pair) != 2:
        continue
    for declared in (False, True):
        args = [PT2LINT, "diff", os.path.join(DATA, pair["TRAINING"]), os.path.join(DATA, pair["ATEN"])]
        args += ["--op-schemas", SCHEMAS] if declared else []
        r = subprocess.run(args, capture_output=True, text=True, timeout=120)
        rec = {"training": pair["TRAINING"], "aten": pair["ATEN"], "declared": declared, "exit": r.returncode,
               "never_1": r.returncode in (0, 3), "head": r.stdout.strip().splitlines()[:3]}
        plan["diffs"].append(rec)
        print(json.dumps(rec)[:300])
with open(os.path.join(OUT, "lowered.json"), "w") as f:
    json.dump(plan, f, indent=1)
