"""What PyTorch 2.11 accepts, measured for the file and archive checks
(docs/device-measurements.md):

1. the deepest out_spec tree spec that torch.export.load loads, and that the loaded module
   runs; the deepest nested output torch.export.export writes; the JSON nesting json.loads takes;
2. nativert's input order rules (torch/nativert GraphSignature.cpp), as variants of one program
   (parameter after buffer, non-persistent buffer before persistent, constant before buffer, a
   program with effect tokens), each tried with torch.export.load + run, and with nativert's
   Python runner where this build has one;
3. damaged archives: a member whose local header offset lies past the end of the file, a local
   header that disagrees with the central directory (name, CRC), two central entries sharing one
   local header (overlap), and members compressed with deflate and LZMA: torch.export.load and
   zipfile.testzip on each.

    python3 measure.py OUT_DIR      (writes OUT_DIR/measurements.json and the damaged files)"""
import copy
import io
import json
import os
import struct
import sys
import zipfile

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from common import export, log, low_entropy_, save  # noqa: E402

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
RESULTS = {"torch": torch.__version__, "python": sys.version.split()[0], "recursionlimit": sys.getrecursionlimit()}


def err(e):
    return f"{type(e).__name__}: {str(e)[:200]}"


class Ordered(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.register_buffer("persistent_buf", torch.ones(4))
        self.register_buffer("transient_buf", torch.full((4,), 2.0), persistent=False)
        self.const = torch.full((4,), 3.0)

    def forward(self, x):
        return self.lin(x) + self.persistent_buf + self.transient_buf + self.const


torch.manual_seed(0)
MODEL = low_entropy_(Ordered()).eval()
X = torch.randn(2, 4)
BASE = os.path.join(OUT, "ordered.pt2")
save(export(MODEL, (X,)), BASE)
EXPECTED = MODEL(X)


def model_member(z):
    return next(n for n in z.namelist() if n.endswith("models/model.json"))


def edit_program(src, dst, edit):
    with zipfile.ZipFile(src) as z:
        infos = z.infolist()
        blobs = {i.filename: z.read(i.filename) for i in infos}
        name = model_member(z)
    doc = json.loads(blobs[name])
    edit(doc)
    blobs[name] = json.dumps(doc).encode()
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as z:
        for i in infos:
            z.writestr(i.filename, blobs[i.filename])


def try_load(path, args=(X,), expected=EXPECTED):
    rec = {}
    try:
        ep = torch.export.load(path)
        rec["load"] = "ok"
    except BaseException as e:  # RecursionError included
        rec["load"] = err(e)
        return rec
    try:
        out = ep.module()(*args)
        leaves = [t for t in torch.utils._pytree.tree_leaves(out) if isinstance(t, torch.Tensor)]
        rec["run"] = "ok" if expected is None or torch.allclose(leaves[0], expected) else "ok, wrong result"
    except BaseException as e:
        rec["run"] = err(e)
    return rec


def try_nativert(path, args=(X,)):
    for attr in ("PyModelRunner", "ModelRunner"):
        runner_cls = getattr(getattr(torch._C, "_nativert", None), attr, None)
        if runner_cls is None:
            continue
        try:
            runner = runner_cls(path, "model")
        except BaseException as e:
            return f"{attr}: {err(e)}"
        try:
            runner.run(*args) if hasattr(runner, "run") else None
            return f"{attr}: ok"
        except BaseException as e:
            return f"{attr} loads, run: {err(e)}"
    return "no nativert runner in this build"


# ---------------------------------------------------------------- 1. depth limits
def sig(doc):
    return doc["graph_module"]["module_call_graph"][0]["signature"]


def nest_spec(leaf_json, depth):
    """A tree spec string with one leaf wrapped in `depth` one-element tuples (protocol 1)."""
    protocol, node = json.loads(leaf_json)
    text = json.dumps(node)
    head = '{"type": "builtins.tuple", "context": "null", "children_spec": ['
    return f"[{protocol}, " + head * depth + text + "]}" * depth + "]"


def check_nest_format():
    from torch.utils._pytree import tree_structure, treespec_dumps
    x = torch.zeros(1)
    leaf = treespec_dumps(tree_structure(x))
    for d in (1, 2, 3):
        v = x
        for _ in range(d):
            v = (v,)
        want = json.loads(treespec_dumps(tree_structure(v)))
        if json.loads(nest_spec(leaf, d)) != want:
            raise RuntimeError(f"nested spec format differs at depth {d}: {treespec_dumps(tree_structure(v))}")
    return leaf


def depth_ok(depth, leaf):
    path = os.path.join(OUT, "depth_out_spec.pt2")

    def edit(doc):
        sig(doc)["out_spec"] = nest_spec(leaf, depth)
    edit_program(BASE, path, edit)
    return try_load(path)


def bisect(leaf):
    lo_ok, hi_bad = 1, None
    results = {}
    for d in (10, 100, 250, 256, 257, 300, 500, 800, 900, 950, 990, 1000, 1100, 1500, 2000, 5000, 20000, 50000):
        r = depth_ok(d, leaf)
        results[d] = r
        if r.get("load") == "ok":
            lo_ok = d
        elif hi_bad is None:
            hi_bad = d
    if hi_bad is not None:
        lo, hi = lo_ok, hi_bad
        while hi - lo > 1:
            mid = (lo + hi) // 2
            r = depth_ok(mid, leaf)
            results[mid] = r
            if r.get("load") == "ok":
                lo = mid
            else:
                hi = mid
        first_fail = results[hi]
    else:
        lo, first_fail = lo_ok, None
    run_ok = max((d for d, r in results.items() if r.get("run") == "ok"), default=None)
    return {"deepest_load_ok": lo, "first_load_failure": first_fail, "deepest_run_ok_tried": run_ok,
            "tried": {str(k): v for k, v in sorted(results.items())}}


def deepest_export():
    class Nest(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.d = d

        def forward(self, x):
            v = x + 1
            for _ in range(self.d):
                v = (v,)
            return v
    best, fail = 0, None
    for d in (10, 100, 200, 400, 800, 1000, 2000):
        try:
            ep = export(Nest(d), (X,))
            p = os.path.join(OUT, "nest_export.pt2")
            torch.export.save(ep, p)
            torch.export.load(p)
            best = d
        except BaseException as e:
            fail = {"depth": d, "error": err(e)}
            break
    return {"deepest_export_save_load_ok": best, "first_failure": fail}


def json_nesting_limit():
    lo, hi = 1, 200000
    while hi - lo > 1:
        mid = (lo + hi) // 2
        try:
            json.loads("[" * mid + "]" * mid)
            lo = mid
        except BaseException:
            hi = mid
    return lo


def measure_depths():
    RESULTS["out_spec_depth"] = bisect(check_nest_format())
    RESULTS["export_nested_output"] = deepest_export()
    RESULTS["json_loads_nesting_limit_top_level"] = json_nesting_limit()


# ---------------------------------------------------------------- 2. nativert order rules
def permute_inputs(order_key):
    def edit(doc):
        gm = doc["graph_module"]
        specs = gm["signature"]["input_specs"]
        inputs = gm["graph"]["inputs"]
        pairs = list(zip(specs, inputs))
        pairs.sort(key=order_key)
        gm["signature"]["input_specs"] = [s for s, _ in pairs]
        gm["graph"]["inputs"] = [i for _, i in pairs]
    return edit


def kind_of(spec):
    kind = next(iter(spec))
    body = spec[kind]
    if kind == "buffer":
        return "buffer_persistent" if body.get("persistent", True) else "buffer_transient"
    return kind


def measure_nativert():
    out = {}
    rank = {"token": 0, "parameter": 1, "buffer_persistent": 2, "buffer_transient": 3, "tensor_constant": 4,
            "custom_obj": 5, "user_input": 6}
    variants = {
        "in_order": lambda s: rank[kind_of(s[0])],
        "buffer_before_parameter": lambda s: {"buffer_persistent": 0, "buffer_transient": 0}.get(kind_of(s[0]), rank[kind_of(s[0])]),
        "transient_before_persistent_buffer": lambda s: {"buffer_transient": 1.5}.get(kind_of(s[0]), rank[kind_of(s[0])]),
        "constant_before_buffer": lambda s: {"tensor_constant": 1.5}.get(kind_of(s[0]), rank[kind_of(s[0])]),
    }
    with zipfile.ZipFile(BASE) as z:
        doc = json.loads(z.read(model_member(z)))
    out["base_input_kinds"] = [kind_of(s) for s in doc["graph_module"]["signature"]["input_specs"]]
    for name, key in variants.items():
        path = os.path.join(OUT, f"nativert_{name}.pt2")
        edit_program(BASE, path, permute_inputs(key))
        with zipfile.ZipFile(path) as z:
            d = json.loads(z.read(model_member(z)))
        rec = {"input_kinds": [kind_of(s) for s in d["graph_module"]["signature"]["input_specs"]]}
        rec.update(try_load(path))
        rec["nativert"] = try_nativert(path)
        out[name] = rec

    class Printing(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("steps", torch.zeros(()))

        def forward(self, x):
            torch.ops.aten._print("hi")
            self.steps.add_(1)
            return x + self.steps
    ep = export(Printing(), (X,)).run_decompositions()
    path = os.path.join(OUT, "nativert_token_program.pt2")
    save(ep, path)
    rec = try_load(path, expected=None)
    with zipfile.ZipFile(path) as z:
        d = json.loads(z.read(model_member(z)))
    rec["input_kinds"] = [kind_of(s) for s in d["graph_module"]["signature"]["input_specs"]]
    rec["nativert"] = try_nativert(path)
    out["token_program"] = rec
    RESULTS["nativert_order"] = out


# ---------------------------------------------------------------- 3. damaged archives
def central_directory(data):
    eocd = data.rfind(b"PK\x05\x06")
    count, size, offset = struct.unpack("<HII", data[eocd + 10:eocd + 20])
    entries, pos = [], offset
    for _ in range(count):
        fixed = struct.unpack("<4s6H3I5H2I", data[pos:pos + 46])
        n, m, k = fixed[10], fixed[11], fixed[12]
        entries.append({"pos": pos, "name": data[pos + 46:pos + 46 + n].decode(), "local": fixed[16],
                        "length": 46 + n + m + k})
        pos += 46 + n + m + k
    return eocd, offset, entries


def with_extra_member(src, name, payload, method=zipfile.ZIP_STORED):
    buf = io.BytesIO()
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(buf, "w") as zout:
        root = zin.namelist()[0].split("/")[0]
        for info in zin.infolist():
            zout.writestr(info, zin.read(info.filename), compress_type=zipfile.ZIP_STORED)
        zout.writestr(f"{root}/{name}", payload, compress_type=method)
    return bytearray(buf.getvalue())


def recompress(src, pick, method):
    buf = io.BytesIO()
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(buf, "w") as zout:
        for info in zin.infolist():
            zout.writestr(info.filename, zin.read(info.filename),
                          compress_type=method if pick(info.filename) else zipfile.ZIP_STORED)
    return bytes(buf.getvalue())


def testzip(path):
    try:
        with zipfile.ZipFile(path) as z:
            bad = z.testzip()
        return "ok" if bad is None else f"bad member {bad}"
    except BaseException as e:
        return err(e)


def measure_archives():
    out = {}
    cases = {}
    data = with_extra_member(BASE, "extra/notes.txt", b"notes " * 50)
    _, _, entries = central_directory(bytes(data))
    e = next(x for x in entries if x["name"].endswith("extra/notes.txt"))
    struct.pack_into("<I", data, e["pos"] + 42, len(data) + 1000)
    cases["offset_past_end_unread_member"] = bytes(data)

    data = bytearray(open(BASE, "rb").read())
    _, _, entries = central_directory(bytes(data))
    e = next(x for x in entries if x["name"].endswith("models/model.json"))
    name_at = e["local"] + 30
    data[name_at + len(e["name"]) - 1] ^= 0x01  # last letter of the name in the local header
    cases["local_name_disagrees_read_member"] = bytes(data)

    data = bytearray(open(BASE, "rb").read())
    e = next(x for x in central_directory(bytes(data))[2] if x["name"].endswith("models/model.json"))
    struct.pack_into("<I", data, e["local"] + 14, struct.unpack_from("<I", data, e["local"] + 14)[0] ^ 0xFFFF)
    cases["local_crc_disagrees_read_member"] = bytes(data)

    data = with_extra_member(BASE, "extra/notes.txt", b"notes " * 50)
    eocd, cd_off, entries = central_directory(bytes(data))
    target = next(x for x in entries if "/data/weights/" in x["name"]) if any("/data/weights/" in x["name"] for x in entries) \
        else entries[0]
    last = next(x for x in entries if x["name"].endswith("extra/notes.txt"))
    struct.pack_into("<I", data, last["pos"] + 42, target["local"])  # a second name for target's bytes
    cases["overlapping_members"] = bytes(data)

    cases["deflated_read_member"] = recompress(BASE, lambda n: n.endswith("models/model.json"), zipfile.ZIP_DEFLATED)
    cases["lzma_read_member"] = recompress(BASE, lambda n: n.endswith("models/model.json"), zipfile.ZIP_LZMA)
    cases["lzma_unread_member"] = bytes(with_extra_member(BASE, "extra/notes.txt", b"notes " * 50, zipfile.ZIP_LZMA))
    cases["bzip2_unread_member"] = bytes(with_extra_member(BASE, "extra/notes.txt", b"notes " * 50, zipfile.ZIP_BZIP2))
    for name, blob in cases.items():
        path = os.path.join(OUT, f"archive_{name}.pt2")
        with open(path, "wb") as f:
            f.write(blob)
        rec = try_load(path)
        rec["zipfile_testzip"] = testzip(path)
        out[name] = rec
    RESULTS["damaged_archives"] = out


for step in (measure_depths, measure_nativert, measure_archives):
    try:
        step()
    except BaseException as e:
        import traceback
        RESULTS[step.__name__ + "_failed"] = err(e)
        log(traceback.format_exc()[-2000:])
with open(os.path.join(OUT, "measurements.json"), "w") as f:
    json.dump(RESULTS, f, indent=1)
log(json.dumps(RESULTS, indent=1)[:6000])
