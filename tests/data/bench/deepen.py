"""Write the kv_nested decoder at any depth from two real exports of it, without PyTorch.

torch.export takes minutes beyond 1,024 layers (export_decoder.py: 70 s export and 51 s save at
1,024 layers, 119 s and 69 s at 1,536, on the device), and 4,096 layers do not fit in one
device call. But the program is regular: every number in a layer's JSON (node names such as
`linear_6143`, `layers.1023`, `weight_12290`, `torch_fn` counters) is an affine function of the
layer index L and the depth N. This script learns those functions from two real exports, A at
depth N_A and B at depth N_B (layers 1 and 2 of A give the step per layer, layer 1 of A and B
the step per unit of depth), and renders any depth.

It proves itself before writing anything: from A and B it must rebuild A and B byte for byte
(the program JSON and the weights config), or it stops. So its output is the JSON that
torch.export.save would write for that depth.

Usage: python3 deepen.py A.pt2[.gz] B.pt2[.gz] LAYERS OUT.pt2.gz
"""
import gzip
import io
import json
import re
import sys
import zipfile

# The decoder's lists, in order, as segments: ("one", k) are k items outside the layers
# (affine in N only), ("layers", k) are k items per layer.
PARAMS = [("one", 1), ("layers", 12), ("one", 1)]  # emb, 12 per layer, head
BUFFERS = [("layers", 2)]  # k_cache, v_cache per layer
USER_INPUTS = [("one", 2)]  # tokens, pos
NODES = [("one", 1), ("layers", 22), ("one", 1)]  # embedding, 22 per layer, head
SEGMENTS = {
    ("graph_module", "graph", "inputs"): PARAMS + BUFFERS + USER_INPUTS,
    ("graph_module", "signature", "input_specs"): PARAMS + BUFFERS + USER_INPUTS,
    ("graph_module", "graph", "tensor_values"): PARAMS + BUFFERS + USER_INPUTS + NODES,
    ("graph_module", "graph", "nodes"): NODES,
    ("graph_module", "graph", "outputs"): [("one", 1)],
    ("graph_module", "signature", "output_specs"): [("one", 1)],
    ("graph_module", "module_call_graph"): [("one", 3), ("layers", 13), ("one", 1)],
}
WEIGHTS_SEGMENTS = {("config",): PARAMS + BUFFERS}
DIGITS = re.compile(r"(\d+)")


def read_archive(path):
    data = open(path, "rb").read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    z = zipfile.ZipFile(io.BytesIO(data))
    root = z.namelist()[0].split("/")[0]
    depth = int(re.fullmatch(r"kv_nested_(\d+)l", root).group(1))
    return z, root, depth


def get(doc, path):
    for key in path:
        doc = doc[key]
    return doc


def item_texts(value):
    """Each item of a list, or each "key": value of an object, as JSON text."""
    if isinstance(value, dict):
        return [json.dumps({k: v})[1:-1] for k, v in value.items()]
    return [json.dumps(v) for v in value]


def chunks(texts, spec, depth):
    """Splits a segment's item texts into chunks: one per "one" group, and per layer."""
    out, at = [], 0
    for kind, k in spec:
        if kind == "one":
            out.append(("one", ", ".join(texts[at:at + k])))
            at += k
        else:
            out.append(("layers", [", ".join(texts[at + i * k:at + (i + 1) * k]) for i in range(depth)]))
            at += k * depth
    if at != len(texts):
        raise SystemExit(f"segment holds {len(texts)} items, the layout {spec} at depth {depth} {at}")
    return out


