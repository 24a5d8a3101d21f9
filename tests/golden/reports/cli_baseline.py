#!/usr/bin/env python3
"""A baseline made on the corpus, then the corpus plus one new broken file: the run fails,
and only on the new file. Also: --update-baseline on its own run passes, stale entries are
listed, and SARIF/JSON mark baselined results. Exits 77 when the corpus is absent.

usage: cli_baseline.py PT2LINT CORPUS_DIR WORK_DIR"""
import json
import os
import shutil
import subprocess
import sys


def check(pt2lint, *args):
    return subprocess.run([pt2lint, "check", *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


def main():
    pt2lint, corpus, work = sys.argv[1:4]
    folders = [os.path.join(corpus, name) for name in ("base", "corrupt")]
    if not all(os.path.isdir(f) for f in folders):
        print(f"SKIP: corpus not found under {corpus}")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    baseline = os.path.join(work, "baseline.json")

    made = check(pt2lint, *folders, "--baseline", baseline, "--update-baseline", "--quiet")
    if made.returncode != 0:
        print(f"--update-baseline run exited {made.returncode}: {made.stderr}")
        return 1
    again = check(pt2lint, *folders, "--baseline", baseline, "--format", "json")
    report = json.loads(again.stdout)
    if again.returncode != 0 or not all(f["baseline"] for x in report["files"] for f in x["findings"]):
        print(f"corpus against its own baseline: exit {again.returncode}, every finding must be baselined")
        return 1

    new_dir = os.path.join(work, "new")
    os.makedirs(new_dir)
    new_file = os.path.join(new_dir, "counter_regressed.pt2")
    shutil.copy(os.path.join(corpus, "corrupt", "counter__input_spec_dropped.pt2"), new_file)
    run = check(pt2lint, *folders, new_dir, "--baseline", baseline, "--format", "sarif")
    results = json.loads(run.stdout)["runs"][0]["results"]
    new = [r for r in results if r.get("baselineState") != "unchanged"]
    new_files = {r["properties"]["file"] for r in new}
    if run.returncode != 1 or not new or new_files != {os.path.normpath(new_file)}:
        print(f"corpus + new file: exit {run.returncode}, new results in {sorted(new_files)}")
        return 1
    if any(r.get("baselineState") not in ("new", "unchanged") for r in results):
        print("every result carries baselineState new or unchanged when a baseline is used")
        return 1

    # An entry whose finding is gone (here: its fingerprint rewritten to match nothing) is
    # listed as stale on stderr.
    with open(baseline) as f:
        data = json.load(f)
    data["findings"][0]["fingerprint"] = "0" * 32 + ":1"
    with open(baseline, "w") as f:
        json.dump(data, f)
    stale = check(pt2lint, *folders, "--baseline", baseline)
    if "no longer match" not in stale.stderr and "no longer matches" not in stale.stderr:
        print(f"a stale entry is not listed: {stale.stderr}")
        return 1
    print(f"baseline: {len(results) - len(new)} baselined results, {len(new)} new ones, all in {new_file}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
