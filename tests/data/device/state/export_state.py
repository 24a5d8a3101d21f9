"""Programs for the checks of issue 27, exported and judged by PyTorch 2.11, each clean program next
to a defective one made by a pass (or by a natural mistake a user makes):

- multi-program packages (package_pt2) sharing a cache: prefill/decode/reset (clean), a program
  that only reads the cache another writes, the same FQN with another shape, dtype or kind;
- BatchNorm in eval and train mode, TRAINING and after run_decompositions() / run_decompositions({}),
  and a pass that flips a training-mode norm to eval while keeping its running-stat write-backs;
- effect tokens: aten._print and an effectful custom op (also inside torch.cond), and passes that
  fork or drop the token chain;
- initial-state facts: a counter (read, then written), a buffer fully overwritten before it is
  read, a partial write (index_copy_);
- cache index ranges: an ExecuTorch-style cache written at `input_pos.item()` bounded by
  torch._check (clean) and bounded past the cache (defect), transformers' static cache with
  cache_position (static and dynamic shapes), sliding-window and hybrid caches where they export;
- diff passes: a buffer read folded into a constant, a BatchNorm eps/momentum literal reset, and
  node metadata stripped.

    python3 export_state.py OUT_DIR

Every case is guarded: one failure is recorded in labels.json and the rest still run."""
import copy
import os
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "seedbugs"))
from common import Labels, attempt, export, judge, log, low_entropy_, save, save_many  # noqa: E402

OUT = sys.argv[1]
labels = Labels(OUT)
START = time.time()


def remaining():
    return 170 - (time.time() - START)


def rec_for(path, extra, **kw):
    r = {"file": os.path.basename(path)}
    r.update(extra)
    r.update(judge(path, **kw))
    return r


# ------------------------------------------------------------------ 1. cross-program state
class KVDecoder(nn.Module):
    def __init__(self, length=8, dtype=torch.float32):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.register_buffer("cache", torch.zeros(1, length, 4, dtype=dtype))

    def forward(self, x, pos):
        self.cache.index_copy_(1, pos, self.proj(x).to(self.cache.dtype))
        return self.cache.sum(1)


class Reset(nn.Module):
    def __init__(self, dec):
        super().__init__()
        self.register_buffer("cache", dec.cache)

    def forward(self):
        self.cache.zero_()
        return self.cache.sum()


class Score(nn.Module):
    """Reads the cache the decoder writes, never writes it (executorch#21958's reader)."""

    def __init__(self, dec, as_constant=False):
        super().__init__()
        self.proj = dec.proj
        if as_constant:
            self.cache = dec.cache.clone()  # a plain attribute: lifted as a tensor constant
        else:
            self.register_buffer("cache", dec.cache)

    def forward(self, q):
        return (self.cache * self.proj(q)).sum(-1)


def shares_at_load(path, names):
    from torch.export.pt2_archive._package import load_pt2
    eps = load_pt2(path).exported_programs
    ptrs = {}
    for n in names:
        sd = eps[n].state_dict
        if "cache" in sd:
            ptrs[n] = sd["cache"].data_ptr()
    return len(set(ptrs.values())) == 1 if len(ptrs) > 1 else None


def package_case(name, programs, expect, runs):
    path = os.path.join(OUT, f"{name}.pt2")
    save_many(programs, path)
    rec = {"case": name, "file": os.path.basename(path), "expect": expect, "programs": list(programs)}
    from torch.export.pt2_archive._package import load_pt2
    for prog in programs:
        rec[prog] = judge(path, program=prog)
    try:
        eps = load_pt2(path).exported_programs
        outs = {}
        for prog, args in runs:
            outs[prog] = eps[prog].module()(*args).sum().item()
        rec["run_in_order"] = outs
    except Exception as e:
        rec["run_in_order"] = f"{type(e).__name__}: {str(e)[:300]}"
    try:
        rec["state_shared_at_load"] = shares_at_load(path, programs)
    except Exception as e:
        rec["state_shared_at_load"] = f"{type(e).__name__}: {str(e)[:200]}"
    labels.add(rec)


