"""pt2lint.save: torch.export.save that refuses to write a broken program."""

import io
import os
import tempfile

from typing import Any, BinaryIO, Union

from ._api import ConfigChoice, OpSchemas, Rules, check
from ._errors import CheckError, TargetNotFoundError, TargetTypeError
from ._report import Report
from ._targets import ExportedProgramLike, is_exported_program


def save(
    ep: ExportedProgramLike,
    f: Union[str, "os.PathLike[str]", BinaryIO],
    *,
    select: Rules = None,
    ignore: Rules = None,
    config: ConfigChoice = None,
    op_schemas: OpSchemas = None,
    **kwargs: Any,
) -> Report:
    """Writes ``ep`` with ``torch.export.save(ep, f, **kwargs)``, checked first.

    f is a path or a binary file object. For a path, the program is written to a temporary
    file beside it, checked, and renamed into place atomically; with error findings the
    temporary file is deleted and CheckError is raised, so a broken program never appears at
    the path. A file object is only written to when the program is clean. Returns the Report
    (warnings and notes do not stop the save)."""
    from ._torch_bridge import custom_op_schemas, require_torch, validation_skipped

    torch = require_torch()
    if not is_exported_program(ep):
        raise TargetTypeError(f"pt2lint.save takes a torch.export.ExportedProgram, not {type(ep).__name__}")
    if isinstance(op_schemas, (str, os.PathLike)):
        with open(op_schemas, encoding="utf-8") as lines:
            op_schemas = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    schemas = custom_op_schemas(ep) + list(op_schemas or [])
    if not isinstance(f, (str, os.PathLike)):
        if not hasattr(f, "write"):
            raise TargetTypeError(f"pt2lint.save writes to a path or a binary file object, not {type(f).__name__}")
        buffer = io.BytesIO()
        with validation_skipped(ep):
            torch.export.save(ep, buffer, **kwargs)
        data = buffer.getvalue()
        report = check(data, select=select, ignore=ignore, config=config, op_schemas=schemas or None)
        report.raise_for_errors()
        ep.validate()  # what torch.export.save would have refused, pt2lint has missed
        f.write(data)
        return report

    target = os.path.abspath(os.fspath(f))
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise TargetNotFoundError(f"cannot save to {target!r}: no folder {folder!r}")
    # Same folder, so that the rename is atomic; ends in .pt2 as torch.export.save expects.
    handle, temp = tempfile.mkstemp(prefix="." + os.path.basename(target) + ".", suffix=".pt2", dir=folder)
    os.close(handle)
    try:
        # pt2lint's findings first (torch's own validate() would raise before writing,
        # with a terser message), then torch's validate() as a second opinion.
        with validation_skipped(ep):
            torch.export.save(ep, temp, **kwargs)
        report = check(temp, select=select, ignore=ignore, config=config, op_schemas=schemas or None)
        report = report.renamed(temp, target)
        if not report.ok:
            raise CheckError(report)
        ep.validate()
        os.replace(temp, target)
        return report
    finally:
        if os.path.exists(temp):
            os.unlink(temp)
