#!/usr/bin/env python3
"""Runs the GitHub Action's step (action/run.sh) as the runner would: GITHUB_WORKSPACE,
GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ACTION_PATH and RUNNER_TEMP set, and the inputs
of the docs/ci/github-workflow.yml step (over action.yml's defaults) passed as the
environment action.yml maps them to. The wheel is installed offline from the build's wheel
folder. Checks the files it writes: SARIF valid against the SARIF 2.1.0 schema, a step
summary, annotations (workflow commands), a comment body under 65,536 characters, the
outputs, and the exit codes (1 with errors and fail-on-error, 0 on clean models). The wheel
input is required: none, or a bare requirement pip would resolve on PyPI, fails with 2. On a
simulated pull request (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, a git history in the
workspace), changed-files: auto points findings at the export script's line only when the
pull request changed the script, else at the .pt2.

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


def pull_request_runs(run_action, inputs, workspace, work, demo):
    """The action on two simulated pull requests over the demo's broken program, whose stack
    traces name /src/gen_corpus.py (source-root /src): one that adds only the .pt2, whose
    findings must point at it, and one that also changes gen_corpus.py, whose findings must
    point at the script's line. The base commit is the event's pull_request.base.sha."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(work), "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}

    def git(*args):
        return subprocess.run(["git", *args], cwd=workspace, env=env, check=True, capture_output=True,
                              text=True).stdout.strip()

    (workspace / "gen_corpus.py").write_text("# the export script\n")
    (workspace / "models" / "broken.pt2").unlink()
    git("init", "-q")
    git("add", ".")
    git("commit", "-qm", "base")
    base = git("rev-parse", "HEAD")
    event = work / "event.json"
    event.write_text(json.dumps({"pull_request": {"base": {"sha": base}}}))
    pr_env = {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event),
              "PT2LINT_SOURCE_ROOT": "/src"}
    failures = []
    shutil.copy(demo / "kv_cache_broken.pt2", workspace / "models" / "broken.pt2")
    for changes_script in (False, True):
        if changes_script:
            (workspace / "gen_corpus.py").write_text("# the export script, changed\n")
        git("add", ".")
        git("commit", "-qm", "head")
        # SARIF and annotations only: the comment and HTML report do not anchor findings.
        done, outputs, _ = run_action(dict(inputs, **{"comment-file": "", "report-file": ""}),
                                      f"pr-{changes_script}", pr_env)
        errors = [line for line in done.stdout.splitlines() if line.startswith("::error ")]
        sarif = json.loads((workspace / outputs.get("sarif-file", "pt2lint.sarif")).read_text())
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                for run in sarif["runs"] for r in run["results"]}
        expected = "gen_corpus.py" if changes_script else "models/broken.pt2"
        if not errors or not all(re.search(f"file={re.escape(expected)}(,|::)", line) for line in errors) or uris != {expected}:
            failures.append(f"pull request {'changing' if changes_script else 'not changing'} the script: "
                            f"findings must point at {expected}, got SARIF {sorted(uris)} and\n"
                            + "\n".join(errors[:5]) + f"\n{done.stdout[-1500:]}{done.stderr[-1500:]}")
        if changes_script and not all(",line=" in line for line in errors):
            failures.append(f"annotations on the changed script lack a line: {errors[:3]}")
    shutil.rmtree(workspace / ".git")
    (workspace / "gen_corpus.py").unlink()
    return failures


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

        def run_action(inputs, tag, extra_env=None):
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
            env.update(extra_env or {})
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

        failures += pull_request_runs(run_action, step["with"], workspace, work, demo)
        for case, (wheel_input, pip_args, why) in enumerate((("", "--no-index", "no wheel"),
                                                             ("pt2lint==0.1.0", "--quiet", "a bare requirement, resolved on PyPI"))):
            refused, _, _ = run_action(dict(step["with"]), f"wheel-{case}",
                                       {"PT2LINT_WHEEL": wheel_input, "PT2LINT_PIP_ARGS": pip_args})
            if refused.returncode != 2 or "::error title=pt2lint::" not in refused.stdout:
                failures.append(f"{why} must fail the step with 2 and an error, got {refused.returncode}:\n"
                                f"{refused.stdout}{refused.stderr}")

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
