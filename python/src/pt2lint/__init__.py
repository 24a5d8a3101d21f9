"""pt2lint: a static verifier and linter for torch.export programs (.pt2).

    import pt2lint
    report = pt2lint.check("model.pt2")          # or bytes, a file object, an ExportedProgram
    report.raise_for_errors()                     # raises pt2lint.CheckError
    pt2lint.save(ep, "model.pt2")                 # torch.export.save, refused if broken

Importing pt2lint is cheap and never imports torch: the names below load on first use."""

from typing import TYPE_CHECKING, Any, List

__version__ = "0.1.0"

if TYPE_CHECKING:
    # What type checkers see: the same names, imported eagerly (mypy and pyright never run
    # the lazy __getattr__ below, so a misspelt name is an error, not Any).
    from . import testing as testing
    from ._api import check as check, contract as contract, diff as diff, lower as lower
    from ._binary import find_pt2lint_bin as find_pt2lint_bin
    from ._errors import (
        BinaryNotFoundError as BinaryNotFoundError,
        CheckError as CheckError,
        InvalidProgramError as InvalidProgramError,
        Pt2lintError as Pt2lintError,
        TargetNotFoundError as TargetNotFoundError,
        TargetTypeError as TargetTypeError,
        TorchVersionError as TorchVersionError,
        UsageError as UsageError,
    )
    from ._report import (
        Counts as Counts,
        Edit as Edit,
        Finding as Finding,
        Fix as Fix,
        Location as Location,
        Mutation as Mutation,
        Program as Program,
        Report as Report,
        SourceLine as SourceLine,
    )
    from ._save import save as save

# Public name -> the submodule that defines it. Loaded lazily (PEP 562).
_LAZY = {
    "check": "_api",
    "diff": "_api",
    "contract": "_api",
    "lower": "_api",
    "save": "_save",
    "Report": "_report",
    "Finding": "_report",
    "Location": "_report",
    "Fix": "_report",
    "Program": "_report",
    "Mutation": "_report",
    "Edit": "_report",
    "SourceLine": "_report",
    "Counts": "_report",
    "Pt2lintError": "_errors",
    "CheckError": "_errors",
    "BinaryNotFoundError": "_errors",
    "TargetNotFoundError": "_errors",
    "TargetTypeError": "_errors",
    "InvalidProgramError": "_errors",
    "TorchVersionError": "_errors",
    "UsageError": "_errors",
    "find_pt2lint_bin": "_binary",
}

__all__ = sorted(_LAZY) + ["testing", "__version__"]


if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        import importlib

        if name == "testing":
            return importlib.import_module(".testing", __name__)
        module = _LAZY.get(name)
        if module is None:
            raise AttributeError(f"module 'pt2lint' has no attribute {name!r}")
        value = getattr(importlib.import_module("." + module, __name__), name)
        globals()[name] = value
        return value


def __dir__() -> List[str]:
    return __all__
