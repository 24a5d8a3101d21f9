#!/usr/bin/env python3
"""The one wheel of a build: python/tools/build_wheel.sh builds it into OUT_DIR, unless OUT_DIR
already holds one newer than the binary and every file of the package. `make wheel` (which
copies it to dist/) and the packaging_wheel fixture of the CI tests (ctest -L packaging)
both call it on BUILD/wheel, so they share the wheel.

usage: ensure_wheel.py BUILD_DIR OUT_DIR SOURCE_DIR"""
import subprocess
import sys
import time
from pathlib import Path


def newest_input(build, source):
    inputs = [build / "pt2lint", source / "LICENSE"]
    inputs += [p for p in (source / "python").rglob("*")
               if p.is_file() and not {"tests", "__pycache__"} & set(p.relative_to(source).parts)]
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
