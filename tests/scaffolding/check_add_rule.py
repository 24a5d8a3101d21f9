#!/usr/bin/env python3
"""scripts/add_rule.py on a scratch copy of the tree: a rule of each phase touches only the
files its docstring promises (a rule the engine runs: its .cc, the catalogue line, its docs
page, two goldens and the changelog, plus the generated README table), takes the next free ID,
skips and refuses retired IDs and names, and scripts/rule_table.py --check fails on a reused
retired ID. Also checks that the real catalogue passes rule_table.py --check.

usage: check_add_rule.py REPO_ROOT"""
import os
import shutil
import subprocess
import sys
import tempfile

COPIED = ["scripts", "src/core/rule_catalogue.def", "CHANGELOG.md", "README.md",
          "tests/golden/structural/value-names-unique/good.textproto"]


def run(root, *args):
    return subprocess.run([sys.executable, *args], cwd=root, capture_output=True, text=True)


def touched(root, before):
    now = {}
    for folder, _, files in os.walk(root):
        for name in files:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                now[os.path.relpath(path, root)] = f.read()
    return sorted(p for p in now if before.get(p) != now[p]), now


def snapshot(root):
    return touched(root, {})[1]


def main():
    repo = sys.argv[1]
    problems = []
    real = run(repo, "scripts/rule_table.py", "--check")
    if real.returncode != 0:
        problems.append(f"the real catalogue fails rule_table.py --check: {real.stderr.strip()}")
    with tempfile.TemporaryDirectory() as scratch:
        for path in COPIED:
            src, dst = os.path.join(repo, path), os.path.join(scratch, path)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, dst)
        expected = {
            "structural": ["src/rules/structural/scratch-structural.cc", "docs/rules/scratch-structural.md",
                           "tests/golden/structural/scratch-structural/bad_example.textproto",
                           "tests/golden/structural/scratch-structural/good.textproto"],
            "load": ["docs/rules/scratch-load.md", "tests/golden/files/scratch-load/bad_example.textproto",
                     "tests/golden/files/scratch-load/good.textproto"],
            "contract": ["docs/rules/scratch-contract.md"] + [
                f"tests/golden/contract/scratch-contract/{case}.{side}.textproto"
                for case in ("bad_example", "good") for side in ("after", "before")],
        }
        for phase, files in expected.items():
            before = snapshot(scratch)
            made = run(scratch, "scripts/add_rule.py", phase, f"scratch-{phase}", "--severity", "warning",
                       "--summary", f"a scratch {phase} case happens")
            if made.returncode != 0:
                problems.append(f"add_rule.py {phase}: exit {made.returncode}: {made.stderr.strip()}")
                continue
            changed, _ = touched(scratch, before)
            want = sorted(["src/core/rule_catalogue.def", "CHANGELOG.md", "README.md",
                           *(f.replace("scratch-structural.cc", "scratch_structural.cc") for f in files)])
            if changed != want:
                problems.append(f"add_rule.py {phase} touched {changed}, expected {want}")
            with open(os.path.join(scratch, "CHANGELOG.md")) as f:
                if f"`scratch-{phase}` (warning)" not in f.read():
                    problems.append(f"add_rule.py {phase}: no changelog line")
        catalogue = os.path.join(scratch, "src/core/rule_catalogue.def")
        with open(catalogue) as f:
            text = f.read()
        # A tombstone for the next free structural ID: add_rule.py must skip it, refuse it and its name.
        sys.path.insert(0, os.path.join(scratch, "scripts"))
        from rule_table import read_catalogue  # noqa: E402  the scratch copy's catalogue
        top = max(int(r["id"][2:]) for r in read_catalogue(catalogue) if r["id"].startswith("PT2"))
        retired, after = f"PT{top + 1}", f"PT{top + 2}"
        with open(catalogue, "w") as f:
            f.write(text.replace("// None is retired yet.", f"// retired: {retired} retired-thing: scratch (0.0)"))
        made = run(scratch, "scripts/add_rule.py", "structural", "after-tombstone", "--severity", "note",
                   "--summary", "s")
        if f"{after} after-tombstone" not in made.stdout:
            problems.append(f"add_rule.py did not skip the retired {retired}: {made.stdout[:80]!r} {made.stderr[:200]}")
        for args in (["retired-thing"], ["fresh-name", "--id", retired]):
            refused = run(scratch, "scripts/add_rule.py", "structural", *args, "--severity", "note",
                          "--summary", "s")
            if refused.returncode == 0 or "never reused" not in refused.stderr:
                problems.append(f"add_rule.py accepted a retired {'name' if len(args) == 1 else 'ID'}")
        with open(catalogue) as f:
            text = f.read()
        with open(catalogue, "w") as f:
            f.write(text.replace(f'"{after}", "after-tombstone"', f'"{retired}", "after-tombstone"'))
        if run(scratch, "scripts/rule_table.py", "--check").returncode == 0:
            problems.append("rule_table.py --check accepts a live rule with a retired ID")
    for problem in problems:
        print(problem)
    print("add_rule.py: " + ("FAILED" if problems else "every phase scaffolds its files; tombstones hold"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
