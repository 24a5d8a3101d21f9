"""Issue 22's lowering acceptance, judged by PyTorch 2.11 on the device machine.

pt2lint runs on the development machine (make_lowered.sh): `lower` on every TRAINING program of
tests/data/device/soundness, with and without the kernels' writes declared; the programs it
writes and what it refused are in IN_DIR (lowered/*.pt2, refusals.json). Here PyTorch:

  1. loads each source program and its lowering (torch.export.load), runs both for three steps
     on the same inputs, and compares outputs and every buffer after each step with eager (the
     model of export_soundness.py with the source program's state): `same_as_eager` for the
     lowering, and `source_same_as_eager` for the source program as a control;
  2. exports the Triton models in this process (launched directly, strict; through
     wrap_triton) and runs `pt2lint.check(ep)` (python/src, PT2LINT_BIN): PyTorch's own kernel
     analysis declares the writes, so `mutations` must name acc and count with no
     unknown-op-may-write-state warning.

usage: python3 judge_lowering.py IN_DIR SOUNDNESS_DIR PYTHON_SRC OUT_JSON"""
import copy
import json
import os
import sys
import traceback

import torch
import torch.nn as nn

IN, DATA, PYSRC, OUT = sys.argv[1:5]
DEV = "cuda" if torch.cuda.is_available() else "cpu"
results = {"torch": torch.__version__, "device": DEV, "programs": [], "live_check": []}

try:
    import triton
    import triton.language as tl
    HAVE_TRITON = DEV == "cuda"
except Exception:  # noqa: BLE001
    HAVE_TRITON = False

