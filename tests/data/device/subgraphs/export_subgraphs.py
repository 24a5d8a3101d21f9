"""Programs that read or write state through higher-order ops and views (docs/dataflow.md), exported
with PyTorch 2.11 as TRAINING and ATEN twins, each judged by PyTorch against eager.

    python3 export_subgraphs.py OUT_DIR"""
import os
import sys

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from common import Labels, attempt, export_pair, low_entropy_  # noqa: E402

OUT = sys.argv[1]
labels = Labels(OUT)


class CondReadsState(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("shift", torch.full((4,), 0.5))

    def forward(self, x):
        return torch.cond(x.sum() > 0, lambda x: x + self.shift, lambda x: x - self.shift, (x,))


class WhileReadsState(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("step", torch.full((4,), 0.25))

    def forward(self, x):
        from torch._higher_order_ops.while_loop import while_loop

        def cond_fn(i, y):
            return i < 3

        def body_fn(i, y):
            return i + 1, y + self.step

        _, y = while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), x))
        return y


class MapReadsState(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(4))

    def forward(self, xs):
        from torch._higher_order_ops.map import map as hop_map
        return hop_map(lambda x, w: x * w, xs, self.w)


class ScanReadsState(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("decay", torch.full((4,), 0.5))

    def forward(self, xs):
        from torch._higher_order_ops.scan import scan

        def combine(carry, x):
            nxt = carry * self.decay + x
            return nxt, nxt.clone()

        carry, ys = scan(combine, torch.zeros(4), xs)
        return carry, ys


class NoGradWrite(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.register_buffer("steps", torch.zeros(()))

    def forward(self, x):
        y = self.lin(x)
        with torch.no_grad():
            self.steps.add_(1)
        return y * self.steps


class AutocastWrite(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.register_buffer("count", torch.zeros(4))

    def forward(self, x):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            y = self.lin(x)
            self.count.add_(1)
        return y.float() + self.count


class PrintEffect(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("steps", torch.zeros(()))

    def forward(self, x):
        torch.ops.aten._print("step")
        self.steps.add_(1)
        return x + self.steps


class NarrowWrite(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("buf", torch.zeros(4, 3))

    def forward(self, x):
        self.buf.narrow(0, 1, 2).add_(x)
        return self.buf.sum(0)


class ViewOfViewWrite(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("buf", torch.zeros(4, 3))

    def forward(self, x):
        self.buf[1:].view(-1)[2:5].add_(x)
        return self.buf * 2


class AsStridedWrite(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("buf", torch.zeros(4))

    def forward(self, x):
        self.buf.as_strided((2, 2), (1, 2)).add_(x)
        return self.buf + 1


class ViewFamilyWrite(nn.Module):
    """Writes through split, chunk, unbind, movedim and unfold views."""

    def __init__(self):
        super().__init__()
        self.register_buffer("buf", torch.zeros(4, 6))

    def forward(self, x):
        self.buf.split(2)[1].add_(x[:2])
        self.buf.chunk(2, dim=1)[0].mul_(2)
        self.buf.unbind(0)[0].add_(x[0])
        self.buf.movedim(0, 1)[5].sub_(1)
        self.buf.unfold(1, 3, 3)[0, 1].add_(0.5)
        return self.buf.sum()


class CopyFromInputSlice(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("last", torch.zeros(2, 4))

    def forward(self, x):
        self.last.copy_(x[-2:])
        return x.sum(0) + self.last.sum(0)


class UserInputWrite(nn.Module):
    def forward(self, x, y):
        x.add_(y)
        return x * 2


class DynamicKV(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.register_buffer("k", torch.zeros(1, 16, 8))
        self.register_buffer("v", torch.zeros(16, 8))

    def forward(self, x, pos):
        y = self.proj(x)
        self.k.index_copy_(1, pos, y)
        self.v.index_put_((pos,), y[0])
        return self.k.sum(1) + self.v.sum(0)


def vec(shape=(4,), n=2):
    return [((torch.randn(*shape),), {}) for _ in range(n)]


seq = torch.export.Dim("seq", min=2, max=16)
batch = torch.export.Dim("batch", min=2, max=32)
CASES = (
    ("cond_reads_state", CondReadsState, vec(), None),
    ("while_reads_state", WhileReadsState, vec(), None),
    ("map_reads_state", MapReadsState, vec((3, 4)), None),
    ("scan_reads_state", ScanReadsState, vec((3, 4)), None),
    ("no_grad_write", NoGradWrite, vec((2, 4)), None),
    ("autocast_write", AutocastWrite, vec((2, 4)), None),
    ("print_effect", PrintEffect, vec(), None),
    ("narrow_write", NarrowWrite, vec((2, 3)), None),
    ("view_of_view_write", ViewOfViewWrite, vec((3,)), None),
    ("as_strided_write", AsStridedWrite, vec((2, 2)), None),
    ("view_family_write", ViewFamilyWrite, vec((4, 6)), None),
    ("copy_from_input_slice", CopyFromInputSlice, vec((5, 4)), None),
    ("user_input_write", UserInputWrite, [((torch.randn(3, 4), torch.randn(3, 4)), {}) for _ in range(2)], None),
    ("user_input_write_dynamic", UserInputWrite, [((torch.randn(5, 4), torch.randn(5, 4)), {}) for _ in range(2)],
     ({0: batch}, {0: batch})),
    ("dynamic_kv_cache", DynamicKV, [((torch.randn(1, 4, 8), torch.arange(4) + 4 * i), {}) for i in range(2)],
     ({1: seq}, {0: seq})),
)
for name, make, steps, dyn in CASES:
    def case(name=name, make=make, steps=steps, dyn=dyn):
        torch.manual_seed(0)
        export_pair(labels, OUT, name, low_entropy_(make()), steps, dynamic_shapes=dyn, extra={"model": name})
    attempt(name, case, labels)
labels.write()
