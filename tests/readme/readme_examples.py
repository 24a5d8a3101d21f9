#!/usr/bin/env python3
"""Runs the CI examples the README shows, so they cannot rot: every fenced block marked
`<!-- readme-test: NAME -->` is exercised against a scratch model folder holding one clean
and one broken program.

usage: readme_examples.py PT2LINT README CLEAN_PT2 BROKEN_PT2"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import xml.etree.ElementTree as ElementTree


def marked_blocks(readme_text):
    blocks = {}
    pattern = re.compile(r"<!-- readme-test: ([\w-]+) -->\n```\w*\n(.*?)```", re.S)
    for name, body in pattern.findall(readme_text):
        blocks[name] = body
    return blocks


def shell_commands(block, prefix):
    """The pt2lint command lines of a YAML block: `run:` values or `script:` items."""
    commands = []
    for line in block.splitlines():
        match = re.match(r"^\s*(?:-\s+)?(?:run:\s+)?(pt2lint check .*)$", line)
        if match and line.strip().startswith(prefix):
            commands.append(match.group(1))
    return commands


def run_shell(command, workdir, env):
    return subprocess.run(command, shell=True, cwd=workdir, env=env, capture_output=True,
                          text=True, timeout=120)


def main():
    pt2lint, readme, clean, broken = sys.argv[1:5]
    with open(readme) as f:
        blocks = marked_blocks(f.read())
    expected = {"github-workflow", "gitlab-job", "pre-commit-entry", "pyproject"}
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

        # GitHub Actions: every pt2lint step runs, the SARIF is JSON, the summary is written.
        for command in shell_commands(blocks["github-workflow"], "run: pt2lint"):
            result = run_shell(command, work, env)
            if result.returncode not in (0, 1):
                failures.append(f"workflow step failed ({result.returncode}): {command}: {result.stderr}")
        sarif = os.path.join(work, "pt2lint.sarif")
        if not os.path.exists(sarif):
            failures.append("workflow wrote no SARIF file")
        else:
            with open(sarif) as f:
                if json.load(f)["version"] != "2.1.0":
                    failures.append("workflow SARIF is not SARIF 2.1.0")
        if not os.path.exists(os.path.join(work, "summary.md")):
            failures.append("workflow annotations wrote no step summary")

        # GitLab: both reports are produced and parse.
        for command in shell_commands(blocks["gitlab-job"], "- pt2lint"):
            result = run_shell(command, work, env)
            if result.returncode not in (0, 1):
                failures.append(f"gitlab script failed ({result.returncode}): {command}: {result.stderr}")
        quality = os.path.join(work, "gl-code-quality.json")
        junit = os.path.join(work, "pt2lint-junit.xml")
        if not os.path.exists(quality) or not os.path.exists(junit):
            failures.append("gitlab job wrote no code quality or JUnit report")
        else:
            with open(quality) as f:
                if not json.load(f):
                    failures.append("gitlab code quality report is empty for a broken model")
            ElementTree.parse(junit)

        # pre-commit: the README's hook id is one the manifest provides.
        hook_id = re.search(r"id:\s*(\S+)", blocks["pre-commit-entry"]).group(1)
        manifest = os.path.join(os.path.dirname(os.path.abspath(readme)), ".pre-commit-hooks.yaml")
        with open(manifest) as f:
            if not re.search(rf"^-\s+id:\s*{re.escape(hook_id)}\s*$", f.read(), re.M):
                failures.append(f"README hook id {hook_id} is not in .pre-commit-hooks.yaml")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print(failure)
    print("README examples:", "FAILED" if failures else "ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
