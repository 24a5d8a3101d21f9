"""Assertions for backend test suites: pt2lint as a regression oracle.

    from pt2lint.testing import assert_clean, assert_contract_kept, assert_same_state

assert_clean and assert_contract_kept are static (no torch needed for files);
assert_same_state runs both programs with torch."""

from typing import Any, Mapping, Optional, Sequence, Union

from ._api import PathArg, check, diff
from ._report import Finding
from ._targets import Target


def assert_clean(target: Target, **check_options: Any) -> None:
    """Fails with the text report when TARGET has error findings."""
    __tracebackhide__ = True
    report = check(target, **check_options)
    if not report.ok:
        raise AssertionError(f"pt2lint found {len(report.errors)} error(s):\n{report}")


def _promise_words(finding: Finding) -> str:
    lines = [f"{finding.message} [{finding.rule} {finding.name}]"]
    lines += [f"     why: {note}" for note in finding.notes[:1]]
    if finding.fix is not None:
        lines.append(f"     fix: {finding.fix.description}")
    return "\n".join(lines)


def assert_contract_kept(
    before: Target, after: Target, rename: Union[None, Mapping[str, str], PathArg] = None
) -> None:
    """Fails when AFTER (a lowering of BEFORE) breaks a promise of BEFORE's mutation
    contract; the message lists each broken promise in plain words."""
    __tracebackhide__ = True
    report = diff(before, after, rename=rename)
    broken = report.errors
    if broken:
        items = "\n".join(f"  {i}. {_promise_words(f)}" for i, f in enumerate(broken, 1))
        raise AssertionError(
            f"the lowered program breaks {len(broken)} promise(s) of the original's mutation contract:\n{items}"
        )


def _load(program, torch):
    if type(program).__name__ == "ExportedProgram":
        return program
    if isinstance(program, (bytes, bytearray)):
        import io

        return torch.export.load(io.BytesIO(bytes(program)))
    return torch.export.load(program)


def _difference(torch, expected, actual, rtol, atol):
    """None when equal within tolerance; else why not, in words."""
    if not isinstance(expected, torch.Tensor) or not isinstance(actual, torch.Tensor):
        return None if expected == actual else f"before {expected!r}, after {actual!r}"
    if expected.shape != actual.shape or expected.dtype != actual.dtype:
        return (
            f"before {tuple(expected.shape)} {expected.dtype}, after {tuple(actual.shape)} {actual.dtype}"
        )
    if torch.allclose(expected, actual, rtol=rtol, atol=atol, equal_nan=True):
        return None
    if expected.dtype == torch.bool or not (expected.is_floating_point() or expected.is_complex()):
        delta = (expected != actual).reshape(-1)
    else:
        delta = (expected - actual).abs().reshape(-1)
    where = int(delta.float().argmax())
    index = []
    for size in reversed(expected.shape):
        where_in, rest = divmod(where, size) if size else (0, 0)
        index.insert(0, rest)
        where = where_in
    flat = int(delta.float().argmax())
    return (
        f"at index {tuple(index)}: before {expected.reshape(-1)[flat].item()!r}, "
        f"after {actual.reshape(-1)[flat].item()!r}"
    )


def _private_copy(module):
    """A module whose buffers no other module shares: ``ep.module()`` registers the program's
    own state tensors, and a program and its run_decompositions() share them."""
    import copy

    try:
        return copy.deepcopy(module)
    except Exception:  # a module deepcopy cannot handle: give it fresh buffers instead
        for name, buffer in list(module.named_buffers()):
            owner, _, leaf = name.rpartition(".")
            (module.get_submodule(owner) if owner else module)._buffers[leaf] = buffer.clone()
        return module


def assert_same_state(before: Any, after: Any, inputs: Union[Sequence[Any], Mapping[str, Any]], steps: int = 3,
                      rtol: float = 1e-5, atol: float = 1e-6,
                      rename: Optional[Mapping[str, str]] = None) -> None:
    """Runs both programs through ``.module()`` for STEPS calls on INPUTS (a tuple of
    positional arguments, or a dict of keyword arguments) and compares the user outputs and
    every buffer after each step. Fails naming the first output or state that differs, and
    the step. rename: {before FQN: after FQN} for buffers a lowering renamed.

    This is the dynamic half of the oracle: for when the static contract holds but the numbers
    may not. Both modules are deep copies: the programs' own state is left untouched."""
    __tracebackhide__ = True
    import copy

    from ._torch_bridge import require_torch

    torch = require_torch()
    from torch.utils import _pytree as pytree

    modules = [_private_copy(_load(p, torch).module()) for p in (before, after)]
    rename = dict(rename or {})
    args, kwargs = (tuple(), dict(inputs)) if isinstance(inputs, dict) else (tuple(inputs), {})
    with torch.no_grad():
        for step in range(1, steps + 1):
            outputs = []
            for module in modules:
                # Each run gets its own inputs: a program may write its user inputs.
                a, k = copy.deepcopy((args, kwargs))
                outputs.append(pytree.tree_flatten(module(*a, **k))[0])
            if len(outputs[0]) != len(outputs[1]):
                raise AssertionError(
                    f"step {step}: before returns {len(outputs[0])} output(s), after {len(outputs[1])}"
                )
            for i, (expected, actual) in enumerate(zip(*outputs)):
                problem = _difference(torch, expected, actual, rtol, atol)
                if problem:
                    raise AssertionError(f"step {step}: user output {i} differs {problem}")
            after_buffers = dict(modules[1].named_buffers())
            for name, expected in modules[0].named_buffers():
                other = rename.get(name, name)
                if other not in after_buffers:
                    raise AssertionError(
                        f"step {step}: buffer `{name}` of the original has no counterpart `{other}` after lowering"
                    )
                problem = _difference(torch, expected, after_buffers[other], rtol, atol)
                if problem:
                    raise AssertionError(f"step {step}: buffer `{name}` differs {problem}")