class Affine:
    """A text whose numbers are v0 + dl * (L - l0) + dn * (N - n0)."""

    def __init__(self, base, per_layer, per_depth, l0, n0):
        pb, pl, pn = DIGITS.split(base), DIGITS.split(per_layer), DIGITS.split(per_depth)
        if not (len(pb) == len(pl) == len(pn)) or any(
                pb[i] != pl[i] or pb[i] != pn[i] for i in range(0, len(pb), 2)):
            raise SystemExit("the layers differ in more than their numbers: not this decoder")
        self.parts, self.l0, self.n0 = pb, l0, n0
        self.steps = []
        for i in range(1, len(pb), 2):
            dl = int(pl[i]) - int(pb[i])
            dn_total = int(pn[i]) - int(pb[i])
            self.steps.append((i, int(pb[i]), dl, dn_total))

    def render(self, layer, depth, depth_step):
        parts = list(self.parts)
        for i, v0, dl, dn_total in self.steps:
            if dl == 0 and dn_total == 0:
                continue  # keep the spelling ("05" in 1e-05)
            if dn_total % depth_step:
                raise SystemExit("a number does not grow linearly with depth")
            parts[i] = str(v0 + dl * (layer - self.l0) + dn_total // depth_step * (depth - self.n0))
        return "".join(parts)


def learn(a_chunks, b_chunks):
    """One Affine per chunk (and for layers: layer 0 and the rest)."""
    learned = []
    for (kind, a), (_, b) in zip(a_chunks, b_chunks):
        if kind == "one":
            learned.append(("one", Affine(a, a, b, 0, 0)))
        else:
            # Layer 0 is special (PyTorch names its first `linear` without a counter).
            learned.append(("layers", Affine(a[0], a[0], b[0], 0, 0), Affine(a[1], a[2], b[1], 1, 0)))
    return learned


def render(learned, depth, depth_a, depth_b, spec_is_dict):
    step = depth_b - depth_a
    texts = []
    for entry in learned:
        if entry[0] == "one":
            texts.append(entry[1].render(0, depth - depth_a, step))
        else:
            first, rest = entry[1], entry[2]
            texts.append(first.render(0, depth - depth_a, step))
            texts.extend(rest.render(layer, depth - depth_a, step) for layer in range(1, depth))
    body = ", ".join(t for t in texts if t)
    return "{" + body + "}" if spec_is_dict else "[" + body + "]"


def learn_document(text_a, text_b, depth_a, depth_b, segments):
    doc_a, doc_b = json.loads(text_a), json.loads(text_b)
    plan = []
    for path, spec in segments.items():
        va, vb = get(doc_a, path), get(doc_b, path)
        la = chunks(item_texts(va), spec, depth_a)
        lb = chunks(item_texts(vb), spec, depth_b)
        plan.append((path, learn(la, lb), isinstance(va, dict)))
        get(doc_a, path[:-1])[path[-1]] = f"@@{len(plan) - 1}@@"
        get(doc_b, path[:-1])[path[-1]] = f"@@{len(plan) - 1}@@"
    skeleton = json.dumps(doc_a)
    if skeleton != json.dumps(doc_b):
        raise SystemExit("the documents differ outside the layered lists")
    return skeleton, plan


def render_document(skeleton, plan, depth, depth_a, depth_b):
    out = skeleton
    for i, (_, learned, is_dict) in enumerate(plan):
        out = out.replace(f'"@@{i}@@"', render(learned, depth, depth_a, depth_b, is_dict), 1)
    return out


def weight_sizes(config_text):
    """Bytes of each weight member, from the weights config (float32 only)."""
    sizes = {}
    for entry in json.loads(config_text)["config"].values():
        count = 1
        for s in entry["tensor_meta"]["sizes"]:
            count *= s["as_int"]
        if entry["tensor_meta"]["dtype"] != 7:
            raise SystemExit("only float32 weights are written")
        sizes[entry["path_name"]] = 4 * count
    return sizes


def main():
    path_a, path_b, depth, out_path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    (za, root_a, na), (zb, root_b, nb) = read_archive(path_a), read_archive(path_b)
    members = {}
    for member, segments in (("models/model.json", SEGMENTS),
                             ("data/weights/model_weights_config.json", WEIGHTS_SEGMENTS)):
        ta = za.read(f"{root_a}/{member}").decode()
        tb = zb.read(f"{root_b}/{member}").decode()
        skeleton, plan = learn_document(ta, tb, na, nb, segments)
        for n, text in ((na, ta), (nb, tb)):
            if render_document(skeleton, plan, n, na, nb) != text:
                raise SystemExit(f"{member}: could not rebuild the {n}-layer export byte for byte")
        print(f"{member}: rebuilds the {na}- and {nb}-layer exports byte for byte", flush=True)
        members[member] = render_document(skeleton, plan, depth, na, nb).encode()
    sizes = weight_sizes(members["data/weights/model_weights_config.json"])
    sizes_a = weight_sizes(za.read(f"{root_a}/data/weights/model_weights_config.json"))
    for name in za.namelist():
        if name.startswith(f"{root_a}/data/weights/weight_"):
            if sizes_a.get(name.rsplit("/", 1)[1]) != za.getinfo(name).file_size or any(za.read(name)):
                raise SystemExit(f"{name}: not the zero weights this script writes")
    root = f"kv_nested_{depth}l"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as z:
        wrote_weights = False
        for name in za.namelist():
            relative = name.split("/", 1)[1]
            if relative.startswith("data/weights/weight_"):
                if not wrote_weights:
                    for path_name, size in sizes.items():
                        z.writestr(f"{root}/data/weights/{path_name}", bytes(size))
                    wrote_weights = True
                continue
            z.writestr(f"{root}/{relative}", members.get(relative, za.read(name)))
    with gzip.open(out_path, "wb", compresslevel=9) as f:
        f.write(buffer.getvalue())
    print(f"{out_path}: {depth} layers, program JSON {len(members['models/model.json'])} bytes")


if __name__ == "__main__":
    main()
