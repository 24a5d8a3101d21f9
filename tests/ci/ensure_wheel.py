#!/usr/bin/env python3
"""The wheel the packaging and CI tests install: python/tools/build_wheel.sh builds it into
OUT_DIR (as `make wheel` does into dist/), unless OUT_DIR already holds one newer than the
binary and every file of the package. A fixture of the tests that need it (ctest -L packaging).

usage: ensure_wheel.py BUILD_DIR OUT_DIR SOURCE_DIR"""
import subprocess
import sys
import time
from pathlib import Path


def newest_input(build, source):
    inputs = [build / "pt2lint", source / "LICENSE"]
    inputs += [p for p in (source / "python").rglob("*")
               if p.is_file() and "tests" not in p.parts and "__pycache__" not in p.parts]
    return max(p.stat().st_mtime for p in inputs)


def main():
    build, out, source = (Path(a).resolve() for a in sys.argv[1:4])
    wheels = sorted(out.glob("pt2lint-*.whl"))
    if len(wheels) == 1 and wheels[0].stat().st_mtime > newest_input(build, source):
        print(f"up to date: {wheels[0]}")
        return 0
    start = time.monotonic()
    done = subprocess.run([str(source / "python" / "tools" / "build_wheel.sh"), str(build), str(out)],
                          capture_output=True, text=True)
    print(done.stdout + done.stderr, end="")
    if done.returncode == 0:
        print(f"built in {time.monotonic() - start:.1f} s")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
