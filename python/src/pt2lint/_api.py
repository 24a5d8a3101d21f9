"""check, diff, contract and lower: the CLI's commands as functions."""

import contextlib
import json
import os
import tempfile
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from ._binary import Completed, run_binary, subcommand_has_flag
from ._errors import InvalidProgramError, Pt2lintError, TargetTypeError, UsageError
from ._report import Report
from ._targets import Input, Target, prepare

Rules = Union[None, str, Iterable[str]]
# A path, or False for no config at all; None: discovered from the checked path.
ConfigChoice = Union[None, bool, str, "os.PathLike[str]"]
# A schemas file, or schema strings (`mylib::f(Tensor(a!) x) -> ()`).
OpSchemas = Union[None, str, "os.PathLike[str]", Iterable[str]]
PathArg = Union[str, "os.PathLike[str]"]


def _rule_list(value: Rules, what: str) -> Optional[str]:
    if value is None:
        return None
    items = [value] if isinstance(value, str) else list(value)
    for item in items:
        if not isinstance(item, str) or not item or "," in item:
            raise TargetTypeError(f"{what} takes rule IDs, ID prefixes or names, not {item!r}")
    return ",".join(items)


def _filter_args(select: Rules, ignore: Rules, config: ConfigChoice) -> List[str]:
    args: List[str] = []
    if (selected := _rule_list(select, "select")) is not None:
        args += ["--select", selected]
    if (ignored := _rule_list(ignore, "ignore")) is not None:
        args += ["--ignore", ignored]
    if config is False:
        args.append("--no-config")
    elif config is not None and config is not True:
        path = os.fspath(config)
        if not os.path.isfile(path):
            raise UsageError(f"config file not found: {path!r}")
        args += ["--config", path]
    return args


def _schema_args(subcommand: str, prepared: Input, op_schemas: OpSchemas, stack: contextlib.ExitStack) -> List[str]:
    """--op-schemas FILE: the schemas read from a live program plus those the caller gives
    (a file, or a list of schema strings)."""
    lines = list(prepared.op_schemas)
    given_file: Optional[str] = None
    if isinstance(op_schemas, (str, os.PathLike)):
        given_file = os.fspath(op_schemas)
        if not os.path.isfile(given_file):
            raise UsageError(f"op schemas file not found: {given_file!r}")
    elif op_schemas is not None:
        lines += [str(s) for s in op_schemas]
    if not lines and given_file is None:
        return []
    if not subcommand_has_flag(subcommand, "--op-schemas"):
        if op_schemas is not None:
            raise UsageError(f"this pt2lint binary's `{subcommand}` has no --op-schemas option")
        return []  # custom ops then stay unknown: the binary treats them conservatively
    args: List[str] = []
    if given_file is not None:
        args += ["--op-schemas", given_file]
    if lines:
        handle = stack.enter_context(
            tempfile.NamedTemporaryFile("w", prefix="pt2lint-schemas-", suffix=".txt")
        )
        handle.write("# read from the live process by pt2lint's Python package\n")
        handle.write("\n".join(dict.fromkeys(lines)) + "\n")
        handle.flush()
        args += ["--op-schemas", handle.name]
    return args


def _report(json_run: Completed, text_run: Completed, renames: Sequence[Tuple[str, str]] = ()) -> Report:
    raw = json_run.stdout.decode("utf-8", "replace")
    try:
        data = json.loads(raw)
    except ValueError:
        raise Pt2lintError(f"pt2lint gave no JSON report: {json_run.stderr.strip() or raw[:400]!r}") from None
    report = Report(data, text_run.stdout.decode("utf-8", "replace"))
    for temp, shown in renames:
        report = report.renamed(temp, shown)
    return report


def check(
    target: Target,
    *,
    select: Rules = None,
    ignore: Rules = None,
    config: ConfigChoice = None,
    op_schemas: OpSchemas = None,
    baseline: Optional[PathArg] = None,
) -> Report:
    """Checks one or more exported programs and returns the Report.

    target: a path (file or folder), a list of paths, bytes, a binary file object, or a
    torch.export.ExportedProgram. select/ignore: rule IDs, ID prefixes or names. config: a
    config file (pyproject.toml or .pt2lint.toml), or False to ignore any; by default it is
    discovered from the checked path. op_schemas: a schemas file or a list of schema strings
    for custom ops (those of a live ExportedProgram are read from the process). baseline: a
    baseline file (``pt2lint check --baseline``); its findings are marked ``baseline`` and do
    not make ``report.ok`` false; one that does not exist yet reads as empty."""
    prepared = prepare(target)
    with contextlib.ExitStack() as stack:
        base = ["check", *prepared.check_options(), *_filter_args(select, ignore, config)]
        if baseline is not None:
            base += ["--baseline", os.fspath(baseline)]
        # Paths go after "--", so that no file name is read as an option.
        paths = ["--", *prepared.check_paths()]
        args = base + _schema_args("check", prepared, op_schemas, stack)
        try:
            json_run = run_binary(args + ["--format", "json", *paths], stdin=prepared.data)
        except UsageError:
            if not prepared.op_schemas:
                raise
            # A schema read from the process that the binary's parser refuses: check without
            # them (those ops stay unknown and are treated conservatively) rather than fail.
            prepared.op_schemas = []
            args = base + _schema_args("check", prepared, op_schemas, stack)
            json_run = run_binary(args + ["--format", "json", *paths], stdin=prepared.data)
        text_run = run_binary(args + ["--format", "text", *paths], stdin=prepared.data)
    report = _report(json_run, text_run)
    single = prepared.data is not None or (len(prepared.paths) == 1 and os.path.isfile(prepared.paths[0]))
    if single and not report.programs:
        name = prepared.name or prepared.paths[0]
        raise InvalidProgramError(f"{name} is not an exported program pt2lint can read:\n{report.text}")
    return report