def multi_cases():
    torch.manual_seed(0)
    dec = low_entropy_(KVDecoder()).eval()
    x4, p4, x1, p1 = torch.ones(1, 4, 4), torch.arange(4), torch.ones(1, 1, 4), torch.tensor([4])
    prefill = export(dec, (x4, p4))
    decode = export(dec, (x1, p1))
    reset = export(Reset(dec), ())
    runs = [("prefill", (x4, p4)), ("decode", (x1, p1))]
    q = (torch.ones(1, 4),)
    cases = [
        ("pkg_prefill_decode_reset", lambda: {"prefill": prefill, "decode": decode, "reset": reset}, [],
         runs + [("reset", ())]),
        ("pkg_prefill_decode_reset.aten",
         lambda: {"prefill": prefill.run_decompositions(), "decode": decode.run_decompositions(),
                  "reset": reset.run_decompositions()}, [], runs + [("reset", ())]),
        ("pkg_reader_only", lambda: {"prefill": prefill, "score": export(Score(dec), q)},
         ["shared-state-read-only"], [("score", q), ("prefill", (x4, p4))]),
        ("pkg_shape_mismatch",
         lambda: {"prefill": prefill, "decode": export(low_entropy_(KVDecoder(length=16)).eval(), (x1, p1))},
         ["shared-state-consistent"], runs),
        ("pkg_dtype_mismatch",
         lambda: {"prefill": prefill, "decode": export(low_entropy_(KVDecoder(dtype=torch.float64)).eval(), (x1, p1))},
         ["shared-state-consistent"], runs),
        ("pkg_kind_mismatch", lambda: {"prefill": prefill, "score": export(Score(dec, as_constant=True), q)},
         ["shared-state-consistent"], [("score", q), ("prefill", (x4, p4))]),
    ]
    for name, programs, expect, order in cases:
        attempt(name, lambda name=name, programs=programs, expect=expect, order=order:
                package_case(name, programs(), expect, order), labels)


# ------------------------------------------------------------------ 2. train/eval mode
class ConvBN(nn.Module):
    def __init__(self, momentum=0.1):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 1)
        self.bn = nn.BatchNorm2d(4, momentum=momentum)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


def bn_steps():
    g = torch.Generator().manual_seed(1)
    return [((torch.randint(-3, 4, (2, 3, 4, 4), generator=g).float() / 4,), {}) for _ in range(2)]


def flip_training(ep):
    """The pass: every training-mode norm becomes eval-mode; the running-stat write-backs stay."""
    n = 0
    for node in ep.graph.nodes:
        if node.op == "call_function" and "batch_norm" in str(node.target):
            args = list(node.args)
            for i, a in enumerate(args):
                if a is True and i >= 5:
                    args[i] = False
                    n += 1
                    break
            node.args = tuple(args)
    ep.graph_module.recompile()
    return n