# ---- the models of export_soundness.py (same code, same op names)
if HAVE_TRITON:
    @triton.jit
    def accumulate_kernel(acc_ptr, count_ptr, x_ptr, n, alpha, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        a = tl.load(acc_ptr + offs, mask=mask)
        tl.store(acc_ptr + offs, a * alpha + x, mask=mask)
        c = tl.load(count_ptr + offs, mask=mask)
        tl.store(count_ptr + offs, c + 1.0, mask=mask)

    @torch.library.triton_op("pt2lint_triton::accumulate", mutates_args={"acc", "count"})
    def accumulate_op(acc: torch.Tensor, count: torch.Tensor, x: torch.Tensor, alpha: float) -> None:
        torch.library.wrap_triton(accumulate_kernel)[(1,)](acc, count, x, x.numel(), alpha, BLOCK=32)


@torch.library.custom_op("pt2lint_triton::two_writes", mutates_args=("a", "b"))
def two_writes(a: torch.Tensor, b: torch.Tensor, x: torch.Tensor) -> None:
    a.add_(x)
    b.mul_(2)


@two_writes.register_fake
def _(a, b, x):
    return None


class TritonModel(nn.Module):
    def __init__(self, style, same_buffer_twice=False):
        super().__init__()
        self.style = style
        self.same = same_buffer_twice
        self.register_buffer("acc", torch.zeros(32, device=DEV))
        self.register_buffer("count", torch.zeros(32, device=DEV))

    def forward(self, x):
        y = x.reshape(-1).contiguous()
        second = self.acc if self.same else self.count
        if self.style == "direct":
            accumulate_kernel[(1,)](self.acc, second, y, 32, 0.5, BLOCK=32)
        elif self.style == "wrap_triton":
            torch.library.wrap_triton(accumulate_kernel)[(1,)](self.acc, second, y, 32, 0.5, BLOCK=32)
        else:
            torch.ops.pt2lint_triton.accumulate(self.acc, second, y, 0.5)
        return y * 2 + self.acc


class DuplicateCustomOp(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("buf", torch.zeros(4, device=DEV))

    def forward(self, x):
        torch.ops.pt2lint_triton.two_writes(self.buf, self.buf, x)
        return x + self.buf


class Observers(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("amax_x", torch.zeros(1))
        self.register_buffer("amax_w", torch.zeros(1))
        self.w = nn.Parameter(torch.randn(4, 4))

    def forward(self, x):
        self.amax_x.copy_(torch.maximum(self.amax_x, x.abs().amax()))
        self.amax_w.copy_(torch.maximum(self.amax_w, self.w.detach().abs().amax()))
        scale = 448.0 / self.amax_x
        return (x * scale) @ (self.w * (448.0 / self.amax_w))


@torch.compiler.nested_compile_region
def block(x, w):
    return torch.relu(x @ w)


class Nested(nn.Module):
    def __init__(self):
        super().__init__()
        self.w1 = nn.Parameter(torch.randn(4, 8))
        self.w2 = nn.Parameter(torch.randn(8, 4))
        self.w3 = nn.Parameter(torch.randn(4, 4))

    def forward(self, x):
        return block(block(block(x, self.w1), self.w2), self.w3)


def eager_for(case):
    """The eager model of a case and the inputs of its three steps."""
    torch.manual_seed(0)
    if case.startswith("triton_direct"):
        return TritonModel("direct"), [(torch.randn(4, 8, device=DEV),) for _ in range(3)]
    if case.startswith("triton_wrap_same_buffer_twice"):
        return TritonModel("wrap_triton", True), [(torch.randn(4, 8, device=DEV),) for _ in range(3)]
    if case.startswith("triton_wrap"):
        return TritonModel("wrap_triton"), [(torch.randn(4, 8, device=DEV),) for _ in range(3)]
    if case.startswith("triton_op"):
        return TritonModel("triton_op"), [(torch.randn(4, 8, device=DEV),) for _ in range(3)]
    if case.startswith("custom_op_same_buffer_twice"):
        return DuplicateCustomOp(), [(torch.randn(4, device=DEV),) for _ in range(3)]
    if case.startswith("fp8_observers"):
        return Observers(), [(torch.randn(3, 4) * (i + 1),) for i in range(3)]
    if case.startswith("nested_regions"):
        return Nested(), [(torch.randn(2, 4),) for _ in range(3)]
    return None, None


def leaves(x):
    return [t for t in torch.utils._pytree.tree_leaves(x) if isinstance(t, torch.Tensor)]


def steps_of(module, inputs):
    record = []
    for args in inputs:
        out = module(*[a.clone() for a in args])
        state = {k: v.detach().clone() for k, v in module.state_dict().items()}
        record.append(([o.detach().clone() for o in leaves(out)], state))
    return record


def differences(got, want):
    diffs = []
    for step, ((outs, bufs), (w_outs, w_bufs)) in enumerate(zip(got, want)):
        if len(outs) != len(w_outs) or any(a.shape != b.shape or not torch.allclose(a.float(), b.float(), rtol=1e-5,
                                                                                      atol=1e-6) for a, b in zip(outs, w_outs)):
            diffs.append(f"step {step}: outputs differ")
        for name, value in w_bufs.items():
            mine = bufs.get(name)
            if mine is None:
                diffs.append(f"step {step}: {name} missing")
            elif mine.shape != value.shape or not torch.allclose(mine.float(), value.float(), rtol=1e-5, atol=1e-6):
                diffs.append(f"step {step}: {name} differs")
    return diffs


def judge_pair(source_name, lowered_path, note):
    rec = {"source": source_name, "lowered": os.path.basename(lowered_path), "note": note}
    try:
        source = torch.export.load(os.path.join(DATA, source_name))
        rec["source_load"] = "ok"
        lowered = torch.export.load(lowered_path)
        rec["torch_load"] = "ok"
        try:
            lowered.validate()
            rec["torch_validate"] = "ok"
        except Exception as e:  # noqa: BLE001
            rec["torch_validate"] = f"{type(e).__name__}: {str(e)[:200]}"
        eager, inputs = eager_for(source_name)
        state = dict(source.state_dict)
        state.update({k: v for k, v in source.constants.items() if isinstance(v, torch.Tensor)})
        eager = eager.to(DEV) if source_name.startswith(("triton", "custom")) else eager
        missing = eager.load_state_dict({k: v for k, v in state.items()}, strict=False)
        rec["eager_state_missing"] = list(missing.missing_keys)
        want = steps_of(copy.deepcopy(eager), inputs)
        got_source = steps_of(source.module(), inputs)
        got = steps_of(lowered.module(), inputs)
        rec["torch_run"] = "ok"
        rec["source_same_as_eager"] = not differences(got_source, want)
        diffs = differences(got, want)
        rec["same_as_eager"] = not diffs
        rec["same_as_source"] = not differences(got, got_source)
        if diffs:
            rec["differs"] = diffs[:6]
    except Exception as e:  # noqa: BLE001
        rec["error"] = f"{type(e).__name__}: {str(e)[:400]}"
        rec["traceback"] = traceback.format_exc()[-800:]
    results["programs"].append(rec)
    print(json.dumps({k: v for k, v in rec.items() if k != "traceback"}), flush=True)


def live_check():
    sys.path.insert(0, PYSRC)
    import pt2lint  # noqa: E402

    for name, style, strict in (("triton_direct", "direct", True), ("triton_wrap", "wrap_triton", False)):
        rec = {"case": name, "strict": strict}
        try:
            torch.manual_seed(0)
            model = TritonModel(style)
            ep = torch.export.export(model, (torch.randn(4, 8, device=DEV),), strict=strict)
            report = pt2lint.check(ep)
            rec["mutations"] = sorted(m.target for p in report.programs for m in p.mutations)
            rec["possible_mutations"] = sorted(m.target for p in report.programs for m in p.possible_mutations)
            rec["findings"] = sorted(f"{f.severity} {f.name}" for f in report.findings)
            rec["declared_by_pytorch"] = rec["mutations"] == ["acc", "count"] and not any(
                "unknown-op-may-write-state" in f for f in rec["findings"])
        except Exception as e:  # noqa: BLE001
            rec["error"] = f"{type(e).__name__}: {str(e)[:400]}"
            rec["traceback"] = traceback.format_exc()[-800:]
        results["live_check"].append(rec)
        print(json.dumps({k: v for k, v in rec.items() if k != "traceback"}), flush=True)


with open(os.path.join(IN, "lowered.json")) as f:
    plan = json.load(f)
results["refusals"] = plan.get("refusals", [])
for item in plan.get("lowered", []):
    judge_pair(item["source"], os.path.join(IN, "lowered", item["lowered"]), item.get("note", ""))
if HAVE_TRITON:
    live_check()
else:
    results["live_check"].append({"error": "no triton on this machine"})
with open(OUT, "w") as f:
    json.dump(results, f, indent=1)
print("wrote", OUT)
