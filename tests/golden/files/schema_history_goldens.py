"""Schema 8.x goldens of make_file_goldens.py: for each minor that adds something, the corpus
program as that schema writes it, clean (good_8_N.json) and with a defect in what 8.N added
(bad_8_N.json)."""
import copy
import json

from golden_files_lib import program_member, put


# ------------------------------------------------------------------ schema 8.x history
# What each schema minor added, from torch/_export/serde/schema.py at these commits (the
# newest read first); docs/schema-versions.md has the full table.
SCHEMA_SOURCES = {
    "8.2": "ZainRizvi/pytorch 00ef9a22bf688d3ebaf8252e1a67159eee087a1a",
    "8.6": "paolodedios/pytorch c2093ad89a54303239f765be569f343ce4ca9070",
    "8.8": "ROCm/pytorch 10b22ea5c6a60ffa85520eb2d293affc48cea8ee (merge side 5729657180)",
    "8.14": "ROCm/pytorch 10b22ea5c6a60ffa85520eb2d293affc48cea8ee (HEAD side)",
    "8.17": "pytorch/pytorch 011a299df29b9858f57c23669ecf317f7da6d775",
    "8.20": "cyyever/pytorch 2ef3b7f058b6a63a0f7255d3624fd80347e1bfac",
}


def schema_minor_goldens(base):
    doc = json.loads(dict(base)[program_member(base)])

    def graph(d):
        return d["graph_module"]["graph"]

    def version(d, v):
        major, minor = v.split(".")
        d["schema_version"] = {"major": int(major), "minor": int(minor)}

    def dtype(d, value, update=None):
        graph(d)["tensor_values"]["b_count"]["dtype"] = value
        graph(d)["tensor_values"]["add"]["dtype"] = value if update is None else update

    def extra_arg(d, arg):  # a keyword argument on the last node (mul)
        graph(d)["nodes"][3]["inputs"].append({"name": "extra", "arg": arg, "kind": 2})

    def before_8_17(d):  # Node.name, guards_code and treespec_namedtuple_fields came later
        for n in graph(d)["nodes"]:
            n.pop("name", None)
        d.pop("guards_code", None)
        d["graph_module"].pop("treespec_namedtuple_fields", None)

    def before_8_6(d):  # NamedArgument.kind, is_hop_single_tensor_return, sym floats came in 8.6
        before_8_17(d)
        for n in graph(d)["nodes"]:
            n.pop("is_hop_single_tensor_return", None)
            for i in n["inputs"]:
                i.pop("kind", None)
        graph(d).pop("sym_float_values", None)

    cases = {
        "8.2": ("UINT16 (28) dtype; RangeConstraint bounds may be null; forward_arg_names; "
                "None written as []",
                lambda d: (before_8_6(d), dtype(d, 28),
                           d.update(range_constraints={"s0": {"min_val": 2, "max_val": None}}),
                           extra_arg(d, {"as_none": []})),
                lambda d: (before_8_6(d), dtype(d, 28, update=5)),
                "error mutation-shape-matches-target output_specs[0]",
                "the uint16 buffer is written back with an int64 value"),
        "8.6": ("FLOAT8 e4m3fn/e5m2 (29, 30); SymFloat, sym_float_values, as_sym_float(s); "
                "NamedArgument.kind; Node.is_hop_single_tensor_return; None as a bool",
                lambda d: (before_8_17(d), dtype(d, 29),
                           graph(d)["nodes"][3]["inputs"].__setitem__(
                               1, {"name": "other", "arg": {"as_sym_float": {"as_float": 2.0}}, "kind": 1}),
                           extra_arg(d, {"as_none": True})),
                lambda d: (before_8_17(d), graph(d)["nodes"][3]["inputs"].__setitem__(
                    1, {"name": "other", "arg": {"as_sym_float": {"as_name": "zuf0"}}, "kind": 1})),
                "error value-defined-before-use node:mul",
                "mul reads a symbolic float `zuf0` that nothing defines"),
        "8.8": ("Argument.as_optional_tensor",
                lambda d: (before_8_17(d), extra_arg(d, {"as_optional_tensor": {"as_tensor": {"name": "add"}}})),
                lambda d: (before_8_17(d), extra_arg(d, {"as_optional_tensor": {"as_tensor": {"name": "ghost"}}})),
                "error value-defined-before-use node:mul",
                "an optional tensor argument names `ghost`, which nothing defines"),
        "8.14": ("FLOAT8 fnuz (31, 32); as_complex; OutputSpec.parameter_mutation; "
                 "treespec_namedtuple_fields; guards_code",
                 lambda d: (before_8_17(d), dtype(d, 31),
                            d.update(guards_code=["L['x'].size()[0] == 4"]),
                            d["graph_module"].update(treespec_namedtuple_fields={}),
                            graph(d)["nodes"][3]["inputs"].__setitem__(
                                1, {"name": "other", "arg": {"as_complex": {"real": 2.0, "imag": 0.0}}, "kind": 1})),
                 lambda d: (before_8_17(d), d["graph_module"]["signature"]["output_specs"].__setitem__(
                     0, {"parameter_mutation": {"arg": {"name": "add"}, "parameter_name": "count"}})),
                 "error mutation-target-resolves output_specs[0]",
                 "a parameter_mutation names `count`, which is a buffer"),
        "8.17": ("Node.name; as_nested_tensors, as_int_lists, as_string_to_argument",
                 lambda d: (extra_arg(d, {"as_int_lists": [[1, 2], [3]]}),
                            graph(d)["nodes"][2]["inputs"].append(
                                {"name": "nested", "arg": {"as_nested_tensors": [[{"name": "x"}]]}, "kind": 2}),
                            graph(d)["nodes"][1]["inputs"].append(
                                {"name": "kw", "arg": {"as_string_to_argument": {"t": {"as_tensor": {"name": "x"}}}}, "kind": 2})),
                 lambda d: extra_arg(d, {"as_string_to_argument": {"t": {"as_tensor": {"name": "ghost"}}}}),
                 "error value-defined-before-use node:mul",
                 "a string-to-argument map holds `ghost`, which nothing defines"),
        "8.20": ("FLOAT8E8M0FNU (33), UINT32 (34), UINT64 (35); Argument.as_float_lists",
                 lambda d: (dtype(d, 35), extra_arg(d, {"as_float_lists": [[1.0, 2.0], [3.0]]})),
                 lambda d: dtype(d, 35, update=34),
                 "error mutation-shape-matches-target output_specs[0]",
                 "the uint64 buffer is written back with a uint32 value"),
    }
    for v, (added, good, bad, expect, why) in cases.items():
        tag = v.replace(".", "_")
        for kind, edit, lines, what in (("good", good, [], "reads clean"),
                                        ("bad", bad, [expect], f"is caught: {why}")):
            d = copy.deepcopy(doc)
            version(d, v)
            edit(d)
            comment = f"""corpus/base/counter.aten.pt2's program as schema {v} writes it.
            {v} added: {added} (torch/_export/serde/schema.py at {SCHEMA_SOURCES[v]}).
            What {v} added {what}.
            ignore-rules: state-dict-mismatch"""
            put("schema-8x", f"{kind}_{tag}.json", json.dumps(d, indent=1).encode(), lines,
                comment.replace("ignore-rules:", "IGNORE"))
