"""Programs whose state is written by custom ops (--op-schemas, PT310), exported with
PyTorch 2.11:
TRAINING (the op itself, in place) and ATEN (auto_functionalized_v2) twins, plus an ATEN program
whose custom-op write-back a buggy pass dropped. Also writes schemas.txt, the ops' schemas as
`torch.ops.ns.op.default._schema` prints them.

    python3 export_customops.py OUT_DIR"""
import copy
import os
import sys

import torch
import torch.nn as nn
from torch.export.graph_signature import OutputKind

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from common import Labels, attempt, export_pair, judge, low_entropy_, save  # noqa: E402
import customops_lib  # noqa: E402,F401  (defines the ops)

ops = torch.ops.pt2lint_test
lib = torch.ops.pt2lint_lib
OUT = sys.argv[1]
labels = Labels(OUT)


class EmaBuffer(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("avg", torch.zeros(4))

    def forward(self, x):
        ops.ema_update(self.avg, x, 0.9)
        return x + self.avg


class TwoCaches(nn.Module):
    def __init__(self):
        super().__init__()
        self.wk = nn.Linear(4, 4)
        self.wv = nn.Linear(4, 4)
        self.register_buffer("k_cache", torch.zeros(1, 8, 4))
        self.register_buffer("v_cache", torch.zeros(1, 8, 4))

    def forward(self, x, pos):
        ops.update_kv(self.k_cache, self.v_cache, self.wk(x), self.wv(x), pos)
        return (self.k_cache * self.v_cache).sum(1)


class WritesUserInput(nn.Module):
    def forward(self, x, y):
        z = ops.accumulate_into(x, y)
        return z + x


class UnknownMutation(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("state", torch.zeros(4))

    def forward(self, x):
        ops.mystery(self.state, x)
        return x * self.state


class DefinedInPlace(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("count", torch.zeros(4))

    def forward(self, x):
        lib.bump_(self.count, 1)
        return x + self.count


class DefinedListInPlace(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("a", torch.zeros(4))
        self.register_buffer("b", torch.ones(4))

    def forward(self, x):
        lib.bump_list_([self.a, self.b], 2)
        return x + self.a * self.b


vec = [((torch.randn(3, 4),), {}) for _ in range(2)]
kv = [((torch.randn(1, 1, 4), torch.tensor([i])), {}) for i in range(2)]
pair = [((torch.randn(3, 4), torch.randn(3, 4)), {}) for _ in range(2)]
CASES = (("ema_buffer", EmaBuffer, vec), ("two_caches", TwoCaches, kv), ("writes_user_input", WritesUserInput, pair),
         ("unknown_mutation", UnknownMutation, vec), ("define_inplace", DefinedInPlace, vec),
         ("define_list_inplace", DefinedListInPlace, vec))
ATEN = {}
for name, make, steps in CASES:
    def case(name=name, make=make, steps=steps):
        torch.manual_seed(0)
        _, aten = export_pair(labels, OUT, name, low_entropy_(make()), steps, extra={"model": name})
        ATEN[name] = (aten, make, steps)
    attempt(name, case, labels)


def dropped_custom_write_back():
    """A pass over ep.graph_signature drops the write-back of v_cache, which update_kv writes."""
    aten, make, steps = ATEN["two_caches"]
    torch.manual_seed(0)
    snapshot = low_entropy_(make())
    ep = copy.deepcopy(aten)
    out = next(n for n in ep.graph.nodes if n.op == "output")
    values = list(out.args[0])
    specs = list(ep.graph_signature.output_specs)
    drop = next(i for i, s in enumerate(specs) if s.kind == OutputKind.BUFFER_MUTATION and s.target == "v_cache")
    del values[drop], specs[drop]
    out.args = (tuple(values),)
    ep.graph_signature.output_specs[:] = specs
    ep.graph_module.recompile()
    path = os.path.join(OUT, "two_caches__dropped_write_back.aten.pt2")
    save(ep, path)
    labels.add({"case": "two_caches__dropped_write_back", "file": os.path.basename(path), "dialect": "ATEN",
                "corruption": "dropped_write_back", "clean_source": "two_caches.aten.pt2",
                "expect": ["buffer-write-has-write-back"], "note": dropped_custom_write_back.__doc__,
                **judge(path, snapshot, steps)})


attempt("two_caches__dropped_write_back", dropped_custom_write_back, labels)
with open(os.path.join(OUT, "schemas.txt"), "w") as f:
    f.write("# Schemas of tests/data/device/customops_lib.py, as torch.ops.ns.op.default._schema prints them\n")
    f.write("\n".join(customops_lib.schema_lines()) + "\n")
labels.write()
