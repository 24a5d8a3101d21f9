"""Export the kv_nested decoder of the corpus (TinyKVLM of ../shared/corpus/tools/gen_corpus.py,
the model of big/kv_nested_256l.pt2) at any depth, with zero weights, for `make bench`.

Usage (needs PyTorch 2.11): python3 export_decoder.py LAYERS OUT.pt2[.gz]
Zero weights keep the archive tiny once gzipped; the graph is the one the corpus model exports.
Stack-trace paths are rewritten to /src/ and /site-packages/, as in the corpus."""
import gzip
import json
import os
import shutil
import sys
import time
import zipfile

import torch
import torch.nn as nn

torch.set_grad_enabled(False)


class KVCache(nn.Module):
    def __init__(self, heads, max_len, dim):
        super().__init__()
        self.register_buffer("k_cache", torch.zeros(1, heads, max_len, dim))
        self.register_buffer("v_cache", torch.zeros(1, heads, max_len, dim))

    def update(self, pos, k, v):
        self.k_cache.index_copy_(2, pos, k)
        self.v_cache.index_copy_(2, pos, v)
        return self.k_cache, self.v_cache


class Attn(nn.Module):
    def __init__(self, d, heads, max_len):
        super().__init__()
        self.heads, self.hd = heads, d // heads
        self.q = nn.Linear(d, d, bias=False)
        self.k = nn.Linear(d, d, bias=False)
        self.v = nn.Linear(d, d, bias=False)
        self.o = nn.Linear(d, d, bias=False)
        self.kv_cache = KVCache(heads, max_len, self.hd)

    def forward(self, x, pos):
        b, s, d = x.shape
        q = self.q(x).view(b, s, self.heads, self.hd).transpose(1, 2)
        k = self.k(x).view(b, s, self.heads, self.hd).transpose(1, 2)
        v = self.v(x).view(b, s, self.heads, self.hd).transpose(1, 2)
        kc, vc = self.kv_cache.update(pos, k, v)
        y = torch.nn.functional.scaled_dot_product_attention(q, kc, vc)
        return self.o(y.transpose(1, 2).reshape(b, s, d))


class Block(nn.Module):
    def __init__(self, d, heads, max_len):
        super().__init__()
        self.self_attn = Attn(d, heads, max_len)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.n1 = nn.LayerNorm(d)
        self.n2 = nn.LayerNorm(d)

    def forward(self, x, pos):
        x = x + self.self_attn(self.n1(x), pos)
        return x + self.mlp(self.n2(x))


class TinyKVLM(nn.Module):
    """Decoder with nested KV-cache buffers: layers.N.self_attn.kv_cache.k_cache."""

    def __init__(self, layers=2, d=32, heads=4, max_len=16, vocab=97):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([Block(d, heads, max_len) for _ in range(layers)])
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, tokens, pos):
        x = self.emb(tokens)
        for l in self.layers:
            x = l(x, pos)
        return self.head(x)


def neutralise(path):
    """Rewrite stack-trace paths in the JSON members to /src/ and /site-packages/."""
    prefixes = [(os.path.dirname(os.path.abspath(__file__)) + "/", "/src/tests/data/bench/"),
                (os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__))) + "/", "/site-packages/"),
                (os.path.abspath(os.getcwd()) + "/", "/src/"),
                (sys.prefix + "/", "/python/")]
    with zipfile.ZipFile(path) as zin:
        members = [(info.filename, zin.read(info.filename)) for info in zin.infolist()]
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as zout:
        for name, data in members:
            if name.endswith(".json"):
                for prefix, repl in prefixes:
                    data = data.replace(prefix.encode(), repl.encode())
            zout.writestr(name, data)


def export(layers, out):
    """Export, save, neutralise, gzip; returns the timings and sizes."""
    torch.manual_seed(0)
    m = TinyKVLM(layers).eval()
    for p in m.parameters():
        p.zero_()
    args = (torch.tensor([[0]]), torch.tensor([0]))
    t = time.perf_counter()
    ep = torch.export.export(m, args, strict=False)
    export_s = time.perf_counter() - t
    plain = out[:-3] if out.endswith(".gz") else out
    plain = os.path.join(os.environ.get("EXPORT_TMP", os.path.dirname(plain) or "."), os.path.basename(plain))
    t = time.perf_counter()
    torch.export.save(ep, plain)
    save_s = time.perf_counter() - t
    neutralise(plain)
    with zipfile.ZipFile(plain) as z:
        json_bytes = sum(i.file_size for i in z.infolist() if "/models/" in i.filename and i.filename.endswith(".json"))
    info = {"layers": layers, "nodes": len(ep.graph.nodes), "export_s": export_s, "save_s": save_s,
            "file_bytes": os.path.getsize(plain), "json_bytes": json_bytes}
    if out.endswith(".gz"):
        with open(plain, "rb") as src, gzip.open(out, "wb", compresslevel=6) as dst:
            shutil.copyfileobj(src, dst)
        info["gz_bytes"] = os.path.getsize(out)
    return info


if __name__ == "__main__":
    print(json.dumps(export(int(sys.argv[1]), sys.argv[2])), flush=True)
