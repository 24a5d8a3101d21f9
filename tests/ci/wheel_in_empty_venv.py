#!/usr/bin/env python3
"""The wheel as a user installs it: a fresh venv (with --system-site-packages, for Debian's
python3-pytest), `pip install --no-index` of the wheel file and nothing else, then, with the
build tree and the source tree out of reach, `pt2lint check` on real archives and
`pytest --pt2lint` on a folder.

Out of reach means: PATH is the venv's bin and /usr/bin:/bin only, and, where a private mount
namespace can be had (root and unshare, as on CI), the build and source trees are covered by
an empty folder and every library of Debian's build-only packages (libfmt, libsimdjson,
libminizip, libzip, libprotobuf, libtorch, libgtest) by /dev/null. Without that namespace the
test says so and relies on PATH and on `ldd` resolving every library inside the wheel.

usage: wheel_in_empty_venv.py WHEEL_DIR BUILD_DIR SOURCE_DIR"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import wheel_env

GLIBC = ("libc.so", "libm.so", "ld-linux", "linux-vdso", "libpthread", "libdl.so", "librt.so")


def main():
    wheel_dir, build_dir, source_dir = map(Path, sys.argv[1:4])
    wheel = wheel_env.wheel_in(wheel_dir)
    demo = source_dir / "tests" / "data" / "demo"
    failures = []
    with tempfile.TemporaryDirectory(prefix="pt2lint-venv-") as tmp:
        work = Path(tmp)
        models = work / "models"
        suite = work / "suite"
        for folder in (models, suite / "exports"):
            folder.mkdir(parents=True)
        shutil.copy(demo / "kv_cache_clean.pt2", models / "clean.pt2")
        shutil.copy(demo / "kv_cache_broken.pt2", models / "broken.pt2")
        shutil.copy(demo / "kv_cache_clean.pt2", suite / "exports" / "clean.pt2")
        shutil.copy(demo / "kv_cache_broken.pt2", suite / "exports" / "broken.pt2")
        venv = wheel_env.make_venv(work, wheel)
        env = wheel_env.clean_env(venv, work)
        prefix = []
        if wheel_env.can_hide():
            empty = work / "empty"
            empty.mkdir()
            hidden = [build_dir.resolve(), source_dir.resolve()]
            prefix = wheel_env.hiding_prefix(hidden, empty)
            print(f"hidden: {', '.join(map(str, hidden))} (empty folders) and "
                  f"{len(wheel_env.hidden_library_files())} build-package libraries (/dev/null)")
        else:
            print("NOTE: no private mount namespace (needs root and unshare): the build tree and "
                  "build packages are kept off PATH only; ldd below checks the libraries")

        def run(*args, cwd=work):
            return subprocess.run(prefix + list(map(str, args)), cwd=cwd, env=env, capture_output=True, text=True)

        which = run("sh", "-c", "command -v pt2lint").stdout.strip()
        if Path(which).parent != venv / "bin":
            failures.append(f"pt2lint on PATH is {which!r}, not the venv's")
        clean = run("pt2lint", "check", "models/clean.pt2")
        broken = run("pt2lint", "check", "models/broken.pt2")
        if clean.returncode != 0:
            failures.append(f"check of a clean archive exited {clean.returncode}: {clean.stdout}{clean.stderr}")
        if broken.returncode != 1 or "[PT204 mutation-target-resolves]" not in broken.stdout:
            failures.append(f"check of a broken archive exited {broken.returncode}: {broken.stdout}{broken.stderr}")
        binary = next(venv.glob("lib/python3*/site-packages/pt2lint/_bin/pt2lint"))
        ldd = run("ldd", binary)
        lib_dir = str(binary.parent / "lib")
        for line in ldd.stdout.splitlines():
            if "not found" in line or ("=>" in line and not any(g in line for g in GLIBC) and lib_dir not in line):
                failures.append(f"ldd: {line.strip()} (not glibc, not inside the wheel)")
        plugin = run("python", "-m", "pytest", "--pt2lint", "-p", "no:cacheprovider", "-q", "exports", cwd=suite)
        if plugin.returncode != 1 or "1 failed, 1 passed" not in plugin.stdout or "PT204" not in plugin.stdout:
            failures.append(f"pytest --pt2lint on a folder exited {plugin.returncode}:\n{plugin.stdout}{plugin.stderr}")
        (suite / "exports" / "broken.pt2").unlink()
        plugin_clean = run("python", "-m", "pytest", "--pt2lint", "-p", "no:cacheprovider", "-q", "exports", cwd=suite)
        if plugin_clean.returncode != 0 or "1 passed" not in plugin_clean.stdout:
            failures.append(f"pytest --pt2lint on a clean folder exited {plugin_clean.returncode}:\n{plugin_clean.stdout}")
    for failure in failures:
        print("FAIL:", failure)
    print(f"{wheel.name} in an empty venv:", "FAILED" if failures else
          "check exits 0 and 1, pytest --pt2lint 1 failed, 1 passed; ldd only glibc and the wheel")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