def bn_cases():
    steps = bn_steps()
    for mode in ("eval", "train"):
        torch.manual_seed(0)
        model = low_entropy_(ConvBN())
        model.train(mode == "train")
        snapshot = copy.deepcopy(model)
        ep = export(model, steps[0][0])
        for suffix, prog in (("", lambda: ep), (".aten", lambda: ep.run_decompositions()),
                             (".aten_empty_table", lambda: ep.run_decompositions({}))):
            def one(suffix=suffix, prog=prog):
                path = os.path.join(OUT, f"bn_{mode}{suffix}.pt2")
                p = prog()
                save(p, path)
                ops = sorted({str(n.target) for n in p.graph.nodes if "norm" in str(n.target)})
                muts = [s.target for s in p.graph_signature.output_specs if s.kind.name == "BUFFER_MUTATION"]
                labels.add(rec_for(path, {"case": f"bn_{mode}{suffix}", "expect": [], "norm_ops": ops,
                                          "buffer_mutations": muts}, eager_model=snapshot, steps=steps))
            attempt(f"bn_{mode}{suffix}", one, labels)
        if mode == "train":
            for suffix in ("", ".aten"):
                def flipped(suffix=suffix):
                    p = copy.deepcopy(ep if not suffix else ep.run_decompositions())
                    n = flip_training(p)
                    path = os.path.join(OUT, f"bn_train__flipped_to_eval{suffix}.pt2")
                    save(p, path)
                    labels.add(rec_for(path, {"case": "bn_train__flipped_to_eval" + suffix, "flipped": n,
                                              "expect": ["norm-stats-match-training-mode"],
                                              "note": flip_training.__doc__}, eager_model=snapshot, steps=steps))
                attempt(f"bn_train__flipped_to_eval{suffix}", flipped, labels)

    class ConstStatsBN(nn.Module):
        """A training-mode F.batch_norm whose running stats are plain tensor attributes (constants)."""

        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.ones(4))
            self.rm = torch.zeros(4)
            self.rv = torch.ones(4)

        def forward(self, x):
            return F.batch_norm(x, self.rm, self.rv, self.w, None, training=True)

    def const_stats():
        model = ConstStatsBN()
        snapshot = copy.deepcopy(model)
        x = torch.randn(2, 4, 3)
        ep = export(model, (x,))
        for suffix, p in (("", ep), (".aten", ep.run_decompositions())):
            path = os.path.join(OUT, f"bn_train_stats_in_constants{suffix}.pt2")
            save(p, path)
            labels.add(rec_for(path, {"case": "bn_train_stats_in_constants" + suffix,
                                      "expect": ["norm-stats-match-training-mode"]},
                               eager_model=snapshot, steps=[((x,), {})]))
    attempt("bn_train_stats_in_constants", const_stats, labels)


# ------------------------------------------------------------------ 3. effect tokens
def register_effectful():
    @torch.library.custom_op("i27::record", mutates_args=())
    def record(x: torch.Tensor) -> torch.Tensor:
        return x.clone()

    @record.register_fake
    def _(x):
        return torch.empty_like(x)

    op = torch.ops.i27.record.default
    tried = []
    for how in ("torch._higher_order_ops.effects", "torch._library.effects"):
        try:
            mod = __import__(how, fromlist=["_register_effectful_op"])
            if hasattr(mod, "_register_effectful_op"):
                mod._register_effectful_op(op, mod._EffectType.ORDERED)
                return how
            tried.append(f"{how}: no _register_effectful_op")
        except Exception as e:
            tried.append(f"{how}: {type(e).__name__}: {e}")
    try:
        from torch._library.effects import EffectType
        torch.library._register_effectful_op(op, EffectType.ORDERED)
        return "torch.library._register_effectful_op"
    except Exception as e:
        tried.append(f"torch.library: {type(e).__name__}: {e}")
    raise RuntimeError("; ".join(tried))


class Prints(nn.Module):
    def forward(self, x):
        torch.ops.aten._print("first")
        y = x + 1
        torch.ops.aten._print("second")
        return y * 2


class Records(nn.Module):
    def forward(self, x):
        a = torch.ops.i27.record(x)
        b = torch.ops.i27.record(a + 1)
        return b


class RecordsInCond(nn.Module):
    def forward(self, x):
        def t(v):
            return torch.ops.i27.record(v) + 1

        def f(v):
            return v - 1
        return torch.cond(x.sum() > 0, t, f, (x,))


def with_effects_nodes(ep):
    return [n for n in ep.graph.nodes if n.op == "call_function" and "with_effects" in str(n.target)]


def fork_tokens(ep):
    """The pass: the second effect takes the input token again instead of the first's output."""
    calls = with_effects_nodes(ep)
    calls[1].args = (calls[0].args[0],) + tuple(calls[1].args[1:])
    ep.graph_module.recompile()


def drop_token(ep):
    """The pass: the output token is the first effect's token; the second's is dropped."""
    calls = with_effects_nodes(ep)
    first_tok = next(u for u in calls[0].users if u.args[1] == 0)
    out = next(n for n in ep.graph.nodes if n.op == "output")
    specs = ep.graph_signature.output_specs
    vals = list(out.args[0])
    for i, s in enumerate(specs):
        if s.kind.name == "TOKEN":
            vals[i] = first_tok
            s.arg.name = first_tok.name
    out.args = (tuple(vals),)
    ep.graph_module.recompile()


