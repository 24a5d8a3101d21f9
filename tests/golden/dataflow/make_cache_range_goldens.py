#!/usr/bin/env python3
"""Writes the goldens of cache-write-in-bounds (PT325) and cache-capacity-reachable (PT326): an
ExecuTorch-style KV cache `k_cache` (1, 16, 4) written at `input_pos[0].item()` (symbol u0) for
2 tokens, as torch.export 2.11 writes it (tests/data/device/state/etcache_*: ATEN
slice_scatter(k_cache, x, 1, u0, u0 + 2), TRAINING narrow(k_cache, 1, u0, 2).copy_(x)), with the
range of u0 and the runtime assertions each case says.

    python3 tests/golden/dataflow/make_cache_range_goldens.py

Deterministic: run it again and `git diff` shows nothing."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from textproto_builders import F32, I64, tv  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))



def node(target, name, inputs, outputs):
    t = f'      nodes {{\n        target: "{target}" name: "{name}"\n'
    t += "".join(f'        inputs {{ name: "{k}" arg {{ {v} }} }}\n' for k, v in inputs)
    t += "".join(f"        outputs {{ {o} }}\n" for o in outputs)
    return t + "      }\n"


T = lambda n: f'as_tensor {{ name: "{n}" }}'  # noqa: E731
S = lambda n: f'as_sym_int {{ as_name: "{n}" }}'  # noqa: E731
B = lambda n: f'as_sym_bool {{ as_name: "{n}" }}'  # noqa: E731
I = lambda v: f"as_int: {v}"  # noqa: E731,E741
U0 = "Symbol('u0', integer=True)"


def program(dialect, u0_max, cap=None, fixed=False):
    """The cache write; `cap`: a runtime assertion u0 + 2 <= cap; `fixed`: written at [0, 2)."""
    nodes, sym_ints, sym_bools = [], {}, {}
    if fixed:
        start, end = I(0), I(2)
    else:
        nodes.append(node("torch.ops.aten.select.int", "select", [("self", T("input_pos")), ("dim", I(0)), ("index", I(0))],
                          [T("select")]))
        nodes.append(node("torch.ops.aten._local_scalar_dense.default", "item", [("self", T("select"))],
                          [f'as_sym_int {{ as_name: "item" }}']))
        nodes.append(node("_operator.add", "add_1", [("a", S("item")), ("b", I(2))], ['as_sym_int { as_name: "add_1" }']))
        sym_ints = {"item": U0, "add_1": f"Add(Integer(2), {U0})"}
        if cap is not None:
            nodes.append(node("_operator.le", "le", [("a", S("add_1")), ("b", I(cap))], ['as_sym_bool { as_name: "le" }']))
            nodes.append(node("torch.ops.aten._assert_scalar.default", "_assert_scalar",
                              [("self", B("le")), ("assert_msg", f'as_string: "u0 + 2 <= {cap}"')], []))
            sym_bools = {"le": f"LessThan(Add(Integer(2), {U0}), Integer({cap}))"}
        start, end = S("item"), S("add_1")
    if dialect == "ATEN":
        nodes.append(node("torch.ops.aten.slice_scatter.default", "slice_scatter",
                          [("self", T("b_k_cache")), ("src", T("x")), ("dim", I(1)), ("start", start), ("end", end)],
                          [T("slice_scatter")]))
        nodes.append(node("torch.ops.aten.sum.dim_IntList", "sum_1", [("self", T("slice_scatter")), ("dim", "as_ints { items: 1 }")],
                          [T("sum_1")]))
        written = ["slice_scatter"]
    else:
        length = I(2)
        nodes.append(node("torch.ops.aten.narrow.default", "narrow",
                          [("self", T("b_k_cache")), ("dim", I(1)), ("start", start), ("length", length)], [T("narrow")]))
        nodes.append(node("torch.ops.aten.copy_.default", "copy_", [("self", T("narrow")), ("src", T("x"))], [T("copy_")]))
        nodes.append(node("torch.ops.aten.sum.dim_IntList", "sum_1", [("self", T("b_k_cache")), ("dim", "as_ints { items: 1 }")],
                          [T("sum_1")]))
        written = []
    values = {"b_k_cache": (F32, 1, 16, 4), "x": (F32, 1, 2, 4), "input_pos": (I64, 1), "sum_1": (F32, 1, 4)}
    if not fixed:
        values["select"] = (I64,)
    values.update({n: (F32, 1, 16, 4) for n in ("slice_scatter", "narrow", "copy_") if n in "".join(nodes)})
    if "narrow" in values:
        values["narrow"] = (F32, 1, 2, 4)
        values["copy_"] = (F32, 1, 2, 4)
    t = (f'name: "model"\nprogram {{\n  schema_version {{ major: 8 minor: 17 }}\n  verifiers: "{dialect}"\n'
         + ("" if fixed else f'  range_constraints {{ key: "u0" value {{ min_val: 0 max_val: {u0_max} }} }}\n')
         + "  graph_module {\n    graph {\n")
    t += "".join(f'      inputs {{ as_tensor {{ name: "{i}" }} }}\n' for i in ("b_k_cache", "x", "input_pos"))
    t += "".join(nodes)
    t += "".join(f'      outputs {{ as_tensor {{ name: "{o}" }} }}\n' for o in written + ["sum_1"])
    t += "".join(tv(k, *v) for k, v in values.items())
    t += "".join(f'      sym_int_values {{ key: "{k}" value {{ as_expr {{ expr_str: "{v}" }} }} }}\n' for k, v in sym_ints.items())
    t += "".join(f'      sym_bool_values {{ key: "{k}" value {{ as_expr {{ expr_str: "{v}" }} }} }}\n' for k, v in sym_bools.items())
    t += "    }\n    signature {\n"
    t += '      input_specs { buffer { arg { name: "b_k_cache" } buffer_name: "k_cache" persistent: true } }\n'
    t += '      input_specs { user_input { arg { as_tensor { name: "x" } } } }\n'
    t += '      input_specs { user_input { arg { as_tensor { name: "input_pos" } } } }\n'
    t += "".join(f'      output_specs {{ buffer_mutation {{ arg {{ name: "{w}" }} buffer_name: "k_cache" }} }}\n' for w in written)
    t += '      output_specs { user_output { arg { as_tensor { name: "sum_1" } } } }\n'
    return t + "    }\n  }\n}\n"


def tensor_positions():
    """transformers-style: index_copy_(k_cache, 1, pos, x) at a user input `pos` (TRAINING)."""
    nodes = node("torch.ops.aten.index_copy_.default", "index_copy_",
                 [("self", T("b_k_cache")), ("dim", I(1)), ("index", T("pos")), ("source", T("x"))], [T("index_copy_")])
    nodes += node("torch.ops.aten.sum.dim_IntList", "sum_1", [("self", T("b_k_cache")), ("dim", "as_ints { items: 1 }")],
                  [T("sum_1")])
    values = {"b_k_cache": (F32, 1, 16, 4), "x": (F32, 1, 2, 4), "pos": (I64, 2), "index_copy_": (F32, 1, 16, 4),
              "sum_1": (F32, 1, 4)}
    t = ('name: "model"\nprogram {\n  schema_version { major: 8 minor: 17 }\n  verifiers: "TRAINING"\n'
         "  graph_module {\n    graph {\n")
    t += "".join(f'      inputs {{ as_tensor {{ name: "{i}" }} }}\n' for i in ("b_k_cache", "x", "pos"))
    t += nodes + '      outputs { as_tensor { name: "sum_1" } }\n'
    t += "".join(tv(k, *v) for k, v in values.items())
    t += "    }\n    signature {\n"
    t += '      input_specs { buffer { arg { name: "b_k_cache" } buffer_name: "k_cache" persistent: true } }\n'
    t += '      input_specs { user_input { arg { as_tensor { name: "x" } } } }\n'
    t += '      input_specs { user_input { arg { as_tensor { name: "pos" } } } }\n'
    t += '      output_specs { user_output { arg { as_tensor { name: "sum_1" } } } }\n'
    return t + "    }\n  }\n}\n"


CASES = {
    "cache-write-in-bounds": {
        "bad_position_range_past_extent.aten": (
            "A pass widened u0 to [0, 30]: a 2-token write can end at 32, past the 16 positions.",
            ["error cache-write-in-bounds node:slice_scatter"], program("ATEN", 30)),
        "bad_position_range_past_extent": (
            "The same in the TRAINING dialect: narrow(k_cache, 1, u0, 2).copy_(x) with u0 in [0, 30].",
            ["error cache-write-in-bounds node:copy_"], program("TRAINING", 30)),
        "good_bounded.aten": ("u0 in [0, 14], as torch.export bounds it: the write ends at 16 at most.",
                              [], program("ATEN", 14)),
        "good_fixed_positions.aten": ("A static prefill written at [0, 2): nothing symbolic.", [],
                                      program("ATEN", 14, fixed=True)),
        "good_tensor_positions_undecidable": (
            "Written at the positions a user input tensor holds (transformers' cache_position): undecidable,\n"
            "# never clean and never a finding; `check --verbose` says why (ctest cache_range_undecidable_verbose).",
            [], tensor_positions()),
    },
    "cache-capacity-reachable": {
        "bad_capped_by_assertion.aten": (
            "torch._check(start + seq <= 8) against a 16-position cache: positions 8 to 15 are never written.",
            ["warning cache-capacity-reachable node:slice_scatter"], program("ATEN", 14, cap=8)),
        "bad_capped_by_range": (
            "u0 in [0, 6] (TRAINING narrow + copy_): the 2-token write ends at 8 at most, of 16.",
            ["warning cache-capacity-reachable node:copy_"], program("TRAINING", 6)),
        "good_bounded": ("u0 in [0, 14] (TRAINING): every position can be written.", [], program("TRAINING", 14)),
        "good_fixed_prefill.aten": ("A static prefill written at [0, 2) of 16: not capped by any guard.", [],
                                    program("ATEN", 14, fixed=True)),
    },
}

for rule, cases in CASES.items():
    folder = os.path.join(HERE, rule)
    os.makedirs(folder, exist_ok=True)
    for case, (what, expect, text) in cases.items():
        head = f"# {what}\n# Written by tests/golden/dataflow/make_cache_range_goldens.py.\n"
        head += "".join(f"# expect: {e}\n" for e in expect) or "# expect: none\n"
        with open(os.path.join(folder, case + ".textproto"), "w") as f:
            f.write(head + text)
