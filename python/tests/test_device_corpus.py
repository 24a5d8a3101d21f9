"""The package on programs that PyTorch 2.11 exported (tests/data/device, no torch needed):
real transformer exports clean and with the seeded backend bugs, through check, the contract
oracle, lower + diff and the pytest plugin; custom-op programs with their schemas file."""

import shutil

import pytest

from conftest import REPO

DEVICE = REPO / "tests" / "data" / "device"
SEEDBUGS = DEVICE / "seedbugs"
CUSTOMOPS = DEVICE / "customops"


def test_clean_exports_check_clean(pkg):
    for name in ("hf_llama_clean.pt2", "hf_llama_clean.aten.pt2"):
        report = pkg.check(SEEDBUGS / name)
        assert report.ok, str(report)
        assert report.programs[0].mutations, f"{name}: the static cache is written"


@pytest.mark.parametrize("bug", ["dropped_write_back", "pairing_by_position", "rename_one_side"])
def test_seeded_backend_bugs(pkg, bug):
    testing = pkg.testing
    broken = SEEDBUGS / f"hf_llama__{bug}.pt2"
    with pytest.raises(AssertionError, match=r"pt2lint found \d+ error"):
        testing.assert_clean(broken)
    with pytest.raises(AssertionError, match=r"breaks \d+ promise\(s\)") as caught:
        testing.assert_contract_kept(SEEDBUGS / "hf_llama_clean.aten.pt2", broken)
    message = str(caught.value)
    assert "\n  1. " in message  # one numbered line per broken promise
    if bug == "dropped_write_back":
        assert "PT401 write-back-lost" in message


def test_contract_kept_by_pytorch_and_by_the_reference_lowering(pkg):
    testing = pkg.testing
    testing.assert_contract_kept(SEEDBUGS / "hf_llama_clean.pt2", SEEDBUGS / "hf_llama_clean.aten.pt2")
    lowered = pkg.lower(SEEDBUGS / "hf_llama_clean.pt2")
    testing.assert_clean(lowered)
    testing.assert_contract_kept(SEEDBUGS / "hf_llama_clean.pt2", lowered)
    assert [w["target"] for w in pkg.contract(lowered)["programs"][0]["writes"]]


def test_plugin_on_the_seeded_bugs(pytester, pkg):
    for file in SEEDBUGS.glob("*.pt2"):
        shutil.copy(file, pytester.path / file.name)
    result = pytester.runpytest("--pt2lint", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=3)
    result.stdout.fnmatch_lines(["*FAILED hf_llama__dropped_write_back.pt2::pt2lint*"])


def test_custom_op_schemas_file(pkg, binary):
    import subprocess

    has_flag = "--op-schemas" in subprocess.run([binary, "check", "--help"], capture_output=True, text=True).stdout
    program = CUSTOMOPS / "two_caches.aten.pt2"
    if not has_flag:
        with pytest.raises(pkg.UsageError, match="--op-schemas"):
            pkg.check(program, op_schemas=CUSTOMOPS / "schemas.txt")
        pytest.skip("this pt2lint binary is older than --op-schemas (custom op schemas)")
    report = pkg.check(program, op_schemas=CUSTOMOPS / "schemas.txt")
    assert report.ok, str(report)
    listed = [line for line in (CUSTOMOPS / "schemas.txt").read_text().splitlines() if "::" in line]
    assert pkg.check(program, op_schemas=listed).json == report.json
    broken = pkg.check(CUSTOMOPS / "two_caches__dropped_write_back.aten.pt2", op_schemas=CUSTOMOPS / "schemas.txt")
    assert "PT303" in {f.rule for f in broken.errors}, str(broken)
