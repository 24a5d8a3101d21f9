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
    report = json.loads(outputs["json"])
    findings = sum(len(f["findings"]) for f in report["files"])
    failed = False
    for fmt, check in CHECKS.items():
        problems, count = check(outputs[fmt])
        if fmt == "github":
            expected = report_checks.expected_annotations(report)
            if count != expected:
                problems.append(f"{count} annotations, expected {expected} (one per root cause, 10 per level)")
        elif fmt != "junit" and count != findings:
            problems.append(f"{count} entries for {findings} findings")
        if fmt == "sarif":
            problems += report_checks.sarif_fixes_match(report, outputs[fmt])
        if fmt == "junit":
            problems += report_checks.junit_fails_only_on_errors(report, outputs[fmt])
        for problem in problems[:20]:
            print(f"{fmt}: {problem}")
        failed |= bool(problems)
        print(f"{fmt}: {count} entries, {'INVALID' if problems else 'valid'}")
    problems = report_checks.check_markdown(report, outputs["markdown"])
    for problem in problems[:20]:
        print(f"markdown: {problem}")
    failed |= bool(problems)
    print(f"markdown: {len(outputs['markdown'])} characters (limit 65,536), "
          f"{'INVALID' if problems else 'valid'}")
    print(f"SARIF validated against {os.path.basename(report_checks.SARIF_SCHEMA)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
