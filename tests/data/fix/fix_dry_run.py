#!/usr/bin/env python3
"""`fix --dry-run` reports exactly what a real run would write or refuse (issue 23): for each
program, the dry run's exit code equals the real run's, the dry run writes nothing, and a dry run
that refuses says "nothing would be written" where the real run's staging check refused.

    fix_dry_run.py PT2LINT WORK_DIR [--against ORIGINAL] FILE...
"""
import os
import subprocess
import sys


def main():
    pt2lint, work, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    against = []
    if args and args[0] == "--against":
        against, args = ["--against", args[1]], args[2:]
    os.makedirs(work, exist_ok=True)
    failures = []
    for path in args:
        out = os.path.join(work, os.path.basename(path) + ".fixed" + os.path.splitext(path)[1])
        if os.path.exists(out):
            os.remove(out)
        dry = subprocess.run([pt2lint, "fix", path, "--dry-run"] + against, capture_output=True, text=True)
        if os.path.exists(out):
            failures.append(f"{path}: --dry-run wrote {out}")
        real = subprocess.run([pt2lint, "fix", path, "-o", out] + against, capture_output=True, text=True)
        if dry.returncode != real.returncode:
            failures.append(f"{path}: --dry-run exits {dry.returncode}, the real run {real.returncode}: "
                            f"{dry.stderr.strip()[-200:]} | {real.stderr.strip()[-200:]}")
        if "nothing was written" in real.stderr and "nothing would be written" not in dry.stderr:
            failures.append(f"{path}: the real run's staging check refused, the dry run did not say so")
        print(f"{path}: dry run {dry.returncode}, real run {real.returncode}")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
