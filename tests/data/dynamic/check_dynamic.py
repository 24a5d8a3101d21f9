#!/usr/bin/env python3
"""Real programs with dynamic shapes (exported by export_dynamic.py with PyTorch 2.11; the
corpus has only static shapes): both dialects are clean, their effective mutation sets agree,
`diff` finds the contract kept, and `lower` gives a clean program with the same contract.

usage: check_dynamic.py PT2LINT DATA_DIR WORK_DIR"""
import json
import os
import subprocess
import sys


def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=60)


def mutations(pt2lint, path):
    result = run(pt2lint, "check", "--format", "json", path)
    report = json.loads(result.stdout)
    findings = report["files"][0]["findings"]
    programs = report["files"][0]["programs"]
    return result.returncode, findings, sorted((m["kind"], m["target"]) for p in programs
                                               for m in p["mutations"])


def main():
    pt2lint, data, work = sys.argv[1:4]
    training = os.path.join(data, "dyn_cache.pt2")
    aten = os.path.join(data, "dyn_cache.aten.pt2")
    lowered = os.path.join(work, "dyn_cache.lowered.pt2")
    os.makedirs(work, exist_ok=True)
    failures = []
    sets = {}
    for path in (training, aten):
        code, findings, muts = mutations(pt2lint, path)
        if code != 0 or findings:
            failures.append(f"{path}: exit {code}, findings {[f['name'] for f in findings]}")
        sets[path] = muts
    if sets[training] != sets[aten] or sets[training] != [("buffer", "cache"), ("buffer", "steps")]:
        failures.append(f"mutation sets differ: {sets}")
    if run(pt2lint, "diff", training, aten).returncode != 0:
        failures.append("diff TRAINING ATEN reports a broken promise")
    if run(pt2lint, "lower", training, "-o", lowered).returncode != 0:
        failures.append("lower failed")
    elif run(pt2lint, "check", lowered).returncode != 0:
        failures.append("the lowered program is not clean")
    elif run(pt2lint, "diff", aten, lowered).returncode != 0:
        failures.append("the lowered program breaks the contract of PyTorch's own ATEN program")
    for failure in failures:
        print("FAIL:", failure)
    print("dynamic-shape programs:", "FAILED" if failures else "ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
