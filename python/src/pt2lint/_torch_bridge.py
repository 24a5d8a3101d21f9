"""Everything that touches torch. Imported only when a caller passes an ExportedProgram or
calls save() / testing.assert_same_state(), never by ``import pt2lint``.

Checking a live program serializes its graph and its weights and constants *configs*, never
the weights' bytes, through PyTorch's private serializer
``torch._export.serde.serialize.serialize(ep, ..., serialize_state_dict=False,
serialize_constants=False)`` (the call ``torch.export.save`` itself makes since PyTorch 2.8).
The result is a PT2 archive without records, marked ``extra/pt2lint_records_omitted`` so
that the checker says it skipped the record checks. Where that serializer is missing or has
another signature, the program is written with ``torch.export.save`` to a temporary file
instead (weights included)."""

import contextlib
import dataclasses
import io
import json
import os
import tempfile
import zipfile
from typing import Optional, List, Tuple

from ._errors import TorchVersionError

# The oldest PyTorch whose torch.export.save output pt2lint reads (the legacy zip layout).
MIN_TORCH = (2, 1)
# The serializer call above is used from this release on (PT2 archive layout).
FAST_PATH_TORCH = (2, 8)
RECORDS_OMITTED_MARKER = "extra/pt2lint_records_omitted"


def torch_version(torch) -> Tuple[int, int]:
    parts = torch.__version__.split("+")[0].split(".")
    try:
        return int(parts[0]), int(parts[1])
    except (ValueError, IndexError):
        return (0, 0)


def require_torch():
    """Imports torch, or raises TorchVersionError saying what is missing."""
    try:
        import torch
    except ImportError as error:
        raise TorchVersionError(f"this needs PyTorch >= {MIN_TORCH[0]}.{MIN_TORCH[1]}, which is not installed ({error})") from None
    if torch_version(torch) < MIN_TORCH:
        raise TorchVersionError(
            f"PyTorch {torch.__version__} is too old: pt2lint supports {MIN_TORCH[0]}.{MIN_TORCH[1]} and later"
        )
    return torch


# ---- custom op schemas from the live process


def _op_overloads(value, torch):
    """OpOverloads in a node argument (auto_functionalized_v2 and with_effects pass the op as
    an argument), looking into lists, tuples and dicts."""
    if isinstance(value, torch._ops.OpOverload):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _op_overloads(item, torch)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _op_overloads(item, torch)


def custom_op_schemas(ep) -> List[str]:
    """The schema of every non-ATen OpOverload in the program's graph and its subgraphs, in
    the text form ``torch.ops.ns.op.default._schema`` prints, e.g.
    ``mylib::update_cache(Tensor(a!) cache, Tensor x, int pos) -> ()``."""
    torch = require_torch()
    schemas = {}
    for module in ep.graph_module.modules():
        graph = getattr(module, "graph", None)
        if not isinstance(graph, torch.fx.Graph):
            continue
        for node in graph.nodes:
            if node.op != "call_function":
                continue
            for op in _op_overloads([node.target, node.args, node.kwargs], torch):
                schema = str(op._schema)
                if not schema.startswith("aten::"):
                    schemas[schema] = None
            if "triton_kernel_wrapper_mutation" in str(node.target):
                line = _triton_declaration(node)
                if line:
                    schemas[line] = None
    return list(schemas)


