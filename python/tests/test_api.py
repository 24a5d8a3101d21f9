"""check/diff/contract/lower with every kind of input the API takes, the Report against the
JSON contract, CheckError, and the exceptions for bad input."""

import dataclasses
import io
import json
import subprocess

import pytest

from conftest import REPO, run_cli

TEXTPROTO = REPO / "tests" / "golden" / "structural" / "mutation-target-resolves"


def _a_textproto(kind):
    return sorted(TEXTPROTO.glob(f"{kind}*.textproto"))[0]


def test_check_path_clean_and_broken(pkg, clean_pt2, broken_pt2):
    clean = pkg.check(clean_pt2)
    assert clean.ok and clean.errors == []
    assert [p.name for p in clean.programs] == ["model"]
    assert clean.programs[0].mutations, "the demo program writes its KV cache"
    broken = pkg.check(str(broken_pt2))
    assert not broken.ok
    assert [f.rule for f in broken.errors] == ["PT204"]
    assert broken.errors[0].path == str(broken_pt2)


def test_check_list_of_paths_and_folder(pkg, clean_pt2, broken_pt2):
    both = pkg.check([clean_pt2, broken_pt2])
    assert len(both.programs) == 2 and len(both.errors) == 1
    folder = pkg.check(clean_pt2.parent)
    assert {f.path for f in folder.findings} <= {str(clean_pt2), str(broken_pt2)}
    assert len(folder.errors) == 1


@pytest.mark.parametrize("wrap", [bytes, bytearray, memoryview])
def test_check_bytes(pkg, broken_pt2, wrap):
    report = pkg.check(wrap(broken_pt2.read_bytes()))
    assert [f.rule for f in report.errors] == ["PT204"]
    assert report.errors[0].path == "<bytes>"
    assert "<bytes>:model: error:" in str(report)


def test_check_textproto_bytes(pkg):
    report = pkg.check(_a_textproto("bad").read_bytes())
    assert "PT204" in [f.rule for f in report.errors]
    assert {f.path for f in report.findings} == {"<bytes>"}  # not <bytes>.textproto
    with pytest.raises(pkg.InvalidProgramError) as garbage:
        pkg.check(b"not a program")
    assert str(garbage.value).startswith("<bytes> is not") and "<bytes>.textproto" not in str(garbage.value)


def test_check_file_objects(pkg, clean_pt2, broken_pt2):
    with open(broken_pt2, "rb") as f:
        named = pkg.check(f)
    assert named.errors[0].path == str(broken_pt2)
    anonymous = pkg.check(io.BytesIO(clean_pt2.read_bytes()))
    assert anonymous.ok and anonymous.programs[0].path == "<file>"


def test_report_mirrors_the_json_contract(pkg, binary, broken_pt2):
    raw = json.loads(run_cli(binary, "check", broken_pt2, "--format", "json").stdout)
    report = pkg.check(broken_pt2)
    findings = [f for file in raw["files"] for f in file["findings"]]
    assert len(findings) == len(report.findings)
    for expected, finding in zip(findings, report.findings):
        mirrored = dataclasses.asdict(finding)
        mirrored.pop("path")
        mirrored["location"] = {k: v for k, v in mirrored["location"].items() if v is not None}
        mirrored["fix"] = {k: v for k, v in mirrored["fix"].items() if v not in (None, [])} if mirrored["fix"] else None
        if finding.fix is not None and finding.fix.edits:
            mirrored["fix"]["edits"] = [edit.to_json() for edit in finding.fix.edits]
        if mirrored.get("source"):
            mirrored["source"] = {k: v for k, v in mirrored["source"].items() if v is not None}
        mirrored = {k: v for k, v in mirrored.items() if v is not None and not (k == "related" and v == [])}
        assert mirrored == expected
    programs = [p for file in raw["files"] for p in file["programs"]]
    for expected, program in zip(programs, report.programs):
        mirrored = dataclasses.asdict(program)
        mirrored.pop("path")
        for mutation in mirrored["mutations"] + mirrored["possible_mutations"]:
            if not mutation["ops"]:  # only possible_mutations carry ops
                mutation.pop("ops")
        assert mirrored == expected
    assert report.summary == raw["summary"]
    assert report.json == raw


def test_str_is_the_text_report(pkg, binary, broken_pt2):
    text = run_cli(binary, "check", broken_pt2).stdout.decode()
    assert str(pkg.check(broken_pt2)) == text
    assert text.endswith("1 file checked: 1 error, 0 warnings, 0 notes\n")


