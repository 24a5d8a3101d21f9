"""More programs for issue 27's checks, exported and judged by PyTorch 2.11 (one device call):

- effectful custom ops (and aten._print) inside higher-order ops: invoke_subgraph
  (torch.compiler.nested_compile_region), while_loop, map, scan, cond, TRAINING and after
  run_decompositions(); where the ATEN program has token chains inside a subgraph, passes that
  fork or drop a token there;
- a pass that folds ONE read of a written buffer into a constant (the buffer stays a buffer and
  keeps its write-back): `fold_counter__folded_one_read`;
- a pass that resets a BatchNorm literal AND inserts a node in front of every later one (diff must
  not match by position): `diff_bn2__insert_and_reset`; the clean twin with only the insertion.

    python3 export_more.py OUT_DIR

Every case is guarded: a failure is recorded in labels.json and the rest still run. The
graph code of every program goes to OUT_DIR/graphs.txt."""
import copy
import os
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(os.getcwd(), "tests", "data", "device"))  # run from .devwork
from common import Labels, attempt, export, judge, log, low_entropy_, save  # noqa: E402

OUT = sys.argv[1]
labels = Labels(OUT)
START = time.time()
GRAPHS = open(os.path.join(OUT, "graphs.txt"), "w")


def dump(name, ep):
    GRAPHS.write(f"===== {name}\n{ep.graph_signature}\n")
    for mod_name, mod in ep.graph_module.named_modules():
        if isinstance(mod, torch.fx.GraphModule):
            GRAPHS.write(f"--- {mod_name or '<root>'}\n{mod.code}\n")
    GRAPHS.flush()


def rec_for(path, extra, **kw):
    r = {"file": os.path.basename(path)}
    r.update(extra)
    r.update(judge(path, **kw))
    return r


# ------------------------------------------------------------------ effects inside HOPs
@torch.library.custom_op("i27b::record", mutates_args=())
def record(x: torch.Tensor) -> torch.Tensor:
    return x.clone()


@record.register_fake
def _(x):
    return torch.empty_like(x)


def register_effectful():
    op = torch.ops.i27b.record.default
    try:
        from torch._library.effects import EffectType
        torch.library._register_effectful_op(op, EffectType.ORDERED)
        return "torch.library._register_effectful_op"
    except Exception as e:
        first = f"{type(e).__name__}: {e}"
    from torch._higher_order_ops import effects
    effects._register_effectful_op(op, effects._EffectType.ORDERED)
    return "torch._higher_order_ops.effects._register_effectful_op (" + first + ")"


def two_records(v):
    a = torch.ops.i27b.record(v)
    return torch.ops.i27b.record(a + 1)


class InSubgraph(nn.Module):
    def __init__(self):
        super().__init__()

        @torch.compiler.nested_compile_region
        def region(v):
            return two_records(v)
        self.region = region

    def forward(self, x):
        return self.region(x) * 2


class InSubgraphTwice(InSubgraph):
    def forward(self, x):
        return self.region(self.region(x)) * 2


class InWhile(nn.Module):
    def forward(self, x):
        def cond_fn(i, v):
            return i < 2

        def body_fn(i, v):
            return i + 1, torch.ops.i27b.record(v) + 1
        from torch._higher_order_ops.while_loop import while_loop
        return while_loop(cond_fn, body_fn, (torch.tensor(0), x))[1]


class InMap(nn.Module):
    def forward(self, xs):
        from torch._higher_order_ops.map import map as hop_map
        return hop_map(lambda v: two_records(v), xs)


class InScan(nn.Module):
    def forward(self, xs):
        from torch._higher_order_ops.scan import scan

        def step(c, v):
            r = torch.ops.i27b.record(c + v)
            return r, r
        return scan(step, torch.zeros(3), xs)[1]


class PrintInSubgraph(nn.Module):
    def __init__(self):
        super().__init__()

        @torch.compiler.nested_compile_region
        def region(v):
            torch.ops.aten._print("in region")
            y = v + 1
            torch.ops.aten._print("again")
            return y
        self.region = region

    def forward(self, x):
        return self.region(x) * 2


def graph_modules(ep):
    return [m for _, m in ep.graph_module.named_modules() if isinstance(m, torch.fx.GraphModule)]


def effect_calls(gm):
    return [n for n in gm.graph.nodes if n.op == "call_function" and "with_effects" in str(n.target)]


def token_of(call):
    return next((u for u in call.users if u.op == "call_function" and len(u.args) > 1 and u.args[1] == 0), None)


def inner_graph(ep):
    """The first subgraph (not the root) holding two with_effects calls."""
    for gm in graph_modules(ep)[1:]:
        if len(effect_calls(gm)) >= 2:
            return gm
    return None