def token_cases():
    x = torch.ones(2, 3)
    how = None
    try:
        how = register_effectful()
        log("  effectful op registered via", how)
    except Exception as e:
        labels.add({"case": "register_effectful", "failed": str(e)[:500]})
    models = [("tokens_print", Prints())]
    if how:
        models += [("tokens_custom", Records()), ("tokens_custom_in_cond", RecordsInCond())]
    for name, model in models:
        def one(name=name, model=model):
            ep = export(model, (x,))
            n_effects = len(with_effects_nodes(ep))
            save(ep, os.path.join(OUT, f"{name}.pt2"))
            labels.add(rec_for(os.path.join(OUT, f"{name}.pt2"), {"case": name, "expect": [],
                                                                  "with_effects": n_effects},
                               eager_model=model, steps=[((x,), {})]))
            try:
                aten = ep.run_decompositions()
                save(aten, os.path.join(OUT, f"{name}.aten.pt2"))
                labels.add(rec_for(os.path.join(OUT, f"{name}.aten.pt2"), {"case": name + ".aten", "expect": []},
                                   eager_model=model, steps=[((x,), {})]))
            except Exception as e:
                labels.add({"case": name + ".aten", "run_decompositions": f"{type(e).__name__}: {str(e)[:300]}"})
            if n_effects >= 2:
                for bug in (fork_tokens, drop_token):
                    def b(bug=bug):
                        p = copy.deepcopy(ep)
                        bug(p)
                        path = os.path.join(OUT, f"{name}__{bug.__name__}.pt2")
                        save(p, path)
                        labels.add(rec_for(path, {"case": f"{name}__{bug.__name__}", "note": bug.__doc__,
                                                  "expect": ["effect-token-chain"]},
                                           eager_model=model, steps=[((x,), {})]))
                    attempt(f"{name}__{bug.__name__}", b, labels)
        attempt(name, one, labels)


