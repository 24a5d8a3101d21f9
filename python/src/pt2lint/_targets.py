"""Turns what a caller passes (a path, paths, bytes, a binary file object, an
ExportedProgram) into arguments and standard input for the binary."""

import contextlib
import os
import tempfile
from typing import Any, List, Optional, Protocol, Sequence, Union

from ._errors import TargetNotFoundError, TargetTypeError

_KINDS = "a path, a list of paths, bytes, a binary file object, or a torch.export.ExportedProgram"


def is_exported_program(target) -> bool:
    # By name, so that a check of a file never imports torch.
    cls = type(target)
    return cls.__name__ == "ExportedProgram" and cls.__module__.startswith("torch.")


def _suffix_for(data: bytes) -> str:
    """The loaders tell archives and program JSON apart by content, textproto by extension: the
    suffix of the file diff, contract and lower read. `check` reads the bytes on standard input,
    where the binary tells a textproto by its opening, so messages say <bytes>, not
    <bytes>.textproto."""
    head = bytes(data[:64]).lstrip()
    if head.startswith(b"PK") or head.startswith(b"{"):
        return ""
    return ".textproto"


class Input:
    """One prepared target: either paths on disk, or bytes for the binary's stdin."""

    def __init__(self, paths=None, data: Optional[bytes] = None, name: str = "", suffix: str = ""):
        self.paths: List[str] = paths or []
        self.data = data
        self.name = name  # what findings call stdin
        self.suffix = suffix
        self.op_schemas: List[str] = []  # read from a live ExportedProgram

    def check_options(self) -> List[str]:
        return [] if self.data is None else ["--stdin-filename", self.name]

    def check_paths(self) -> List[str]:
        """The operands, to follow "--": a file named "--ignore=PT" is a path, not an option."""
        return list(self.paths) if self.data is None else ["-"]

    def single_path(self, stack: contextlib.ExitStack) -> str:
        """A path for commands that read one file (diff, contract, lower)."""
        if self.data is None:
            if len(self.paths) != 1 or os.path.isdir(self.paths[0]):
                raise TargetTypeError(f"this takes one program, not {self.paths!r}")
            return self.paths[0]
        folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="pt2lint-"))
        path = os.path.join(folder, "program" + (self.suffix or ".pt2"))
        with open(path, "wb") as f:
            f.write(self.data)
        return path


def _path(target) -> str:
    path = os.fspath(target)
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not os.path.exists(path):
        raise TargetNotFoundError(f"no such file or folder: {path!r}")
    return path


class ExportedProgramLike(Protocol):
    """What type checkers accept as a torch.export.ExportedProgram, without importing torch."""

    @property
    def graph_signature(self) -> Any: ...

    @property
    def graph_module(self) -> Any: ...


class BinaryReadable(Protocol):
    """A binary file object (``open(path, "rb")``, ``io.BytesIO``)."""

    def read(self) -> bytes: ...


PathLikeStr = Union[str, "os.PathLike[str]"]
# What check, diff, contract and lower take (see _KINDS).
Target = Union[PathLikeStr, Sequence[PathLikeStr], bytes, bytearray, memoryview, BinaryReadable, ExportedProgramLike]


def prepare(target: Target, *, with_weights: bool = False) -> Input:
    """with_weights: serialize an ExportedProgram whole (for lower, whose output is loaded
    back), not just its graph and configs."""
    if isinstance(target, (str, os.PathLike)):
        return Input(paths=[_path(target)])
    if isinstance(target, (list, tuple)):
        if not target:
            raise TargetTypeError("an empty list of paths: nothing to check")
        for item in target:
            if not isinstance(item, (str, os.PathLike)):
                raise TargetTypeError(f"a list of targets holds paths only, not {type(item).__name__}")
        return Input(paths=[_path(item) for item in target])
    if isinstance(target, (bytes, bytearray, memoryview)):
        data = bytes(target)
        suffix = _suffix_for(data)
        return Input(data=data, name="<bytes>", suffix=suffix)
    if hasattr(target, "read"):
        data = target.read()
        if isinstance(data, str):
            raise TargetTypeError("the file object is open in text mode; open it with 'rb'")
        if not isinstance(data, (bytes, bytearray)):
            raise TargetTypeError(f"the file object's read() returned {type(data).__name__}, not bytes")
        data = bytes(data)
        name = getattr(target, "name", None)
        suffix = _suffix_for(data)
        if not isinstance(name, str) or not name:
            name = "<file>"
        return Input(data=data, name=name, suffix=suffix)
    if is_exported_program(target):
        from ._torch_bridge import custom_op_schemas, save_to_bytes, serialize_for_check

        if with_weights:
            data, schemas = save_to_bytes(target), custom_op_schemas(target)
        else:
            data, schemas = serialize_for_check(target)
        prepared = Input(data=data, name="<ExportedProgram>", suffix=".pt2")
        prepared.op_schemas = schemas
        return prepared
    raise TargetTypeError(f"cannot check a {type(target).__module__}.{type(target).__qualname__}: "
                          f"pass {_KINDS}")
