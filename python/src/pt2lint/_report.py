"""The result of a check: dataclasses that mirror the JSON report of ``pt2lint check
--format json`` (the contract in the README), and the text report beside them."""

from dataclasses import dataclass, field, fields
from typing import Any, Dict, Iterator, List, Mapping, Optional


def _known(cls: Any, data: Mapping[str, Any]) -> Dict[str, Any]:
    # The JSON contract grows additively: keys this version does not know are ignored.
    names = {f.name for f in fields(cls)}
    return {k: v for k, v in data.items() if k in names}


@dataclass(frozen=True)
class Location:
    """Where in the program a finding is; only the keys that apply are set."""

    input_spec: Optional[int] = None
    output_spec: Optional[int] = None
    node: Optional[str] = None
    value: Optional[str] = None
    json_path: Optional[str] = None
    archive_member: Optional[str] = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Location":
        return cls(**_known(cls, data))


@dataclass(frozen=True)
class Edit:
    """One step of a repair (docs/fix.md): ``op`` says what it does, ``sequence`` its order;
    only the fields that apply to the op are set. ``from_`` is the JSON key ``from``.
    ``safety`` is ``"safe"`` (applied by ``pt2lint fix`` by default) or ``"unsafe"`` (decided by
    name similarity only: applied only with ``--unsafe-fixes``); ``proof`` names the evidence
    that decided it (``"dataflow"``, ``"layout"``, ...) and ``proof_text`` says it in words."""

    op: str
    sequence: int = 0
    spec: Optional[int] = None
    input_spec: Optional[int] = None
    to: Optional[int] = None
    kind: Optional[str] = None
    target: Optional[str] = None
    value: Optional[str] = None
    from_: Optional[str] = None
    persistent: Optional[bool] = None
    safety: Optional[str] = None
    proof: Optional[str] = None
    proof_text: Optional[str] = None

    @property
    def safe(self) -> bool:
        """Whether ``pt2lint fix`` applies this edit without ``--unsafe-fixes``."""
        return self.safety == "safe"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Edit":
        values = _known(cls, data)
        if "from" in data:
            values["from_"] = data["from"]
        return cls(**values)

    def to_json(self) -> Dict[str, Any]:
        """The edit as the JSON report writes it (only the keys that are set)."""
        out: Dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None:
                out["from" if f.name == "from_" else f.name] = value
        return out

    # Edits were dicts before 0.2: ``edit["op"]`` and ``edit.get("to")`` keep working for a
    # release (CHANGELOG).
    def __getitem__(self, key: str) -> Any:
        data = self.to_json()
        return data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.to_json().get(key, default)


@dataclass(frozen=True)
class Fix:
    description: str
    replacement: Optional[str] = None
    # The repair as data (docs/fix.md), in order.
    edits: List[Edit] = field(default_factory=list)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Fix":
        values = _known(cls, data)
        values["edits"] = [Edit.from_json(edit) for edit in data.get("edits", [])]
        return cls(**values)


@dataclass(frozen=True)
class SourceLine:
    """The user's line that made a finding's node: the innermost user frame of its stack
    trace (``file`` relative to ``--source-root`` when it lies under it)."""

    file: str
    line: int
    function: Optional[str] = None
    code: Optional[str] = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "SourceLine":
        return cls(**_known(cls, data))


@dataclass(frozen=True)
class Finding:
    """One finding. ``rule`` is the stable ID (``PT204``); compare IDs, not messages."""

    rule: str
    name: str
    severity: str  # "error", "warning" or "note"
    program: str
    location: Location
    message: str
    notes: List[str] = field(default_factory=list)
    fix: Optional[Fix] = None
    op: Optional[str] = None
    state: Optional[str] = None
    baseline: bool = False
    # Findings with one root cause are grouped under a primary (docs/fix.md): the primary has
    # `root_cause` and `related` (indices into the file's findings), each grouped one `cause`.
    root_cause: Optional[str] = None
    related: List[int] = field(default_factory=list)
    cause: Optional[int] = None
    path: str = ""  # the file (or the stdin name) the finding is in
    source: Optional[SourceLine] = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any], path: str) -> "Finding":
        values = _known(cls, data)
        values["location"] = Location.from_json(data.get("location", {}))
        values["fix"] = Fix.from_json(data["fix"]) if data.get("fix") else None
        values["source"] = SourceLine.from_json(data["source"]) if data.get("source") else None
        values["notes"] = list(data.get("notes", []))
        values["related"] = list(data.get("related", []))
        values["path"] = path
        return cls(**values)


@dataclass(frozen=True)
class Mutation:
    """One state write of a program's effective mutation set."""

    target: str
    kind: str  # "buffer", "parameter", "user_input", "tensor_constant"
    nodes: List[str] = field(default_factory=list)
    ops: List[str] = field(default_factory=list)  # possible_mutations only: each node's op

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Mutation":
        values = _known(cls, data)
        values["nodes"] = list(data.get("nodes", []))
        if "ops" in data:
            values["ops"] = list(data["ops"])
        return cls(**values)


