#!/usr/bin/env python3
"""The CI setups docs/ci.md shows, run as written: each fenced block of docs/ci.md marked
`<!-- ci-example: FILE -->` (and each such block of the README) must equal docs/ci/FILE, and those files are exercised here
(the GitLab job's script lines and the plain shell script, with pip offline and finding
the wheel through PIP_FIND_LINKS), in a scratch folder holding models/ with one clean and one
broken program. No file that installs pt2lint names it as a bare requirement (pt2lint is not
on PyPI), and each config snippet in docs/ci.md's prose is accepted by pt2lint. The GitHub workflow and the pre-commit config are run and validated by
action_simulated_run.py, validate_action.py and precommit_try_repo.py.

usage: ci_examples.py WHEEL_DIR SOURCE_DIR"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import yaml

import wheel_env

EXPECTED = {"github-workflow.yml", "gitlab-ci.yml", "pre-commit-config.yaml", "check.sh"}
# pt2lint is not on PyPI: a setup that installs it by a bare name (`pip install pt2lint`,
# `pt2lint==0.1.0` as a default or a dependency) installs whatever someone registers there.
PINNED_NAME = re.compile(r"\bpt2lint\s*(==|>=|~=|<=|!=)")
BARE_NAME = re.compile(r"""^["']?pt2lint(\[[\w,]*\])?["']?$""")
INSTALLERS = ["action.yml", "action/run.sh", "setup.py", ".pre-commit-hooks.yaml", "README.md",
              "docs/ci.md", "docs/ci/github-workflow.yml", "docs/ci/gitlab-ci.yml",
              "docs/ci/pre-commit-config.yaml", "docs/ci/check.sh"]
# Config snippets in docs/ci.md's prose, such as `ignore = ["PT2"]`: each must be a config
# pt2lint accepts.
CONFIG_SNIPPET = re.compile(r"`((?:select|extend-select|ignore) = \[[^`\]]*\])`")


def unclaimed_names(source):
    """Where a file installs pt2lint by a name pip would resolve on PyPI."""
    found = []
    for name in INSTALLERS:
        for number, line in enumerate((source / name).read_text().splitlines(), 1):
            installs = re.search(r"\bpip install ([^#`\n]*)", line)
            bare = installs and any(BARE_NAME.match(word) for word in installs.group(1).split())
            # Prose may name the danger; it says "bare" or "safe only" beside it.
            if (bare or PINNED_NAME.search(line)) and not re.search(r"\bbare\b|safe only", line):
                found.append(f"{name}:{number}: {line.strip()}")
    return found


def invalid_config_snippets(source, venv, work, env):
    """Each config snippet of docs/ci.md, written to a .pt2lint.toml and checked with it."""
    failures = []
    demo = source / "tests" / "data" / "demo" / "kv_cache_clean.pt2"
    for number, snippet in enumerate(CONFIG_SNIPPET.findall((source / "docs" / "ci.md").read_text())):
        folder = work / f"snippet-{number}"
        folder.mkdir()
        (folder / ".pt2lint.toml").write_text(snippet + "\n")
        run = subprocess.run([str(venv / "bin" / "pt2lint"), "check", "--config", str(folder / ".pt2lint.toml"),
                              str(demo)], env=env, capture_output=True, text=True)
        if run.returncode == 2:
            failures.append(f"docs/ci.md's config `{snippet}` is rejected by pt2lint: {run.stderr.strip()}")
    return failures


def doc_blocks(text):
    pattern = re.compile(r"<!-- ci-example: ([\w.-]+) -->\n```\w*\n(.*?)```", re.S)
    return dict(pattern.findall(text))


def main():
    wheel_dir, source = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    wheel_env.wheel_in(wheel_dir)
    failures = []
    blocks = doc_blocks((source / "docs" / "ci.md").read_text())
    if set(blocks) != EXPECTED:
        failures.append(f"docs/ci.md shows {sorted(blocks)}, expected {sorted(EXPECTED)}")
    for name, body in blocks.items():
        if (source / "docs" / "ci" / name).read_text() != body:
            failures.append(f"docs/ci.md's copy of docs/ci/{name} differs from the file")
    failures += [f"installs pt2lint by a bare name, which PyPI would resolve: {where}"
                 for where in unclaimed_names(source)]
    readme = doc_blocks((source / "README.md").read_text())
    if "pre-commit-config.yaml" not in readme:
        failures.append("the README lost its pre-commit example")
    for name, body in readme.items():
        if (source / "docs" / "ci" / name).read_text() != body:
            failures.append(f"README's copy of docs/ci/{name} differs from the file")
    with tempfile.TemporaryDirectory(prefix="pt2lint-ci-") as tmp:
        work = Path(tmp)
        demo = source / "tests" / "data" / "demo"
        venv = wheel_env.make_venv(work, wheel_env.wheel_in(wheel_dir), system_site=False)
        # pip finds pt2lint==VERSION offline, in the wheel folder only.
        env = dict(wheel_env.clean_env(venv, work), PIP_NO_INDEX="1", PIP_FIND_LINKS=str(wheel_dir),
                   PIP_DISABLE_PIP_VERSION_CHECK="1")

        failures += invalid_config_snippets(source, venv, work, env)
        # The setups take the wheel from $PT2LINT_WHEEL (the GitLab job's variable, set here
        # as a CI/CD variable would be), pointing at the built wheel instead of the release URL.
        env["PT2LINT_WHEEL"] = str(wheel_env.wheel_in(wheel_dir))

        def project(name, broken):
            root = work / name
            (root / "models").mkdir(parents=True)
            shutil.copy(demo / "kv_cache_clean.pt2", root / "models" / "clean.pt2")
            if broken:
                shutil.copy(demo / "kv_cache_broken.pt2", root / "models" / "broken.pt2")
            return root

        # GitLab: the job's script, line by line as the runner's shell runs it (set -e).
        job = yaml.safe_load((source / "docs" / "ci" / "gitlab-ci.yml").read_text())["pt2lint"]
        if "://" not in job.get("variables", {}).get("PT2LINT_WHEEL", ""):
            failures.append("the GitLab job sets no PT2LINT_WHEEL URL in its variables")
        for broken, expected in ((True, 1), (False, 0)):
            root = project(f"gitlab-{broken}", broken)
            status = 0
            for line in job["script"]:
                status = subprocess.run(["sh", "-c", line], cwd=root, env=env, capture_output=True).returncode
                if status != 0:
                    break
            if status != expected:
                failures.append(f"gitlab job on {'broken' if broken else 'clean'} models exited {status}, expected {expected}")
            for report in job["artifacts"]["reports"].values():
                if not (root / report).is_file():
                    failures.append(f"gitlab job wrote no {report}")
            junit = root / job["artifacts"]["reports"]["junit"]
            if junit.is_file():
                failed = int(ElementTree.parse(junit).getroot().get("failures"))
                if (failed > 0) != broken:
                    failures.append(f"gitlab JUnit report has {failed} failures for {'broken' if broken else 'clean'} models")
        # The plain shell script.
        for broken, expected in ((True, 1), (False, 0)):
            root = project(f"shell-{broken}", broken)
            run = subprocess.run(["sh", str(source / "docs" / "ci" / "check.sh")], cwd=root, env=env,
                                 capture_output=True, text=True)
            if run.returncode != expected or not (root / "pt2lint-junit.xml").is_file():
                failures.append(f"check.sh on {'broken' if broken else 'clean'} models exited {run.returncode}, "
                                f"expected {expected}:\n{run.stdout}{run.stderr}")
    for failure in failures:
        print("FAIL:", failure)
    print("CI examples:", "FAILED" if failures else "docs/ci.md matches docs/ci/, the GitLab job and check.sh run")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