def test_check_error(pkg, clean_pt2, broken_pt2):
    assert pkg.check(clean_pt2).raise_for_errors().ok
    report = pkg.check(broken_pt2)
    with pytest.raises(pkg.CheckError) as caught:
        report.raise_for_errors()
    assert caught.value.findings == report.errors
    assert caught.value.report is report
    assert str(caught.value) == str(report)
    assert isinstance(caught.value, pkg.Pt2lintError)


def test_select_ignore_and_config(pkg, broken_pt2, tmp_path):
    # Ignoring PT204 hides its finding, but the structure it found unsound still stops the
    # dataflow rules: no PT303 advising an output that exists under a wrong name.
    ignored = pkg.check(broken_pt2, ignore="PT204")
    assert ignored.errors == [] and [p.structure_sound for p in ignored.programs] == [False]
    assert pkg.check(broken_pt2, ignore=["mutation-target-resolves", "PT303"]).ok
    assert pkg.check(broken_pt2, select=["PT1"]).ok
    assert [f.rule for f in pkg.check(broken_pt2, select="PT2").errors] == ["PT204"]
    with pytest.raises(pkg.UsageError, match="no-such-rule"):
        pkg.check(broken_pt2, select="no-such-rule")
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.pt2lint]\nignore = ["PT204", "PT303"]\n')
    assert pkg.check(broken_pt2, config=config).ok
    assert not pkg.check(broken_pt2, config=False).ok


def test_bad_input_raises_clear_exceptions(pkg, tmp_path):
    with pytest.raises(pkg.TargetNotFoundError, match="no-such.pt2") as missing:
        pkg.check(tmp_path / "no-such.pt2")
    assert isinstance(missing.value, FileNotFoundError)
    with pytest.raises(pkg.TargetTypeError, match="int") as wrong:
        pkg.check(42)
    assert isinstance(wrong.value, TypeError)
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    with pytest.raises(pkg.TargetTypeError, match="text mode"):
        with open(text) as f:
            pkg.check(f)
    junk = tmp_path / "junk.pt2"
    junk.write_bytes(b"PK\x03\x04 this is not a zip archive")
    with pytest.raises(pkg.InvalidProgramError, match="junk.pt2") as invalid:
        pkg.check(junk)
    assert "PT101" in str(invalid.value) and isinstance(invalid.value, ValueError)
    with pytest.raises(pkg.InvalidProgramError):
        pkg.contract(junk)
    with pytest.raises(pkg.InvalidProgramError):
        pkg.lower(b"{not json")


def test_missing_binary(pkg, clean_pt2, monkeypatch, tmp_path):
    monkeypatch.setenv("PT2LINT_BIN", str(tmp_path / "gone"))
    with pytest.raises(pkg.BinaryNotFoundError, match="missing"):
        pkg.check(clean_pt2)


