"""Backend-style passes that break a saved program's signature, the way lowering passes and
archive writers get it wrong (docs/fix.md, "Repairs on real programs"). Each pass edits the
program JSON (and, where the pass is about saved state, the weights/constants config) of a
`.pt2` archive written by torch.export.save, and leaves every tensor byte alone. No torch
needed: the device script runs them over fresh exports, and they run here over committed ones.

    python3 corrupt_passes.py CLEAN.pt2 OUT_DIR      writes OUT_DIR/<stem>__<pass>.pt2 for each
                                                    pass that applies, and prints their names
"""
import json
import os
import re
import sys
import zipfile


def _outputs(doc):
    gm = doc["graph_module"]
    return gm["signature"]["output_specs"], gm["graph"]["outputs"]


def _kind(spec):
    return next(iter(spec))


def _value(spec):
    body = spec[_kind(spec)]
    arg = body["arg"]
    return arg.get("as_tensor", arg).get("name") if isinstance(arg, dict) else None


def _mutations(specs, kind="buffer_mutation"):
    return [i for i, s in enumerate(specs) if _kind(s) == kind]


def _users(specs):
    return [i for i, s in enumerate(specs) if _kind(s) == "user_output"]


def _lifted(name):
    return "lifted_buf_" + name.replace(".", "_")


# Each pass: (doc, weights, constants) -> True when it applied (and edited them in place).

def swap_two(doc, w, c):
    """The write-back targets of the first two written buffers exchanged."""
    specs, _ = _outputs(doc)
    m = _mutations(specs)
    if len(m) < 2:
        return False
    a, b = specs[m[0]]["buffer_mutation"], specs[m[1]]["buffer_mutation"]
    a["buffer_name"], b["buffer_name"] = b["buffer_name"], a["buffer_name"]
    return True


def rotate_targets(doc, w, c):
    """Every write-back target moved one position on (a pass pairing by an off-by-one index)."""
    specs, _ = _outputs(doc)
    m = _mutations(specs)
    if len(m) < 3:
        return False
    names = [specs[i]["buffer_mutation"]["buffer_name"] for i in m]
    for i, name in zip(m, names[1:] + names[:1]):
        specs[i]["buffer_mutation"]["buffer_name"] = name
    return True


def pairing_by_position(doc, w, c):
    """User outputs first, then the first N outputs paired with the written buffers in order."""
    specs, outs = _outputs(doc)
    m, u = _mutations(specs), _users(specs)
    if not m or not u or len(m) + len(u) != len(specs):
        return False
    order = u + m
    targets = [specs[i]["buffer_mutation"]["buffer_name"] for i in m]
    new_outs = [outs[i] for i in order]
    new_specs = []
    for k, i in enumerate(order):
        name = outs[i]["as_tensor"]["name"] if "as_tensor" in outs[i] else None
        if name is None:
            return False
        if k < len(m):
            new_specs.append({"buffer_mutation": {"arg": {"name": name}, "buffer_name": targets[k]}})
        else:
            new_specs.append({"user_output": {"arg": {"as_tensor": {"name": name}}}})
    specs[:], outs[:] = new_specs, new_outs
    return True


def copy_back_as_user_output(doc, w, c):
    """The arity case: the last buffer's write-back dropped and its value appended as a user output
    (a pass that returns copy-back values instead of declaring them)."""
    specs, outs = _outputs(doc)
    m = _mutations(specs)
    if not m:
        return False
    i = m[-1]
    value = specs[i]["buffer_mutation"]["arg"]["name"]
    del specs[i], outs[i]
    specs.append({"user_output": {"arg": {"as_tensor": {"name": value}}}})
    outs.append({"as_tensor": {"name": value}})
    return True


def dropped_write_back(doc, w, c):
    """The last buffer's write-back dropped (spec and graph output)."""
    specs, outs = _outputs(doc)
    m = _mutations(specs)
    if not m:
        return False
    del specs[m[-1]], outs[m[-1]]
    return True


