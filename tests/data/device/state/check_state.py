#!/usr/bin/env python3
"""pt2lint on the programs of this folder (issue 27's checks), against labels.json.

usage: check_state.py PT2LINT [FOLDER]

1. `check`, default rules: each file's errors and warnings are exactly the rules its label
   expects (a clean file: none), output-aliases-state aside.
2. `contract --format json`: pkg_reader_only says prefill writes `cache` and score only reads
   it; initial_state (both dialects) says count and cache depend on their initial values and
   scratch is fully overwritten before any read.
3. `check --verbose`: the cache ranges of every transformers static-cache decoder of tests/data
   (here, ../seedbugs, ../zoo; TRAINING index_copy_ and ATEN index_put) are decided (no
   "undecidable" line), and the sliding-window and hybrid caches' ranges are undecidable with
   the tensor named.
4. `diff ORIGINAL FILE --extend-select literal-changed,metadata-lost` for every label with
   `diff_against`: exactly its `diff_expect` rules (a folded buffer: written-state-became-constant,
   reset literals: literal-changed, stripped metadata: metadata-lost).
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
# arange(seq) (TRAINING: index_copy_; ATEN: index_put at [None, None, arange]): the range is
# decided, in both shapes and both dialects, and in bounds.
STATIC = ["hf_static_cache_static.pt2", "hf_static_cache_dynamic.pt2", "../seedbugs/hf_llama_clean.pt2",
          "../seedbugs/hf_llama_clean.aten.pt2", "../zoo/hf_llama_static_cache.pt2",
          "../zoo/hf_llama_static_cache.aten.pt2"]
for name in STATIC:
    verbose = run("check", "--no-config", "--verbose", os.path.join(HERE, name)).stdout
    if "cache" in verbose and "undecidable" in verbose:
        problems.append(f"{name}: a cache range is undecidable: {verbose[-600:]}")
# Sliding-window and hybrid caches write at arange + a position read from cache_position's values:
# undecidable, and --verbose names the tensor.
for name in ("hf_sliding_cache.pt2", "hf_hybrid_cache.pt2"):
    verbose = run("check", "--no-config", "--verbose", os.path.join(HERE, name)).stdout
    if "undecidable: it is written at the positions held by tensor" not in verbose:
        problems.append(f"{name}: no undecidable cache range with its reason: {verbose[-600:]}")

diffs = [r for r in labels if "diff_against" in r]
for row in diffs:
    diff = run("diff", "--format", "json", "--extend-select", "literal-changed,metadata-lost",
               os.path.join(HERE, row["diff_against"]), os.path.join(HERE, row["file"]))
    findings = [x for f in json.loads(diff.stdout)["files"] for x in f["findings"]] if diff.stdout else []
    rules = sorted({x["name"] for x in findings})
    want_exit = 1 if any(x["severity"] == "error" for x in findings) else 0
    if diff.returncode != want_exit or rules != sorted(row["diff_expect"]):
        problems.append(f"diff {row['diff_against']} {row['file']}: exit {diff.returncode}, rules {rules}, "
                        f"expected {sorted(row['diff_expect'])}: {diff.stderr[-300:]}")

for p in problems:
    print(p)
print(f"{len(labels)} files, {len(diffs)} diffs, {len(STATIC)} static caches; {len(problems)} problems")
sys.exit(1 if problems else 0)
