"""`pt2lint fix` judged by PyTorch 2.11 on the device machine (docs/fix.md, "Repairs judged by
PyTorch"). One run:

1. exports small real models whose state is written in forward (a transformers Llama decoder
   with its static cache as buffers, an encoder-decoder cache, a hybrid sliding/global cache, a
   custom-op cache beside aten-written state, quantization observers, BatchNorm in training,
   an effect-token program), saves each clean ATEN program and judges it against eager;
2. breaks each with the backend-style passes of corrupt_passes.py (JSON edits of the saved
   archive, as backends that write their own archive make them);
3. runs `pt2lint fix` (the binary built on the dev machine, beside this script) on every broken
   program;
4. loads every repaired program with torch.export.load and runs three steps beside the clean
   program: every output and every buffer after every step must be equal (under the state
   renaming the repaired program records, if any). A repaired program that differs is WRONG.

    PYTHONUNBUFFERED=1 python3 fix_on_device.py WORK_DIR     (results in WORK_DIR/results.json)
"""
import copy
import json
import os
import subprocess
import sys
import time
import traceback

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
# Beside this script on the device (.devwork), or in the repository (tests/data/...).
for extra in (os.path.join(HERE, ".."), os.path.join(HERE, "..", "..", "device"),
              os.path.join(HERE, "..", "..", "device", "seedbugs")):
    sys.path.insert(0, extra)
sys.path.insert(0, HERE)
import corrupt_passes  # noqa: E402
from common import compare, judge, low_entropy_, recorded_mapping, save  # noqa: E402

try:
    import customops_lib  # noqa: E402,F401  (defines the custom ops)
except Exception as e:  # noqa: BLE001
    print("customops_lib unavailable:", e)
    customops_lib = None

WORK = sys.argv[1]
PT2LINT = os.path.join(HERE, "bin", "pt2lint")
# The binary is built on the dev machine (Debian 12); its shared libraries travel beside it:
# lib/min (minizip, simdjson, fmt, zlib), lib/all (also libstdc++ and libgcc_s). The first
# environment in which it runs is used.
ENVS = [dict(os.environ, LD_LIBRARY_PATH=os.path.join(HERE, "lib", "min")),
        dict(os.environ, LD_LIBRARY_PATH=os.path.join(HERE, "lib", "all")),
        dict(os.environ)]
ENV = ENVS[0]


def log(*a):
    print(*a, flush=True)


# ---------------------------------------------------------------- models, each with 3 steps


class EncDecCache(nn.Module):
    """Decoder self-attention cache (written per position) and cross-attention cache (written
    from the encoder states every step), as encoder-decoder caches are."""

    def __init__(self, d=8, max_len=6, src_len=4):
        super().__init__()
        self.enc = nn.Linear(d, d)
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.ck, self.cv = nn.Linear(d, d), nn.Linear(d, d)
        self.register_buffer("self_k", torch.zeros(1, max_len, d))
        self.register_buffer("self_v", torch.zeros(1, max_len, d))
        self.register_buffer("cross_k", torch.zeros(1, src_len, d))
        self.register_buffer("cross_v", torch.zeros(1, src_len, d))

    def forward(self, src, tgt, pos):
        mem = self.enc(src)
        self.cross_k.copy_(self.ck(mem))
        self.cross_v.copy_(self.cv(mem))
        self.self_k.index_copy_(1, pos, self.k(tgt))
        self.self_v.index_copy_(1, pos, self.v(tgt))
        q = self.q(tgt)
        a = torch.softmax(q @ self.self_k.transpose(1, 2), -1) @ self.self_v
        c = torch.softmax(q @ self.cross_k.transpose(1, 2), -1) @ self.cross_v
        return a + c


class HybridCache(nn.Module):
    """A sliding-window cache (rolled, newest last) beside a global static cache."""

    def __init__(self, d=8, window=3, max_len=6):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.register_buffer("window_k", torch.zeros(1, window, d))
        self.register_buffer("global_k", torch.zeros(1, max_len, d))
        self.register_buffer("steps", torch.zeros((), dtype=torch.long))

    def forward(self, x, pos):
        k = self.proj(x)
        self.window_k.copy_(torch.cat([self.window_k[:, 1:], k], 1))
        self.global_k.index_copy_(1, pos, k)
        self.steps.add_(1)
        return (self.window_k.sum(1) + self.global_k.sum(1)) * self.steps


@torch.library.custom_op("pt2lint_fix::opaque_scale", mutates_args=())
def opaque_scale(x: torch.Tensor) -> torch.Tensor:
    return x * 0.5


@opaque_scale.register_fake
def _(x):
    return torch.empty_like(x)


