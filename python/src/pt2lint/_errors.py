"""The exceptions pt2lint raises. Every one derives from Pt2lintError, and also from the
built-in exception a caller would expect (FileNotFoundError for a missing path, TypeError
for a target of the wrong type, ...), so ``except FileNotFoundError`` keeps working."""


from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._report import Report


class Pt2lintError(Exception):
    """Base class of every pt2lint exception."""


class BinaryNotFoundError(Pt2lintError, FileNotFoundError):
    """The pt2lint binary is not in the installed package (a broken install)."""


class TargetNotFoundError(Pt2lintError, FileNotFoundError):
    """A path given as a target does not exist."""


class TargetTypeError(Pt2lintError, TypeError):
    """A target is none of: a path, a list of paths, bytes, a binary file object, or a
    torch.export.ExportedProgram."""


class InvalidProgramError(Pt2lintError, ValueError):
    """The target exists but is not an exported program pt2lint can read."""


class TorchVersionError(Pt2lintError, ImportError):
    """The installed PyTorch is older than the oldest release pt2lint supports."""


class UsageError(Pt2lintError, ValueError):
    """The binary refused its arguments (an unknown rule in select/ignore, a bad config)."""


class CheckError(Pt2lintError):
    """A program has error findings. ``findings`` holds them (every finding of the check is
    in ``report``); the message is the text report."""

    def __init__(self, report: "Report") -> None:
        self.report = report
        self.findings = list(report.errors)
        super().__init__(str(report))


# Tracebacks and reprs name them as users import them: pt2lint.CheckError, ...
for _cls in (Pt2lintError, BinaryNotFoundError, TargetNotFoundError, TargetTypeError, InvalidProgramError,
             TorchVersionError, UsageError, CheckError):
    _cls.__module__ = "pt2lint"
del _cls
