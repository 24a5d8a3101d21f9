#!/usr/bin/env python3
"""Diagnosis goldens: one primary finding per root cause, with the right repair.

Usage: check_diagnosis.py PT2LINT FILE...
Each FILE carries, besides run_golden.py's `# expect:` lines:
  # diagnosis: KIND          the one primary finding's root_cause ("none": no primary at all)
  # edit: OP k=v k=v ...     its fix.edits, in order (keys: spec, to, kind, target, value, from,
                            and what decided it: safety, proof; docs/fix.md)
Checks: exactly one finding has root_cause KIND; every other error finding names it as its
`cause` and appears in its `related` list; its fix.edits are exactly the edits listed; the SARIF
result of the primary lists each grouped finding as a related location; the text report folds
the grouped findings and --verbose shows them.
"""
import json
import subprocess
import sys


def expectations(path):
    kind, edits = None, []
    for line in open(path):
        line = line.strip()
        if line.startswith("# diagnosis:"):
            kind = line.split(":", 1)[1].strip()
        elif line.startswith("# edit:"):
            op, *pairs = line.split(":", 1)[1].split()
            edit = {"op": op}
            for pair in pairs:
                k, v = pair.split("=", 1)
                edit[k] = int(v) if k in ("spec", "to", "input_spec") else v
            edits.append(edit)
    return kind, edits


def check(pt2lint, path):
    kind, want_edits = expectations(path)
    if kind is None:
        return [f"{path}: no `# diagnosis:` line"]
    report = json.loads(subprocess.run([pt2lint, "check", path, "--format", "json"],
                                       capture_output=True, text=True).stdout)
    findings = report["files"][0]["findings"]
    primaries = [i for i, f in enumerate(findings) if "root_cause" in f]
    if kind == "none":
        return [f"{path}: unexpected primary {findings[i]['root_cause']}" for i in primaries]
    if len(primaries) != 1:
        return [f"{path}: {len(primaries)} primary findings, want 1"]
    p = primaries[0]
    primary = findings[p]
    errors = []
    if primary["root_cause"] != kind:
        errors.append(f"{path}: root cause {primary['root_cause']}, want {kind}")
    grouped = [i for i, f in enumerate(findings) if i != p and f["severity"] == "error"]
    for i in grouped:
        if findings[i].get("cause") != p:
            errors.append(f"{path}: finding {i} ({findings[i]['rule']}) is not grouped under {p}")
    if sorted(primary.get("related", [])) != grouped:
        errors.append(f"{path}: related {primary.get('related')}, want {grouped}")
    got = [{k: e[k] for k in ("op", "spec", "to", "kind", "target", "value", "from", "input_spec", "safety", "proof")
            if k in e}
           for e in primary.get("fix", {}).get("edits", [])]
    if got != want_edits:
        errors.append(f"{path}: fix.edits\n  got  {got}\n  want {want_edits}")
    sarif = json.loads(subprocess.run([pt2lint, "check", path, "--format", "sarif"],
                                      capture_output=True, text=True).stdout)
    results = sarif["runs"][0]["results"]
    if len(results) != len(findings):
        errors.append(f"{path}: SARIF has {len(results)} results for {len(findings)} findings")
    # After id 1 (the program): one related location per grouped finding ("[PTxxx name] ..."),
    # then one per note that points at a place (the JSON's note_locations), with the note's text.
    related = [r for r in results[p].get("relatedLocations", []) if r["id"] >= 2]
    groups = [r for r in related if r["message"]["text"].startswith("[PT")]
    if len(groups) != len(grouped):
        errors.append(f"{path}: SARIF primary has {len(groups)} related findings, want {len(grouped)}")
    located = [primary["notes"][n["note"]] for n in primary.get("note_locations", [])]
    if [r["message"]["text"] for r in related if r not in groups] != located:
        errors.append(f"{path}: SARIF primary's note locations are not the JSON's note_locations {located}")
    text = subprocess.run([pt2lint, "check", path], capture_output=True, text=True).stdout
    verbose = subprocess.run([pt2lint, "check", path, "--verbose"], capture_output=True, text=True).stdout
    shown = sum(1 for line in text.splitlines() if " error: " in line)
    if grouped and shown != 1:
        errors.append(f"{path}: text shows {shown} error headlines, want 1 (the others folded)")
    if sum(1 for line in verbose.splitlines() if " error: " in line) != len(grouped) + 1:
        errors.append(f"{path}: --verbose does not unfold every grouped finding")
    return errors


def main():
    pt2lint, paths = sys.argv[1], sys.argv[2:]
    errors = [e for path in paths for e in check(pt2lint, path)]
    for e in errors:
        print("FAIL", e)
    print(f"{len(paths)} diagnosis goldens, {len(errors)} failures")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