class CustomOpCache(nn.Module):
    """A KV cache written by a custom op beside state written by aten ops, and one buffer whose
    new value comes from a functional custom op pt2lint has no schema for (an output of unknown
    origin: the rest must be solved around it)."""

    def __init__(self):
        super().__init__()
        self.wk, self.wv = nn.Linear(4, 4), nn.Linear(4, 4)
        self.register_buffer("k_cache", torch.zeros(1, 8, 4))
        self.register_buffer("v_cache", torch.zeros(1, 8, 4))
        self.register_buffer("avg", torch.zeros(4))
        self.register_buffer("count", torch.zeros(4))
        self.register_buffer("opaque", torch.ones(4))

    def forward(self, x, pos):
        torch.ops.pt2lint_test.update_kv(self.k_cache, self.v_cache, self.wk(x), self.wv(x), pos)
        self.avg.mul_(0.9).add_(x.mean((0, 1)) * 0.1)
        self.count.add_(1.0)
        self.opaque.copy_(torch.ops.pt2lint_fix.opaque_scale(self.opaque + x.mean()))
        return (self.k_cache * self.v_cache).sum(1) + self.avg * self.count + self.opaque


class Observers(nn.Module):
    """Quantization observers in forward (min/max, moving average)."""

    def __init__(self):
        super().__init__()
        from torch.ao.quantization.observer import MinMaxObserver, MovingAverageMinMaxObserver
        self.lin = nn.Linear(6, 6)
        self.obs_in = MinMaxObserver()
        self.obs_out = MovingAverageMinMaxObserver(averaging_constant=0.5)

    def forward(self, x):
        x = self.obs_in(x)
        return self.obs_out(self.lin(x))


class ConvBN(nn.Module):
    """Two BatchNorms in training mode: running stats and batch counters written."""

    def __init__(self):
        super().__init__()
        self.c1, self.b1 = nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4)
        self.c2, self.b2 = nn.Conv2d(4, 4, 3, padding=1), nn.BatchNorm2d(4)

    def forward(self, x):
        return self.b2(self.c2(torch.relu(self.b1(self.c1(x))))).mean((2, 3))


class EffectTokens(nn.Module):
    """A buffer update beside an effectful op (aten._print), so the program has effect tokens."""

    def __init__(self):
        super().__init__()
        self.register_buffer("total", torch.zeros(4))
        self.register_buffer("hits", torch.zeros(4))

    def forward(self, x):
        torch.ops.aten._print("step")
        self.total.add_(x.sum(0))
        self.hits.add_(1.0)
        return x * self.total + self.hits


def llama():
    from hf_static_decoder import decode_steps, make_decoder
    return make_decoder(), [(a, {}) for a, _ in decode_steps(3)]


def gen(seed, *shape):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(-4, 5, shape, generator=g).float() / 4


MODELS = {
    "llama_static_cache": llama,
    "encdec_cache": lambda: (EncDecCache(), [((gen(i, 1, 4, 8), gen(10 + i, 1, 1, 8), torch.tensor([i])), {})
                                             for i in range(3)]),
    "hybrid_cache": lambda: (HybridCache(), [((gen(i, 1, 1, 8), torch.tensor([i])), {}) for i in range(3)]),
    "custom_op_cache": lambda: (CustomOpCache(), [((gen(i, 1, 1, 4), torch.tensor([i])), {}) for i in range(3)]),
    "observers": lambda: (Observers(), [((gen(i, 2, 6),), {}) for i in range(3)]),
    "conv_bn_train": lambda: (ConvBN().train(), [((gen(i, 2, 3, 5, 5),), {}) for i in range(3)]),
    "effect_tokens": lambda: (EffectTokens(), [((gen(i, 2, 4),), {}) for i in range(3)]),
}


# ---------------------------------------------------------------- judging


def clone(x):
    return x.clone() if isinstance(x, torch.Tensor) else x


def trace(path, steps):
    """Per step: the outputs, and every buffer after the step."""
    module = torch.export.load(path).module()
    out = []
    for args, kwargs in steps:
        res = module(*[clone(a) for a in args], **kwargs)
        leaves = [t.detach().clone() for t in torch.utils._pytree.tree_leaves(res) if isinstance(t, torch.Tensor)]
        out.append((leaves, {k: v.detach().clone() for k, v in module.named_buffers()}))
    meta = getattr(module, "meta", {}) or {}
    return out, meta




