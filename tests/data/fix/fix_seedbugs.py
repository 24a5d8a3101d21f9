#!/usr/bin/env python3
"""`pt2lint fix` on the device seed bugs (tests/data/device/seedbugs, made by PyTorch 2.11 with
backend-style passes): each is repaired into a program that checks clean, keeps the clean
program's contract (`pt2lint diff` exits 0) and whose program JSON is byte-identical to the
clean ATEN program's; the committed repaired files (inputs of the device check
seedbugs/check_repaired.py) are exactly what fix writes today.
Usage: fix_seedbugs.py PT2LINT SEEDBUGS_DIR WORKDIR
"""
import os
import subprocess
import sys
import zipfile

BUGS = ("pairing_by_position", "rename_one_side", "dropped_write_back")


def program_json(path):
    with zipfile.ZipFile(path) as z:
        (name,) = [n for n in z.namelist() if n.endswith("/models/model.json")]
        return z.read(name)


def main():
    pt2lint, seeds, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    clean = os.path.join(seeds, "hf_llama_clean.aten.pt2")
    failures = []
    for bug in BUGS:
        src = os.path.join(seeds, f"hf_llama__{bug}.pt2")
        out = os.path.join(work, f"hf_llama__{bug}.fixed.pt2")
        if os.path.exists(out):
            os.remove(out)
        fix = subprocess.run([pt2lint, "fix", src, "-o", out], capture_output=True, text=True)
        if fix.returncode != 0:
            failures.append(f"{bug}: fix exited {fix.returncode}: {fix.stderr[-400:]}")
            continue
        if subprocess.run([pt2lint, "check", out], capture_output=True).returncode != 0:
            failures.append(f"{bug}: the repaired program does not check clean")
        if subprocess.run([pt2lint, "diff", clean, out], capture_output=True).returncode != 0:
            failures.append(f"{bug}: pt2lint diff CLEAN REPAIRED does not exit 0")
        if program_json(out) != program_json(clean):
            failures.append(f"{bug}: the repaired program JSON differs from the clean one")
        committed = os.path.join(seeds, "repaired", f"hf_llama__{bug}.fixed.pt2")
        if program_json(committed) != program_json(out):
            failures.append(f"{bug}: {committed} is not what fix writes today; re-run fix and commit it")
        print(f"{bug}: repaired, identical to hf_llama_clean.aten.pt2's program")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