def _one_path(target: Target, stack: contextlib.ExitStack, with_weights: bool = False) -> Tuple[Input, str, str]:
    prepared = prepare(target, with_weights=with_weights)
    path = prepared.single_path(stack)
    return prepared, path, (prepared.name or path)


def _unreadable(stderr: str, shown: str, path: str) -> InvalidProgramError:
    return InvalidProgramError(
        f"{shown} is not an exported program pt2lint can read:\n{stderr.strip().replace(path, shown)}"
    )


def diff(
    before: Target,
    after: Target,
    *,
    rename: Union[None, Mapping[str, str], PathArg] = None,
    op_schemas: OpSchemas = None,
) -> Report:
    """Checks that AFTER (a lowering of BEFORE) keeps BEFORE's mutation contract. rename: a
    dict {old FQN: new name} or a JSON file; by default the mapping AFTER records."""
    with contextlib.ExitStack() as stack:
        before_in, before_path, before_shown = _one_path(before, stack)
        after_in, after_path, after_shown = _one_path(after, stack)
        args = ["diff"]
        if isinstance(rename, Mapping):
            handle = stack.enter_context(tempfile.NamedTemporaryFile("w", suffix=".json", prefix="pt2lint-rename-"))
            json.dump(dict(rename), handle)
            handle.flush()
            args += ["--rename", handle.name]
        elif rename is not None:
            args += ["--rename", os.fspath(rename)]
        merged = Input()
        merged.op_schemas = before_in.op_schemas + after_in.op_schemas
        args += _schema_args("diff", merged, op_schemas, stack)
        runs: List[Completed] = []
        for fmt in ("json", "text"):
            run = run_binary(args + ["--format", fmt, "--", before_path, after_path], allowed=(0, 1, 2, 3))
            if run.returncode == 2:
                for path, shown in ((before_path, before_shown), (after_path, after_shown)):
                    if f"'{path}'" in run.stderr:
                        raise _unreadable(run.stderr, shown, path)
                raise UsageError(run.stderr.strip())
            runs.append(run)
        return _report(runs[0], runs[1], renames=[(after_path, after_shown), (before_path, before_shown)])


def contract(target: Target) -> Dict[str, Any]:
    """The mutation contract of every program in TARGET: user inputs and outputs and every
    state write (``pt2lint contract --format json``)."""
    with contextlib.ExitStack() as stack:
        _, path, shown = _one_path(target, stack)
        run = run_binary(["contract", "--format", "json", "--", path], allowed=(0, 1))
        if run.returncode != 0:
            raise _unreadable(run.stderr, shown, path)
        try:
            data: Dict[str, Any] = json.loads(run.stdout)
            return data
        except ValueError:
            raise Pt2lintError(f"pt2lint contract gave no JSON: {run.stderr.strip()!r}") from None


def lower(target: Target, *, rename_nested: bool = False, op_schemas: OpSchemas = None) -> bytes:
    """The reference lowering of TARGET (``pt2lint lower``), in the input's own layout:
    a .pt2 archive's bytes for an archive or an ExportedProgram."""
    with contextlib.ExitStack() as stack:
        prepared, path, shown = _one_path(target, stack, with_weights=True)
        args = ["lower", "-o", "-", "--quiet"]
        if rename_nested:
            args.append("--rename-nested")
        args += _schema_args("lower", prepared, op_schemas, stack)
        args += ["--", path]
        run = run_binary(args, allowed=(0, 1))
        if run.returncode != 0 and "cannot lower:" in run.stderr:
            raise Pt2lintError(f"{shown} cannot be lowered: {run.stderr.strip().replace(path, shown)}")
        if run.returncode != 0:
            raise _unreadable(run.stderr, shown, path)
        return run.stdout