def _triton_declaration(node) -> Optional[str]:
    """What a user Triton kernel launch writes, as the ``triton::KERNEL(...)`` schema pt2lint
    reads (docs/rules/unknown-op-may-write-state.md): PyTorch's own kernel analysis
    (``identify_mutated_tensors``) names the written parameters. A TRAINING file names the kernel
    only by a process-local index, so this is known in the exporting process alone. None when
    the analysis is unavailable or fails (the launch then stays "may write")."""
    try:
        from torch._higher_order_ops import triton_kernel_wrap as tkw

        kernel = tkw.kernel_side_table.get_kernel(node.kwargs["kernel_idx"])
        fn = getattr(kernel, "fn", kernel)
        constants = tkw.kernel_side_table.get_constant_args(node.kwargs["constant_args_idx"])
        kwargs = dict(node.kwargs["kwargs"])
        values = {k: (v.meta.get("val") if hasattr(v, "meta") else v) for k, v in kwargs.items()}
        values.update(constants)
        try:
            written = set(tkw.identify_mutated_tensors(kernel, values, node.kwargs.get("tma_descriptor_metadata", {})))
        except TypeError:  # older signature, without TMA descriptors
            written = set(tkw.identify_mutated_tensors(kernel, values))
    except Exception:  # noqa: BLE001  (private API: any failure leaves the launch undeclared)
        return None
    params = []
    for i, (name, value) in enumerate(values.items()):
        if hasattr(value, "shape"):
            params.append(f"Tensor({chr(97 + i % 26)}!) {name}" if name in written else f"Tensor {name}")
        else:
            params.append(f"{'float' if isinstance(value, float) else 'bool' if isinstance(value, bool) else 'int'} {name}")
    return f"triton::{getattr(fn, '__name__', 'kernel')}({', '.join(params)}) -> ()"


# ---- serializing a live program


@contextlib.contextmanager
def validation_skipped(ep):
    """PyTorch's serializer first runs ``ep.validate()``, which raises on the very defects
    pt2lint exists to explain (a mutation target that names no buffer, ...). While this is
    active, ``validate`` and ``_validate`` of this one object are no-ops, so a broken program
    can be serialized and checked; save() runs the real validate() before it writes."""
    patched = [name for name in ("validate", "_validate") if hasattr(ep, name) and name not in vars(ep)]
    for name in patched:
        setattr(ep, name, lambda *args, **kwargs: None)
    try:
        yield ep
    finally:
        for name in patched:
            vars(ep).pop(name, None)


def _fast_serializer(torch):
    """PyTorch's serialize(), when it can leave the state out; None otherwise."""
    if torch_version(torch) < FAST_PATH_TORCH:
        return None
    try:
        import inspect

        from torch._export.serde import schema
        from torch._export.serde.serialize import _dataclass_to_dict, serialize, serialize_tensor_meta
    except ImportError:
        return None
    params = inspect.signature(serialize).parameters
    if "serialize_state_dict" in params and "serialize_constants" in params:
        return serialize, schema, _dataclass_to_dict, serialize_tensor_meta, params
    import torch._export.serde.serialize as serde

    if not callable(getattr(serde, "serialize_torch_artifact", None)):
        return None
    return _serialize_without_artifacts(serde, serialize), schema, _dataclass_to_dict, serialize_tensor_meta, {}


def _serialize_without_artifacts(serde, serialize):
    """serialize() of PyTorch releases whose serialize() has no serialize_state_dict keyword
    (2.11 among them): their only copies of the weights are the pickles that the module's
    serialize_torch_artifact makes of the state dict, the constants and the example inputs.
    For the call, that function stands in as an empty pickle. The program JSON does not
    depend on it. Not thread-safe: the module attribute is patched for the duration."""

    def run(ep, **_keywords):
        original = serde.serialize_torch_artifact
        serde.serialize_torch_artifact = lambda *args, **kwargs: b""
        try:
            return serialize(ep)
        finally:
            serde.serialize_torch_artifact = original

    return run


def _payload_meta(schema, **values):
    known = {f.name for f in dataclasses.fields(schema.PayloadMeta)}
    return schema.PayloadMeta(**{k: v for k, v in values.items() if k in known})