def test_torch_missing_or_too_old(installed, tmp_path):
    fake = tmp_path / "old" / "torch"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("__version__ = '1.13.1'\n")
    code = (
        "import sys; sys.path.insert(0, %r)\nimport pt2lint\n"
        "try:\n    pt2lint.save(object(), 'x.pt2')\nexcept pt2lint.TorchVersionError as e:\n    print(e)\n"
    ) % str(fake.parent)
    out = subprocess.run([str(installed.python), "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert "PyTorch 1.13.1 is too old" in out.stdout, out.stderr
    assert not (tmp_path / "x.pt2").exists()


def test_contract(pkg, clean_pt2):
    contract = pkg.contract(clean_pt2)
    program = contract["programs"][0]
    assert program["name"] == "model"
    assert program["writes"] and all("target" in w for w in program["writes"])
    assert pkg.contract(clean_pt2.read_bytes()) == contract


def test_lower_and_diff(pkg, clean_pt2, broken_pt2, tmp_path):
    lowered = pkg.lower(clean_pt2)
    assert lowered[:2] == b"PK"
    assert pkg.check(lowered).ok
    assert pkg.lower(clean_pt2.read_bytes()) == lowered
    kept = pkg.diff(clean_pt2, lowered)
    assert kept.ok, str(kept)
    renamed = pkg.lower(clean_pt2, rename_nested=True)
    assert pkg.diff(clean_pt2, renamed).ok  # the mapping the lowered program records
    broken = pkg.diff(clean_pt2, pkg.lower(clean_pt2, rename_nested=True), rename={})
    assert not broken.ok
    assert {f.rule for f in broken.errors} & {"PT401", "PT403"}
    assert "<bytes>" in str(broken) and "pt2lint-" not in str(broken)


def test_cli_check_stdin_and_lower_to_stdout(binary, broken_pt2, clean_pt2, tmp_path):
    piped = run_cli(binary, "check", "-", "--stdin-filename", "piped.pt2", stdin=broken_pt2.read_bytes())
    assert piped.returncode == 1
    assert piped.stdout.decode().startswith("piped.pt2:model: error:")
    anonymous = run_cli(binary, "check", "-", stdin=clean_pt2.read_bytes())
    assert anonymous.returncode == 0, anonymous.stderr
    twice = run_cli(binary, "check", "-", "-", stdin=b"")
    assert twice.returncode == 2 and b"only once" in twice.stderr
    to_file = tmp_path / "lowered.pt2"
    assert run_cli(binary, "lower", clean_pt2, "-o", to_file, "-q").returncode == 0
    to_stdout = run_cli(binary, "lower", clean_pt2, "-o", "-", "-q")
    assert to_stdout.returncode == 0
    assert to_stdout.stdout == to_file.read_bytes()
    assert not list(tmp_path.glob("pt2lint-*")), "temporary files are removed"


def test_archive_without_records_is_checked_with_a_note(pkg, clean_pt2):
    """What check(ep) sends for a live program (built here from a saved one, without torch):
    the program and its configs, no records; PT206 checks the entries and says what it skipped."""
    import zipfile

    from pt2lint._torch_bridge import records_free_archive

    with zipfile.ZipFile(clean_pt2) as saved:
        member = {name.split("/", 1)[1]: name for name in saved.namelist()}
        read = lambda path: saved.read(member[path])  # noqa: E731
        archive = records_free_archive(read("models/model.json"), read("data/weights/model_weights_config.json").decode(),
                                       read("data/constants/model_constants_config.json").decode())
    assert len(archive) < clean_pt2.stat().st_size
    report = pkg.check(archive)
    assert report.ok, str(report)
    notes = [f for f in report.notes if f.rule == "PT206"]
    assert len(notes) == 1 and "without the weights' bytes" in notes[0].message
    # Without the marker the same archive is broken: every record is missing.
    with zipfile.ZipFile(io.BytesIO(archive)) as marked:
        unmarked = io.BytesIO()
        with zipfile.ZipFile(unmarked, "w") as out:
            for name in marked.namelist():
                if not name.endswith("pt2lint_records_omitted"):
                    out.writestr(name, marked.read(name))
    errors = pkg.check(unmarked.getvalue()).errors
    assert errors and {f.rule for f in errors} == {"PT206"}


def test_report_is_a_typed_sequence_of_findings(pkg, broken_pt2, tmp_path):
    report = pkg.check(broken_pt2)
    assert len(report) == len(report.findings) == 1
    assert list(report) == report.findings
    with pytest.raises(TypeError, match="no truth value"):
        bool(report)
    finding = report.findings[0]
    assert isinstance(finding.source, pkg.SourceLine) and finding.source.line > 0
    for edit in finding.fix.edits:
        assert isinstance(edit, pkg.Edit) and edit["op"] == edit.op  # the dict view of 0.1
        assert edit.safety == "safe" and edit.safe and edit.proof and edit.proof_text  # docs/fix.md
    counts = report.counts
    assert (counts.errors, counts.new_errors, counts.baselined_errors) == (1, 1, 0)
    assert counts.errors == report.summary["errors"]
    assert report.summary["new"]["errors"] == counts.new_errors


def test_baseline_argument(pkg, broken_pt2, tmp_path):
    baseline = tmp_path / "baseline.json"
    first = pkg.check(broken_pt2, baseline=baseline)  # missing: read as empty
    assert not first.ok and first.counts.new_errors == 1
    run_cli_args = ["check", str(broken_pt2), "--baseline", str(baseline), "--update-baseline"]
    subprocess.run([pkg.find_pt2lint_bin(), *run_cli_args], capture_output=True, check=False)
    accepted = pkg.check(broken_pt2, baseline=baseline)
    assert accepted.ok and accepted.errors == []
    assert [f.rule for f in accepted.baselined] == ["PT204"]
    assert accepted.counts.baselined_errors == 1 and accepted.counts.errors == 1
    assert "error (baselined):" in str(accepted)


def test_empty_folder_is_a_usage_error(pkg, tmp_path):
    with pytest.raises(pkg.UsageError, match="no programs found under"):
        pkg.check(tmp_path)


def test_paths_are_never_options(pkg, broken_pt2, tmp_path, monkeypatch):
    """A file named like an option (issue 24): the API passes paths after "--", so
    `--ignore=ALL.pt2` is checked, not read as --ignore."""
    import shutil
    monkeypatch.chdir(tmp_path)
    shutil.copy(broken_pt2, "--ignore=ALL.pt2")
    report = pkg.check("--ignore=ALL.pt2")
    assert report.errors, report.text