def mutation_after_output(doc, w, c):
    """The first write-back moved behind the user outputs (spec and graph output together)."""
    specs, outs = _outputs(doc)
    m, u = _mutations(specs), _users(specs)
    if not m or not u:
        return False
    i = m[0]
    specs.append(specs.pop(i))
    outs.append(outs.pop(i))
    return True


def specs_misaligned(doc, w, c):
    """The output specs rotated by one against the graph outputs."""
    specs, _ = _outputs(doc)
    if len(specs) < 2 or len({_value(s) for s in specs}) != len(specs):
        return False
    specs.append(specs.pop(0))
    return True


def duplicate_target(doc, w, c):
    """The second write-back names the first's buffer."""
    specs, _ = _outputs(doc)
    m = _mutations(specs)
    if len(m) < 2:
        return False
    specs[m[1]]["buffer_mutation"]["buffer_name"] = specs[m[0]]["buffer_mutation"]["buffer_name"]
    return True


def user_output_as_write_back(doc, w, c):
    """The first user output declared a second write-back of the first written buffer."""
    specs, outs = _outputs(doc)
    m, u = _mutations(specs), _users(specs)
    if not m or not u or "as_tensor" not in outs[u[0]]:
        return False
    name = outs[u[0]]["as_tensor"]["name"]
    specs[u[0]] = {"buffer_mutation": {"arg": {"name": name}, "buffer_name": specs[m[0]]["buffer_mutation"]["buffer_name"]}}
    return True


def rename_targets_lifted(doc, w, c):
    """Seed bug: write-back targets renamed to flat `lifted_buf_` names; input specs and state kept."""
    specs, _ = _outputs(doc)
    m = _mutations(specs)
    for i in m:
        body = specs[i]["buffer_mutation"]
        body["buffer_name"] = _lifted(body["buffer_name"])
    return bool(m)


def _written_buffers(doc):
    specs, _ = _outputs(doc)
    return {specs[i]["buffer_mutation"]["buffer_name"] for i in _mutations(specs)}


def rename_input_specs_lifted(doc, w, c):
    """The input specs of the written buffers renamed to `lifted_buf_` names; the state dict and the
    write-back targets keep the dotted names (one source alone renamed)."""
    written = _written_buffers(doc)
    hit = False
    for spec in doc["graph_module"]["signature"]["input_specs"]:
        if "buffer" in spec and spec["buffer"]["buffer_name"] in written:
            spec["buffer"]["buffer_name"] = _lifted(spec["buffer"]["buffer_name"])
            hit = True
    return hit


def rename_state_lifted(doc, w, c):
    """The state renamed consistently (input specs and saved state) to `lifted_buf_` names; only the
    write-back targets lag behind with the dotted names."""
    written = _written_buffers(doc)
    hit = False
    for spec in doc["graph_module"]["signature"]["input_specs"]:
        if "buffer" in spec and spec["buffer"]["buffer_name"] in written:
            old = spec["buffer"]["buffer_name"]
            spec["buffer"]["buffer_name"] = _lifted(old)
            for cfg in (w, c):
                if cfg is not None and old in cfg["config"]:
                    cfg["config"][_lifted(old)] = cfg["config"].pop(old)
            hit = True
    return hit


def state_entry_renamed(doc, w, c):
    """One saved buffer's state-dict entry renamed (module path dropped); its spec kept."""
    if w is None:
        return False
    for spec in doc["graph_module"]["signature"]["input_specs"]:
        if "buffer" in spec and spec["buffer"].get("persistent", True):
            name = spec["buffer"]["buffer_name"]
            if name in w["config"]:
                w["config"][name.rsplit(".", 1)[-1] + "_renamed"] = w["config"].pop(name)
                return True
    return False


def entries_renamed_same_shape(doc, w, c):
    """Two saved buffers of the same shape and dtype renamed (module path dropped, `_saved`
    added); their specs kept. Only the names tell which entry is which spec's: an unsafe repair."""
    if w is None:
        return False
    by_meta = {}
    for spec in doc["graph_module"]["signature"]["input_specs"]:
        if "buffer" in spec and spec["buffer"]["buffer_name"] in w["config"]:
            name = spec["buffer"]["buffer_name"]
            by_meta.setdefault(json.dumps(w["config"][name]["tensor_meta"], sort_keys=True), []).append(name)
    for names in by_meta.values():
        if len(names) >= 2:
            for name in names[:2]:
                w["config"][name.rsplit(".", 1)[-1] + "_saved"] = w["config"].pop(name)
            return True
    return False


