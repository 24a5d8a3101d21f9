#!/usr/bin/env python3
"""Writes the goldens of effect-token-chain (PT323) and written-state-needs-initial-value (PT324).

effect-token-chain: a module that prints twice (aten._print, "first" and "second") around
x + 1, as torch.export writes it (TRAINING dialect: an input token, two with_effects calls, an
output token); each bad case is what a pass did to the token chain, said in its header.
written-state-needs-initial-value: buffers written the ways models write them, in both dialects.

    python3 tests/golden/dataflow/make_effect_and_initial_value_goldens.py

Deterministic: run it again and `git diff` shows nothing."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from textproto_builders import F32, I64, arg, tv  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))




def node(target, name, inputs, outputs):
    t = f'      nodes {{\n        target: "{target}" name: "{name}"\n'
    t += "".join(f'        inputs {{ name: "{k}" arg {{ {arg(v)} }} }}\n' for k, v in inputs)
    for o in outputs:
        t += "        outputs { as_none: true }\n" if o is None else f'        outputs {{ as_tensor {{ name: "{o}" }} }}\n'
    return t + "      }\n"


def program(dialect, inputs, specs_in, nodes, outputs, specs_out, values):
    t = (f'name: "model"\nprogram {{\n  schema_version {{ major: 8 minor: 17 }}\n  verifiers: "{dialect}"\n'
         "  graph_module {\n    graph {\n")
    t += "".join(f'      inputs {{ as_tensor {{ name: "{i}" }} }}\n' for i in inputs)
    t += "".join(nodes)
    t += "".join(f'      outputs {{ as_tensor {{ name: "{o}" }} }}\n' for o in outputs)
    t += "".join(tv(k, *v) for k, v in values.items())
    t += "    }\n    signature {\n"
    t += "".join(f"      input_specs {{ {s} }}\n" for s in specs_in)
    t += "".join(f"      output_specs {{ {s} }}\n" for s in specs_out)
    return t + "    }\n  }\n}\n"


# ------------------------------------------------------------------ effect tokens
def effects(second_token="getitem", out_token="getitem_1", keep_out_token=True):
    nodes = [node("torch.ops.higher_order.with_effects", "with_effects",
                  [("", "token"), ("", "op:torch.ops.aten._print.default"), ("", "str:first")], ["getitem", None]),
             node("torch.ops.aten.add.Tensor", "add", [("self", "x"), ("other", 1)], ["add"]),
             node("torch.ops.higher_order.with_effects", "with_effects_1",
                  [("", second_token), ("", "op:torch.ops.aten._print.default"), ("", "str:second")],
                  ["getitem_1", None]),
             node("torch.ops.aten.mul.Tensor", "mul", [("self", "add"), ("other", 2)], ["mul"])]
    values = {"token": (F32, 0), "x": (F32, 2, 3), "getitem": (F32, 0), "add": (F32, 2, 3), "getitem_1": (F32, 0),
              "mul": (F32, 2, 3)}
    outs = ([out_token] if keep_out_token else []) + ["mul"]
    specs_out = ([f'token {{ arg {{ name: "{out_token}" }} }}'] if keep_out_token else []) + \
        ['user_output { arg { as_tensor { name: "mul" } } }']
    return program("TRAINING", ["token", "x"],
                   ['token { arg { name: "token" } }', 'user_input { arg { as_tensor { name: "x" } } }'],
                   nodes, outs, specs_out, values)


def no_effects():
    nodes = [node("torch.ops.aten.add.Tensor", "add", [("self", "x"), ("other", 1)], ["add"])]
    return program("TRAINING", ["x"], ['user_input { arg { as_tensor { name: "x" } } }'], nodes, ["add"],
                   ['user_output { arg { as_tensor { name: "add" } } }'], {"x": (F32, 2), "add": (F32, 2)})


def subgraph_effects(second_token="arg0_getitem", body_out_token="getitem_2"):
    """aten._print twice inside a nested_compile_region, after run_decompositions (ATEN): the
    root's token goes into invoke_subgraph as its first operand, the subgraph threads it through
    its two with_effects calls and returns it first; invoke_subgraph's output 0 is the output
    token (tests/data/device/state/more/hop_print_invoke_subgraph.aten.pt2)."""
    body_nodes = [node("torch.ops.higher_order.with_effects", "with_effects",
                       [("", "arg0_1"), ("", "op:torch.ops.aten._print.default"), ("", "str:in region")],
                       ["getitem", None]),
                  node("torch.ops.aten.add.Tensor", "add", [("self", "arg1_1"), ("other", 1)], ["add"]),
                  node("torch.ops.higher_order.with_effects", "with_effects_1",
                       [("", "getitem" if second_token == "arg0_getitem" else second_token),
                        ("", "op:torch.ops.aten._print.default"), ("", "str:again")], ["getitem_2", None])]
    body = ("          graph {\n" + "".join(f'            inputs {{ as_tensor {{ name: "{i}" }} }}\n' for i in ("arg0_1", "arg1_1"))
            + "".join("      " + line + "\n" for n in body_nodes for line in n.rstrip("\n").split("\n"))
            + "".join(f'            outputs {{ as_tensor {{ name: "{o}" }} }}\n' for o in (body_out_token, "add"))
            + "".join("      " + tv(k, *v) for k, v in {"arg0_1": (F32, 0), "arg1_1": (F32, 2, 3), "getitem": (F32, 0),
                                                          "add": (F32, 2, 3), "getitem_2": (F32, 0)}.items())
            + "          }\n")
    call = ('      nodes {\n        target: "torch.ops.higher_order.invoke_subgraph" name: "invoke_subgraph"\n'
            '        inputs { name: "" arg { as_graph { name: "repeated_subgraph0"\n' + body + "        } } }\n"
            '        inputs { name: "" arg { as_string: "subgraph_0" } }\n'
            '        inputs { name: "" arg { as_tensor { name: "token" } } }\n'
            '        inputs { name: "" arg { as_tensor { name: "x" } } }\n'
            '        outputs { as_tensor { name: "getitem" } }\n        outputs { as_tensor { name: "getitem_1" } }\n'
            "      }\n")
    nodes = [call, node("torch.ops.aten.mul.Tensor", "mul", [("self", "getitem_1"), ("other", 2)], ["mul"])]
    values = {"token": (F32, 0), "x": (F32, 2, 3), "getitem": (F32, 0), "getitem_1": (F32, 2, 3), "mul": (F32, 2, 3)}
    return program("ATEN", ["token", "x"],
                   ['token { arg { name: "token" } }', 'user_input { arg { as_tensor { name: "x" } } }'],
                   nodes, ["getitem", "mul"],
                   ['token { arg { name: "getitem" } }', 'user_output { arg { as_tensor { name: "mul" } } }'], values)


TOKENS = {
    "good_prints_in_invoke_subgraph": (
        "Two aten._print effects inside a nested_compile_region (ATEN): the token runs through invoke_subgraph.",
        [], subgraph_effects()),
    "bad_forked_token_in_invoke_subgraph": (
        "A pass gave the subgraph's second effect the subgraph's token input again: the chain forks inside.",
        ["error effect-token-chain node:invoke_subgraph"], subgraph_effects(second_token="arg0_1")),
    "bad_dropped_token_in_invoke_subgraph": (
        "A pass made the subgraph return its first effect's token: the second's is dropped, the first forks.",
        ["error effect-token-chain node:invoke_subgraph"], subgraph_effects(body_out_token="getitem")),
    "good_two_prints": ("Two aten._print effects, one chain: token -> with_effects -> with_effects_1 -> output.",
                        [], effects()),
    "good_no_effects": ("No effect, no token.", [], no_effects()),
    "bad_forked_token": ("A pass gave the second effect the input token again: the chain forks.",
                         ["error effect-token-chain node:with_effects_1"], effects(second_token="token")),
    "bad_output_token_of_first_effect": (
        "A pass returns the first effect's token: it is used twice, the second's is stranded.",
        ["error effect-token-chain output_specs[0]"], effects(out_token="getitem")),
    "bad_output_token_dropped": ("A pass dropped the output token (its spec and its graph output).",
                                 ["error effect-token-chain node:with_effects_1"], effects(keep_out_token=False)),
    "bad_token_is_a_tensor": ("A pass gave the second effect a user tensor as its token.",
                              ["error effect-token-chain node:with_effects_1"], effects(second_token="x")),
}


# ------------------------------------------------------------------ initial values
def buffer_program(dialect, buffer_sizes, nodes, outputs, specs_out, values, extra_inputs=("x",)):
    inputs = ["b_buf"] + list(extra_inputs)
    specs_in = ['buffer { arg { name: "b_buf" } buffer_name: "buf" persistent: true }']
    specs_in += [f'user_input {{ arg {{ as_tensor {{ name: "{i}" }} }} }}' for i in extra_inputs]
    vals = {"b_buf": (F32,) + tuple(buffer_sizes)}
    vals.update(values)
    return program(dialect, inputs, specs_in, nodes, outputs, specs_out, vals)


USER_OUT = 'user_output {{ arg {{ as_tensor {{ name: "{}" }} }} }}'
WRITE_BACK = 'buffer_mutation {{ arg {{ name: "{}" }} buffer_name: "buf" }}'

INITIAL = {
    "bad_counter": ("count += 1 (TRAINING add_): the new value is computed from the saved one.",
                    ["warning written-state-needs-initial-value input_specs[0]"],
                    buffer_program("TRAINING", [2],
                                   [node("torch.ops.aten.add_.Tensor", "add_", [("self", "b_buf"), ("other", 1)], ["add_"]),
                                    node("torch.ops.aten.mul.Tensor", "mul", [("self", "x"), ("other", "b_buf")], ["mul"])],
                                   ["mul"], [USER_OUT.format("mul")], {"x": (F32, 2), "add_": (F32, 2), "mul": (F32, 2)})),
    "bad_partial_write.aten": (
        "A cache written at two positions (index_copy after run_decompositions): the rest keeps its saved value.",
        ["warning written-state-needs-initial-value input_specs[0]"],
        buffer_program("ATEN", [6, 2],
                       [node("torch.ops.aten.index_copy.default", "index_copy",
                             [("self", "b_buf"), ("dim", 0), ("index", "pos"), ("source", "x")], ["index_copy"]),
                        node("torch.ops.aten.sum.default", "sum", [("self", "index_copy")], ["sum"])],
                       ["index_copy", "sum"], [WRITE_BACK.format("index_copy"), USER_OUT.format("sum")],
                       {"x": (F32, 2, 2), "pos": (I64, 2), "index_copy": (F32, 6, 2), "sum": (F32,)},
                       extra_inputs=("x", "pos"))),
    "good_full_overwrite": ("scratch.copy_(x * 2) before any read (TRAINING): the saved value is never seen.",
                            [], buffer_program("TRAINING", [2],
                                               [node("torch.ops.aten.mul.Tensor", "mul", [("self", "x"), ("other", 2)], ["mul"]),
                                                node("torch.ops.aten.copy_.default", "copy_",
                                                     [("self", "b_buf"), ("src", "mul")], ["copy_"]),
                                                node("torch.ops.aten.sum.default", "sum", [("self", "b_buf")], ["sum"])],
                                               ["sum"], [USER_OUT.format("sum")],
                                               {"x": (F32, 2), "mul": (F32, 2), "copy_": (F32, 2), "sum": (F32,)})),
    "good_full_overwrite.aten": ("The same after run_decompositions: copy(b_buf, mul) written back, then read.",
                                 [], buffer_program("ATEN", [2],
                                                    [node("torch.ops.aten.mul.Tensor", "mul", [("self", "x"), ("other", 2)], ["mul"]),
                                                     node("torch.ops.aten.copy.default", "copy",
                                                          [("self", "b_buf"), ("src", "mul")], ["copy"]),
                                                     node("torch.ops.aten.sum.default", "sum", [("self", "copy")], ["sum"])],
                                                    ["copy", "sum"], [WRITE_BACK.format("copy"), USER_OUT.format("sum")],
                                                    {"x": (F32, 2), "mul": (F32, 2), "copy": (F32, 2), "sum": (F32,)})),
}


def write(folder, cases, extend=None):
    folder = os.path.join(HERE, folder)
    os.makedirs(folder, exist_ok=True)
    for name in ("bad_example.textproto", "good.textproto"):  # the scaffold's placeholders
        if os.path.exists(os.path.join(folder, name)):
            os.remove(os.path.join(folder, name))
    for case, (what, expect, text) in cases.items():
        head = f"# {what}\n# Written by tests/golden/dataflow/make_effect_and_initial_value_goldens.py.\n"
        if extend:
            head += f"# extend-select: {extend}\n"
        head += "".join(f"# expect: {e}\n" for e in expect) or "# expect: none\n"
        with open(os.path.join(folder, case + ".textproto"), "w") as f:
            f.write(head + text)


write("effect-token-chain", TOKENS)
write("written-state-needs-initial-value", INITIAL, extend="written-state-needs-initial-value")
# Opt-in: without the selection, the counter says nothing.
with open(os.path.join(HERE, "written-state-needs-initial-value", "good_opt_in_not_run_by_default.textproto"), "w") as f:
    f.write("# The counter of bad_counter, without --extend-select: an opt-in rule stays quiet.\n"
            "# Written by tests/golden/dataflow/make_effect_and_initial_value_goldens.py.\n# expect: none\n"
            + INITIAL["bad_counter"][2])
