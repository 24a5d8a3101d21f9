"""Where the compiled pt2lint binary lives, and how to run it."""

import os
import subprocess
from pathlib import Path
from typing import Dict, Optional, Sequence, Tuple

from ._errors import BinaryNotFoundError, Pt2lintError, UsageError

_BIN = Path(__file__).resolve().parent / "_bin" / "pt2lint"


def find_pt2lint_bin() -> str:
    """The path of the pt2lint binary shipped in this package.

    ``PT2LINT_BIN`` overrides it (for a development build of the binary)."""
    override = os.environ.get("PT2LINT_BIN")
    path = Path(override) if override else _BIN
    if not (path.is_file() and os.access(path, os.X_OK)):
        where = "PT2LINT_BIN" if override else "the pt2lint package"
        raise BinaryNotFoundError(
            f"the pt2lint binary is missing: {path} (from {where}) is not an executable file; "
            "reinstall the wheel (pip install --force-reinstall pt2lint) or unset PT2LINT_BIN"
        )
    return str(path)


class Completed:
    """What one run of the binary gave back."""

    def __init__(self, returncode: int, stdout: bytes, stderr: str):
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr


def run_binary(args: Sequence[str], *, stdin: Optional[bytes] = None, allowed: Sequence[int] = (0, 1)) -> Completed:
    """Runs ``pt2lint ARGS``. Exit codes outside ``allowed`` raise: 2 as UsageError (the
    binary's own words), anything else (a crash) as Pt2lintError."""
    env = dict(os.environ, NO_COLOR="1")
    proc = subprocess.run(
        [find_pt2lint_bin(), *args],
        input=stdin if stdin is not None else b"",
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        check=False,
    )
    stderr = proc.stderr.decode("utf-8", "replace")
    if proc.returncode in allowed:
        return Completed(proc.returncode, proc.stdout, stderr)
    message = stderr.strip() or f"pt2lint exited with code {proc.returncode}"
    if proc.returncode == 2:
        raise UsageError(message)
    raise Pt2lintError(f"pt2lint {' '.join(args[:1])} failed (exit code {proc.returncode}): {message}")


_flag_cache: Dict[Tuple[str, str], bool] = {}


def subcommand_has_flag(subcommand: str, flag: str) -> bool:
    """Whether ``pt2lint SUBCOMMAND --help`` lists FLAG (for options added in later builds)."""
    key = (subcommand, flag)
    if key not in _flag_cache:
        proc = subprocess.run(
            [find_pt2lint_bin(), subcommand, "--help"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            check=False,
        )
        _flag_cache[key] = flag in proc.stdout.decode("utf-8", "replace")
    return _flag_cache[key]
