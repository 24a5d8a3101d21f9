#!/usr/bin/env python3
"""`check --changed-files FILE` on a real program with stack traces (the demo's broken KV
cache, exported from /src/gen_corpus.py): with --source-root /src, the github, sarif, rdjson
and gitlab formats point a finding at the script's line only when the list names the script
(a pull request that changed it), else at the .pt2 (a pull request that changed only the
program). A list naming the script, as `./gen_corpus.py` or as git quotes it, gives the same
bytes as no list; an unreadable list is a usage error (exit 2).

usage: cli_changed_files.py PT2LINT SOURCE_DIR"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

PROGRAM = "kv_cache_broken.pt2"
SCRIPT = "gen_corpus.py"


def main():
    pt2lint, source = sys.argv[1], Path(sys.argv[2])
    demo = source / "tests" / "data" / "demo"
    failures = []
    with tempfile.TemporaryDirectory(prefix="pt2lint-changed-") as tmp:
        lists = {"program only": "models/other.pt2\n" + PROGRAM + "\n",
                 "script": "README.md\r\n./" + SCRIPT + "\n",
                 "script, quoted by git": '"gen\\137corpus.py"\n'}
        for name, text in lists.items():
            (Path(tmp) / name).write_text(text)

        def check(fmt, changed=None):
            args = [pt2lint, "check", PROGRAM, "--format", fmt, "--source-root", "/src"]
            if changed:
                args += ["--changed-files", str(Path(tmp) / changed)]
            run = subprocess.run(args, cwd=demo, capture_output=True, text=True, env={"NO_COLOR": "1"})
            if run.returncode != 1:
                failures.append(f"{fmt} {changed}: exit {run.returncode}, expected 1: {run.stderr}")
            return run.stdout

        for fmt in ("github", "sarif", "rdjson", "gitlab"):
            unchanged = check(fmt)
            for name in ("script", "script, quoted by git"):
                if check(fmt, name) != unchanged:
                    failures.append(f"{fmt}: a list naming {SCRIPT} ({name}) changed the report")
        annotations = [line for line in check("github").splitlines() if line.startswith("::")]
        if not annotations or not all(f"file={SCRIPT},line=" in line for line in annotations):
            failures.append(f"github without --changed-files: expected {SCRIPT} lines:\n" + "\n".join(annotations))
        moved = [line for line in check("github", "program only").splitlines() if line.startswith("::")]
        if len(moved) != len(annotations) or not all(f"file={PROGRAM}" in line and ",line=" not in line
                                                     for line in moved):
            failures.append(f"github, script not changed: expected file-level annotations on {PROGRAM}:\n"
                            + "\n".join(moved))

        def sarif_uris(changed=None):
            log = json.loads(check("sarif", changed))
            return [r["locations"][0]["physicalLocation"] for run in log["runs"] for r in run["results"]]

        anchored = sarif_uris()
        if not anchored or any(p["artifactLocation"]["uri"] != SCRIPT or p["region"]["startLine"] < 2
                               for p in anchored):
            failures.append(f"sarif without --changed-files: expected {SCRIPT} lines, got {anchored}")
        at_file = sarif_uris("program only")
        if len(at_file) != len(anchored) or any(p["artifactLocation"]["uri"] != PROGRAM for p in at_file):
            failures.append(f"sarif, script not changed: expected results on {PROGRAM}, got {at_file}")
        rdjson = json.loads(check("rdjson", "program only"))["diagnostics"]
        if any(d["location"]["path"] != PROGRAM or "range" in d["location"] for d in rdjson):
            failures.append(f"rdjson, script not changed: expected file diagnostics on {PROGRAM}")
        gitlab = json.loads(check("gitlab", "program only"))
        if any(issue["location"]["path"] != PROGRAM for issue in gitlab):
            failures.append(f"gitlab, script not changed: expected issues on {PROGRAM}")
        missing = subprocess.run([pt2lint, "check", PROGRAM, "--changed-files", str(Path(tmp) / "absent")],
                                 cwd=demo, capture_output=True, text=True)
        if missing.returncode != 2 or "--changed-files" not in missing.stderr:
            failures.append(f"an unreadable --changed-files: exit {missing.returncode}, {missing.stderr}")
    for failure in failures:
        print("FAIL:", failure)
    print("--changed-files:", "FAILED" if failures else
          f"findings on {SCRIPT}'s lines when it changed, on {PROGRAM} when not (github, sarif, rdjson, gitlab)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
