#!/usr/bin/env python3
"""The shipped pre-commit hook, run by Debian's pre-commit as a user's repository would run it:
`pre-commit try-repo` against the pt2lint repository (a local clone; uncommitted changes are
included by pre-commit), in a temporary git repository holding a clean and a defective .pt2.
The hook (language: python) pip-installs the repository root, which requires the pt2lint
wheel; pip runs offline (PIP_NO_INDEX=1) and finds the wheel through PIP_FIND_LINKS. The
build tree is not on PATH. Checks: exit 0 on the clean file, exit 1 with the report on the
defective one, and [tool.pt2lint] in the repository's pyproject.toml is honoured. The
docs/ci/pre-commit-config.yaml example and the manifest pass pre-commit's own validation.

usage: precommit_try_repo.py WHEEL_DIR SOURCE_DIR"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import wheel_env


def main():
    wheel_dir, source = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    wheel_env.wheel_in(wheel_dir)
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
               "PRE_COMMIT_HOME": str(work / "cache"), "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheel_dir),
               "PIP_DISABLE_PIP_VERSION_CHECK": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t", "TMPDIR": os.environ.get("TMPDIR", "/tmp")}

        def git(*args, cwd=user):
            subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)

        git("init", "-q")
        git("add", ".")
        git("commit", "-qm", "models")

        def hook(*files):
            return subprocess.run([pre_commit, "try-repo", str(source), "pt2lint", "--files", *files],
                                  cwd=user, env=env, capture_output=True, text=True, timeout=300)

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