def pt2lint_works():
    global ENV
    for env in ENVS:
        try:
            r = subprocess.run([PT2LINT, "--version"], capture_output=True, text=True, env=env, timeout=30)
            log("pt2lint:", env.get("LD_LIBRARY_PATH"), r.returncode, r.stdout.strip(), r.stderr.strip()[:300])
            if r.returncode == 0:
                ENV = env
                return True
        except Exception as e:  # noqa: BLE001
            log("pt2lint does not run here:", e)
    return False


DEADLINE = time.time() + float(os.environ.get("FIX_DEVICE_SECONDS", "170"))


def run_model(name):
    """Export, break, fix and judge one model; returns its results (run in a worker process)."""
    torch.set_num_threads(2)
    have_pt2lint = pt2lint_works()
    out = {"model": {}, "cases": [], "pt2lint_ran": have_pt2lint}
    part = os.path.join(WORK, f"partial_{name}.json")
    log(f"== {name}")
    try:
        torch.manual_seed(0)
        model, steps = MODELS[name]()
        model = low_entropy_(model)
        snapshot = copy.deepcopy(model)
        args, kwargs = steps[0]
        ep = torch.export.export(model, tuple(clone(a) for a in args), kwargs=kwargs, strict=False)
        aten = ep.run_decompositions()
        clean = os.path.join(WORK, "clean", f"{name}.aten.pt2")
        save(aten, clean)
        out["model"] = judge(clean, snapshot, steps)
        log(f"  {name} clean:", out["model"])
        want, _ = trace(clean, steps)
    except Exception as e:  # noqa: BLE001
        out["model"] = {"export_failed": f"{type(e).__name__}: {str(e)[:300]}"}
        log(traceback.format_exc()[-1500:])
        return name, out
    for fn in corrupt_passes.PASSES:
        if time.time() > DEADLINE:
            out["cases"].append({"model": name, "pass": fn.__name__, "verdict": "not run (time)"})
            continue
        case = {"model": name, "pass": fn.__name__}
        broken = os.path.join(WORK, "broken", f"{name}__{fn.__name__}.pt2")
        try:
            if not corrupt_passes.corrupt(clean, broken, fn):
                continue
            if fn.__name__ in ("dropped_write_back", "swap_two"):  # controls: the comparison sees a defect
                try:
                    bt, _ = trace(broken, steps)
                    d = compare(bt, want, {})
                    case["broken_runs"] = "equal to clean" if not d else d[0]
                except Exception as e:  # noqa: BLE001
                    case["broken_runs"] = f"{type(e).__name__}: {str(e)[:160]}"
            if not have_pt2lint:
                out["cases"].append(case)
                continue
            fixed = os.path.join(WORK, "fixed", f"{name}__{fn.__name__}.fixed.pt2")
            r = subprocess.run([PT2LINT, "fix", broken, "-o", fixed], capture_output=True, text=True,
                               env=ENV, timeout=60)
            case["fix_exit"] = r.returncode
            case["fix_says"] = r.stderr.strip().splitlines()[-1][:300] if r.stderr.strip() else ""
            if r.returncode == 0 and os.path.exists(fixed):
                mapping = recorded_mapping(fixed)
                case["mapping"] = mapping
                try:
                    got, _ = trace(fixed, steps)
                    d = compare(got, want, mapping)
                    case["verdict"] = "repaired, equal to clean" if not d else "WRONG"
                    case["differences"] = d[:5]
                except Exception as e:  # noqa: BLE001
                    case["verdict"] = "WRONG"
                    case["differences"] = [f"{type(e).__name__}: {str(e)[:300]}"]
            else:
                case["verdict"] = "refused"
        except Exception as e:  # noqa: BLE001
            case["error"] = f"{type(e).__name__}: {str(e)[:300]}"
        log("  ", json.dumps(case)[:400])
        out["cases"].append(case)
        with open(part, "w") as f:
            json.dump(out, f, indent=1)
    return name, out


def main():
    for d in ("clean", "broken", "fixed"):
        os.makedirs(os.path.join(WORK, d), exist_ok=True)
    results = {"torch": torch.__version__, "models": {}, "cases": []}
    import multiprocessing
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(len(MODELS)) as pool:
        for name, out in pool.imap_unordered(run_model, list(MODELS)):
            results["models"][name] = out["model"]
            results["pt2lint_ran"] = out["pt2lint_ran"]
            results["cases"].extend(out["cases"])
            with open(os.path.join(WORK, "results.json"), "w") as f:
                json.dump(results, f, indent=1)
    verdicts = [c.get("verdict", "none") for c in results["cases"]]
    results["summary"] = {v: verdicts.count(v) for v in sorted(set(verdicts))}
    log("SUMMARY", len(verdicts), "defective programs:", results["summary"])
    with open(os.path.join(WORK, "results.json"), "w") as f:
        json.dump(results, f, indent=1)


main()