def _configs(ep, torch, schema, to_dict, tensor_meta):
    """The weights and constants configs torch.export.save would write, with a path_name per
    entry and no record behind it. Only metadata is read: no tensor is copied."""
    weights = {}
    for index, (fqn, tensor) in enumerate(ep.state_dict.items()):
        weights[fqn] = _payload_meta(
            schema,
            path_name=f"weight_{index}",
            is_param=isinstance(tensor, torch.nn.Parameter),
            use_pickle=False,
            tensor_meta=tensor_meta(tensor),
        )
    constants = {}
    for index, (fqn, value) in enumerate(ep.constants.items()):
        if isinstance(value, torch.Tensor):
            constants[fqn] = _payload_meta(
                schema, path_name=f"tensor_{index}", is_param=False, use_pickle=False, tensor_meta=tensor_meta(value)
            )
        else:  # a script object or opaque value: pickled, without tensor metadata
            constants[fqn] = _payload_meta(
                schema, path_name=f"custom_obj_{index}", is_param=False, use_pickle=True, tensor_meta=None
            )
    return (
        json.dumps(to_dict(schema.PayloadConfig(config=weights))),
        json.dumps(to_dict(schema.PayloadConfig(config=constants))),
    )


def _archive_version(torch) -> str:
    try:
        from torch.export.pt2_archive.constants import ARCHIVE_VERSION_VALUE

        return str(ARCHIVE_VERSION_VALUE)
    except ImportError:
        return "0"


def serialize_without_weights(ep) -> bytes:
    """A PT2 archive of ``ep`` without weight or constant records, or None where PyTorch's
    serializer cannot leave them out."""
    torch = require_torch()
    fast = _fast_serializer(torch)
    if fast is None:
        return None
    serialize, schema, to_dict, tensor_meta, params = fast
    kwargs = {"serialize_state_dict": False, "serialize_constants": False}
    if "serialize_example_inputs" in params:
        kwargs["serialize_example_inputs"] = False
    with validation_skipped(ep):
        artifact = serialize(ep, **kwargs)
    weights_config, constants_config = _configs(ep, torch, schema, to_dict, tensor_meta)
    return records_free_archive(artifact.exported_program, weights_config, constants_config, _archive_version(torch))


def _empty_sample_inputs() -> bytes:
    """torch.save(((), {})) without torch: protocol 2 EMPTY_TUPLE, EMPTY_DICT, TUPLE2, STOP."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as nested:
        nested.writestr("model/data.pkl", b"\x80\x02)}\x86.")
        nested.writestr("model/.data/version", "3\n")
    return buffer.getvalue()


def records_free_archive(program_json: bytes, weights_config: str, constants_config: str,
                         archive_version: str = "0") -> bytes:
    """A PT2 archive with one program, "model", its two configs and no records, marked so
    that the checker knows the records were left out on purpose. Needs no torch."""
    root = "ExportedProgram/"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr(root + "archive_format", "pt2")
        archive.writestr(root + "archive_version", archive_version)
        archive.writestr(root + "models/model.json", program_json)
        archive.writestr(root + "data/weights/model_weights_config.json", weights_config)
        archive.writestr(root + "data/constants/model_constants_config.json", constants_config)
        # What torch.export.load requires of every archive, so that pt2lint's checks of them
        # pass: the stream version torch.export.save writes, and sample inputs ((), {}) as a
        # torch.save zip (root folder, data.pkl, .data/version).
        archive.writestr(root + ".data/version", "6\n")
        archive.writestr(root + "data/sample_inputs/model.pt", _empty_sample_inputs())
        archive.writestr(
            root + RECORDS_OMITTED_MARKER,
            "written by pt2lint's Python package from a live ExportedProgram, without the weights' bytes\n",
        )
    return buffer.getvalue()


def save_to_bytes(ep, **kwargs) -> bytes:
    """torch.export.save into a temporary file (weights included), read back."""
    torch = require_torch()
    with tempfile.TemporaryDirectory(prefix="pt2lint-") as folder:
        path = os.path.join(folder, "program.pt2")
        with validation_skipped(ep):
            torch.export.save(ep, path, **kwargs)
        with open(path, "rb") as f:
            return f.read()


def serialize_for_check(ep) -> Tuple[bytes, List[str]]:
    """What check() sends the binary for a live program: the archive and the custom op
    schemas read from the process."""
    data = serialize_without_weights(ep)
    if data is None:
        data = save_to_bytes(ep)
    return data, custom_op_schemas(ep)
