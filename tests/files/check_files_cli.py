#!/usr/bin/env python3
"""CLI checks of the files PyTorch writes and of archives that lie, which goldens cannot
express (options, folders, PyTorch's verdicts).

    check_files_cli.py PT2LINT REPO_ROOT

1. `--select PT103` on the integer-version legacy archive shows its one finding.
2. A folder of AOTInductor packages beside a clean program exits 0 (notes only).
3. Every damaged archive PyTorch 2.11 was measured on (tests/data/device/measurements):
   pt2lint reports an error exactly when torch.export.load refused the file.
4. The nativert variants: the token program gets a PT211 warning, each order variant a PT211
   note, the in-order program nothing.
Exits 1 after printing every failed check.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

FAILURES = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        FAILURES.append(what)


def run(tool, *args):
    p = subprocess.run([tool, "check", "--format", "json", *args], capture_output=True, timeout=120)
    report = json.loads(p.stdout)
    findings = [f for file in report["files"] for f in file["findings"]]
    return p.returncode, findings


def main(tool, repo):
    goldens = os.path.join(repo, "tests", "golden", "files")
    legacy = os.path.join(goldens, "unsupported-schema-version", "bad_integer_version_legacy.pt2")
    rc, findings = run(tool, "--select", "PT103", legacy)
    check(rc == 1 and [f["rule"] for f in findings] == ["PT103"],
          f"--select PT103 on the integer-version legacy file shows its one finding ({findings and findings[0]['message'][:60]})")

    with tempfile.TemporaryDirectory() as folder:
        for name in ("bad_package_with_root.pt2", "bad_package_without_root.pt2"):
            shutil.copy(os.path.join(goldens, "aotinductor-package", name), folder)
        shutil.copy(os.path.join(goldens, "nativert-input-order", "good_in_order.pt2"), folder)
        rc, findings = run(tool, folder)
        check(rc == 0 and sorted(f["rule"] for f in findings) == ["PT104", "PT104"],
              f"a folder of two AOTInductor packages and a clean program exits 0 with two notes (exit {rc})")

    measured = os.path.join(repo, "tests", "data", "device", "measurements")
    with open(os.path.join(measured, "measurements.json")) as f:
        verdicts = json.load(f)
    for case, verdict in sorted(verdicts["damaged_archives"].items()):
        path = os.path.join(measured, f"archive_{case}.pt2")
        rc, findings = run(tool, path)
        refused = verdict["load"] != "ok"
        errors = [f["rule"] for f in findings if f["severity"] == "error"]
        check((rc == 1) == refused and (errors == ["PT101"] if refused else not errors),
              f"{case}: torch.export.load {'refuses' if refused else 'loads'} it; pt2lint exit {rc}, errors {errors}")

    for case, verdict in sorted(verdicts["nativert_order"].items()):
        if case == "base_input_kinds":
            continue
        rc, findings = run(tool, "--select", "PT211", os.path.join(measured, f"nativert_{case}.pt2"))
        severities = [f["severity"] for f in findings]
        nativert_refuses = not verdict["nativert"].endswith(": ok")
        want = ["warning"] if nativert_refuses else ([] if case == "in_order" else ["note"])
        check(severities == want,
              f"nativert {case}: PyModelRunner says '{verdict['nativert'][:50]}'; PT211 gives {severities}, want {want}")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
