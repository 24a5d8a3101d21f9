"""What the packaging and CI tests share: the wheel that `make wheel` builds (found in, or
built into, a folder of the build tree), a fresh venv with it installed from that file
alone (`pip install --no-index`), and an environment that reaches neither the build tree nor
the libraries of Debian's build packages."""
import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEBIAN_PYTHON = "/usr/bin/python3"
# The runtime libraries of the build-only Debian packages (libfmt-dev, libsimdjson-dev,
# libminizip-dev, libzip-dev, libprotobuf-dev, libtorch-dev, libgtest-dev): the installed
# wheel must run without any of them.
BUILD_PACKAGE_LIBRARIES = ("libfmt.so*", "libsimdjson.so*", "libminizip.so*", "libzip.so*",
                           "libprotobuf*.so*", "libtorch*.so*", "libc10*.so*", "libgtest*.so*")
LIBRARY_DIRS = ("/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib", "/usr/local/lib")


def wheel_in(folder):
    wheels = sorted(Path(folder).glob("pt2lint-*.whl"))
    if len(wheels) != 1:
        sys.exit(f"expected one pt2lint wheel in {folder} (built by the packaging_wheel test), found {wheels}")
    return wheels[0]


def make_venv(root, wheel, system_site=True):
    """A venv under `root` with only the wheel installed, from the file, offline."""
    venv = Path(root) / "venv"
    args = [DEBIAN_PYTHON, "-m", "venv", str(venv)]
    if system_site:
        args.insert(3, "--system-site-packages")  # Debian's python3-pytest, for the plugin
    subprocess.run(args, check=True)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
                    "--disable-pip-version-check", str(wheel)], check=True)
    return venv


def clean_env(venv, home):
    """PATH holds the venv and the system's bin folders only: no build tree, no PYTHONPATH,
    no LD_LIBRARY_PATH, no PT2LINT_BIN."""
    return {"PATH": f"{venv}/bin:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8", "NO_COLOR": "1",
            "TMPDIR": os.environ.get("TMPDIR", "/tmp")}


def hidden_library_files():
    files = set()
    for folder in LIBRARY_DIRS:
        for pattern in BUILD_PACKAGE_LIBRARIES:
            for path in glob.glob(os.path.join(folder, pattern)):
                if os.path.isfile(path):
                    files.add(os.path.realpath(path))
    return sorted(files)


def can_hide():
    """Hiding needs a private mount namespace (root and unshare, as on CI)."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    return probe.returncode == 0


def hiding_prefix(folders, empty):
    """A command prefix that runs its command in a private mount namespace where each folder
    of `folders` is an empty folder and each build-package library is /dev/null."""
    mounts = [f"mount --bind {empty} '{folder}'" for folder in folders]
    mounts += [f"mount --bind /dev/null '{library}'" for library in hidden_library_files()]
    script = " && ".join(mounts + ['exec "$@"'])
    return ["unshare", "-m", "sh", "-c", script, "hidden"]
