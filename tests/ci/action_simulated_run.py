#!/usr/bin/env python3
"""Runs the GitHub Action's step (action/run.sh) as the runner would: GITHUB_WORKSPACE,
GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ACTION_PATH and RUNNER_TEMP set, and the inputs
of the docs/ci/github-workflow.yml step (over action.yml's defaults) passed as the
environment action.yml maps them to. The wheel is installed offline from the build's wheel
folder. Checks the files it writes: SARIF valid against the SARIF 2.1.0 schema, a step
summary, annotations (workflow commands), a comment body under 65,536 characters, the
outputs, and the exit codes (1 with errors and fail-on-error, 0 on clean models).

usage: action_simulated_run.py WHEEL_DIR SOURCE_DIR"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

import wheel_env

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "schemas"))
import report_checks  # noqa: E402


def action_env(source, workflow_inputs):
    """The PT2LINT_* variables action.yml's step sets, from the inputs' values."""
    metadata = yaml.safe_load((source / "action.yml").read_text())
    values = {name: spec.get("default", "") for name, spec in metadata["inputs"].items()}
    values.update({k: str(v) for k, v in workflow_inputs.items()})
    step = metadata["runs"]["steps"][0]
    env = {}
    for name, expression in step["env"].items():
        match = re.fullmatch(r"\$\{\{ inputs\.([\w-]+) \}\}", expression)
        env[name] = values[match.group(1)]
    return env, values


def main():
    wheel_dir, source = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    wheel = wheel_env.wheel_in(wheel_dir)
    flow = yaml.safe_load((source / "docs" / "ci" / "github-workflow.yml").read_text())
    step = next(s for job in flow["jobs"].values() for s in job["steps"] if s.get("id") == "pt2lint")
    failures = []
    with tempfile.TemporaryDirectory(prefix="pt2lint-action-") as tmp:
        work = Path(tmp)
        workspace = work / "workspace"
        (workspace / "models").mkdir(parents=True)
        demo = source / "tests" / "data" / "demo"
        shutil.copy(demo / "kv_cache_clean.pt2", workspace / "models" / "clean.pt2")
        shutil.copy(demo / "kv_cache_broken.pt2", workspace / "models" / "broken.pt2")

        (work / "runner-temp").mkdir()

        def run_action(inputs, tag):
            (work / tag).mkdir()
            env, values = action_env(source, inputs)
            env["PT2LINT_SOURCE_ROOT"] = str(workspace)  # ${{ github.workspace }}
            env["PT2LINT_WHEEL"] = str(wheel)
            env["PT2LINT_PIP_ARGS"] = "--no-index --no-deps --quiet"
            env.update({"PATH": "/usr/bin:/bin", "HOME": str(work), "LANG": "C.UTF-8", "NO_COLOR": "1",
                        "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": str(workspace),
                        "GITHUB_OUTPUT": str(work / tag / "output"),
                        "GITHUB_STEP_SUMMARY": str(work / tag / "summary.md"),
                        "GITHUB_ACTION_PATH": str(source), "RUNNER_TEMP": str(work / "runner-temp"),
                        "PT2LINT_PYTHON": wheel_env.DEBIAN_PYTHON})
            for name in ("output", "summary.md"):
                (work / tag / name).touch()
            # action.yml's step: `run: bash "$GITHUB_ACTION_PATH/action/run.sh"`, in the workspace.
            done = subprocess.run(["bash", str(source / "action" / "run.sh")], cwd=workspace, env=env,
                                  capture_output=True, text=True, timeout=300)
            outputs = dict(line.split("=", 1) for line in (work / tag / "output").read_text().splitlines())
            return done, outputs, values

        done, outputs, values = run_action(step["with"], "broken")
        if done.returncode != 1:
            failures.append(f"with a broken model and fail-on-error the step exited {done.returncode}:\n"
                            f"{done.stdout}{done.stderr}")
        for key in ("sarif-file", "comment-file", "report-file", "exit-code"):
            if key not in outputs:
                failures.append(f"GITHUB_OUTPUT lacks {key}: {outputs}")
        if outputs.get("exit-code") != "1":
            failures.append(f"exit-code output {outputs.get('exit-code')}, expected 1")
        sarif = workspace / outputs.get("sarif-file", "pt2lint.sarif")
        if not sarif.is_file():
            failures.append(f"no SARIF file at {sarif}")
        else:
            problems, results = report_checks.check_sarif(sarif.read_text())
            failures += [f"SARIF: {p}" for p in problems[:10]]
            if results == 0:
                failures.append("SARIF has no results for a broken model")
        summary = (work / "broken" / "summary.md").read_text()
        if "## pt2lint" not in summary or "PT204" not in summary:
            failures.append(f"step summary lacks the report:\n{summary[:500]}")
        annotations = [line for line in done.stdout.splitlines() if line.startswith("::error ")]
        if not annotations or "file=models/broken.pt2" not in annotations[0]:
            failures.append(f"no error annotation on models/broken.pt2:\n{done.stdout[-2000:]}")
        problems, _ = report_checks.check_github("\n".join(annotations))
        failures += [f"annotations: {p}" for p in problems[:10]]
        comment = workspace / values["comment-file"]
        if not comment.is_file() or len(comment.read_text()) > 65536 or "PT204" not in comment.read_text():
            failures.append(f"no comment body under 65,536 characters at {comment}")
        report = workspace / values["report-file"]
        if not report.is_file() or "<html" not in report.read_text()[:2000].lower():
            failures.append(f"no HTML report at {report}")

        (workspace / "models" / "broken.pt2").unlink()
        clean, clean_outputs, _ = run_action(step["with"], "clean")
        if clean.returncode != 0 or clean_outputs.get("exit-code") != "0":
            failures.append(f"on clean models the step exited {clean.returncode}:\n{clean.stdout}{clean.stderr}")
        missing, _, _ = run_action(dict(step["with"], paths="no-such-folder/"), "missing")
        if missing.returncode != 2:
            failures.append(f"a path that does not exist must fail the step with 2, got {missing.returncode}")
    for failure in failures:
        print("FAIL:", failure)
    print("simulated action run:", "FAILED" if failures else
          "SARIF valid, step summary, annotations, comment body, outputs; exit 1, 0 and 2 as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
