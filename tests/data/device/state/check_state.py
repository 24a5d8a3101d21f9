#!/usr/bin/env python3
"""pt2lint on the programs of this folder (issue 27's checks), against labels.json.

usage: check_state.py PT2LINT [FOLDER]

1. `check`, default rules: each file's errors and warnings are exactly the rules its label
   expects (a clean file: none), output-aliases-state aside.
2. `contract --format json`: pkg_reader_only says prefill writes `cache` and score only reads
   it; initial_state (both dialects) says count and cache depend on their initial values and
   scratch is fully overwritten before any read.
3. `check --verbose`: the cache ranges of transformers' static cache decoders are decided (no
   "undecidable" line).
4. `diff diff_kv.aten.pt2 diff_kv__folded_buffer_read.aten.pt2`: written-state-became-constant.
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
out = run("check", "--no-config", "--format", "json", HERE)
report = json.loads(out.stdout)
found = {os.path.basename(f["path"]): {x["name"] for x in f["findings"] if x["severity"] in ("error", "warning")}
         for f in report["files"]}
for row in labels:
    got = found.get(row["file"])
    if got is None:
        problems.append(f"{row['file']}: not checked")
        continue
    if got - ALLOWED != set(row["expect"]):
        problems.append(f"{row['file']}: expected {sorted(row['expect'])}, got {sorted(got)}")


def contract(name):
    return json.loads(run("contract", "--format", "json", os.path.join(HERE, name)).stdout)


shared = contract("pkg_reader_only.pt2").get("shared_state", [])
if {(s["target"], tuple(s["written_by"]), tuple(s["only_read_by"])) for s in shared} != {("cache", ("prefill",), ("score",))}:
    problems.append(f"pkg_reader_only.pt2: contract shared_state is {shared}")
for name in ("initial_state.pt2", "initial_state.aten.pt2"):
    writes = {w["target"]: w.get("initial_value") for w in contract(name)["programs"][0]["writes"]}
    if writes != {"count": "depends", "scratch": "overwritten", "cache": "depends"}:
        problems.append(f"{name}: contract initial values {writes}")

# transformers' static cache (tests/data/device/seedbugs/hf_static_decoder.py) writes at
# arange(seq): the range is decided, in both shapes, and in bounds.
for name in ("hf_static_cache_static.pt2", "hf_static_cache_dynamic.pt2"):
    verbose = run("check", "--no-config", "--verbose", os.path.join(HERE, name)).stdout
    if "cache" in verbose and "undecidable" in verbose:
        problems.append(f"{name}: a cache range is undecidable: {verbose[-600:]}")

diff = run("diff", "--format", "json", os.path.join(HERE, "diff_kv.aten.pt2"),
           os.path.join(HERE, "diff_kv__folded_buffer_read.aten.pt2"))
rules = sorted({x["name"] for f in json.loads(diff.stdout)["files"] for x in f["findings"]}) if diff.stdout else []
if diff.returncode != 1 or rules != ["written-state-became-constant"]:
    problems.append(f"diff of the folded buffer read: exit {diff.returncode}, rules {rules}: {diff.stderr[-300:]}")

for p in problems:
    print(p)
print(f"{len(labels)} files; {len(problems)} problems")
sys.exit(1 if problems else 0)
