#!/usr/bin/env python3
"""Runs the configuration example the README shows, so it cannot rot: the fenced block marked
`<!-- readme-test: pyproject -->` is exercised against a scratch model folder holding one
clean and one broken program. The CI setups live in docs/ci.md, copied from docs/ci/, and are
run by tests/ci/ (ci_examples, ci_action_simulated_run, packaging_precommit_try_repo), which
also checks that the README's copy of the pre-commit config matches its file.

usage: readme_examples.py PT2LINT README CLEAN_PT2 BROKEN_PT2"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib


def marked_blocks(readme_text):
    blocks = {}
    pattern = re.compile(r"<!-- readme-test: ([\w-]+) -->\n```\w*\n(.*?)```", re.S)
    for name, body in pattern.findall(readme_text):
        blocks[name] = body
    return blocks


def run_shell(command, workdir, env):
    return subprocess.run(command, shell=True, cwd=workdir, env=env, capture_output=True,
                          text=True, timeout=120)


def main():
    pt2lint, readme, clean, broken = sys.argv[1:5]
    with open(readme) as f:
        blocks = marked_blocks(f.read())
    expected = {"pyproject"}
    missing = expected - blocks.keys()
    if missing:
        print(f"README lost its tested examples: {sorted(missing)}")
        return 1
    failures = []
    work = tempfile.mkdtemp(prefix="pt2lint-readme-")
    try:
        models = os.path.join(work, "models")
        os.makedirs(models)
        shutil.copy(clean, os.path.join(models, "clean.pt2"))
        shutil.copy(broken, os.path.join(models, "broken.pt2"))
        env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(pt2lint)) + os.pathsep +
                   os.environ.get("PATH", ""), GITHUB_WORKSPACE=work,
                   GITHUB_STEP_SUMMARY=os.path.join(work, "summary.md"), NO_COLOR="1")

        # pyproject.toml: valid TOML that pt2lint accepts (exit 2 would mean a config error).
        tomllib.loads(blocks["pyproject"])
        with open(os.path.join(work, "pyproject.toml"), "w") as f:
            f.write(blocks["pyproject"])
        result = run_shell("pt2lint check models/", work, env)
        if result.returncode not in (0, 1):
            failures.append(f"pyproject example rejected: {result.stderr.strip()}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print(failure)
    print("README examples:", "FAILED" if failures else "ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