# ------------------------------------------------------------------ 4. initial-state facts
class InitialState(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("count", torch.zeros(1))       # read, then written: depends
        self.register_buffer("scratch", torch.zeros(2, 3))  # fully overwritten, then read: does not
        self.register_buffer("cache", torch.zeros(6, 3))    # partly written: depends

    def forward(self, x, pos):
        self.count.add_(1)
        self.scratch.copy_(x * 2)
        self.cache.index_copy_(0, pos, x)
        return self.scratch.sum() + self.cache.sum() + self.count


def initial_state_cases():
    x, pos = torch.ones(2, 3), torch.tensor([1, 3])
    model = InitialState()
    ep = export(model, (x, pos))
    for suffix, p in (("", ep), (".aten", ep.run_decompositions())):
        path = os.path.join(OUT, f"initial_state{suffix}.pt2")
        save(p, path)
        labels.add(rec_for(path, {"case": "initial_state" + suffix, "expect": [],
                                  "depends": ["count", "cache"], "overwritten": ["scratch"]},
                           eager_model=InitialState(), steps=[((x, pos), {}), ((x, pos), {})]))


# ------------------------------------------------------------------ 5. cache index ranges
class ETCache(nn.Module):
    """ExecuTorch's llama cache: written at input_pos.item(), bounded by torch._check."""

    def __init__(self, max_len=16, bound=None):
        super().__init__()
        self.max_len = max_len
        self.bound = bound or max_len
        self.proj = nn.Linear(4, 4)
        self.register_buffer("k_cache", torch.zeros(1, max_len, 4))

    def forward(self, x, input_pos):
        start = input_pos[0].item()
        seq = x.shape[1]
        torch._check_is_size(start)
        torch._check(start + seq <= self.bound)
        torch._check(start < self.bound)
        self.k_cache.narrow(1, start, seq).copy_(self.proj(x))
        return self.k_cache.sum(1)


def cache_cases():
    seq = torch.export.Dim("seq", min=1, max=8)
    for name, make, expect in (("etcache_bounded", lambda: ETCache(), []),
                               ("etcache_capped_by_guard", lambda: ETCache(bound=8), ["cache-index-in-range"]),
                               ("etcache_past_extent", lambda: ETCache(bound=32), ["cache-index-in-range"])):
        for dyn in (False, True):
            def one(name=name, make=make, expect=expect, dyn=dyn):
                torch.manual_seed(0)
                model = low_entropy_(make()).eval()
                snapshot = copy.deepcopy(model)
                args = (torch.ones(1, 2, 4), torch.tensor([3]))
                ep = export(model, args, dynamic_shapes=({1: seq}, None) if dyn else None)
                tag = name + ("_dynamic" if dyn else "_static")
                for suffix, p in (("", ep), (".aten", ep.run_decompositions())):
                    path = os.path.join(OUT, f"{tag}{suffix}.pt2")
                    save(p, path)
                    labels.add(rec_for(path, {"case": tag + suffix, "expect": expect,
                                              "range_constraints": {str(k): str(v) for k, v in
                                                                    p.range_constraints.items()}},
                                       eager_model=snapshot,
                                       steps=[(args, {})]))
            attempt(name + ("_dynamic" if dyn else "_static"), one, labels)

    def hf_static(dyn):
        from hf_static_decoder import make_decoder
        torch.manual_seed(0)
        model = make_decoder(layers=1)
        snapshot = copy.deepcopy(model)
        steps = [((torch.tensor([[5, 7]]), torch.tensor([0, 1])), {}),
                 ((torch.tensor([[9, 3]]), torch.tensor([2, 3])), {})]
        ds = None
        if dyn:
            s = torch.export.Dim("s", min=1, max=8)
            ds = ({1: s}, {0: s})
        ep = export(model, steps[0][0], dynamic_shapes=ds)
        tag = "hf_static_cache_" + ("dynamic" if dyn else "static")
        path = os.path.join(OUT, f"{tag}.pt2")
        save(ep, path)
        labels.add(rec_for(path, {"case": tag, "expect": [],
                                  "range_constraints": {str(k): str(v) for k, v in ep.range_constraints.items()}},
                           eager_model=snapshot, steps=steps))
    for dyn in (False, True):
        attempt("hf_static_cache_" + ("dynamic" if dyn else "static"), lambda dyn=dyn: hf_static(dyn), labels)

    def hf_exportable(kind):
        import transformers
        from transformers.integrations.executorch import TorchExportableModuleForDecoderOnlyLM
        if kind == "sliding":
            cfg = transformers.MistralConfig(vocab_size=90, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                                             num_attention_heads=2, num_key_value_heads=1, sliding_window=4,
                                             max_position_embeddings=64)
            model = transformers.MistralForCausalLM(cfg)
        else:
            cfg = transformers.Gemma2Config(vocab_size=90, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
                                            num_attention_heads=2, num_key_value_heads=1, head_dim=8, sliding_window=4,
                                            max_position_embeddings=64)
            model = transformers.Gemma2ForCausalLM(cfg)
        low_entropy_(model).eval()
        model.generation_config.cache_implementation = "static"
        model.generation_config.cache_config = {"batch_size": 1, "max_cache_len": 16}
        model.generation_config.use_cache = True
        wrapper = TorchExportableModuleForDecoderOnlyLM(model, batch_size=1, max_cache_len=16)
        ids, pos = torch.tensor([[5]]), torch.tensor([0])
        ep = wrapper.export(input_ids=ids, cache_position=pos)
        tag = f"hf_{kind}_cache"
        path = os.path.join(OUT, f"{tag}.pt2")
        save(ep, path)
        labels.add(rec_for(path, {"case": tag, "expect": [],
                                  "range_constraints": {str(k): str(v) for k, v in ep.range_constraints.items()}}))
    for kind in ("sliding", "hybrid"):
        if remaining() > 60:
            attempt(f"hf_{kind}_cache", lambda kind=kind: hf_exportable(kind), labels)


# ------------------------------------------------------------------ 6. diff passes
def fold_buffer_read(ep, fqn):
    """The pass: the read of a written buffer becomes the read of a constant with its initial value."""
    from torch.export.graph_signature import InputKind
    for spec in ep.graph_signature.input_specs:
        if spec.kind == InputKind.BUFFER and spec.target == fqn:
            spec.kind = InputKind.CONSTANT_TENSOR
            spec.persistent = None
            ep.constants[fqn] = ep.state_dict.pop(fqn)
    specs = ep.graph_signature.output_specs
    out = next(n for n in ep.graph.nodes if n.op == "output")
    keep = [i for i, s in enumerate(specs) if not (s.kind.name == "BUFFER_MUTATION" and s.target == fqn)]
    out.args = (tuple(out.args[0][i] for i in keep),)
    specs[:] = [specs[i] for i in keep]
    ep.graph_module.recompile()


def reset_literals(ep):
    """The pass: every batch_norm's momentum and eps are reset to 0.1 and 1e-5 (pytorch/ao#4758)."""
    n = 0
    for node in ep.graph.nodes:
        if node.op == "call_function" and "batch_norm" in str(node.target):
            args = list(node.args)
            floats = [i for i, a in enumerate(args) if isinstance(a, float)]
            if len(floats) >= 2:
                args[floats[-2]], args[floats[-1]] = 0.1, 1e-5
                n += 1
            node.args = tuple(args)
    ep.graph_module.recompile()
    return n


def strip_metadata(ep):
    """The pass: a round trip that loses nn_module_stack and from_node."""
    for node in ep.graph.nodes:
        for key in ("nn_module_stack", "from_node", "source_fn_stack"):
            node.meta.pop(key, None)


def diff_cases():
    def fold():
        torch.manual_seed(0)
        dec = low_entropy_(KVDecoder()).eval()
        args = (torch.ones(1, 1, 4), torch.tensor([2]))
        ep = export(dec, args).run_decompositions()
        save(ep, os.path.join(OUT, "diff_kv.aten.pt2"))
        labels.add(rec_for(os.path.join(OUT, "diff_kv.aten.pt2"), {"case": "diff_kv.aten", "expect": []},
                           eager_model=copy.deepcopy(dec), steps=[(args, {}), (args, {})]))
        broken = copy.deepcopy(ep)
        fold_buffer_read(broken, "cache")
        path = os.path.join(OUT, "diff_kv__folded_buffer_read.aten.pt2")
        save(broken, path)
        labels.add(rec_for(path, {"case": "diff_kv__folded_buffer_read", "diff_against": "diff_kv.aten.pt2",
                                  "expect": ["write-back-lost", "state-read-became-constant"],
                                  "note": fold_buffer_read.__doc__},
                           eager_model=copy.deepcopy(dec), steps=[(args, {}), (args, {})]))
    attempt("diff_fold", fold, labels)

    def literal():
        torch.manual_seed(0)
        model = low_entropy_(ConvBN(momentum=0.3))
        model.bn.eps = 1e-3
        model.eval()
        steps = bn_steps()
        ep = export(model, steps[0][0]).run_decompositions()
        save(ep, os.path.join(OUT, "diff_bn.aten.pt2"))
        for bug in (reset_literals, strip_metadata):
            p = copy.deepcopy(ep)
            bug(p)
            path = os.path.join(OUT, f"diff_bn__{bug.__name__}.aten.pt2")
            save(p, path)
            labels.add(rec_for(path, {"case": f"diff_bn__{bug.__name__}", "diff_against": "diff_bn.aten.pt2",
                                      "note": bug.__doc__,
                                      "expect": ["literal-changed" if bug is reset_literals else "metadata-lost"]},
                               eager_model=copy.deepcopy(model), steps=steps))
    attempt("diff_literal", literal, labels)


for section in (multi_cases, bn_cases, token_cases, initial_state_cases, diff_cases, cache_cases):
    if remaining() < 20:
        log(f"skipping {section.__name__}: out of time")
        labels.add({"case": section.__name__, "skipped": "out of time"})
        continue
    attempt(section.__name__, section, labels)
    labels.write()
    log(f"== {section.__name__} done at {time.time() - START:.0f}s")
labels.write()
