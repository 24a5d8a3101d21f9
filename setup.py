"""The package pre-commit installs for the `pt2lint` hook (.pre-commit-hooks.yaml).

pre-commit runs `pip install .` at the root of a hook repository. pt2lint is C++, so this
root package compiles nothing: it only requires the pt2lint wheel of the same version
(python/pyproject.toml), which brings the binary and the `pt2lint` command. The wheel is
built by `make wheel`; pip finds it on the index or in the find-links its configuration
names. docs/ci.md, "pre-commit", has the setup."""
import re
from pathlib import Path

from setuptools import setup

PYPROJECT = Path(__file__).resolve().parent / "python" / "pyproject.toml"
VERSION = re.search(r'^version = "([^"]+)"$', PYPROJECT.read_text(), re.M).group(1)

setup(
    name="pt2lint-pre-commit-hook",
    version=VERSION,
    description="The pre-commit hook of pt2lint: installs the pt2lint wheel",
    license="BSD-3-Clause",
    py_modules=[],
    install_requires=[f"pt2lint=={VERSION}"],
    python_requires=">=3.9",
)
