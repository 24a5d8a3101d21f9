#!/usr/bin/env python3
"""Contract goldens: run `pt2lint diff BEFORE AFTER --format json` on pairs of programs and
compare the findings and the exit status.

Usage: run_diff_golden.py PT2LINT PATH [PATH ...]
Each PATH is a folder searched recursively, or one file of a pair. A pair is
`CASE.before.textproto` (the original program) and `CASE.after.textproto` (its lowering), side
by side. The expectations are comment lines of the `.after.textproto`, with the syntax of
run_golden.py (whose parsing this reuses): `# expect: SEVERITY RULE LOCATION`, optionally
followed by pins `{{TEXT}}` of the finding's text, `# expect: none` (the default), `# ignore-rules: NAME, ...`. LOCATION is as in run_golden.py; diff's findings
locate a write-back at output_specs[i], a lost or undecidable state at state:FQN, a user input
at input_specs[i] (i counts user inputs), and the other user-output and program findings at `-`.
`# extend-select: NAME, ...` turns on diff's opt-in rules (literal-changed, metadata-lost), as
`pt2lint diff --extend-select` does; `# args:` is refused. The `.before.textproto` must hold no
`# expect:` line (it would be silently ignored).

The exit status is checked too, as `pt2lint diff` promises it (README, "Exit codes"): 1 when
an expected finding is an error, else 3 when one is of write-back-undecidable (PT414), else 0
(the opt-in warnings and notes do not fail a diff). A file whose ignored rules make that unknowable says it with
`# expect-exit: N`.
Fails (exit 1) on any difference, printing every one first.
"""
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the goldens
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_golden  # noqa: E402

BEFORE, AFTER = ".before.textproto", ".after.textproto"
EXPECT_EXIT = "# expect-exit:"
UNDECIDABLE = {"PT414", "write-back-undecidable"}


def expected_exit(path, expected):
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.strip().startswith(EXPECT_EXIT):
                return int(line.strip()[len(EXPECT_EXIT):])
    if any(severity == "error" for severity, _, _ in expected):
        return 1
    return 3 if {rule for _, rule, _ in expected} & UNDECIDABLE else 0


def check_pair(tool, after):
    before = after[:-len(AFTER)] + BEFORE
    if not os.path.exists(before):
        return [f"error      no {os.path.basename(before)} beside it"]
    if run_golden.read_expectations(before)[0]:
        return [f"error      {os.path.basename(before)} holds '# expect:' lines; they belong in the "
                f"{AFTER} file"]
    pins = []
    expected, ignored, extend = run_golden.read_expectations(after, pins)
    if any(not isinstance(rule, str) for rule in extend):
        return ["error      '# args:' has no meaning for diff"]
    if ignored and not any(line.startswith(EXPECT_EXIT) for line in open(after, encoding="utf-8")):
        return ["error      '# ignore-rules:' needs '# expect-exit: N' (the exit status counts every rule)"]
    select = ["--extend-select", ",".join(extend)] if extend else []
    run = subprocess.run([tool, "diff", "--format", "json", *select, before, after], capture_output=True, timeout=60)
    found, aliases = run_golden.report_findings(run, ignored)
    problems = run_golden.compare(expected, found, aliases, pins)
    want = expected_exit(after, expected)
    if run.returncode != want:
        problems.append(f"exit       {run.returncode}, expected {want}")
    return problems


def golden_pairs(paths):
    for path in paths:
        if os.path.isfile(path):
            if path.endswith(BEFORE):
                path = path[:-len(BEFORE)] + AFTER
            yield path
            continue
        for folder, _, names in sorted(os.walk(path)):
            for name in sorted(names):
                if name.endswith(AFTER):
                    yield os.path.join(folder, name)
                elif name.endswith(BEFORE) and not os.path.exists(
                        os.path.join(folder, name[:-len(BEFORE)] + AFTER)):
                    yield os.path.join(folder, name[:-len(BEFORE)] + AFTER)  # reported as missing


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    tool, paths = argv[1], argv[2:]
    pairs = list(dict.fromkeys(golden_pairs(paths)))
    if not pairs:
        print(f"no golden pairs under {' '.join(paths)}", file=sys.stderr)
        return 1

    def check(after):
        if not os.path.exists(after):
            return [f"error      no {os.path.basename(after)} beside its {BEFORE}"]
        return check_pair(tool, after)

    return run_golden.run_all(pairs, check, lambda after: after[:-len(AFTER)], "pairs")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
