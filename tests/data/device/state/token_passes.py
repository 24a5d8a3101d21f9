#!/usr/bin/env python3
"""The effect-token defects, made by passes over the saved program. PyTorch 2.11 writes effect
tokens only after run_decompositions (the TRAINING programs call aten._print and effectful custom
ops directly), so the device script's token passes, written for the TRAINING graph, had nothing to
rewire; these do the same to the serialized ATEN programs, the way a backend that writes its own
archive would (like seedbugs' rename_one_side). Not judged by PyTorch (no torch here).

    python3 token_passes.py        (in this folder: writes NAME__fork_tokens.aten.pt2 and
                                    NAME__drop_token.aten.pt2 for tokens_print and tokens_custom)"""
import json
import os
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))


def rewrite(src, dst, edit):
    with zipfile.ZipFile(src) as zin:
        members = [(i.filename, zin.read(i.filename)) for i in zin.infolist()]
    root = os.path.basename(src)[:-len(".pt2")]
    new_root = os.path.basename(dst)[:-len(".pt2")]
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as zout:
        for name, data in members:
            if name.endswith("/models/model.json"):
                doc = json.loads(data)
                edit(doc)
                data = json.dumps(doc).encode()
            zout.writestr(new_root + name[len(root):], data)


def effects(doc):
    return [n for n in doc["graph_module"]["graph"]["nodes"] if n["target"] == "torch.ops.higher_order.with_effects"]


def fork_tokens(doc):
    """The second effect takes the input token again instead of the first's output token."""
    first, second = effects(doc)[:2]
    second["inputs"][0]["arg"] = json.loads(json.dumps(first["inputs"][0]["arg"]))


def drop_token(doc):
    """The output token is the first effect's token; the second's is dropped."""
    first_token = effects(doc)[0]["outputs"][0]["as_tensor"]["name"]
    gm = doc["graph_module"]
    for i, spec in enumerate(gm["signature"]["output_specs"]):
        if "token" in spec:
            spec["token"]["arg"]["name"] = first_token
            gm["graph"]["outputs"][i] = {"as_tensor": {"name": first_token}}


for name in ("tokens_print", "tokens_custom"):
    for bug in (fork_tokens, drop_token):
        rewrite(os.path.join(HERE, f"{name}.aten.pt2"), os.path.join(HERE, f"{name}__{bug.__name__}.aten.pt2"), bug)
