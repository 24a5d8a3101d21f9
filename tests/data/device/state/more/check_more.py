#!/usr/bin/env python3
"""pt2lint on the programs of this folder (export_more.py, judged by PyTorch 2.11), against
labels.json.

usage: check_more.py PT2LINT [FOLDER]

1. `check`, default rules: each file's errors and warnings are exactly the rules its label
   expects (a clean file: none), output-aliases-state aside.
2. `diff ORIGINAL FILE --extend-select literal-changed,metadata-lost` for each label with
   `diff_against`: the rules found are exactly `diff_expect`, and the exit code is 1 when one of
   them is an error, else 0.
Exits 1 and prints every difference when any fails."""
import json
import os
import subprocess
import sys

TOOL = sys.argv[1]
HERE = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(__file__))
ALLOWED = {"output-aliases-state"}
problems = []


def run(*args):
    return subprocess.run([TOOL, *args], capture_output=True, text=True, timeout=300)


labels = [r for r in json.load(open(os.path.join(HERE, "labels.json"))) if "file" in r]
out = run("check", "--no-config", "--format", "json", *[os.path.join(HERE, r["file"]) for r in labels])
report = json.loads(out.stdout)
found = {os.path.basename(f["path"]): {x["name"] for x in f["findings"] if x["severity"] in ("error", "warning")}
         for f in report["files"]}
for row in labels:
    got = found.get(row["file"])
    if got is None:
        problems.append(f"{row['file']}: not checked")
    elif got - ALLOWED != set(row["expect"]):
        problems.append(f"{row['file']}: expected {sorted(row['expect'])}, got {sorted(got)}")

diffs = 0
for row in labels:
    if "diff_against" not in row:
        continue
    diffs += 1
    d = run("diff", "--format", "json", "--extend-select", "literal-changed,metadata-lost",
            os.path.join(HERE, row["diff_against"]), os.path.join(HERE, row["file"]))
    findings = [x for f in json.loads(d.stdout)["files"] for x in f["findings"]] if d.stdout else []
    rules = sorted({x["name"] for x in findings})
    want_exit = 1 if any(x["severity"] == "error" for x in findings) else 0
    if rules != sorted(row["diff_expect"]) or d.returncode != want_exit:
        problems.append(f"diff {row['diff_against']} {row['file']}: exit {d.returncode}, rules {rules}, "
                        f"expected {sorted(row['diff_expect'])}: {d.stderr[-300:]}")

for p in problems:
    print(p)
print(f"{len(labels)} files, {diffs} diffs; {len(problems)} problems")
sys.exit(1 if problems else 0)
