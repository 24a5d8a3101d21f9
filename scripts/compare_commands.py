#!/usr/bin/env python3
"""Behaviour-preserving changes to `lower`, `diff` and `fix`: two binaries, byte for byte.

Runs each command over the program files of tests/ and the corpus with OLD and then NEW, the
same arguments and the same output path, and compares stdout, stderr, the exit code and the
bytes of every file written. Cases: `lower` (to a file, to stdout as textproto with
--rename-nested, with --op-schemas), `fix` (--dry-run, -o, --unsafe-fixes -o, folders),
`diff` (each golden before/after pair, each corrupted corpus program against its clean
source, X against itself, X against OLD's lowering of X, every --format), and usage errors.

Usage: scripts/compare_commands.py OLD_PT2LINT NEW_PT2LINT [CORPUS_DIR] [WORK_DIR]
Prints each differing case and ends with "cases=N differing=M"; exit 1 if M > 0.
"""
import hashlib
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXTENSIONS = (".pt2", ".json", ".textproto")
SKIP = ("/schemas/", "expect", ".sarif", "/golden/reports/")


def program_files(corpus):
    found = []
    for base in (ROOT / "tests", corpus):
        if not base.is_dir():
            continue
        for path in base.rglob("*"):
            text = str(path)
            if (path.is_file() and path.suffix in EXTENSIONS and path.stat().st_size < 20 << 20
                    and not any(s in text for s in SKIP)):
                found.append(path)
    return sorted(found)


def run(binary, args, out_file):
    """stdout, stderr, exit code and the written file's bytes (the file is removed after)."""
    if out_file.exists():
        out_file.unlink()
    try:
        done = subprocess.run([binary, *args], cwd=ROOT, capture_output=True, timeout=60)
        result = (done.stdout, done.stderr, done.returncode)
    except subprocess.TimeoutExpired:
        result = (b"", b"timeout", -1)
    written = out_file.read_bytes() if out_file.exists() else None
    return result + (written,)


def main():
    old, new = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    corpus = pathlib.Path(sys.argv[3] if len(sys.argv) > 3 else ROOT.parent / "shared" / "corpus").resolve()
    work = pathlib.Path(sys.argv[4] if len(sys.argv) > 4 else tempfile.mkdtemp(prefix="compare_commands_"))
    work.mkdir(parents=True, exist_ok=True)
    lowered_dir = work / "lowered"
    lowered_dir.mkdir(exist_ok=True)
    schemas = corpus / "aten_schemas.txt"
    cases = 0
    differing = 0
    lock = threading.Lock()

    def compare(name, args, out_file, keep_old_output=None):
        nonlocal cases, differing
        before = run(old, args, out_file)
        if keep_old_output is not None and before[3] is not None:
            keep_old_output.write_bytes(before[3])
        after = run(new, args, out_file)
        with lock:
            cases += 1
            if before != after:
                differing += 1
                parts = [label for label, a, b in zip(("stdout", "stderr", "exit", "file"), before, after) if a != b]
                print(f"differs ({', '.join(parts)}): {name}: pt2lint {' '.join(map(str, args))}", flush=True)

    def compare_file(path):
        rel = os.path.relpath(path, ROOT)
        key = hashlib.md5(rel.encode()).hexdigest()[:12]
        out = work / f"{key}{path.suffix}"
        none = work / "none"
        lowered = lowered_dir / f"{key}{path.suffix}"
        compare(f"lower {rel}", ["lower", rel, "-o", str(out)], out, keep_old_output=lowered)
        compare(f"lower stdout {rel}", ["lower", rel, "--rename-nested", "--format", "textproto", "-o", "-"], none)
        if schemas.exists():
            compare(f"lower schemas {rel}", ["lower", rel, "-q", "--op-schemas", str(schemas), "-o", str(out)], out)
        compare(f"fix dry {rel}", ["fix", rel, "--dry-run"], none)
        compare(f"fix -o {rel}", ["fix", rel, "-o", str(out)], out)
        compare(f"fix unsafe {rel}", ["fix", rel, "--unsafe-fixes", "-o", str(out)], out)
        compare(f"diff self {rel}", ["diff", rel, rel], none)
        if lowered.exists():
            for fmt in ("text", "json", "html"):
                compare(f"diff lowered {fmt} {rel}", ["diff", rel, str(lowered), "--format", fmt], none)

    # Each file's cases write only files named after it, so files run side by side.
    files = program_files(corpus)
    with ThreadPoolExecutor(max_workers=int(os.environ.get("JOBS", "3"))) as pool:
        list(pool.map(compare_file, files))

    # Golden contract pairs and corrupted corpus programs against their clean sources.
    pairs = []
    for before in sorted((ROOT / "tests" / "golden" / "contract").rglob("*.before.textproto")):
        pairs.append((before, before.with_name(before.name.replace(".before.", ".after."))))
    for corrupted in sorted(corpus.rglob("*__*.pt2")):
        clean = corrupted.with_name(corrupted.name.split("__")[0] + ".pt2")
        if clean.exists():
            pairs.append((clean, corrupted))
    for before, after in pairs:
        for fmt in ("text", "json", "sarif", "html"):
            args = ["diff", os.path.relpath(before, ROOT), os.path.relpath(after, ROOT), "--format", fmt]
            compare(f"diff pair {fmt} {after.name}", args, work / "none")
            out = work / f"report_{hashlib.md5(str(after).encode()).hexdigest()[:12]}.out"
            compare(f"diff pair -o {fmt} {after.name}", args + ["-o", str(out)], out)

    # Folders, and the usage errors each command refuses.
    for folder in ("tests/golden/diagnosis", "tests/data/fix", str(corpus / "corrupt")):
        compare(f"fix folder {folder}", ["fix", folder, "--dry-run"], work / "none")
        compare(f"fix folder unsafe {folder}", ["fix", folder, "--dry-run", "--unsafe-fixes"], work / "none")
    bad_map = work / "bad_map.json"
    bad_map.write_text('{"a": 1}')
    bad_schemas = work / "bad_schemas.txt"
    bad_schemas.write_text("this is not a schema\n")
    some = os.path.relpath(files[0], ROOT)
    for name, args in [
        ("lower missing", ["lower", "no/such.pt2", "-o", str(work / "x.pt2")]),
        ("lower bad schemas", ["lower", some, "--op-schemas", str(bad_schemas), "-o", str(work / "x.pt2")]),
        ("lower bad output", ["lower", some, "-o", "/no/such/folder/x.pt2"]),
        ("diff missing", ["diff", "no/such.pt2", some]),
        ("diff missing after", ["diff", some, "no/such.pt2"]),
        ("diff bad map", ["diff", some, some, "--rename", str(bad_map)]),
        ("diff missing map", ["diff", some, some, "--rename", str(work / "absent.json")]),
        ("diff bad schemas", ["diff", some, some, "--op-schemas", str(bad_schemas)]),
        ("fix missing", ["fix", "no/such.pt2", "--dry-run"]),
        ("fix -o many", ["fix", "tests/golden/diagnosis", "-o", str(work / "x.pt2")]),
        ("fix in place missing", ["fix", "--in-place", "no/such.pt2"]),
    ]:
        compare(name, args, work / "x.pt2")

    shutil.rmtree(lowered_dir, ignore_errors=True)
    print(f"files={len(files)} cases={cases} differing={differing}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
