"""Exports small programs with dynamic shapes (symbolic sizes, sym_int placeholders and
_operator nodes), the shape family the static corpus lacks. Run with PyTorch 2.11:
    python3 export_dynamic.py OUT_DIR
Writes dyn_cache.pt2 (TRAINING) and dyn_cache.aten.pt2 (after run_decompositions)."""
import os
import sys

import torch


class DynamicCache(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(8, 8)
        self.register_buffer("cache", torch.zeros(1, 16, 8))
        self.register_buffer("steps", torch.zeros((), dtype=torch.int64))

    def forward(self, x, pos):
        # x: (1, T, 8) with dynamic T; pos: (T,) positions to write.
        y = self.proj(x)
        self.cache.index_copy_(1, pos, y)
        self.steps.add_(x.shape[1])
        return self.cache.sum(dim=1) * x.shape[1], y


def main():
    out = sys.argv[1]
    model = DynamicCache()
    seq = torch.export.Dim("seq", min=2, max=16)
    example = (torch.randn(1, 4, 8), torch.arange(4))
    ep = torch.export.export(model, example, dynamic_shapes=({1: seq}, {0: seq}))
    torch.export.save(ep, os.path.join(out, "dyn_cache.pt2"))
    torch.export.save(ep.run_decompositions(), os.path.join(out, "dyn_cache.aten.pt2"))
    print(ep.graph_module.code)
    print(ep.graph_signature)


if __name__ == "__main__":
    main()
