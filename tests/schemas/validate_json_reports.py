#!/usr/bin/env python3
"""Validates `check --format json` and `contract --format json` against the schemas that
docs/schemas/ publishes, on real programs: the demo pair, every tests/data program given, and
the corpus folders when present. Also shows that the schemas can fail: a report with a
required key removed, or a severity misspelled, must be rejected.

usage: validate_json_reports.py PT2LINT REPO_ROOT [CORPUS_DIR]"""
import copy
import glob
import json
import os
import subprocess
import sys

from jsonschema import Draft202012Validator


def load_schema(root, name):
    with open(os.path.join(root, "docs", "schemas", name)) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def run_json(pt2lint, args):
    """The JSON report, or None when pt2lint refused the file with an error on stderr and
    nothing on stdout (`contract` on an archive it cannot read)."""
    run = subprocess.run([pt2lint, *args, "--format", "json"], capture_output=True, text=True)
    if run.returncode not in (0, 1):
        raise RuntimeError(f"pt2lint {' '.join(args)} exited {run.returncode}: {run.stderr[:400]}")
    if not run.stdout and run.returncode == 1 and "error:" in run.stderr:
        return None
    return json.loads(run.stdout)


def problems_of(validator, document, label):
    return [f"{label}: {'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message[:200]}"
            for e in validator.iter_errors(document)]


def main():
    pt2lint, root = sys.argv[1:3]
    corpus = sys.argv[3] if len(sys.argv) > 3 else ""
    report_schema = load_schema(root, "pt2lint-report.schema.json")
    contract_schema = load_schema(root, "pt2lint-contract.schema.json")
    programs = sorted(glob.glob(os.path.join(root, "tests", "data", "**", "*.pt2"), recursive=True))
    folders = [os.path.join(corpus, name) for name in ("base", "corrupt")] if corpus else []
    folders = [f for f in folders if os.path.isdir(f)]
    problems = []

    report = run_json(pt2lint, ["check", *programs, *folders, "--jobs", "2"])
    problems += problems_of(report_schema, report, "check")
    findings = sum(len(f["findings"]) for f in report["files"])

    contracts = refused = 0
    for program in programs:
        contract = run_json(pt2lint, ["contract", program])
        if contract is None:
            refused += 1
            continue
        problems += problems_of(contract_schema, contract, f"contract {os.path.relpath(program, root)}")
        contracts += len(contract["programs"])
    if contracts == 0:
        problems.append("no contract was written: the contract schema went untested")

    # The schemas must be able to fail, or this test proves nothing.
    broken = copy.deepcopy(report)
    del broken["summary"]["errors"]
    if not problems_of(report_schema, broken, "x"):
        problems.append("the report schema accepts a summary without `errors`")
    with_finding = next((f for f in report["files"] if f["findings"]), None)
    if with_finding is None:
        problems.append("no finding in the checked files: the finding schema went untested")
    else:
        broken = copy.deepcopy(report)
        next(f for f in broken["files"] if f["findings"])["findings"][0]["severity"] = "fatal"
        if not problems_of(report_schema, broken, "x"):
            problems.append("the report schema accepts the severity `fatal`")
    # A note's related place (note_locations, additive) names a note by its index.
    located = [x for f in report["files"] for x in f["findings"] if x.get("note_locations")]
    if not located:
        problems.append("no finding with note_locations in the checked files: that key went untested")
    else:
        broken = copy.deepcopy(report)
        next(x for f in broken["files"] for x in f["findings"] if x.get("note_locations"))[
            "note_locations"][0]["note"] = "first"
        if not problems_of(report_schema, broken, "x"):
            problems.append("the report schema accepts a note_locations entry whose note is not an index")
        for x in located:
            for entry in x["note_locations"]:
                if not 0 <= entry["note"] < len(x["notes"]):
                    problems.append(f"note_locations names note {entry['note']} of {len(x['notes'])}")
    # Every repair edit says whether it is safe and what decided it (docs/fix.md).
    edits = [e for f in report["files"] for x in f["findings"] for e in x.get("fix", {}).get("edits", [])]
    if not edits:
        problems.append("no repair edit in the checked files: the edit schema went untested")
    else:
        labels = sorted({(e["safety"], e["proof"]) for e in edits})
        print("edit labels seen (safety, proof): " + ", ".join(f"{s} {p}" for s, p in labels))
        for key, bad in (("safety", "maybe"), ("proof", None)):
            broken = copy.deepcopy(report)
            edit = next(e for f in broken["files"] for x in f["findings"] for e in x.get("fix", {}).get("edits", []))
            if bad is None:
                del edit[key]
            else:
                edit[key] = bad
            if not problems_of(report_schema, broken, "x"):
                problems.append(f"the report schema accepts an edit with {key} {'missing' if bad is None else bad}")

    for problem in problems[:30]:
        print(problem)
    print(f"check: {len(report['files'])} files, {findings} findings; contract: {contracts} programs "
          f"from {len(programs) - refused} files ({refused} unreadable archives refused); "
          f"{'INVALID' if problems else 'valid'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
