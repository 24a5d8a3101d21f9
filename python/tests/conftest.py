"""The suite tests the wheel as users get it: a session fixture builds it from the compiled
binary (python/tools/build_wheel.sh), installs it into a fresh venv (python3 -m venv), and
puts that venv's site-packages first on sys.path, so `import pt2lint` below is the installed
copy. A file missing from the wheel fails the tests that need it.

PT2LINT_BUILD_DIR: the CMake build folder holding `pt2lint` (default: <repo>/build).
PT2LINT_INSTALLED_VENV and PT2LINT_WHEEL: use that venv, where that wheel is installed,
instead of building one (python/tests/device/run_on_device.sh)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parents[2]
PYTHON_DIR = REPO / "python"
DEMO = REPO / "tests" / "data" / "demo"


def _platlib(python) -> str:
    return subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['platlib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture(scope="session")
def installed(tmp_path_factory):
    os.environ.pop("PT2LINT_BIN", None)  # the wheel's own binary, never a build tree's
    given = os.environ.get("PT2LINT_INSTALLED_VENV")
    if given:
        # A venv where PT2LINT_WHEEL was already installed (the device run: another distro,
        # Python 3.12, no build tree).
        venv = Path(given)
        python = venv / "bin" / "python"
        site = _platlib(python)
        sys.path.insert(0, site)
        return SimpleNamespace(wheel=Path(os.environ["PT2LINT_WHEEL"]), venv=venv, python=python,
                               bin=venv / "bin", site=Path(site))
    build = Path(os.environ.get("PT2LINT_BUILD_DIR", REPO / "build"))
    if not (build / "pt2lint").is_file():
        pytest.fail(f"no pt2lint binary in {build}: run `make build` (or set PT2LINT_BUILD_DIR)")
    root = tmp_path_factory.mktemp("wheel")
    out = subprocess.run(
        [str(PYTHON_DIR / "tools" / "build_wheel.sh"), str(build), str(root / "dist")],
        capture_output=True, text=True, env=dict(os.environ, PYTHON=sys.executable),
    )
    assert out.returncode == 0, f"building the wheel failed:\n{out.stdout}\n{out.stderr}"
    wheels = list((root / "dist").glob("pt2lint-*.whl"))
    assert len(wheels) == 1, wheels
    venv = root / "venv"
    # --system-site-packages: Debian's pytest must be importable in the venv for the plugin.
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", str(wheels[0])],
                   check=True)
    site = _platlib(python)
    sys.path.insert(0, site)
    return SimpleNamespace(wheel=wheels[0], venv=venv, python=python, bin=venv / "bin", site=Path(site))


@pytest.fixture(scope="session")
def pkg(installed):
    """The installed pt2lint package (not the source tree's)."""
    import pt2lint

    assert Path(pt2lint.__file__).resolve().is_relative_to(installed.site.resolve()), pt2lint.__file__
    return pt2lint


@pytest.fixture(scope="session")
def binary(installed):
    return str(installed.site / "pt2lint" / "_bin" / "pt2lint")


@pytest.fixture
def clean_pt2():
    return DEMO / "kv_cache_clean.pt2"


@pytest.fixture
def broken_pt2():
    return DEMO / "kv_cache_broken.pt2"


def run_cli(binary, *args, stdin=b""):
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run([binary, *map(str, args)], input=stdin, capture_output=True, env=env)


def needs_tool(name):
    return pytest.mark.skipif(shutil.which(name) is None, reason=f"needs {name} (binutils)")
