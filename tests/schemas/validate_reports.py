#!/usr/bin/env python3
"""Runs every report format over the whole corpus (base/ and corrupt/) and validates each
output (see report_checks.py). Exits 77 (ctest SKIP_RETURN_CODE) when the corpus is absent.

usage: validate_reports.py PT2LINT CORPUS_DIR WORK_DIR"""
import json
import os
import subprocess
import sys

import report_checks

CHECKS = {"sarif": report_checks.check_sarif, "rdjson": report_checks.check_rdjson,
          "gitlab": report_checks.check_gitlab, "junit": report_checks.check_junit,
          "github": report_checks.check_github}


def main():
    pt2lint, corpus, work = sys.argv[1:4]
    folders = [os.path.join(corpus, name) for name in ("base", "corrupt")]
    if not all(os.path.isdir(f) for f in folders):
        print(f"SKIP: corpus not found under {corpus} (needs base/ and corrupt/)")
        return 77
    os.makedirs(work, exist_ok=True)
    outputs = {}
    for fmt in ["json", "markdown", *CHECKS]:
        path = os.path.join(work, "corpus." + fmt)
        run = subprocess.run([pt2lint, "check", *folders, "--format", fmt, "-o", path, "--jobs", "2"],
                             stderr=subprocess.PIPE, text=True)
        if run.returncode not in (0, 1):
            print(f"{fmt}: pt2lint exited {run.returncode}: {run.stderr}")
            return 1
        with open(path) as f:
            outputs[fmt] = f.read()
    findings = sum(len(f["findings"]) for f in json.loads(outputs["json"])["files"])
    failed = False
    for fmt, check in CHECKS.items():
        problems, count = check(outputs[fmt])
        if fmt != "junit" and count != findings:
            problems.append(f"{count} entries for {findings} findings")
        for problem in problems[:20]:
            print(f"{fmt}: {problem}")
        failed |= bool(problems)
        print(f"{fmt}: {count} entries, {'INVALID' if problems else 'valid'}")
    if "## pt2lint" not in outputs["markdown"]:
        print("markdown: no summary heading")
        failed = True
    print(f"SARIF validated against {os.path.basename(report_checks.SARIF_SCHEMA)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