def fork_inner(ep):
    """The pass: inside the subgraph, the second effect takes the token the first took."""
    gm = inner_graph(ep)
    calls = effect_calls(gm)
    calls[1].args = (calls[0].args[0],) + tuple(calls[1].args[1:])
    gm.recompile()


def drop_inner(ep):
    """The pass: the subgraph returns the first effect's token; the second's is dropped."""
    gm = inner_graph(ep)
    calls = effect_calls(gm)
    first, last = token_of(calls[0]), token_of(calls[-1])
    out = next(n for n in gm.graph.nodes if n.op == "output")
    out.replace_input_with(last, first)
    gm.recompile()


def hop_cases():
    log("effectful op registered via", register_effectful())
    x = torch.ones(2, 3)
    xs = torch.ones(4, 3)
    cases = [("hop_invoke_subgraph", InSubgraph(), (x,)), ("hop_invoke_subgraph_twice", InSubgraphTwice(), (x,)),
             ("hop_print_invoke_subgraph", PrintInSubgraph(), (x,)), ("hop_while_loop", InWhile(), (x,)),
             ("hop_map", InMap(), (xs,)), ("hop_scan", InScan(), (xs,))]
    for name, model, args in cases:
        def one(name=name, model=model, args=args):
            ep = export(model, args)
            dump(name, ep)
            path = os.path.join(OUT, f"{name}.pt2")
            save(ep, path)
            labels.add(rec_for(path, {"case": name, "expect": [],
                                      "with_effects": sum(len(effect_calls(g)) for g in graph_modules(ep))},
                               eager_model=model, steps=[(args, {})]))
            try:
                aten = ep.run_decompositions()
            except Exception as e:
                labels.add({"case": name + ".aten", "run_decompositions": f"{type(e).__name__}: {str(e)[:300]}"})
                return
            dump(name + ".aten", aten)
            path = os.path.join(OUT, f"{name}.aten.pt2")
            save(aten, path)
            labels.add(rec_for(path, {"case": name + ".aten", "expect": [],
                                      "with_effects": sum(len(effect_calls(g)) for g in graph_modules(aten))},
                               eager_model=model, steps=[(args, {})]))
            if inner_graph(aten) is None:
                return
            for bug in (fork_inner, drop_inner):
                def b(bug=bug):
                    p = copy.deepcopy(aten)
                    bug(p)
                    dump(f"{name}__{bug.__name__}.aten", p)
                    bpath = os.path.join(OUT, f"{name}__{bug.__name__}.aten.pt2")
                    save(p, bpath)
                    labels.add(rec_for(bpath, {"case": f"{name}__{bug.__name__}.aten", "note": bug.__doc__,
                                               "expect": ["effect-token-chain"]},
                                       eager_model=model, steps=[(args, {})]))
                attempt(f"{name}__{bug.__name__}", b, labels)
        attempt(name, one, labels)


# ------------------------------------------------------------------ one read folded
class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("count", torch.zeros(3))

    def forward(self, x):
        y = x * self.count + 1
        self.count.add_(1)
        return y


def fold_one_read(ep, fqn):
    """The pass: the first read of written buffer `fqn` becomes the read of a new constant holding
    its initial value; the buffer stays a buffer and keeps its write-back (pytorch/pytorch#185077)."""
    from torch.export.graph_signature import InputKind, InputSpec, TensorArgument
    spec = next(s for s in ep.graph_signature.input_specs if s.kind == InputKind.BUFFER and s.target == fqn)
    ph = next(n for n in ep.graph.nodes if n.op == "placeholder" and n.name == spec.arg.name)
    reader = next(u for u in ph.users if "add" not in str(u.target))
    first_user = next(n for n in ep.graph.nodes if n.op == "placeholder" and
                      n.name == next(s.arg.name for s in ep.graph_signature.input_specs
                                     if s.kind == InputKind.USER_INPUT))
    with ep.graph.inserting_before(first_user):
        c = ep.graph.placeholder("c_folded_" + fqn)
    c.meta = dict(ph.meta)
    reader.replace_input_with(ph, c)
    ep.constants["folded_" + fqn] = ep.state_dict[fqn].clone()
    specs = ep.graph_signature.input_specs
    at = specs.index(next(s for s in specs if s.kind == InputKind.USER_INPUT))
    specs.insert(at, InputSpec(kind=InputKind.CONSTANT_TENSOR, arg=TensorArgument(name=c.name),
                               target="folded_" + fqn, persistent=None))
    ep.graph_module.recompile()


