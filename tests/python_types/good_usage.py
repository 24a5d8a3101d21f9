"""A user's script that uses pt2lint's API as documented: mypy --strict must accept it."""
from pathlib import Path
from typing import List

import pt2lint
from pt2lint.testing import assert_clean


def error_rules(path: Path) -> List[str]:
    report: pt2lint.Report = pt2lint.check(path, select=["PT2", "PT3"], ignore="PT306", baseline="b.json")
    rules = [finding.rule for finding in report if finding.severity == "error"]
    for finding in report.errors:
        if finding.fix is not None:
            for edit in finding.fix.edits:
                print(edit.op, edit.sequence, edit.safe, edit.proof, edit.to_json())
        if finding.source is not None:
            print(f"{finding.source.file}:{finding.source.line}")
    counts: pt2lint.Counts = report.counts
    print(len(report), report.ok, counts.new_errors, counts.baselined_errors, len(report.baselined))
    return rules


def check_bytes(data: bytes) -> bool:
    try:
        pt2lint.check(data, config=False).raise_for_errors()
    except pt2lint.CheckError as error:
        print(error.findings, error.report.text)
        return False
    except pt2lint.InvalidProgramError:
        return False
    return True


def contract_keys(path: str) -> List[str]:
    lowered: bytes = pt2lint.lower(path, rename_nested=True)
    print(len(lowered))
    diff = pt2lint.diff(path, path, rename={"a.b": "a_b"})
    assert_clean(path)
    return sorted(pt2lint.contract(path)) + [f.rule for f in diff]
