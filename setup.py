"""The package pre-commit installs for the `pt2lint` hook (.pre-commit-hooks.yaml).

pre-commit runs `pip install . ADDITIONAL_DEPENDENCIES` at the root of a hook repository.
pt2lint is C++, so this root package compiles nothing: it only brings the pt2lint wheel of
the same version (python/pyproject.toml), which holds the binary and the `pt2lint` command.
pt2lint is not published on PyPI, so the wheel is never required by name (a
bare `pt2lint==VERSION` would install whatever someone registers under that name there). It
is a direct reference to the wheel file or URL that one of these names, first match wins:
  - PT2LINT_WHEEL: the path or URL of the wheel;
  - a local folder of PIP_FIND_LINKS holding pt2lint-VERSION-*.whl (`make wheel` puts it in dist/);
  - else nothing here, and the hook's `additional_dependencies` must name the wheel:
    ["pt2lint @ https://.../pt2lint-VERSION-...whl"]. docs/ci.md, "pre-commit", has the setup."""
import os
import re
from pathlib import Path

from setuptools import setup

PYPROJECT = Path(__file__).resolve().parent / "python" / "pyproject.toml"
VERSION = re.search(r'^version = "([^"]+)"$', PYPROJECT.read_text(), re.M).group(1)


def pt2lint_wheel():
    """The pt2lint wheel as a PEP 508 direct reference, or None when nothing names one."""
    given = os.environ.get("PT2LINT_WHEEL", "").strip()
    if given:
        return f"pt2lint @ {given if '://' in given else Path(given).resolve().as_uri()}"
    for folder in os.environ.get("PIP_FIND_LINKS", "").split():
        if "://" in folder or not Path(folder).is_dir():
            continue
        wheels = sorted(Path(folder).glob(f"pt2lint-{VERSION}-*.whl"))
        if wheels:
            return f"pt2lint @ {wheels[-1].resolve().as_uri()}"
    return None


setup(
    name="pt2lint-pre-commit-hook",
    version=VERSION,
    description="The pre-commit hook of pt2lint: installs the pt2lint wheel",
    license="BSD-3-Clause",
    py_modules=[],
    install_requires=[requirement for requirement in [pt2lint_wheel()] if requirement],
    python_requires=">=3.9",
)
