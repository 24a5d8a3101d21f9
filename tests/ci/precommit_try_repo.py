#!/usr/bin/env python3
"""The shipped pre-commit hook, run by Debian's pre-commit as a user's repository would run it:
`pre-commit try-repo` against the pt2lint repository (a local clone; uncommitted changes are
included by pre-commit), in a temporary git repository holding a clean and a defective .pt2.
The hook (language: python) pip-installs the repository root, which brings the pt2lint
wheel named by PT2LINT_WHEEL as a direct reference; pip runs offline (PIP_NO_INDEX=1, no
find-links). The build tree is not on PATH. Checks: exit 0 on the clean file, exit 1 with the
report on the defective one, and [tool.pt2lint] in the repository's pyproject.toml is
honoured. Then docs/ci/pre-commit-config.yaml itself runs (`pre-commit run`), its repo
pointed at a git repository of the hook's files and its additional_dependencies at the
built wheel, with neither PT2LINT_WHEEL nor PIP_FIND_LINKS set. The root package requires
pt2lint by no bare name (which pip would resolve on PyPI, where nobody holds it). The
example and the manifest pass pre-commit's own validation.

usage: precommit_try_repo.py WHEEL_DIR SOURCE_DIR"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

import wheel_env


def documented_config(source, work, wheel, env, pre_commit):
    """docs/ci/pre-commit-config.yaml, run: its hook repository is a git repository of the
    hook's files (the manifest, the root package and the version it reads), and its
    additional_dependencies name the built wheel instead of the release URL."""
    hook_repo = work / "hook-repo"
    for name in (".pre-commit-hooks.yaml", "setup.py", "python/pyproject.toml"):
        (hook_repo / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source / name, hook_repo / name)
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "hook"]):
        subprocess.run(["git", *args], cwd=hook_repo, env=env, check=True, capture_output=True)
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hook_repo, env=env, check=True,
                         capture_output=True, text=True).stdout.strip()
    config = yaml.safe_load((source / "docs" / "ci" / "pre-commit-config.yaml").read_text())
    repo = config["repos"][0]
    hook = repo["hooks"][0]
    failures = []
    if not any(dep.startswith("pt2lint @ https://") for dep in hook.get("additional_dependencies", [])):
        failures.append(f"the docs example names no wheel URL in additional_dependencies: {hook}")
    repo.update(repo=str(hook_repo), rev=rev)
    hook["additional_dependencies"] = [f"pt2lint @ {wheel.resolve().as_uri()}"]
    user = work / "user-repo"
    (user / "pyproject.toml").unlink(missing_ok=True)
    (work / "configured.yaml").write_text(yaml.safe_dump(config))
    run = subprocess.run([pre_commit, "run", "--config", str(work / "configured.yaml"), "--files", "models/broken.pt2"],
                         cwd=user, env=env, capture_output=True, text=True, timeout=300)
    if run.returncode != 1 or "[PT204 mutation-target-resolves]" not in run.stdout:
        failures.append(f"the docs config with additional_dependencies: exit {run.returncode}, expected 1 "
                        f"with the report\n{run.stdout}{run.stderr}")
    # With nothing naming the wheel, the root package requires nothing: never a bare name.
    requires = subprocess.run([sys.executable, "-c", "import setuptools, sys; sys.argv = ['setup.py', '--name']; "
                               "setuptools.setup = lambda **kw: print(kw['install_requires']); "
                               "exec(open('setup.py').read(), {'__file__': 'setup.py'})"],
                              cwd=source, env=env, capture_output=True, text=True)
    if requires.returncode != 0 or requires.stdout.strip() != "[]":
        failures.append(f"setup.py without PT2LINT_WHEEL or find-links requires {requires.stdout}{requires.stderr}")
    return failures


def main():
    wheel_dir, source = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    wheel = wheel_env.wheel_in(wheel_dir)
    pre_commit = shutil.which("pre-commit", path="/usr/bin:/bin")
    if pre_commit is None:
        print("FAIL: Debian's pre-commit is not installed (make test-deps installs it)")
        return 1
    failures = []
    with tempfile.TemporaryDirectory(prefix="pt2lint-pre-commit-") as tmp:
        work = Path(tmp)
        user = work / "user-repo"
        (user / "models").mkdir(parents=True)
        demo = source / "tests" / "data" / "demo"
        shutil.copy(demo / "kv_cache_clean.pt2", user / "models" / "clean.pt2")
        shutil.copy(demo / "kv_cache_broken.pt2", user / "models" / "broken.pt2")
        env = {"PATH": "/usr/bin:/bin", "HOME": str(work), "LANG": "C.UTF-8", "NO_COLOR": "1",
               "PRE_COMMIT_HOME": str(work / "cache"), "PIP_NO_INDEX": "1",
               "PIP_DISABLE_PIP_VERSION_CHECK": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t", "TMPDIR": os.environ.get("TMPDIR", "/tmp")}

        def git(*args, cwd=user):
            subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)

        git("init", "-q")
        git("add", ".")
        git("commit", "-qm", "models")

        def hook(*files):
            return subprocess.run([pre_commit, "try-repo", str(source), "pt2lint", "--files", *files],
                                  cwd=user, env=dict(env, PT2LINT_WHEEL=str(wheel)),
                                  capture_output=True, text=True, timeout=300)

        clean = hook("models/clean.pt2")
        if clean.returncode != 0 or "Passed" not in clean.stdout:
            failures.append(f"clean file: exit {clean.returncode}\n{clean.stdout}{clean.stderr}")
        broken = hook("models/clean.pt2", "models/broken.pt2")
        if broken.returncode != 1 or "Failed" not in broken.stdout or \
                "[PT204 mutation-target-resolves]" not in broken.stdout:
            failures.append(f"defective file: exit {broken.returncode}, expected 1 with the report\n"
                            f"{broken.stdout}{broken.stderr}")
        (user / "pyproject.toml").write_text(
            '[tool.pt2lint.per-file-ignores]\n"models/broken.pt2" = ["PT2", "PT3"]\n')
        configured = hook("models/clean.pt2", "models/broken.pt2")
        if configured.returncode != 0:
            failures.append(f"[tool.pt2lint] per-file-ignores not honoured: exit {configured.returncode}\n"
                            f"{configured.stdout}{configured.stderr}")
        failures += documented_config(source, work, wheel, env, pre_commit)
        for what, args in (("manifest", ["validate-manifest", str(source / ".pre-commit-hooks.yaml")]),
                           ("docs example", ["validate-config", str(source / "docs" / "ci" / "pre-commit-config.yaml")])):
            valid = subprocess.run([pre_commit, *args], env=env, capture_output=True, text=True)
            if valid.returncode != 0:
                failures.append(f"{what} is not valid for pre-commit: {valid.stdout}{valid.stderr}")
    for failure in failures:
        print("FAIL:", failure)
    print("pre-commit try-repo:", "FAILED" if failures else
          "exit 0 on a clean .pt2, 1 with the report on a defective one, [tool.pt2lint] honoured")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
