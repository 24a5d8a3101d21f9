#!/usr/bin/env python3
"""Goldens of subgraph-call-matches-subgraph (PT313), made from the real programs PyTorch 2.11
exported in tests/data/device/soundness (nested_regions*.pt2: three invoke_subgraph calls of one
`nested_compile_region`, identifier `subgraph_0`, the 2nd and 3rd with other shapes than the 1st,
whose trace the saved subgraph records).

- good_nested_regions{,.aten}.pt2: the programs as PyTorch wrote them (no finding);
- bad_bodies_differ.pt2: the 2nd call's body runs sigmoid where the others run relu, under the
  same identifier (pytorch/pytorch#197540, the nearest PyTorch 2.11 exports);
- bad_result_dtype.pt2: a pass re-typed the 1st call's result float64, its subgraph returns float32;
- bad_operand_extra.pt2: a pass gave the 1st call one more operand than its subgraph has inputs;
- bad_output_extra.pt2: a pass made the body return two values for each call's one result;
- bad_operand_shape.pt2: a pass made the 1st call pass a (2, 8) weight where the (4, 8) one
  was traced (the 1st call's trace is the one saved, so its shapes are exact).

    python3 make_goldens.py        (in this folder; deterministic)"""
import copy
import json
import os
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "..", "data", "device", "soundness")
RULE = "subgraph-call-matches-subgraph"


def rewrite(src, dst, edit, expect):
    stem_in = os.path.basename(src)[:-4]
    stem_out = os.path.basename(dst)[:-4]
    with zipfile.ZipFile(src) as zin:
        members = [(info, zin.read(info.filename)) for info in zin.infolist()]
    with zipfile.ZipFile(dst, "w", compression=zipfile.ZIP_STORED) as zout:
        for info, data in members:
            name = info.filename.replace(stem_in + "/", stem_out + "/", 1)
            if name.endswith("models/model.json") and edit is not None:
                program = json.loads(data)
                edit(program["graph_module"]["graph"])
                data = json.dumps(program).encode()
            zinfo = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            zout.writestr(zinfo, data)
    with open(dst + ".expect", "w") as f:
        f.write(f"# {os.path.basename(dst)}: made by make_goldens.py from {os.path.basename(src)}\n")
        f.write("".join(f"# expect: {line}\n" for line in expect) or "# expect: none\n")


def subgraph(graph, call):
    return graph["nodes"][call]["inputs"][0]["arg"]["as_graph"]["graph"]


def bodies_differ(graph):
    body = subgraph(graph, 1)
    body["nodes"][1]["target"] = "torch.ops.aten.sigmoid.default"


def result_dtype(graph):
    graph["tensor_values"]["getitem"]["dtype"] = 8


def operand_extra(graph):
    graph["nodes"][0]["inputs"].append(copy.deepcopy(graph["nodes"][0]["inputs"][3]))


def output_extra(graph):
    for call in range(3):  # the pass edits the one body, saved once per call
        subgraph(graph, call)["outputs"].append({"as_tensor": {"name": "matmul"}})


def operand_shape(graph):
    meta = subgraph(graph, 0)["tensor_values"]["arg1_1"]
    meta["sizes"] = [{"as_int": 2}, {"as_int": 8}]


def main():
    src = os.path.join(DATA, "nested_regions.pt2")
    rewrite(src, os.path.join(HERE, "good_nested_regions.pt2"), None, [])
    rewrite(os.path.join(DATA, "nested_regions.aten.pt2"), os.path.join(HERE, "good_nested_regions.aten.pt2"),
            None, [])
    rewrite(src, os.path.join(HERE, "bad_bodies_differ.pt2"), bodies_differ, [f"error {RULE} node:invoke_subgraph_1"])
    # the result re-typed is also the 2nd call's operand, bound to a float32 input
    rewrite(src, os.path.join(HERE, "bad_result_dtype.pt2"), result_dtype,
            [f"error {RULE} node:invoke_subgraph", f"error {RULE} node:invoke_subgraph_1"])
    rewrite(src, os.path.join(HERE, "bad_operand_extra.pt2"), operand_extra, [f"error {RULE} node:invoke_subgraph"])
    rewrite(src, os.path.join(HERE, "bad_output_extra.pt2"), output_extra,
            [f"error {RULE} node:invoke_subgraph", f"error {RULE} node:invoke_subgraph_1",
             f"error {RULE} node:invoke_subgraph_2"])
    rewrite(src, os.path.join(HERE, "bad_operand_shape.pt2"), operand_shape, [f"error {RULE} node:invoke_subgraph"])


if __name__ == "__main__":
    main()
