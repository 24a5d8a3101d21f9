#!/usr/bin/env python3
"""Acceptance of state writes through subgraphs and views (docs/dataflow.md) on real programs:
the device-exported subgraph/view corpus (tests/data/device/subgraphs, PyTorch 2.11,
TRAINING + ATEN twins) and the textproto programs
PyTorch cannot save (flex attention, associative_scan).

Usage: check_subgraphs.py PT2LINT DEVICE_DIR TEXTPROTO_DIR WORKDIR [LOWERED_OUT]
  1. every program labelled clean: `check` gives no error and no warning other than
     output-aliases-state;
  2. every TRAINING/ATEN pair: `diff TRAINING ATEN` exits 0;
  3. every TRAINING program (and textproto program): `lower` exits 0 (no refusal), `check` of
     the result is clean as above, `diff TRAINING lowered` exits 0, and `diff lowered ATEN`
     exits 0 (empty) where there is a twin.
  4. what pt2lint cannot lower or decide: `lower` of refused/cond_writes_state.textproto
     exits 1 naming the call and writes nothing; for the unknown higher-order op of the
     subgraph-writes-decidable golden, `check` warns (PT311), `diff` exits 3 (undecidable,
     PT414) and `lower` exits 1 naming the op.
With LOWERED_OUT, the lowered .pt2 files are also copied there (the device check's inputs).
"""
import glob
import json
import os
import shutil
import subprocess
import sys

ALLOWED_WARNINGS = {"PT307"}


def run(pt2lint, *args):
    return subprocess.run([pt2lint, *args], capture_output=True, text=True)


def check_clean(pt2lint, path, failures):
    r = run(pt2lint, "check", "--format", "json", path)
    if r.returncode not in (0, 1) or not r.stdout:
        failures.append(f"check {path}: exit {r.returncode}: {r.stderr}")
        return
    findings = [f for file in json.loads(r.stdout)["files"] for f in file["findings"]]
    bad = [f for f in findings if f["severity"] == "error" or
           (f["severity"] == "warning" and f["rule"] not in ALLOWED_WARNINGS)]
    for f in bad:
        failures.append(f"check {path}: {f['severity']} {f['rule']} {f['name']}: {f['message']}")


def expect_diff_clean(pt2lint, before, after, failures):
    d = run(pt2lint, "diff", before, after)
    if d.returncode != 0:
        failures.append(f"diff {before} {after}: exit {d.returncode}\n{d.stdout}{d.stderr}")


def main():
    pt2lint, device, textprotos, work = sys.argv[1:5]
    lowered_out = sys.argv[5] if len(sys.argv) > 5 else None
    os.makedirs(work, exist_ok=True)
    failures = []
    labels = json.load(open(os.path.join(device, "labels.json")))
    clean = [r for r in labels if not r["expect"]]
    for row in clean:
        check_clean(pt2lint, os.path.join(device, row["file"]), failures)
    trainings = [r["file"] for r in clean if r["dialect"] == "TRAINING"]
    trainings = [os.path.join(device, f) for f in trainings]
    trainings += sorted(glob.glob(os.path.join(textprotos, "*.textproto")))
    for training in trainings:
        name = os.path.basename(training).split(".")[0]
        aten = os.path.join(device, name + ".aten.pt2")
        has_twin = os.path.exists(aten)
        if has_twin:
            expect_diff_clean(pt2lint, training, aten, failures)
        ext = ".pt2" if training.endswith(".pt2") else ".textproto"
        lowered = os.path.join(work, name + ".lowered" + ext)
        fmt = ["--format", "textproto"] if ext == ".textproto" else []
        r = run(pt2lint, "lower", "-q", training, "-o", lowered, *fmt)
        if r.returncode != 0:
            failures.append(f"lower {training}: exit {r.returncode}: {r.stderr}")
            continue
        check_clean(pt2lint, lowered, failures)
        expect_diff_clean(pt2lint, training, lowered, failures)
        if has_twin:
            expect_diff_clean(pt2lint, lowered, aten, failures)
        if lowered_out and ext == ".pt2":
            os.makedirs(lowered_out, exist_ok=True)
            shutil.copy(lowered, os.path.join(lowered_out, os.path.basename(lowered)))
        print(f"ok   {name}: lowered{' and matches its ATEN twin' if has_twin else ''}")
    refused = os.path.join(os.path.dirname(os.path.abspath(__file__)), "refused", "cond_writes_state.textproto")
    out = os.path.join(work, "refused.textproto")
    r = run(pt2lint, "lower", refused, "-o", out, "--format", "textproto")
    if r.returncode != 1 or "node 'cond'" not in r.stderr or os.path.exists(out):
        failures.append(f"lower {refused}: expected a refusal naming node 'cond', got exit {r.returncode}: {r.stderr}")
    unknown = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "golden", "dataflow",
                           "subgraph-writes-decidable", "bad_unknown_op_writes_buffer.textproto")
    c = run(pt2lint, "check", unknown)
    if "PT311" not in c.stdout:
        failures.append(f"check {unknown}: no PT311 warning\n{c.stdout}")
    d = run(pt2lint, "diff", unknown, unknown)
    if d.returncode != 3:
        failures.append(f"diff {unknown} itself: exit {d.returncode}, expected 3 (undecidable)\n{d.stdout}")
    r = run(pt2lint, "lower", unknown, "-o", out, "--format", "textproto")
    if r.returncode != 1 or "my_region" not in r.stderr or os.path.exists(out):
        failures.append(f"lower {unknown}: expected a refusal naming my_region, got exit {r.returncode}: {r.stderr}")
    for failure in failures:
        print("FAIL", failure)
    print(f"{len(clean)} clean programs, {len(trainings)} lowered, {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