def fold_cases():
    def one():
        model = Counter()
        args = (torch.ones(3),)
        steps = [(args, {}), (args, {}), (args, {})]
        for dialect in ("", ".aten"):
            ep = export(copy.deepcopy(model), args)
            if dialect:
                ep = ep.run_decompositions()
            dump("fold_counter" + dialect, ep)
            path = os.path.join(OUT, f"fold_counter{dialect}.pt2")
            save(ep, path)
            labels.add(rec_for(path, {"case": "fold_counter" + dialect, "expect": []},
                               eager_model=copy.deepcopy(model), steps=steps))
            p = copy.deepcopy(ep)
            fold_one_read(p, "count")
            dump("fold_counter__folded_one_read" + dialect, p)
            bpath = os.path.join(OUT, f"fold_counter__folded_one_read{dialect}.pt2")
            save(p, bpath)
            labels.add(rec_for(bpath, {"case": "fold_counter__folded_one_read" + dialect,
                                       "diff_against": f"fold_counter{dialect}.pt2", "note": fold_one_read.__doc__,
                                       "expect": [], "diff_expect": ["written-state-became-constant"]},
                               eager_model=copy.deepcopy(model), steps=steps))
    attempt("fold_counter", one, labels)


# ------------------------------------------------------------------ literal reset + insertion
class ConvBN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.bn = nn.BatchNorm2d(4, momentum=0.3, eps=1e-3)
        self.conv2 = nn.Conv2d(4, 4, 1)
        self.bn2 = nn.BatchNorm2d(4, momentum=0.3, eps=1e-3)

    def forward(self, x):
        return F.relu(self.bn2(self.conv2(F.relu(self.bn(self.conv(x))))))


def insert_clone(ep):
    """The pass: a clone of the input in front of every node (a value inserted at the start)."""
    x = next(n for n in ep.graph.nodes if n.op == "placeholder" and n.name == "x")
    first = next(n for n in ep.graph.nodes if n.op == "call_function")
    with ep.graph.inserting_before(first):
        c = ep.graph.call_function(torch.ops.aten.clone.default, (x,))
    c.meta = dict(x.meta)
    for u in list(x.users):
        if u is not c:
            u.replace_input_with(x, c)
    ep.graph_module.recompile()


def reset_second_bn(ep):
    """The pass: the second batch_norm's eps is reset to 1e-5 (pytorch/ao#4758)."""
    bns = [n for n in ep.graph.nodes if n.op == "call_function" and "batch_norm" in str(n.target)]
    args = list(bns[1].args)
    args[-1] = 1e-5
    bns[1].args = tuple(args)
    ep.graph_module.recompile()


def literal_cases():
    def one():
        torch.manual_seed(0)
        model = low_entropy_(ConvBN()).eval()
        with torch.no_grad():
            model.bn2.running_var.fill_(1e-3)  # eps matters: the reset changes outputs
        args = (torch.ones(1, 3, 6, 6),)
        steps = [(args, {})]
        ep = export(model, args).run_decompositions()
        dump("diff_bn2.aten", ep)
        save(ep, os.path.join(OUT, "diff_bn2.aten.pt2"))
        labels.add(rec_for(os.path.join(OUT, "diff_bn2.aten.pt2"), {"case": "diff_bn2.aten", "expect": []},
                           eager_model=copy.deepcopy(model), steps=steps))
        ins = copy.deepcopy(ep)
        insert_clone(ins)
        path = os.path.join(OUT, "diff_bn2__insert.aten.pt2")
        save(ins, path)
        labels.add(rec_for(path, {"case": "diff_bn2__insert", "diff_against": "diff_bn2.aten.pt2", "expect": [],
                                  "diff_expect": [], "note": insert_clone.__doc__},
                           eager_model=copy.deepcopy(model), steps=steps))
        both = copy.deepcopy(ins)
        reset_second_bn(both)
        dump("diff_bn2__insert_and_reset.aten", both)
        path = os.path.join(OUT, "diff_bn2__insert_and_reset.aten.pt2")
        save(both, path)
        labels.add(rec_for(path, {"case": "diff_bn2__insert_and_reset", "diff_against": "diff_bn2.aten.pt2",
                                  "expect": [], "diff_expect": ["literal-changed"],
                                  "note": insert_clone.__doc__ + " " + reset_second_bn.__doc__},
                           eager_model=copy.deepcopy(model), steps=steps))
    attempt("diff_bn2", one, labels)


for section in (hop_cases, fold_cases, literal_cases):
    attempt(section.__name__, section, labels)
    labels.write()
    log(f"== {section.__name__} done at {time.time() - START:.0f}s")
labels.write()
GRAPHS.close()
