#!/usr/bin/env python3
"""Runs Debian's `mypy --strict` (python3-mypy, `make test-deps`) as a user would on code that
uses pt2lint's API: good_usage.py must pass; typos.py must fail with one error per typo line.
Skipped (77) without mypy.

usage: run_mypy.py SOURCE_DIR WORKDIR"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TYPO_LINES = {4, 5, 6, 8, 9}


def mypy(path, source, work):
    env = dict(os.environ, MYPYPATH=os.path.join(source, "python", "src"))
    return subprocess.run(
        ["/usr/bin/python3", "-m", "mypy", "--strict", "--no-error-summary", "--config-file",
         os.path.join(HERE, "mypy.ini"), "--cache-dir", os.path.join(work, "mypy-cache"), path],
        capture_output=True, text=True, env=env, timeout=300)


def main():
    source, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(work, exist_ok=True)
    probe = subprocess.run(["/usr/bin/python3", "-c", "import mypy"], capture_output=True)
    if probe.returncode != 0:
        print("skipped: no mypy (apt-get install python3-mypy, or `make test-deps`)")
        return 77
    failed = False
    good = mypy(os.path.join(HERE, "good_usage.py"), source, work)
    print(f"good_usage.py: exit {good.returncode}\n{good.stdout}")
    if good.returncode != 0:
        print("FAIL: mypy --strict rejects correct use of the API")
        failed = True
    bad = mypy(os.path.join(HERE, "typos.py"), source, work)
    lines = {int(m) for m in re.findall(r"^[^:\n]*typos\.py:(\d+): error:", bad.stdout, re.M)}
    print(f"typos.py: exit {bad.returncode}, errors on lines {sorted(lines)}\n{bad.stdout}")
    if bad.returncode == 0 or not TYPO_LINES <= lines or lines - TYPO_LINES:
        print(f"FAIL: want an error on exactly lines {sorted(TYPO_LINES)} (pt2lint.chek among them)")
        failed = True
    if "has no attribute \"chek\"" not in bad.stdout:
        print("FAIL: mypy does not name pt2lint.chek")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
