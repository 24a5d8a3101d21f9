#!/usr/bin/env python3
"""Acceptance of `pt2lint fix` (docs/fix.md) over every defective program of the corpus.

For each defective file (labels.jsonl + extra_labels.jsonl) it runs `pt2lint fix FILE -o OUT`:
- repaired: OUT must check clean, `pt2lint diff CLEAN OUT` must exit 0, and every program JSON
  of OUT must equal the clean source's byte for byte (`diff CLEAN.json OUT.json` exits 0);
- refused: fix must exit 1, write nothing, and say why (ambiguous / out of reach).
Each defect kind has an expected outcome (EXPECTED); a kind that does worse than expected, or a
repair that is not exactly the clean program, fails the test. Prints the table of docs/fix.md.
Usage: fix_acceptance.py PT2LINT CORPUS WORKDIR [--markdown]   (exit 77 when CORPUS is absent)
"""
import collections
import json
import os
import subprocess
import sys
import zipfile

# What `pt2lint fix` must achieve per defect kind: "repaired" for every file of the kind,
# "refused" for every file, or "mixed" (each file either, and the table says which).
EXPECTED = {
    "swap_same_shape": "repaired", "swap_diff_shape": "repaired",
    "user_output_as_mutation": "repaired", "duplicate_target": "repaired",
    "mutation_after_output": "repaired", "specs_misaligned": "repaired",
    "target_lifted_name": "repaired", "target_missing": "repaired",
    "target_is_parameter": "repaired", "user_input_mutation_bad": "repaired",
    "dropped_mutation": "repaired", "mutation_value_undefined": "repaired",
    "placeholder_renamed": "mixed", "buffer_as_parameter": "repaired",
    "extra_user_output": "mixed",
    "input_spec_dropped": "mixed", "missing_weight": "refused", "schema_major": "refused",
    "truncated": "refused", "wrong_type": "refused", "unknown_kind": "refused",
    "upstream_constant_write": "refused",
}


def program_jsons(path):
    with zipfile.ZipFile(path) as z:
        out = {}
        for n in z.namelist():
            if n.endswith(".json"):
                data = z.read(n)
                if b'"graph_module"' in data and b'"signature"' in data:
                    out[n] = data
        return out


def clean_source(corpus, label):
    base = label.get("base")
    if not base or label["file"].startswith("base/"):
        return None
    rel = base + ".pt2" if "/" in base else os.path.join("base", base + ".pt2")
    if label["file"].startswith("corrupt/legacy__"):
        rel = os.path.join("legacy", base.split("/")[-1] + ".pt2")
    path = os.path.join(corpus, rel)
    return path if os.path.exists(path) else None


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


def check_one(pt2lint, corpus, label, work):
    src = os.path.join(corpus, label["file"])
    out = os.path.join(work, os.path.basename(label["file"]))
    if os.path.exists(out):
        os.remove(out)
    fix = run([pt2lint, "fix", src, "-o", out])
    lines = fix.stderr.strip().splitlines()
    reason = next((l for l in lines if l.startswith("pt2lint: error:")), lines[-1] if lines else "")
    if fix.returncode != 0:
        if os.path.exists(out):
            return "bad", f"exit {fix.returncode} but wrote {out}"
        if fix.returncode != 1 or not ("ambiguous" in fix.stderr or "out of reach" in fix.stderr):
            return "bad", f"exit {fix.returncode} without a reason: {fix.stderr.strip()[:300]}"
        return "refused", reason
    clean = clean_source(corpus, label)
    if clean is None:
        return "bad", "repaired, but the label names no clean source to compare with"
    check = run([pt2lint, "check", out, "--format", "json"])
    if check.returncode != 0:
        return "bad", f"repaired file does not check clean: {check.stdout[:400]}"
    contract = run([pt2lint, "diff", clean, out])
    if contract.returncode != 0:
        return "bad", f"pt2lint diff CLEAN REPAIRED exits {contract.returncode}: {contract.stdout[:400]}"
    want, got = program_jsons(clean), program_jsons(out)
    if set(want) != set(got):
        return "bad", f"program members differ: {sorted(want)} vs {sorted(got)}"
    for name in want:
        a = os.path.join(work, "clean.json")
        b = os.path.join(work, "repaired.json")
        open(a, "wb").write(want[name])
        open(b, "wb").write(got[name])
        if run(["diff", a, b]).returncode != 0:
            return "bad", f"diff CLEAN REPAIRED: {name} differs from the clean source"
    return "repaired", "identical to " + os.path.relpath(clean, corpus)


def main():
    pt2lint, corpus, work = sys.argv[1:4]
    markdown = "--markdown" in sys.argv
    if not os.path.isdir(corpus):
        print(f"corpus not found at {corpus}; skipping")
        return 77
    os.makedirs(work, exist_ok=True)
    labels = []
    for name in ("labels.jsonl", "extra_labels.jsonl"):
        with open(os.path.join(corpus, name)) as f:
            labels += [json.loads(line) for line in f if line.strip()]
    table = collections.defaultdict(collections.Counter)
    failures = []
    for label in labels:
        kind = label.get("corruption")
        if not kind:
            continue
        outcome, why = check_one(pt2lint, corpus, label, work)
        table[kind][outcome] += 1
        expected = EXPECTED.get(kind, "mixed")
        if outcome == "bad" or (expected != "mixed" and outcome != expected):
            failures.append(f"{label['file']}: {outcome} (expected {expected}): {why}")
        if not markdown:
            print(f"{outcome:9} {label['file']}: {why}")
    if markdown:
        print("| defect kind | files | repaired | refused (ambiguous or out of reach) |")
        print("|---|---|---|---|")
    total = collections.Counter()
    for kind in sorted(table):
        c = table[kind]
        total.update(c)
        if markdown:
            print(f"| `{kind}` | {sum(c.values())} | {c['repaired']} | {c['refused']} |")
    print(f"total: {sum(total.values())} defective, {total['repaired']} repaired, "
          f"{total['refused']} refused, {total['bad']} bad")
    for failure in failures:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
