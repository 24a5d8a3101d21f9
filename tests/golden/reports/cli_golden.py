#!/usr/bin/env python3
"""`pt2lint check counter_broken.pt2 --format F` for every format, compared with cli.F.*
(a real archive with three findings of three rules: errors, a warning, notes and fixes).
The version is normalised to @VERSION@. PT2LINT_UPDATE_GOLDEN=1 rewrites the files.

usage: cli_golden.py PT2LINT"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FORMATS = {"text": ".txt", "json": ".json", "sarif": ".json", "github": ".txt", "junit": ".xml",
           "rdjson": ".json", "gitlab": ".json", "markdown": ".md"}


def normalise(fmt, text):
    text = re.sub(r'("(?:semanticVersion|version)": )"[0-9][^"]*"', r'\1"@VERSION@"', text)
    if fmt == "sarif":
        # The rule descriptions come from every rule's docs page, which the unit golden test
        # (unit.sarif.json) covers; here they would tie this file to every docs edit.
        # The rule table lists every rule of the catalogue; only the rules this file's results
        # name are kept, so a new rule does not change this golden. Each result's ruleIndex
        # is checked against the full table, then renumbered into the kept one.
        log = json.loads(text)
        run = log["runs"][0]
        rules = run["tool"]["driver"]["rules"]
        kept = []
        for result in run["results"]:
            rule = rules[result["ruleIndex"]]
            if rule["id"] != result["ruleId"]:
                raise SystemExit(f"sarif: ruleIndex {result['ruleIndex']} is {rule['id']}, "
                                 f"not the result's {result['ruleId']}")
            if rule not in kept:
                kept.append(rule)
            result["ruleIndex"] = kept.index(rule)
        for rule in kept:
            for key in ("shortDescription", "fullDescription", "help"):
                rule.pop(key, None)
        run["tool"]["driver"]["rules"] = kept
        text = json.dumps(log, indent=2) + "\n"
    return text


def main():
    pt2lint = os.path.abspath(sys.argv[1])
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_STEP_SUMMARY", "NO_COLOR")}
    failed = False
    for fmt, ext in FORMATS.items():
        run = subprocess.run([pt2lint, "check", "counter_broken.pt2", "--format", fmt,
                              "--source-root", "/src"], cwd=HERE, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if run.returncode != 1:
            print(f"{fmt}: expected exit 1 (errors found), got {run.returncode}: {run.stderr}")
            failed = True
            continue
        actual = normalise(fmt, run.stdout)
        golden = os.path.join(HERE, f"cli.{fmt}{ext}")
        if os.environ.get("PT2LINT_UPDATE_GOLDEN"):
            with open(golden, "w") as f:
                f.write(actual)
            continue
        with open(golden) as f:
            expected = f.read()
        if expected != actual:
            print(f"{fmt}: output differs from {golden}:\n{actual}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