@dataclass(frozen=True)
class Program:
    name: str
    dialect: str = ""
    schema_version: str = ""
    layout: str = ""
    structure_sound: bool = True
    mutations: List[Mutation] = field(default_factory=list)
    # State an op of unknown schema may write: pt2lint cannot tell, so it is not in `mutations`.
    possible_mutations: List[Mutation] = field(default_factory=list)
    path: str = ""

    @classmethod
    def from_json(cls, data: Mapping[str, Any], path: str) -> "Program":
        values = _known(cls, data)
        values["mutations"] = [Mutation.from_json(m) for m in data.get("mutations", [])]
        values["possible_mutations"] = [Mutation.from_json(m) for m in data.get("possible_mutations", [])]
        values["path"] = path
        return cls(**values)


@dataclass(frozen=True)
class Counts:
    """Finding counts with one meaning everywhere (text summary, JSON ``summary``):
    ``errors`` counts every error finding, ``new_errors`` those no baseline holds (they fail
    the check) and ``baselined_errors`` the others; likewise for warnings and notes."""

    files: int = 0
    errors: int = 0
    warnings: int = 0
    notes: int = 0
    new_errors: int = 0
    new_warnings: int = 0
    new_notes: int = 0
    baselined_errors: int = 0
    baselined_warnings: int = 0
    baselined_notes: int = 0


class Report:
    """What pt2lint found. ``str(report)`` is the text report the CLI prints.

    A Report is a sequence of its findings: ``len(report)`` counts them (baselined ones
    included) and ``for finding in report`` walks them. It has no truth value: ask
    ``report.ok`` (no new error) or ``len(report)`` instead of ``if report``."""

    def __init__(self, data: Mapping[str, Any], text: str):
        self.json: Dict[str, Any] = dict(data)  # the JSON report as parsed, for keys this version does not model
        self.text = text
        self.findings: List[Finding] = []
        self.programs: List[Program] = []
        for file in data.get("files", []):
            path = file.get("path", "")
            self.programs += [Program.from_json(p, path) for p in file.get("programs", [])]
            self.findings += [Finding.from_json(f, path) for f in file.get("findings", [])]
        self.summary: Dict[str, Any] = dict(data.get("summary", {}))

    def _failing(self, severity: str) -> List[Finding]:
        return [f for f in self.findings if f.severity == severity and not f.baseline]

    @property
    def errors(self) -> List[Finding]:
        """The new error findings (not in a baseline): these fail a check."""
        return self._failing("error")

    @property
    def warnings(self) -> List[Finding]:
        """The new warnings (not in a baseline)."""
        return self._failing("warning")

    @property
    def notes(self) -> List[Finding]:
        """The new notes (not in a baseline)."""
        return self._failing("note")

    @property
    def baselined(self) -> List[Finding]:
        """The findings a baseline holds: reported, but they do not fail."""
        return [f for f in self.findings if f.baseline]

    @property
    def counts(self) -> Counts:
        """Every count of the summary, new and baselined apart."""

        def count(severity: str, baselined: bool) -> int:
            return sum(1 for f in self.findings if f.severity == severity and f.baseline == baselined)

        new = {s: count(s, False) for s in ("error", "warning", "note")}
        old = {s: count(s, True) for s in ("error", "warning", "note")}
        files = int(self.summary.get("files", len({p.path for p in self.programs})))
        return Counts(
            files=files,
            errors=new["error"] + old["error"],
            warnings=new["warning"] + old["warning"],
            notes=new["note"] + old["note"],
            new_errors=new["error"],
            new_warnings=new["warning"],
            new_notes=new["note"],
            baselined_errors=old["error"],
            baselined_warnings=old["warning"],
            baselined_notes=old["note"],
        )

    @property
    def ok(self) -> bool:
        """True when there is no new error finding."""
        return not self.errors

    def raise_for_errors(self) -> "Report":
        """Raises CheckError when there are error findings; returns the report otherwise."""
        if not self.ok:
            from ._errors import CheckError

            raise CheckError(self)
        return self

    def renamed(self, old: str, new: str) -> "Report":
        """The same report with the path OLD shown as NEW (a temporary file the caller never
        saw, shown under the name the caller knows)."""
        import json

        raw = json.dumps(self.json).replace(json.dumps(old)[1:-1], json.dumps(new)[1:-1])
        return Report(json.loads(raw), self.text.replace(old, new))

    def __iter__(self) -> Iterator[Finding]:
        return iter(self.findings)

    def __len__(self) -> int:
        return len(self.findings)

    def __bool__(self) -> bool:
        raise TypeError(
            "a pt2lint.Report has no truth value: use report.ok (no new error) or len(report) (its findings)"
        )

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return (
            f"<pt2lint.Report {len(self.programs)} program(s): {len(self.errors)} error(s), "
            f"{len(self.warnings)} warning(s), {len(self.notes)} note(s)>"
        )
