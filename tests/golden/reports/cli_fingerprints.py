#!/usr/bin/env python3
"""SARIF fingerprints over the whole corpus are identical across two runs and across
--jobs 1 and --jobs 2, and every result has one. Exits 77 when the corpus is absent.

usage: cli_fingerprints.py PT2LINT CORPUS_DIR"""
import json
import os
import subprocess
import sys


def fingerprints(pt2lint, folders, jobs):
    run = subprocess.run([pt2lint, "check", *folders, "--format", "sarif", "--jobs", str(jobs)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if run.returncode not in (0, 1):
        sys.exit(f"pt2lint exited {run.returncode}: {run.stderr}")
    results = json.loads(run.stdout)["runs"][0]["results"]
    prints = [r.get("partialFingerprints", {}).get("primaryLocationLineHash") for r in results]
    if not all(prints):
        sys.exit(f"--jobs {jobs}: {prints.count(None)} of {len(prints)} results have no fingerprint")
    return [(r["properties"]["file"], r["ruleId"], p) for r, p in zip(results, prints)]


def main():
    pt2lint, corpus = sys.argv[1:3]
    folders = [os.path.join(corpus, name) for name in ("base", "corrupt")]
    if not all(os.path.isdir(f) for f in folders):
        print(f"SKIP: corpus not found under {corpus}")
        return 77
    first = fingerprints(pt2lint, folders, 1)
    runs = {"second run, --jobs 1": fingerprints(pt2lint, folders, 1),
            "--jobs 2": fingerprints(pt2lint, folders, 2)}
    for name, other in runs.items():
        if other != first:
            diff = next(i for i, (a, b) in enumerate(zip(first, other + [None] * len(first))) if a != b)
            print(f"{name}: fingerprints differ from the first run at result {diff}: {first[diff]} vs {other[diff] if diff < len(other) else None}")
            return 1
    print(f"{len(first)} results, fingerprints stable across runs and --jobs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
