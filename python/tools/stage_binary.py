#!/usr/bin/env python3
"""Copies the pt2lint binary into the package tree with the shared libraries it needs that
are not part of glibc, beside it in _bin/lib with an $ORIGIN rpath (patchelf), and writes
the wheel's platform tag: manylinux_<newest GLIBC_x.y symbol version used>_x86_64.

usage: stage_binary.py BINARY PACKAGE_DIR TAG_FILE"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

# Libraries of glibc itself: every manylinux system has them, so they are never shipped.
GLIBC_LIBRARIES = {
    "linux-vdso.so.1", "ld-linux-x86-64.so.2", "libc.so.6", "libm.so.6", "libpthread.so.0",
    "libdl.so.2", "librt.so.1", "libresolv.so.2", "libutil.so.1", "libanl.so.1", "libmvec.so.1",
}


def needed_libraries(binary: Path):
    """(soname, resolved path) of every shared library the binary loads, transitively."""
    out = subprocess.run(["ldd", str(binary)], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        match = re.match(r"\s*(\S+)\s+=>\s+(\S+)", line)
        if match and match.group(2) != "not":
            yield match.group(1), Path(match.group(2))
        elif "not found" in line:
            sys.exit(f"stage_binary: {binary} needs a library that is not installed: {line.strip()}")


def glibc_floor(files) -> tuple:
    newest = (2, 17)
    for file in files:
        out = subprocess.run(["objdump", "-T", str(file)], check=True, capture_output=True, text=True).stdout
        for major, minor in re.findall(r"GLIBC_(\d+)\.(\d+)", out):
            newest = max(newest, (int(major), int(minor)))
    return newest


def main(binary: str, package_dir: str, tag_file: str) -> None:
    binary, package = Path(binary), Path(package_dir)
    bin_dir, lib_dir = package / "_bin", package / "_bin" / "lib"
    shutil.rmtree(bin_dir, ignore_errors=True)
    lib_dir.mkdir(parents=True)
    staged = bin_dir / "pt2lint"
    shutil.copy2(binary, staged)
    subprocess.run(["strip", "--strip-unneeded", str(staged)], check=True)
    shipped = []
    for soname, path in needed_libraries(binary):
        if soname in GLIBC_LIBRARIES:
            continue
        target = lib_dir / soname
        shutil.copy2(path.resolve(), target)
        target.chmod(0o755)
        subprocess.run(["strip", "--strip-unneeded", str(target)], check=True)
        subprocess.run(["patchelf", "--set-rpath", "$ORIGIN", str(target)], check=True)
        shipped.append(target)
    subprocess.run(["patchelf", "--set-rpath", "$ORIGIN/lib", str(staged)], check=True)
    major, minor = glibc_floor([staged, *shipped])
    Path(tag_file).write_text(f"manylinux_{major}_{minor}_x86_64\n")
    print(f"stage_binary: {staged} with {len(shipped)} shipped librar{'y' if len(shipped) == 1 else 'ies'}"
          f" ({', '.join(p.name for p in shipped) or 'none'}); glibc floor {major}.{minor}")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
