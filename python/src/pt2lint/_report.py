"""The result of a check: dataclasses that mirror the JSON report of ``pt2lint check
--format json`` (the contract in the README), and the text report beside them."""

from dataclasses import dataclass, field, fields
from typing import List, Optional


def _known(cls, data: dict) -> dict:
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
    def from_json(cls, data: dict) -> "Location":
        return cls(**_known(cls, data))


@dataclass(frozen=True)
class Fix:
    description: str
    replacement: Optional[str] = None
    # The repair as data (docs/fix.md): dicts with `op`, `sequence` and the keys that apply.
    edits: List[dict] = field(default_factory=list)

    @classmethod
    def from_json(cls, data: dict) -> "Fix":
        values = _known(cls, data)
        values["edits"] = [dict(edit) for edit in data.get("edits", [])]
        return cls(**values)


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

    @classmethod
    def from_json(cls, data: dict, path: str) -> "Finding":
        values = _known(cls, data)
        values["location"] = Location.from_json(data.get("location", {}))
        values["fix"] = Fix.from_json(data["fix"]) if data.get("fix") else None
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
    def from_json(cls, data: dict) -> "Mutation":
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
    def from_json(cls, data: dict, path: str) -> "Program":
        values = _known(cls, data)
        values["mutations"] = [Mutation.from_json(m) for m in data.get("mutations", [])]
        values["possible_mutations"] = [Mutation.from_json(m) for m in data.get("possible_mutations", [])]
        values["path"] = path
        return cls(**values)


class Report:
    """What pt2lint found. ``str(report)`` is the text report the CLI prints."""

    def __init__(self, data: dict, text: str):
        self.json = data  # the JSON report as parsed, for keys this version does not model
        self.text = text
        self.findings: List[Finding] = []
        self.programs: List[Program] = []
        for file in data.get("files", []):
            path = file.get("path", "")
            self.programs += [Program.from_json(p, path) for p in file.get("programs", [])]
            self.findings += [Finding.from_json(f, path) for f in file.get("findings", [])]
        self.summary: dict = dict(data.get("summary", {}))

    def _failing(self, severity: str) -> List[Finding]:
        return [f for f in self.findings if f.severity == severity and not f.baseline]

    @property
    def errors(self) -> List[Finding]:
        """Error findings that are not in a baseline: these fail a check."""
        return self._failing("error")

    @property
    def warnings(self) -> List[Finding]:
        return self._failing("warning")

    @property
    def notes(self) -> List[Finding]:
        return self._failing("note")

    @property
    def ok(self) -> bool:
        """True when there is no error finding."""
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

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return (
            f"<pt2lint.Report {len(self.programs)} program(s): {len(self.errors)} error(s), "
            f"{len(self.warnings)} warning(s), {len(self.notes)} note(s)>"
        )
