"""The parts of pt2lint's Python package that need PyTorch, run on live exports: check(ep)
with a custom op nobody declared, save() refusing a broken program, the static contract
oracle against run_decompositions() and against a pass that drops a write-back, and the
dynamic oracle (assert_same_state) against lower(ep) and a swapped-target program.

Needs torch (PyTorch 2.11 on the device machine); skipped without it. Run against the
installed wheel: see docs/python.md for the command."""

import copy
import io
import os
import re

import pytest

torch = pytest.importorskip("torch", reason="needs PyTorch: these tests run on the device machine (docs/python.md)")

import pt2lint  # noqa: E402  (after the skip: the installed wheel)
from pt2lint import testing  # noqa: E402
from pt2lint._binary import subcommand_has_flag  # noqa: E402
from pt2lint._torch_bridge import custom_op_schemas, serialize_without_weights  # noqa: E402


@torch.library.custom_op("pt2lint_py::accumulate", mutates_args={"acc"})
def accumulate(acc: torch.Tensor, x: torch.Tensor) -> None:
    acc.add_(x)


@accumulate.register_fake
def _(acc, x):
    return None


# As torch.ops.ns.op.default._schema prints it: `Tensor(a0!) acc` in PyTorch 2.11
# (tests/data/device/customops/schemas.txt).
ACCUMULATE_SCHEMA = re.compile(r"pt2lint_py::accumulate\(Tensor\(a\d*!\) acc, Tensor x\) -> \(\)")


def has_accumulate(schemas):
    return any(ACCUMULATE_SCHEMA.fullmatch(s) for s in schemas)


class TwoCaches(torch.nn.Module):
    """Two same-shaped buffers with different updates: swapping their write-backs runs, and
    computes the wrong state."""

    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        self.register_buffer("a", torch.zeros(4))
        self.register_buffer("b", torch.ones(4))

    def forward(self, x):
        self.a.add_(x.sum(0))
        self.b.mul_(0.5)
        return self.lin(x) + self.b


class WithCustomOp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("acc", torch.zeros(4))

    def forward(self, x):
        torch.ops.pt2lint_py.accumulate(self.acc, x.sum(0))
        return x * 2


def inputs():
    return (torch.arange(8, dtype=torch.float32).reshape(2, 4) / 8,)


@pytest.fixture(scope="module")
def ep():
    torch.manual_seed(0)
    return torch.export.export(TwoCaches(), inputs())


@pytest.fixture(scope="module")
def aten(ep):
    return ep.run_decompositions()


def _mutation_specs(program):
    return [i for i, s in enumerate(program.graph_signature.output_specs) if s.kind.name == "BUFFER_MUTATION"]


def test_check_live_export(ep, aten):
    for program in (ep, aten):
        report = pt2lint.check(program)
        assert report.ok, str(report)
        assert report.programs[0].name == "model"
        assert {m.target for m in report.programs[0].mutations} == {"a", "b"}
        print(report)


def test_live_check_does_not_copy_the_weights():
    big = torch.export.export(torch.nn.Linear(1024, 1024), (torch.randn(2, 1024),))
    archive = serialize_without_weights(big)
    assert archive is not None, f"the serializer fast path is missing in torch {torch.__version__}"
    assert len(archive) < 256 * 1024, f"{len(archive)} bytes for 4 MB of weights"
    report = pt2lint.check(big)
    assert report.ok, str(report)
    notes = [f for f in report.notes if f.rule == "PT206"]
    assert notes and "without the weights' bytes" in notes[0].message, str(report)


def test_custom_op_schema_is_read_from_the_process():
    program = torch.export.export(WithCustomOp(), inputs())
    assert has_accumulate(custom_op_schemas(program)), custom_op_schemas(program)
    # After run_decompositions the op is an argument of auto_functionalized_v2.
    decomposed = program.run_decompositions()
    targets = {str(n.target) for n in decomposed.graph.nodes if n.op == "call_function"}
    print("ATEN targets:", sorted(targets))
    assert has_accumulate(custom_op_schemas(decomposed)), custom_op_schemas(decomposed)
    if not subcommand_has_flag("check", "--op-schemas"):
        pytest.skip("this pt2lint binary is older than --op-schemas (custom op schemas): "
                    "the schema is read but cannot be passed")
    for p in (program, decomposed):
        report = pt2lint.check(p)
        print(report)
        assert report.ok, str(report)
        assert {m.target for m in report.programs[0].mutations} == {"acc"}, str(report)
        assert not report.warnings, str(report)


def test_save_refuses_a_broken_program_and_writes_a_clean_one(aten, tmp_path):
    target = tmp_path / "model.pt2"
    broken = copy.deepcopy(aten)
    spec = broken.graph_signature.output_specs[_mutation_specs(broken)[0]]
    spec.target = "lifted_buf_" + spec.target  # a backend pass renamed one side only
    with pytest.raises(pt2lint.CheckError) as refused:
        pt2lint.save(broken, target)
    print(refused.value)
    assert [f.rule for f in refused.value.findings] == ["PT204"]
    assert str(target) in str(refused.value)
    assert not target.exists()
    assert os.listdir(tmp_path) == [], "the temporary file is removed"

    report = pt2lint.save(aten, target)
    assert report.ok and target.exists()
    assert os.listdir(tmp_path) == ["model.pt2"]
    loaded = torch.export.load(target)
    testing.assert_same_state(aten, loaded, inputs())

    buffer = io.BytesIO()
    with pytest.raises(pt2lint.CheckError):
        pt2lint.save(broken, buffer)
    assert buffer.getvalue() == b""


def test_contract_kept_by_run_decompositions(ep, aten):
    testing.assert_contract_kept(ep, aten)
    testing.assert_contract_kept(ep, ep.run_decompositions())


def _drop_write_back(program, index):
    """A buggy pass: removes one buffer_mutation output and its graph output."""
    program = copy.deepcopy(program)
    output = next(n for n in program.graph_module.graph.nodes if n.op == "output")
    values = list(output.args[0])
    del values[index]
    output.args = (tuple(values),)
    program.graph_module.recompile()
    del program.graph_signature.output_specs[index]
    return program


def test_contract_broken_by_a_pass_that_drops_a_write_back(ep, aten):
    index = _mutation_specs(aten)[0]
    dropped_target = aten.graph_signature.output_specs[index].target
    dropped = _drop_write_back(aten, index)
    with pytest.raises(AssertionError) as broken:
        testing.assert_contract_kept(ep, dropped)
    message = str(broken.value)
    print(message)
    assert re.search(r"breaks \d+ promise\(s\)", message)
    assert "PT401 write-back-lost" in message and f"`{dropped_target}`" in message


def test_same_state_against_lower_loaded_back(ep):
    lowered = pt2lint.lower(ep)
    loaded = torch.export.load(io.BytesIO(lowered))
    testing.assert_same_state(ep, loaded, inputs(), steps=3)
    assert pt2lint.diff(ep, lowered).ok


def test_same_state_fails_on_swapped_targets(aten):
    swapped = copy.deepcopy(aten)
    first, second = (swapped.graph_signature.output_specs[i] for i in _mutation_specs(swapped)[:2])
    first.target, second.target = second.target, first.target
    with pytest.raises(AssertionError) as differs:
        testing.assert_same_state(aten, swapped, inputs(), steps=3)
    message = str(differs.value)
    print(message)
    assert message.startswith("step 1: buffer `a` differs"), message
    assert not pt2lint.check(swapped).ok  # the static half sees it too
