#!/usr/bin/env python3
"""Writes the multi-program goldens of shared-state-consistent (PT320) and shared-state-read-only
(PT321): archives of two or three programs (TRAINING dialect, as torch.export writes them) that
share a parameter `proj.weight` and a buffer `cache` by name, the way package_pt2 saves a
prefill/decode/reset package. A "writer" updates the cache in place (index_copy_ at `pos`, or
zero_ for reset); a "reader" only multiplies by it.

    python3 tests/golden/dataflow/make_shared_state_goldens.py

Deterministic: run it again and `git diff` shows nothing."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DTYPE = {"float32": 7, "float64": 8, "int64": 5}


def meta(dtype, sizes):
    s = "".join(f" sizes {{ as_int: {n} }}" for n in sizes)
    return f'value {{ dtype: {DTYPE[dtype]}{s} device {{ type: "cpu" }} }}'


def program(name, role, cache=(8, 4), dtype="float32", kind="buffer"):
    """role: 'writer' (index_copy_), 'reset' (zero_), 'reader' (mul)."""
    cache_arg = "b_cache" if kind == "buffer" else "c_cache"
    values = {"p_proj_weight": ("float32", (4,)), cache_arg: (dtype, cache)}
    inputs = ["p_proj_weight", cache_arg]
    nodes = []
    if role == "writer":
        inputs += ["x", "pos"]
        values["x"] = (dtype, (1, 4))
        values["pos"] = ("int64", (1,))
        nodes.append(("aten.index_copy_.default", "index_copy_",
                      [("self", cache_arg), ("dim", 0), ("index", "pos"), ("source", "x")]))
        values["index_copy_"] = (dtype, cache)
        nodes.append(("aten.mul.Tensor", "mul", [("self", "x"), ("other", "p_proj_weight")]))
        values["mul"] = (dtype, (1, 4))
    elif role == "reset":
        nodes.append(("aten.zero_.default", "zero_", [("self", cache_arg)]))
        values["zero_"] = (dtype, cache)
        nodes.append(("aten.mul.Tensor", "mul", [("self", "p_proj_weight"), ("other", 2.0)]))
        values["mul"] = ("float32", (4,))
    else:
        inputs += ["q"]
        values["q"] = ("float32", (4,))
        nodes.append(("aten.mul.Tensor", "mul", [("self", cache_arg), ("other", "q")]))
        values["mul"] = (dtype, cache)
    out = [f'programs {{\n  name: "{name}"\n  layout: LAYOUT_PT2_ARCHIVE\n  program {{\n'
           '    verifiers: "TRAINING"\n    schema_version { major: 8 minor: 17 }\n'
           '    graph_module {\n      graph {\n']
    out += [f'        inputs {{ as_tensor {{ name: "{i}" }} }}\n' for i in inputs]
    for target, node_name, args in nodes:
        out.append(f'        nodes {{\n          target: "torch.ops.{target}" name: "{node_name}"\n')
        for arg_name, value in args:
            if isinstance(value, str):
                arg = f'as_tensor {{ name: "{value}" }}'
            elif isinstance(value, float):
                arg = f"as_float: {value}"
            else:
                arg = f"as_int: {value}"
            out.append(f'          inputs {{ name: "{arg_name}" arg {{ {arg} }} }}\n')
        out.append(f'          outputs {{ as_tensor {{ name: "{node_name}" }} }}\n        }}\n')
    out.append('        outputs { as_tensor { name: "mul" } }\n')
    out += [f'        tensor_values {{ key: "{k}" {meta(*v)} }}\n' for k, v in values.items()]
    out.append('      }\n      signature {\n'
               '        input_specs { parameter { arg { name: "p_proj_weight" } parameter_name: "proj.weight" } }\n')
    if kind == "buffer":
        out.append('        input_specs { buffer { arg { name: "b_cache" } buffer_name: "cache" persistent: true } }\n')
    else:
        out.append('        input_specs { tensor_constant { arg { name: "c_cache" } tensor_constant_name: "cache" } }\n')
    out += [f'        input_specs {{ user_input {{ arg {{ as_tensor {{ name: "{i}" }} }} }} }}\n' for i in inputs[2:]]
    out.append('        output_specs { user_output { arg { as_tensor { name: "mul" } } } }\n'
               '      }\n    }\n  }\n}\n')
    return "".join(out)


CASES = {
    "shared-state-consistent": {
        "bad_cache_length_differs": (
            "prefill's cache holds 8 positions, decode's (exported from another instance) 16.",
            ["error shared-state-consistent input_specs[1]"],
            [program("prefill", "writer"), program("decode", "writer", cache=(16, 4))]),
        "bad_cache_dtype_differs": (
            "decode was exported from a float64 copy of the model: its cache is float64.",
            ["error shared-state-consistent input_specs[1]"],
            [program("prefill", "writer"), program("decode", "writer", dtype="float64")]),
        "bad_cache_is_a_constant_in_reader": (
            "score holds the cache as a plain tensor attribute: export lifts it as a tensor constant.",
            ["error shared-state-consistent input_specs[1]"],
            [program("prefill", "writer"), program("score", "reader", kind="constant")]),
        "good_prefill_decode_reset": (
            "Three programs of one model: the same kinds, shapes and dtypes.",
            [], [program("prefill", "writer"), program("decode", "writer"), program("reset", "reset")]),
    },
    "shared-state-read-only": {
        "bad_reader_program": (
            "score only reads the cache that prefill writes: run first, it reads the initial value.",
            ["warning shared-state-read-only input_specs[1]"],
            [program("prefill", "writer"), program("score", "reader")]),
        "good_every_program_writes": (
            "prefill, decode and reset all write the cache.",
            [], [program("prefill", "writer"), program("decode", "writer"), program("reset", "reset")]),
        "good_read_only_everywhere": (
            "No program writes the cache: reading it in any order gives the same result.",
            [], [program("score", "reader"), program("rescore", "reader")]),
    },
}


def main():
    for rule, cases in CASES.items():
        folder = os.path.join(HERE, rule)
        os.makedirs(folder, exist_ok=True)
        for name in ("bad_example.textproto", "good.textproto"):  # the scaffold's placeholders
            if os.path.exists(os.path.join(folder, name)):
                os.remove(os.path.join(folder, name))
        for case, (what, expect, programs) in cases.items():
            head = f"# {what}\n# Written by tests/golden/dataflow/make_shared_state_goldens.py.\n"
            head += "".join(f"# expect: {e}\n" for e in expect) or "# expect: none\n"
            with open(os.path.join(folder, case + ".textproto"), "w") as f:
                f.write(head + "".join(programs))


main()