def buffer_to_constant(doc, w, c):
    """The first written buffer turned into a tensor constant (its saved tensor moved to the
    constants), its write-back kept: what a pass that freezes state it thinks is constant does."""
    if w is None or c is None:
        return False
    written = _written_buffers(doc)
    for spec in doc["graph_module"]["signature"]["input_specs"]:
        if "buffer" in spec and spec["buffer"]["buffer_name"] in written and spec["buffer"]["buffer_name"] in w["config"]:
            b = spec.pop("buffer")
            spec["tensor_constant"] = {"arg": b["arg"], "tensor_constant_name": b["buffer_name"]}
            entry = w["config"].pop(b["buffer_name"])
            moved = "tensor_moved_" + entry["path_name"]
            c["config"][b["buffer_name"]] = dict(entry, path_name=moved, is_param=False)
            return [("weights/" + entry["path_name"], "constants/" + moved)]
    return False


def buffer_as_parameter(doc, w, c):
    """The first buffer declared a parameter."""
    for spec in doc["graph_module"]["signature"]["input_specs"]:
        if "buffer" in spec and spec["buffer"].get("persistent", True):
            b = spec.pop("buffer")
            spec["parameter"] = {"arg": b["arg"], "parameter_name": b["buffer_name"]}
            return True
    return False


def token_after_outputs(doc, w, c):
    """The effect token outputs moved behind the user outputs."""
    specs, outs = _outputs(doc)
    t = [i for i, s in enumerate(specs) if _kind(s) == "token"]
    if not t or not _users(specs):
        return False
    for i in reversed(t):
        specs.append(specs.pop(i))
        outs.append(outs.pop(i))
    return True


PASSES = [swap_two, rotate_targets, pairing_by_position, copy_back_as_user_output, dropped_write_back,
          mutation_after_output, specs_misaligned, duplicate_target, user_output_as_write_back,
          rename_targets_lifted, rename_input_specs_lifted, rename_state_lifted, state_entry_renamed, entries_renamed_same_shape,
          buffer_to_constant, buffer_as_parameter, token_after_outputs]


def corrupt(src, dst, fn):
    """Applies pass `fn` to archive `src`; writes `dst` and returns True when it applied."""
    with zipfile.ZipFile(src) as zin:
        members = [(i.filename, zin.read(i.filename)) for i in zin.infolist()]
    names = [n for n, _ in members]
    model = next(n for n in names if re.search(r"models/[^/]+\.json$", n))
    wname = next((n for n in names if n.endswith("model_weights_config.json")), None)
    cname = next((n for n in names if n.endswith("model_constants_config.json")), None)
    data = dict(members)
    doc = json.loads(data[model])
    w = json.loads(data[wname]) if wname else None
    c = json.loads(data[cname]) if cname else None
    applied = fn(doc, w, c)
    if not applied:
        return False
    if isinstance(applied, list):  # saved tensors the pass moved: (from, to) under data/
        root = model[: model.index("models/")]
        for src_rel, dst_rel in applied:
            data[root + "data/" + dst_rel] = data[root + "data/" + src_rel]
            members.append((root + "data/" + dst_rel, None))
    data[model] = json.dumps(doc).encode()
    if wname:
        data[wname] = json.dumps(w).encode()
    if cname:
        data[cname] = json.dumps(c).encode()
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as zout:
        for name, _ in members:
            zout.writestr(name, data[name])
    return True


def main():
    src, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    stem = os.path.basename(src)[: -len(".pt2")]
    for fn in PASSES:
        dst = os.path.join(out_dir, f"{stem}__{fn.__name__}.pt2")
        if corrupt(src, dst, fn):
            print(dst)


if __name__ == "__main__":
    main()
