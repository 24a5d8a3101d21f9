#!/usr/bin/env python3
"""Writes the contract goldens of `pt2lint diff BEFORE AFTER` (rules PT401-PT414): one folder
per rule, each holding pairs `CASE.before.textproto` + `CASE.after.textproto`, checked by
tests/golden/run_diff_golden.py. The `# expect:` lines are in the `.after.textproto`.

    python3 tests/golden/contract/make_contract_goldens.py

Deterministic: run it again and `git diff` shows nothing. It needs nothing but Python.

Every pair starts from one small, realistic program: a one-layer attention decoder with a KV
cache (TRAINING dialect, as torch.export.export writes it): parameters
`layers.0.attn.{k,v}_proj.weight`, buffers `layers.0.attn.k_cache` and `v_cache` (written with
index_copy_ at `pos`), a read-only buffer `layers.0.attn.scale`, and a step counter `steps`
(add_), user inputs `x` (T, 8) float32 and `pos` (T,) int64, user outputs the attention output
`mm` (T, 8) and the attention weights `softmax` (T, 4), in a tuple out_spec. The good AFTER is
its faithful lowering, written the way `pt2lint lower` writes it (index_copy_ -> index_copy and
add_ -> add, each with a `from_node` record naming the in-place node, one mutation output per
written state in input-spec order); each bad AFTER is that lowering with what a buggy lowering
pass did to it, said in the file's header.
"""
import os
import shutil
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))

DTYPE = {"float32": 7, "float16": 6, "int64": 5, "int32": 4}
OUT_SPEC_TUPLE2 = ('[1, {\\"type\\": \\"builtins.tuple\\", \\"context\\": \\"null\\", \\"children_spec\\": '
                   '[{\\"type\\": null, \\"context\\": null, \\"children_spec\\": []}, '
                   '{\\"type\\": null, \\"context\\": null, \\"children_spec\\": []}]}]')


# ------------------------------------------------------------------ program text
def tv(name, dtype, *sizes):
    size_text = "".join(f" sizes {{ as_int: {s} }}" for s in sizes)
    return (f'      tensor_values {{ key: "{name}" value {{ dtype: {DTYPE[dtype]}{size_text} '
            f'device {{ type: "cpu" }} }} }}\n')


def t(name):
    return f'as_tensor {{ name: "{name}" }}'


def node(target, name, inputs, outputs, from_node=None):
    """inputs: [(argument name, argument text)]; outputs: [output text]."""
    text = f'      nodes {{\n        target: "{target}" name: "{name}"\n'
    for arg, value in inputs:
        text += f'        inputs {{ name: "{arg}" arg {{ {value} }} }}\n'
    for out in outputs:
        text += f"        outputs {{ {out} }}\n"
    if from_node:
        in_place, in_place_target = from_node
        text += ('        metadata { key: "from_node" value: "[{\\"name\\": \\"%s\\", \\"target\\": \\"%s\\", '
                 '\\"graph_id\\": 0, \\"pass_name\\": \\"pt2lint.lower\\", \\"action\\": \\"create\\", '
                 '\\"from_node\\": []}]" }\n' % (in_place, in_place_target))
    return text + "      }\n"


STATE_INPUTS = ["p_layers_0_attn_k_proj_weight", "p_layers_0_attn_v_proj_weight",
                "b_layers_0_attn_k_cache", "b_layers_0_attn_v_cache", "b_layers_0_attn_scale", "b_steps"]
STATE_SPECS = """\
      input_specs { parameter { arg { name: "p_layers_0_attn_k_proj_weight" } parameter_name: "layers.0.attn.k_proj.weight" } }
      input_specs { parameter { arg { name: "p_layers_0_attn_v_proj_weight" } parameter_name: "layers.0.attn.v_proj.weight" } }
      input_specs { buffer { arg { name: "b_layers_0_attn_k_cache" } buffer_name: "layers.0.attn.k_cache" persistent: true } }
      input_specs { buffer { arg { name: "b_layers_0_attn_v_cache" } buffer_name: "layers.0.attn.v_cache" persistent: true } }
      input_specs { buffer { arg { name: "b_layers_0_attn_scale" } buffer_name: "layers.0.attn.scale" persistent: true } }
      input_specs { buffer { arg { name: "b_steps" } buffer_name: "steps" persistent: true } }
      input_specs { user_input { arg { as_tensor { name: "x" } } } }
      input_specs { user_input { arg { as_tensor { name: "pos" } } } }
"""


def state_values():
    return (tv("p_layers_0_attn_k_proj_weight", "float32", 8, 8) +
            tv("p_layers_0_attn_v_proj_weight", "float32", 8, 8) +
            tv("b_layers_0_attn_k_cache", "float32", 4, 8) + tv("b_layers_0_attn_v_cache", "float32", 4, 8) +
            tv("b_layers_0_attn_scale", "float32") + tv("b_steps", "int64"))


def attention_nodes(k_cache, v_cache):
    """scores = softmax(x @ k_cache^T * scale); out = scores @ v_cache."""
    return (node("torch.ops.aten.linear.default", "linear_2",
                 [("input", t("x")), ("weight", t(k_cache))], [t("linear_2")]) +
            node("torch.ops.aten.mul.Tensor", "mul",
                 [("self", t("linear_2")), ("other", t("b_layers_0_attn_scale"))], [t("mul")]) +
            node("torch.ops.aten.softmax.int", "softmax", [("self", t("mul")), ("dim", "as_int: -1")],
                 [t("softmax")]) +
            node("torch.ops.aten.mm.default", "mm", [("self", t("softmax")), ("mat2", t(v_cache))], [t("mm")]))


def projection_nodes():
    return (node("torch.ops.aten.linear.default", "linear",
                 [("input", t("x")), ("weight", t("p_layers_0_attn_k_proj_weight"))], [t("linear")]) +
            node("torch.ops.aten.linear.default", "linear_1",
                 [("input", t("x")), ("weight", t("p_layers_0_attn_v_proj_weight"))], [t("linear_1")]))


def cache_write(target, name, cache, source):
    return node(target, name, [("self", t(cache)), ("dim", "as_int: 0"), ("index", t("pos")),
                               ("source", t(source))], [t(name)],
                from_node=None if target.endswith("_.default") else
                ({"index_copy": "index_copy_", "index_copy_1": "index_copy__1"}[name],
                 "aten.index_copy_.default"))


def graph(nodes, outputs, values):
    inputs = "".join(f"      inputs {{ {t(n)} }}\n" for n in STATE_INPUTS + ["x", "pos"])
    outs = "".join(f"      outputs {{ {t(n)} }}\n" for n in outputs)
    return "    graph {\n" + inputs + nodes + outs + state_values() + values + "    }\n"


def activation_values(tokens):
    return (tv("x", "float32", tokens, 8) + tv("pos", "int64", tokens) +
            tv("linear", "float32", tokens, 8) + tv("linear_1", "float32", tokens, 8))


def score_values(tokens):
    return (tv("linear_2", "float32", tokens, 4) + tv("mul", "float32", tokens, 4) +
            tv("softmax", "float32", tokens, 4) + tv("mm", "float32", tokens, 8))


def program(dialect, graph_text, output_specs, name="model"):
    return (f'name: "{name}"\nprogram {{\n  verifiers: "{dialect}"\n'
            "  schema_version { major: 8 minor: 17 }\n  graph_module {\n" + graph_text +
            "    signature {\n" + STATE_SPECS + output_specs + "    }\n"
            '    module_call_graph {\n      fqn: ""\n'
            f'      signature {{ out_spec: "{OUT_SPEC_TUPLE2}" }}\n    }}\n  }}\n}}\n')


USER_OUTPUT_SPECS = """\
      output_specs { user_output { arg { as_tensor { name: "mm" } } } }
      output_specs { user_output { arg { as_tensor { name: "softmax" } } } }
"""


def training(tokens=1, name="model"):
    """The original: the decoder as torch.export.export writes it (TRAINING, in-place writes)."""
    nodes = (projection_nodes() +
             cache_write("torch.ops.aten.index_copy_.default", "index_copy_", "b_layers_0_attn_k_cache", "linear") +
             cache_write("torch.ops.aten.index_copy_.default", "index_copy__1", "b_layers_0_attn_v_cache", "linear_1") +
             attention_nodes("index_copy_", "index_copy__1") +
             node("torch.ops.aten.add_.Tensor", "add_", [("self", t("b_steps")), ("other", "as_int: 1")], [t("add_")]))
    values = (activation_values(tokens) + tv("index_copy_", "float32", 4, 8) + tv("index_copy__1", "float32", 4, 8) +
              score_values(tokens) + tv("add_", "int64"))
    return program("TRAINING", graph(nodes, ["mm", "softmax"], values), USER_OUTPUT_SPECS, name)


def lowered(tokens=1, name="model"):
    """The faithful lowering of training(): functional twins, one mutation output per written
    state, in input-spec order, before the user outputs."""
    nodes = (projection_nodes() +
             cache_write("torch.ops.aten.index_copy.default", "index_copy", "b_layers_0_attn_k_cache", "linear") +
             cache_write("torch.ops.aten.index_copy.default", "index_copy_1", "b_layers_0_attn_v_cache", "linear_1") +
             attention_nodes("index_copy", "index_copy_1") +
             node("torch.ops.aten.add.Tensor", "add", [("self", t("b_steps")), ("other", "as_int: 1")], [t("add")],
                  from_node=("add_", "aten.add_.Tensor")))
    values = (activation_values(tokens) + tv("index_copy", "float32", 4, 8) + tv("index_copy_1", "float32", 4, 8) +
              score_values(tokens) + tv("add", "int64"))
    specs = ("""\
      output_specs { buffer_mutation { arg { name: "index_copy" } buffer_name: "layers.0.attn.k_cache" } }
      output_specs { buffer_mutation { arg { name: "index_copy_1" } buffer_name: "layers.0.attn.v_cache" } }
      output_specs { buffer_mutation { arg { name: "add" } buffer_name: "steps" } }
""" + USER_OUTPUT_SPECS)
    return program("ATEN", graph(nodes, ["index_copy", "index_copy_1", "add", "mm", "softmax"], values),
                   specs, name)


def program_set(*programs):
    """A ProgramSet (one archive with several programs) from single-program texts."""
    return "".join("programs {\n" + textwrap.indent(p, "  ") + "}\n" for p in programs)


def edit(text, *replacements):
    """text with each (old, new) replaced; old must occur exactly once (or `count` times for
    a triple (old, new, count))."""
    for r in replacements:
        old, new = r[0], r[1]
        count = r[2] if len(r) > 2 else 1
        # A whole line (or lines) matches only from the start of a line: the graph's
        # `      outputs {` is not a node's `        outputs {`.
        whole_lines = old.endswith("\n")
        text = "\n" + text if whole_lines else text
        old, new = ("\n" + old, "\n" + new) if whole_lines else (old, new)
        found = text.count(old)
        if found != count:
            raise AssertionError(f"{old!r} occurs {found} times, not {count}")
        text = text.replace(old, new)
        text = text[1:] if whole_lines else text
    return text


def spec_line(kind, value, target=None):
    if kind == "user":
        return f'      output_specs {{ user_output {{ arg {{ as_tensor {{ name: "{value}" }} }} }} }}\n'
    return f'      output_specs {{ buffer_mutation {{ arg {{ name: "{value}" }} buffer_name: "{target}" }} }}\n'


def out_line(value):
    return f'      outputs {{ as_tensor {{ name: "{value}" }} }}\n'


# ------------------------------------------------------------------ writing pairs
WRITTEN = []
RULE_IDS = {"write-back-lost": "PT401", "write-back-added": "PT402", "write-back-target-renamed": "PT403",
            "write-back-duplicated": "PT404", "write-back-from-other-state": "PT405",
            "write-back-shape-changed": "PT406", "user-output-gained": "PT407", "user-output-lost": "PT408",
            "user-output-reordered": "PT409", "user-output-changed": "PT410", "user-output-tree-changed": "PT411",
            "user-input-changed": "PT412", "program-missing": "PT413", "write-back-undecidable": "PT414",
            "written-state-became-constant": "PT420", "literal-changed": "PT421", "metadata-lost": "PT422",
            "gradient-lost": "PT415", "gradient-gained": "PT416", "gradient-changed": "PT417"}


def pair(folder, case, before, after, header, expects=(), extend=()):
    """Writes folder/case.before.textproto and folder/case.after.textproto. `header` says what
    the pair is and what the lowering did; `expects` are the `# expect:` lines (none: clean);
    `extend`, the opt-in rules the pair turns on (`# extend-select:`)."""
    path = os.path.join(HERE, folder)
    os.makedirs(path, exist_ok=True)
    intro = (f"Contract golden of {folder} ({RULE_IDS[folder]}), written by make_contract_goldens.py:\n"
             f"pt2lint diff {case}.before.textproto {case}.after.textproto (AFTER lowers BEFORE).\n"
             "Unless said otherwise, BEFORE is the one-layer KV-cache decoder (TRAINING) the script describes.\n")
    comment = "".join(f"# {line.strip()}".rstrip() + "\n" for line in (intro + header.strip()).splitlines())
    with open(os.path.join(path, case + ".before.textproto"), "w") as f:
        f.write(comment + "# This is BEFORE, the original program; the expectations are in "
                f"{case}.after.textproto.\n" + before)
    with open(os.path.join(path, case + ".after.textproto"), "w") as f:
        f.write(comment + "".join(f"# extend-select: {e}\n" for e in extend) +
                "".join(f"# expect: {e}\n" for e in (expects or ["none"])) + after)
    WRITTEN.append(os.path.join(folder, case))


FAITHFUL = """\
BEFORE is the KV-cache decoder as torch.export.export writes it (TRAINING: index_copy_ into
both caches, add_ on `steps`); AFTER is its faithful lowering (index_copy and add, one
buffer_mutation per written buffer, in input-spec order, before the user outputs), as
`pt2lint lower` writes it. Every promise holds: no finding, exit 0."""


# ------------------------------------------------------------------ PT401-PT406: write-backs
def write_back_goldens():
    before, after = training(), lowered()

    pair("write-back-lost", "bad_step_counter_dropped", before,
         edit(after, (spec_line("mutation", "add", "steps"), ""), (out_line("add"), ""),
              (node("torch.ops.aten.add.Tensor", "add", [("self", t("b_steps")), ("other", "as_int: 1")],
                    [t("add")], from_node=("add_", "aten.add_.Tensor")), ""),
              (tv("add", "int64"), "")),
         """\
         A lowering pass dropped the write-back of the step counter: it saw that the functional
         `add` was read by no user output, took it for an orphan and erased it with its
         buffer_mutation (the failure docs/rules/write-back-lost.md cites for Torch-TensorRT's
         lift_mutated_buffers before #4459). AFTER is consistent on its own (`check` finds
         nothing), but `steps` silently stays at its initial value.""",
         ["error write-back-lost state:steps"])
    pair("write-back-lost", "bad_value_cache_write_back_dropped", before,
         edit(after, (spec_line("mutation", "index_copy_1", "layers.0.attn.v_cache"), ""),
              (out_line("index_copy_1"), "")),
         """\
         A lowering pass functionalized both index_copy_ writes but returned only the key cache's
         update: `index_copy_1` (the value cache's) is still computed and read by `mm`, but it
         has no buffer_mutation output, so the value cache never fills.""",
         ["error write-back-lost state:layers.0.attn.v_cache"])
    pair("write-back-lost", "good", before, after, FAITHFUL)
    pair("write-back-lost", "good_in_place_writes_kept", before, before,
         """\
         The near miss of the bad cases: AFTER has no mutation output at all, but it is a
         TRAINING program that keeps the in-place writes (an identity "lowering"), and in a
         TRAINING program an in-place write is its own write-back. No finding.""")

    pair("write-back-added", "bad_read_only_buffer_written_back", before,
         edit(after, (spec_line("mutation", "add", "steps"),
                      spec_line("mutation", "add", "steps") +
                      spec_line("mutation", "b_layers_0_attn_scale", "layers.0.attn.scale")),
              (out_line("add"), out_line("add") + out_line("b_layers_0_attn_scale"))),
         """\
         A lifting pass wrote back every buffer it lifted, read or written: AFTER returns the
         read-only buffer `layers.0.attn.scale` as a buffer_mutation (output_specs[3]), which the
         original never writes.""",
         ["error write-back-added output_specs[3]"])
    pair("write-back-added", "good", before, after,
         FAITHFUL + "\nThe near miss of the bad case: `layers.0.attn.scale` is read (by `mul`) and not written back.")

    pair("write-back-target-renamed", "bad_lifted_buf_rename_without_mapping", before,
         edit(after, ('buffer_name: "layers.0.attn.k_cache"', 'buffer_name: "lifted_buf_layers_0_attn_k_cache"', 2),
              ('buffer_name: "layers.0.attn.v_cache"', 'buffer_name: "lifted_buf_layers_0_attn_v_cache"', 2)),
         """\
         A backend that cannot register dotted attributes renamed the caches to
         `lifted_buf_layers_0_attn_{k,v}_cache` (input specs and mutation targets together, as
         Torch-TensorRT's inline_lifted_buffers_into_gm does) but recorded no mapping, so a
         caller cannot tell where the state went.""",
         ["error write-back-target-renamed output_specs[0]",
          "error write-back-target-renamed output_specs[1]"])
    # `pt2lint lower --rename-nested`: every dotted buffer FQN becomes lifted_buf_<dots as _>, in
    # the input specs and the mutation targets, and the mapping is recorded in the program.
    nested = {fqn: "lifted_buf_" + fqn.replace(".", "_")
              for fqn in ("layers.0.attn.k_cache", "layers.0.attn.v_cache", "layers.0.attn.scale")}
    renamed = after
    for fqn, new in nested.items():
        written = fqn != "layers.0.attn.scale"
        renamed = edit(renamed, (f'buffer_name: "{fqn}"', f'buffer_name: "{new}"', 2 if written else 1))
    mapping = ", ".join(f'\\"{fqn}\\": \\"{new}\\"' for fqn, new in nested.items())
    renamed = edit(renamed, ("    module_call_graph {",
                             f'    metadata {{ key: "custom" value: "{{\\"pt2lint.renamed_buffers\\": '
                             f'{{{mapping}}}}}" }}\n    module_call_graph {{'))
    pair("write-back-target-renamed", "bad_mapping_not_applied_to_target", before,
         edit(renamed, ('buffer_name: "lifted_buf_layers_0_attn_k_cache" }', 'buffer_name: "layers.0.attn.k_cache" }'),
              ('buffer_name: "lifted_buf_layers_0_attn_v_cache" }', 'buffer_name: "layers.0.attn.v_cache" }')),
         """\
         A renaming pass renamed the nested buffers to `lifted_buf_*` in the input specs and
         recorded the mapping (graph_module.metadata["custom"]["pt2lint.renamed_buffers"], as
         `pt2lint lower --rename-nested` does), but left the mutation targets under their old
         names: the write-backs dangle (PyTorch: "Buffer output ... does not point to a buffer
         that exists").""",
         ["error write-back-target-renamed output_specs[0]",
          "error write-back-target-renamed output_specs[1]"])
    pair("write-back-target-renamed", "good_renamed_with_recorded_mapping", before, renamed,
         """\
         The near miss of the bad cases: the nested buffers renamed to `lifted_buf_*` in the input
         specs and the mutation targets together, and the mapping recorded in
         graph_module.metadata["custom"], as `pt2lint lower --rename-nested` writes it. diff
         follows the mapping: no finding.""")

    dup_after = edit(after, (spec_line("mutation", "index_copy", "layers.0.attn.k_cache"),
                             spec_line("mutation", "index_copy", "layers.0.attn.k_cache") * 2),
                     (out_line("index_copy"), out_line("index_copy") * 2))
    pair("write-back-duplicated", "bad_cache_written_back_twice", before, dup_after,
         """\
         A lifting pass turned the key cache's copy-back into a buffer_mutation although the
         functionalized index_copy already had one: `layers.0.attn.k_cache` is written back by
         output_specs[0] and again by output_specs[1] (the same value, returned twice).""",
         ["error write-back-duplicated output_specs[1] {{is written back 2 times}}"])
    pair("write-back-duplicated", "bad_value_cache_update_retargeted", before,
         edit(after, (spec_line("mutation", "index_copy_1", "layers.0.attn.v_cache"),
                      spec_line("mutation", "index_copy_1", "layers.0.attn.k_cache"))),
         """\
         A lowering pass paired the value cache's update with the key cache's name (the corpus'
         *__duplicate_target): `layers.0.attn.k_cache` is written back twice, and the value
         cache, which lost its write-back, is reported as write-back-lost.""",
         ["error write-back-duplicated output_specs[1]",
          "error write-back-lost state:layers.0.attn.v_cache"])
    ring_before = edit(before, (
        node("torch.ops.aten.add_.Tensor", "add_", [("self", t("b_steps")), ("other", "as_int: 1")], [t("add_")]),
        node("torch.ops.aten.add_.Tensor", "add_", [("self", t("b_steps")), ("other", "as_int: 1")], [t("add_")]) +
        node("torch.ops.aten.remainder_.Scalar", "remainder_", [("self", t("add_")), ("other", "as_int: 4")],
             [t("remainder_")])),
        (tv("add_", "int64"), tv("add_", "int64") + tv("remainder_", "int64")))
    ring_after = edit(after, (
        node("torch.ops.aten.add.Tensor", "add", [("self", t("b_steps")), ("other", "as_int: 1")], [t("add")],
             from_node=("add_", "aten.add_.Tensor")),
        node("torch.ops.aten.add.Tensor", "add", [("self", t("b_steps")), ("other", "as_int: 1")], [t("add")],
             from_node=("add_", "aten.add_.Tensor")) +
        node("torch.ops.aten.remainder.Scalar", "remainder", [("self", t("add")), ("other", "as_int: 4")],
             [t("remainder")], from_node=("remainder_", "aten.remainder_.Scalar"))),
        (tv("add", "int64"), tv("add", "int64") + tv("remainder", "int64")),
        (spec_line("mutation", "add", "steps"), spec_line("mutation", "remainder", "steps")),
        (out_line("add"), out_line("remainder")))
    pair("write-back-duplicated", "good_two_writes_one_write_back", ring_before, ring_after,
         """\
         The near miss of the bad cases: the original writes `steps` twice (add_ then
         remainder_, a ring-buffer position wrapping at the cache length of 4); the lowering
         chains the functional twins (add, then remainder of it) and writes `steps` back once,
         with the final value. No finding.""")

    pair("write-back-from-other-state", "bad_swapped_cache_targets", before,
         edit(after, (spec_line("mutation", "index_copy", "layers.0.attn.k_cache") +
                      spec_line("mutation", "index_copy_1", "layers.0.attn.v_cache"),
                      spec_line("mutation", "index_copy", "layers.0.attn.v_cache") +
                      spec_line("mutation", "index_copy_1", "layers.0.attn.k_cache"))),
         """\
         A lowering pass swapped the targets of the two cache write-backs (the corpus'
         *__swap_same_shape): both caches are (4, 8) float32, so the program loads and runs,
         and each cache silently takes the other's update.""",
         ["error write-back-from-other-state output_specs[0]",
          "error write-back-from-other-state output_specs[1]"])
    pair("write-back-from-other-state", "good_write_backs_in_other_order", before,
         edit(after, (spec_line("mutation", "index_copy", "layers.0.attn.k_cache") +
                      spec_line("mutation", "index_copy_1", "layers.0.attn.v_cache"),
                      spec_line("mutation", "index_copy_1", "layers.0.attn.v_cache") +
                      spec_line("mutation", "index_copy", "layers.0.attn.k_cache")),
              (out_line("index_copy") + out_line("index_copy_1"), out_line("index_copy_1") + out_line("index_copy"))),
         """\
         The near miss of bad_swapped_cache_targets: the lowering emits the value cache's
         write-back before the key cache's, graph outputs and output specs moved together, so
         each cache still takes its own update. No finding.""")

    pair("write-back-shape-changed", "bad_source_row_written_back", before,
         edit(after, (spec_line("mutation", "index_copy", "layers.0.attn.k_cache"),
                      spec_line("mutation", "linear", "layers.0.attn.k_cache")),
              (out_line("index_copy"), out_line("linear"))),
         """\
         A lowering pass wrote back the source of index_copy_ (the new key row `linear`,
         (1, 8)) instead of the updated cache (4, 8): at run time the copy into the buffer fails
         or broadcasts the row over the whole cache.""",
         ["error write-back-shape-changed output_specs[0]"])
    pair("write-back-shape-changed", "bad_cache_cast_to_half", before,
         edit(after, (tv("b_layers_0_attn_k_cache", "float32", 4, 8), tv("b_layers_0_attn_k_cache", "float16", 4, 8)),
              (tv("index_copy", "float32", 4, 8), tv("index_copy", "float16", 4, 8))),
         """\
         A precision pass stored the key cache in float16 (the buffer and its update), where the
         original's is float32: both the state and the value written back changed dtype, one
         finding each.""",
         ["error write-back-shape-changed output_specs[0]",
          "error write-back-shape-changed output_specs[0]"])
    pair("write-back-shape-changed", "good_index_put_instead_of_index_copy", before,
         edit(after, ('        target: "torch.ops.aten.index_copy.default" name: "index_copy"\n'
                      '        inputs { name: "self" arg { as_tensor { name: "b_layers_0_attn_k_cache" } } }\n'
                      '        inputs { name: "dim" arg { as_int: 0 } }\n'
                      '        inputs { name: "index" arg { as_tensor { name: "pos" } } }\n'
                      '        inputs { name: "source" arg { as_tensor { name: "linear" } } }\n',
                      '        target: "torch.ops.aten.index_put.default" name: "index_copy"\n'
                      '        inputs { name: "self" arg { as_tensor { name: "b_layers_0_attn_k_cache" } } }\n'
                      '        inputs { name: "indices" arg { as_optional_tensors { items { as_tensor { name: "pos" } } } } }\n'
                      '        inputs { name: "values" arg { as_tensor { name: "linear" } } }\n')),
         """\
         The near miss of the bad cases: the lowering wrote the key cache update as
         index_put(cache, [pos], row), as run_decompositions does, instead of index_copy. Another
         op, the same promise: an update of the key cache, (4, 8) float32. No finding.""")


# ------------------------------------------------------------------ PT407-PT412: the calling convention
def calling_convention_goldens():
    before, after = training(), lowered()
    user_specs = spec_line("user", "mm") + spec_line("user", "softmax")
    user_outs = out_line("mm") + out_line("softmax")

    pair("user-output-gained", "bad_copy_back_left_as_user_output", before,
         edit(after, (user_specs, user_specs + spec_line("user", "index_copy_1")),
              (user_outs, user_outs + out_line("index_copy_1"))),
         """\
         A lifting pass added the value cache's write-back but also left the copy-back value
         among the user outputs: AFTER returns 3 user outputs where the original returns 2 (its
         out_spec, left alone, still says 2).""",
         ["error user-output-gained -"])
    pair("user-output-gained", "good", before, after, FAITHFUL)

    pair("user-output-lost", "bad_attention_weights_dropped", before,
         edit(after, (spec_line("user", "softmax"), ""), (out_line("softmax"), "")),
         """\
         A pass that keeps only the first user output (the logits) dropped the attention weights
         `softmax`: AFTER returns 1 user output where the original returns 2.""",
         ["error user-output-lost -"])
    pair("user-output-lost", "bad_user_output_relabelled_as_write_back", before,
         edit(after, (spec_line("user", "softmax"), spec_line("mutation", "softmax", "steps"))),
         """\
         A lowering pass relabelled the last user output as a write-back of `steps` (the
         corpus' *__user_output_as_mutation): one user output is gone, and `steps` is written
         back twice.""",
         ["error user-output-lost -",
          "error write-back-duplicated output_specs[4]"])
    pair("user-output-lost", "good", before, after, FAITHFUL)

    pair("user-output-reordered", "bad_user_outputs_swapped", before,
         edit(after, (user_specs, spec_line("user", "softmax") + spec_line("user", "mm")),
              (user_outs, out_line("softmax") + out_line("mm"))),
         """\
         A lowering pass emitted the user outputs in another order (attention weights first):
         the caller unpacks (out, weights) and gets them swapped.""",
         ["error user-output-reordered -"])
    pair("user-output-reordered", "good", before, after, FAITHFUL)

    pair("user-output-changed", "bad_attention_weights_cast_to_half", before,
         edit(after, (tv("softmax", "float32", 1, 4), tv("softmax", "float16", 1, 4))),
         """\
         A precision pass left the attention weights in float16: user output 1 is (1, 4)
         float16, the original's (1, 4) float32.""",
         ["error user-output-changed -"])
    pair("user-output-changed", "bad_cache_returned_instead_of_weights", before,
         edit(after, (spec_line("user", "softmax"), spec_line("user", "index_copy_1")),
              (out_line("softmax"), out_line("index_copy_1"))),
         """\
         A lowering pass returned the value cache's update (4, 8) where the attention weights
         (1, 4) belong (a misaligned output list).""",
         ["error user-output-changed -"])
    pair("user-output-changed", "good_softmax_decomposed", before,
         edit(after, ('        target: "torch.ops.aten.softmax.int" name: "softmax"\n'
                      '        inputs { name: "self" arg { as_tensor { name: "mul" } } }\n'
                      '        inputs { name: "dim" arg { as_int: -1 } }\n',
                      '        target: "torch.ops.aten._softmax.default" name: "softmax"\n'
                      '        inputs { name: "self" arg { as_tensor { name: "mul" } } }\n'
                      '        inputs { name: "dim" arg { as_int: -1 } }\n'
                      '        inputs { name: "half_to_float" arg { as_bool: false } }\n')),
         """\
         The near miss of the bad cases: the lowering decomposed softmax.int into _softmax, as
         run_decompositions does. Another op, the same output: (1, 4) float32. No finding.""")

    tuple_spec = '\\"type\\": \\"builtins.tuple\\", \\"context\\": \\"null\\"'
    pair("user-output-tree-changed", "bad_tuple_became_list", before,
         edit(after, (tuple_spec, '\\"type\\": \\"builtins.list\\", \\"context\\": \\"null\\"')),
         """\
         A pass rebuilt the root out_spec and wrote a list where the original returns a tuple:
         ep.module() now returns [out, weights].""",
         ["error user-output-tree-changed -"])
    pair("user-output-tree-changed", "bad_tuple_became_dict", before,
         edit(after, (tuple_spec,
                      '\\"type\\": \\"builtins.dict\\", \\"context\\": \\"[\\\\\\"out\\\\\\", \\\\\\"weights\\\\\\"]\\"')),
         """\
         A pass wrapped the outputs in a dict {"out", "weights"}: callers that unpack a tuple
         break.""",
         ["error user-output-tree-changed -"])
    pair("user-output-tree-changed", "good_out_spec_whitespace", before,
         edit(after, (OUT_SPEC_TUPLE2, OUT_SPEC_TUPLE2.replace(", ", ",").replace(": ", ":"))),
         """\
         The near miss of the bad cases: the lowering re-serialized the out_spec without
         spaces (json.dumps with separators=(",", ":")). The same tree: no finding (whitespace
         does not count).""")

    pair("user-input-changed", "bad_pos_int32", before,
         edit(after, (tv("pos", "int64", 1), tv("pos", "int32", 1))),
         """\
         A backend pass narrowed the position input to int32: callers pass int64 positions.
         The finding points at pos's own input spec in the lowered program, input_specs[7]
         (it is user input 1).""",
         ["error user-input-changed input_specs[7]"])
    pair("user-input-changed", "bad_attention_mask_added", before,
         edit(after, ('      input_specs { user_input { arg { as_tensor { name: "pos" } } } }\n',
                      '      input_specs { user_input { arg { as_tensor { name: "pos" } } } }\n'
                      '      input_specs { user_input { arg { as_tensor { name: "attention_mask" } } } }\n'),
              ('      inputs { as_tensor { name: "pos" } }\n',
               '      inputs { as_tensor { name: "pos" } }\n      inputs { as_tensor { name: "attention_mask" } }\n'),
              (tv("pos", "int64", 1), tv("pos", "int64", 1) + tv("attention_mask", "float32", 1, 4))),
         """\
         A lowering pass added a user input `attention_mask` (1, 4) that the original does not
         take: callers pass 2 inputs, the program wants 3.""",
         ["error user-input-changed -"])
    state_renamed = after
    for i, name in enumerate(STATE_INPUTS):
        state_renamed = state_renamed.replace(f'"{name}"', f'"arg{i}_1"')
    pair("user-input-changed", "good_state_placeholders_renamed", before, state_renamed,
         """\
         The near miss of the bad cases: the lowering renamed the parameter and buffer
         placeholders to arg0_1 ... arg5_1 (as aot_export does) and kept the user inputs `x`
         and `pos` as they were. State FQNs and user inputs are unchanged: no finding.""")


# ------------------------------------------------------------------ PT413: programs of an archive
def program_goldens():
    before = program_set(training(4, "prefill"), training(1, "decode"))
    pair("program-missing", "bad_decode_program_dropped", before, program_set(lowered(4, "prefill")),
         """\
         BEFORE is a two-program archive (models/prefill.json with 4 tokens, models/decode.json
         with 1, sharing the caches). The lowering script lowered only the first program:
         AFTER has `prefill` and no `decode`, which the runtime will look up by name.""",
         ["error program-missing -"])
    pair("program-missing", "bad_decode_program_renamed", before,
         program_set(lowered(4, "prefill"), lowered(1, "forward")),
         """\
         The same two-program archive; the lowering saved the decode program under the default
         name `forward`: `decode` has no counterpart, and `forward` has none in the original
         (one finding each).""",
         ["error program-missing -", "error program-missing -"])
    pair("program-missing", "good_programs_in_other_order", before,
         program_set(lowered(1, "decode"), lowered(4, "prefill")),
         """\
         The near miss of the bad cases: both programs lowered faithfully, stored decode first.
         Programs pair by name, not position: no finding.""")


# ------------------------------------------------------------------ PT414: unknown ops
def undecidable_goldens():
    """The key cache is updated by a custom kernel `mylib::update_cache(cache, pos, k)`
    instead of index_copy_; without its schema pt2lint cannot tell what it writes."""
    k_write = cache_write("torch.ops.aten.index_copy_.default", "index_copy_", "b_layers_0_attn_k_cache", "linear")
    custom = node("torch.ops.mylib.update_cache.default", "update_cache",
                  [("cache", t("b_layers_0_attn_k_cache")), ("pos", t("pos")), ("k", t("linear"))], ["as_none: true"])
    before = edit(training(), (k_write, custom),
                  ('arg { as_tensor { name: "index_copy_" } }', 'arg { as_tensor { name: "b_layers_0_attn_k_cache" } }'),
                  (tv("index_copy_", "float32", 4, 8), ""))
    lowered_k = cache_write("torch.ops.aten.index_copy.default", "index_copy", "b_layers_0_attn_k_cache", "linear")
    passed_through = edit(lowered(), (lowered_k, custom),
                          ('arg { as_tensor { name: "index_copy" } }', 'arg { as_tensor { name: "b_layers_0_attn_k_cache" } }'),
                          (tv("index_copy", "float32", 4, 8), ""),
                          (spec_line("mutation", "index_copy", "layers.0.attn.k_cache"), ""),
                          (out_line("index_copy"), ""))
    header = """\
         BEFORE is the decoder with the key cache updated by a custom kernel
         mylib::update_cache(cache, pos, k) whose schema is not given. The lowering copied the
         call over unchanged into its ATEN program (not wrapped in auto_functionalized_v2), with
         no write-back for the key cache. Without the op's schema, whether the original writes
         the cache, and so whether the lowering lost a write, cannot be decided: one warning
         for the cache and one for `pos`, also passed to the op. (`check` on AFTER is quiet: in
         an ATEN program a direct call is taken as functional.)"""
    undecidable = ["warning write-back-undecidable state:layers.0.attn.k_cache",
                   "warning write-back-undecidable state:pos"]
    pair("write-back-undecidable", "bad_cache_passed_to_unknown_op", before, passed_through,
         header + "\nNothing else is broken: exit 3.", undecidable)
    pair("write-back-undecidable", "bad_unknown_op_and_step_counter_dropped", before,
         edit(passed_through, (spec_line("mutation", "add", "steps"), ""), (out_line("add"), "")),
         header + "\nThe lowering also dropped the write-back of `steps`: write-back-lost, so exit 1 (a"
         "\nbroken promise takes precedence over exit 3).",
         undecidable + ["error write-back-lost state:steps"])
    functionalized = edit(passed_through, (custom, node(
        "torch.ops.higher_order.auto_functionalized_v2", "auto_functionalized_v2",
        [("", 'as_operator: "torch.ops.mylib.update_cache.default"'), ("pos", t("pos")), ("k", t("linear")),
         ("_cache_base_index", "as_int: 0"),
         ("_all_bases", 'as_tensors { items { name: "b_layers_0_attn_k_cache" } }')],
        ["as_none: true", t("getitem")], from_node=("update_cache", "mylib.update_cache.default"))),
        ('arg { as_tensor { name: "b_layers_0_attn_k_cache" } }', 'arg { as_tensor { name: "getitem" } }'),
        (tv("linear", "float32", 1, 8), tv("linear", "float32", 1, 8) + tv("getitem", "float32", 4, 8)),
        (spec_line("mutation", "index_copy_1", "layers.0.attn.v_cache"),
         spec_line("mutation", "getitem", "layers.0.attn.k_cache") +
         spec_line("mutation", "index_copy_1", "layers.0.attn.v_cache")),
        (out_line("index_copy_1"), out_line("getitem") + out_line("index_copy_1")))
    functionalized = functionalized.replace('inputs { name: "" arg', "inputs { arg")
    pair("write-back-undecidable", "good_learned_from_auto_functionalized", before, functionalized,
         """\
         The near miss of the bad cases: the same original, lowered as PyTorch's functionalization
         (and `pt2lint lower --op-schemas`) does it: the custom op becomes
         auto_functionalized_v2 with `_cache_base_index`, and its new cache `getitem` is written
         back to the key cache. diff learns from that node that the op writes `cache` (and not
         `pos`), so every write is decided and kept: no finding, exit 0.""")


# ------------------------------------------------------------------ PT420: a written state folded
def constant_fold_goldens():
    before, after = training(), lowered()
    folded = edit(after, ("b_layers_0_attn_v_cache", "c_layers_0_attn_v_cache", 4),
                  ('      input_specs { buffer { arg { name: "c_layers_0_attn_v_cache" } buffer_name: '
                   '"layers.0.attn.v_cache" persistent: true } }\n',
                   '      input_specs { tensor_constant { arg { name: "c_layers_0_attn_v_cache" } '
                   'tensor_constant_name: "layers.0.attn.v_cache" } }\n'),
                  (spec_line("mutation", "index_copy_1", "layers.0.attn.v_cache"), ""),
                  (out_line("index_copy_1"), ""))
    pair("written-state-became-constant", "bad_value_cache_folded_into_constant", before, folded,
         """\
         A constant-folding pass took the value cache for a constant (pytorch/executorch#7779):
         it lifted `layers.0.attn.v_cache` as a tensor constant and dropped its write-back, so
         every call attends over the cache as it was saved. diff names the fold, instead of only
         the lost write-back.""",
         ["error written-state-became-constant state:layers.0.attn.v_cache"])
    pair("written-state-became-constant", "good", before, after, FAITHFUL)
    pair("written-state-became-constant", "good_read_only_buffer_folded", before,
         edit(after, ("b_layers_0_attn_scale", "c_layers_0_attn_scale", 4),
              ('      input_specs { buffer { arg { name: "c_layers_0_attn_scale" } buffer_name: '
               '"layers.0.attn.scale" persistent: true } }\n',
               '      input_specs { tensor_constant { arg { name: "c_layers_0_attn_scale" } '
               'tensor_constant_name: "layers.0.attn.scale" } }\n')),
         """\
         The near miss: the pass folded the read-only buffer `layers.0.attn.scale` into a
         constant. Nothing writes it, so its value is the same on every call: no finding.""")


# ------------------------------------------------------------------ PT420-PT422: nodes matched
CLONE_X = node("torch.ops.aten.clone.default", "clone", [("self", t("x"))], [t("clone")])


def insert_clone(text):
    """A pass inserted `clone = clone(x)` in front of every node and made the projections read it:
    every later node sits one position further (diff matches nodes by op and name, not by position)."""
    text = edit(text, ('        inputs { name: "input" arg { as_tensor { name: "x" } } }\n',
                       '        inputs { name: "input" arg { as_tensor { name: "clone" } } }\n', 3),
                (tv("x", "float32", 1, 8), tv("x", "float32", 1, 8) + tv("clone", "float32", 1, 8)))
    return first_node_only(text, "      nodes {\n", CLONE_X + "      nodes {\n")


def first_node_only(text, old, new):
    """`old` replaced by `new` in its first occurrence only."""
    at = text.index(old)
    return text[:at] + new + text[at + len(old):]


def strip_from_node(text):
    lines = [line for line in text.splitlines(keepends=True) if 'metadata { key: "from_node"' not in line]
    return "".join(lines)


def node_goldens():
    before, after = training(), lowered()
    step_read = node("torch.ops.aten.add.Tensor", "add", [("self", t("b_steps")), ("other", "as_int: 1")],
                     [t("add")], from_node=("add_", "aten.add_.Tensor"))
    folded_read = step_read.replace('as_tensor { name: "b_steps" }', 'as_tensor { name: "c_folded_steps" }')
    folded = edit(after, (step_read, folded_read),
                  ('      input_specs { user_input { arg { as_tensor { name: "x" } } } }\n',
                   '      input_specs { tensor_constant { arg { name: "c_folded_steps" } tensor_constant_name: '
                   '"folded_steps" } }\n      input_specs { user_input { arg { as_tensor { name: "x" } } } }\n'),
                  ('      inputs { as_tensor { name: "x" } }\n',
                   '      inputs { as_tensor { name: "c_folded_steps" } }\n      inputs { as_tensor { name: "x" } }\n'),
                  (tv("b_steps", "int64"), tv("b_steps", "int64") + tv("c_folded_steps", "int64")))
    pair("written-state-became-constant", "bad_step_read_folded", before, folded,
         """\
         A constant-folding pass folded the read of the step counter into a new tensor constant
         `folded_steps` holding its saved value (pytorch/pytorch#185077): `steps` is still a
         buffer and still written back, so the contract looks kept, but the write-back is the
         constant plus one on every call: the counter never passes 1. diff matches the lowered
         `add` to the original's `add_` (its from_node) and sees the read change.""",
         ["error write-back-from-other-state output_specs[2]",
          "error written-state-became-constant node:add"])
    pair("written-state-became-constant", "good_inserted_node", before, insert_clone(after),
         """\
         The near miss: the lowering inserted a `clone` of `x` in front of every node. Every read of
         written state is still a read of that state: no finding, although every node after the
         clone sits one position further than its match.""")

    softmax_dim = '        inputs { name: "dim" arg { as_int: -1 } }\n'
    pair("literal-changed", "bad_softmax_dim_after_insertion", after,
         first_node_only(insert_clone(after), softmax_dim, '        inputs { name: "dim" arg { as_int: 0 } }\n'),
         """\
         BEFORE is the faithful lowering (ATEN); AFTER is BEFORE after a pass that inserted a
         `clone` of `x` in front of every node and rewrote the softmax with `dim=0` instead of
         `dim=-1`: it normalizes over the tokens instead of the cache positions. Every shape
         still matches. diff matches each node by op and name (not position, which the clone
         shifted) and reports the one literal that changed.""",
         ["warning literal-changed node:softmax"], extend=["literal-changed"])
    pair("literal-changed", "good", after, insert_clone(after),
         """\
         The near miss: BEFORE is the faithful lowering, AFTER the same with a `clone` of `x`
         inserted in front of every node. Every matched node keeps its literals: no finding.""",
         extend=["literal-changed"])
    pair("literal-changed", "good_not_selected", after,
         first_node_only(after, softmax_dim, '        inputs { name: "dim" arg { as_int: 0 } }\n'),
         """\
         The softmax dim changed, but literal-changed is opt-in and not selected: no finding.""")

    pair("metadata-lost", "bad_from_node_stripped", after, strip_from_node(after),
         """\
         BEFORE is the faithful lowering (ATEN, `from_node` records on its index_copy and add
         nodes); AFTER is BEFORE through a round trip that lost node metadata
         (pytorch/pytorch#171726): no node has a `from_node` any more.""",
         ["note metadata-lost node:index_copy"], extend=["metadata-lost"])
    pair("metadata-lost", "good", after, after,
         """\
         The near miss: the same program on both sides; every node keeps its metadata.""",
         extend=["metadata-lost"])
# ------------------------------------------------------------------ PT415-PT417: joint programs
OUT_SPEC_ONE = '[1, {\\"type\\": null, \\"context\\": null, \\"children_spec\\": []}]'


def joint_program(dialect, nodes, outputs, values, specs, input_specs, inputs):
    ins = "".join(f"      inputs {{ {t(n)} }}\n" for n in inputs)
    outs = "".join(f"      outputs {{ {t(n)} }}\n" for n in outputs)
    return (f'name: "model"\nprogram {{\n  verifiers: "{dialect}"\n'
            "  schema_version { major: 8 minor: 17 }\n  graph_module {\n    graph {\n" + ins + nodes + outs + values +
            "    }\n    signature {\n" + input_specs + specs + "    }\n"
            '    module_call_graph {\n      fqn: ""\n'
            f'      signature {{ out_spec: "{OUT_SPEC_ONE}" }}\n    }}\n  }}\n}}\n')


JOINT_INPUT_SPECS = """\
      input_specs { parameter { arg { name: "p_fc_weight" } parameter_name: "fc.weight" } }
      input_specs { parameter { arg { name: "p_fc_bias" } parameter_name: "fc.bias" } }
      input_specs { user_input { arg { as_tensor { name: "x" } } } }
"""
JOINT_INPUTS = ["p_fc_weight", "p_fc_bias", "x"]


def forward_nodes():
    return (node("torch.ops.aten.permute.default", "permute",
                 [("self", t("p_fc_weight")), ("dims", "as_ints { items: 1 items: 0 }")], [t("permute")]) +
            node("torch.ops.aten.addmm.default", "addmm",
                 [("self", t("p_fc_bias")), ("mat1", t("x")), ("mat2", t("permute"))], [t("addmm")]) +
            node("torch.ops.aten.sum.default", "sum_1", [("self", t("addmm"))], [t("sum_1")]))


def forward_values():
    return (tv("p_fc_weight", "float32", 3, 4) + tv("p_fc_bias", "float32", 3) + tv("x", "float32", 2, 4) +
            tv("permute", "float32", 4, 3) + tv("addmm", "float32", 2, 3) + tv("sum_1", "float32"))


def forward_program():
    """The forward program as torch.export.export writes it: the loss as a user output."""
    return joint_program("TRAINING", forward_nodes(), ["sum_1"], forward_values(),
                         '      output_specs { user_output { arg { as_tensor { name: "sum_1" } } } }\n',
                         JOINT_INPUT_SPECS, JOINT_INPUTS)


def grad_spec(value, target, user_input=False):
    if user_input:
        return (f'      output_specs {{ gradient_to_user_input {{ arg {{ name: "{value}" }} '
                f'user_input_name: "{target}" }} }}\n')
    return f'      output_specs {{ gradient_to_parameter {{ arg {{ name: "{value}" }} parameter_name: "{target}" }} }}\n'


def joint(input_grad=False):
    """Its joint program as _export_forward_backward writes it (ATEN): the loss, then one gradient
    per parameter in input order, then the gradient of `x` when it requires grad."""
    nodes = (forward_nodes() +
             node("torch.ops.aten.full_like.default", "full_like", [("self", t("addmm")), ("fill_value", "as_float: 1.0")],
                  [t("full_like")]) +
             node("torch.ops.aten.permute.default", "permute_1",
                  [("self", t("full_like")), ("dims", "as_ints { items: 1 items: 0 }")], [t("permute_1")]) +
             node("torch.ops.aten.mm.default", "mm", [("self", t("permute_1")), ("mat2", t("x"))], [t("mm")]) +
             node("torch.ops.aten.sum.dim_IntList", "sum_2",
                  [("self", t("full_like")), ("dim", "as_ints { items: 0 }")], [t("sum_2")]) +
             node("torch.ops.aten.mm.default", "mm_1", [("self", t("full_like")), ("mat2", t("p_fc_weight"))],
                  [t("mm_1")]))
    values = (forward_values() + tv("full_like", "float32", 2, 3) + tv("permute_1", "float32", 3, 2) +
              tv("mm", "float32", 3, 4) + tv("sum_2", "float32", 3) + tv("mm_1", "float32", 2, 4))
    outputs = ["sum_1", "mm", "sum_2"] + (["mm_1"] if input_grad else [])
    specs = ('      output_specs { loss_output { arg { name: "sum_1" } } }\n' + grad_spec("mm", "fc.weight") +
             grad_spec("sum_2", "fc.bias") + (grad_spec("mm_1", "x", True) if input_grad else ""))
    return joint_program("ATEN", nodes, outputs, values, specs, JOINT_INPUT_SPECS, JOINT_INPUTS)


JOINT_HEADER = """\
Here BEFORE is not the decoder but a linear layer's joint program (forward and backward in one
graph, as torch.export.experimental._export_forward_backward writes it, ATEN): parameters
`fc.weight` (3, 4) and `fc.bias` (3,), user input `x` (2, 4); outputs: the loss `sum_1`, then
the gradients `mm` (3, 4) of fc.weight and `sum_2` (3,) of fc.bias"""


def joint_goldens():
    before = joint()
    renamed_values = edit(before, ("sum_2", "sum_3", 5))
    pair("gradient-lost", "bad_bias_gradient_dropped", before,
         edit(before, (grad_spec("sum_2", "fc.bias"), ""), (out_line("sum_2"), "")),
         JOINT_HEADER + """.
         A lowering pass dropped the bias's gradient output (its value `sum_2` is still computed):
         PyTorch loads and validates the program, and the optimizer leaves `fc.bias` untrained.""",
         ["error gradient-lost state:fc.bias"])
    pair("gradient-lost", "bad_input_gradient_dropped", joint(input_grad=True), joint(),
         JOINT_HEADER + """, and `mm_1` (2, 4) of the user input `x`.
         The lowering dropped the gradient to the user input (pytorch/pytorch#186542: missing
         gradients): a caller that trains its input, or chains this program after another,
         gets none.""",
         ["error gradient-lost -"])
    pair("gradient-lost", "good", before, renamed_values,
         JOINT_HEADER + """.
         AFTER is the same program with the bias gradient's value renamed (`sum_3`), as a
         lowering that rebuilds the graph names values: every gradient is kept, no finding.""")
    pair("gradient-lost", "good_forward_to_joint", forward_program(), before,
         """Here BEFORE is a linear layer's forward program as torch.export.export writes it
         (TRAINING): parameters `fc.weight` (3, 4) and `fc.bias` (3,), user input `x` (2, 4), the loss
         `sum_1` a user output. AFTER is its joint program from _export_forward_backward (ATEN): the
         loss, then the gradients of both parameters. The joint program keeps every promise of the
         forward one and gains the gradients by design: no finding, exit 0.""")
    pair("gradient-gained", "bad_gradient_for_missing_parameter", before,
         edit(before, (grad_spec("sum_2", "fc.bias"), grad_spec("sum_2", "fc3.bias"))),
         JOINT_HEADER + """.
         A pass renamed the bias gradient's target to `fc3.bias`, which the program does not
         have: the gradient is gained for a name nobody trains, and lost for `fc.bias`.""",
         ["error gradient-gained output_specs[2]", "error gradient-lost state:fc.bias"])
    pair("gradient-gained", "bad_input_gradient_added", before, joint(input_grad=True),
         JOINT_HEADER + """.
         The lowering also returns a gradient to the user input `x` (`mm_1`), which the original
         does not: the caller's optimizer would update an input the original never trains.""",
         ["error gradient-gained output_specs[3]"])
    pair("gradient-gained", "good", before, renamed_values,
         JOINT_HEADER + """.
         AFTER renames the bias gradient's value only: no finding.""")
    pair("gradient-changed", "bad_gradients_exchanged", before,
         edit(before, (grad_spec("mm", "fc.weight"), grad_spec("mm", "fc.bias")),
              (grad_spec("sum_2", "fc.bias"), grad_spec("sum_2", "fc.weight"))),
         JOINT_HEADER + """.
         A pass exchanged the targets of the two gradients
         (tests/data/device/soundness/joint_mlp__gradients_swapped.pt2): one finding for the pair.""",
         ["error gradient-changed output_specs[1]"])
    half = edit(before, (grad_spec("sum_2", "fc.bias"), grad_spec("_to_copy", "fc.bias")),
                (out_line("sum_2"), out_line("_to_copy")),
                (tv("mm_1", "float32", 2, 4), tv("mm_1", "float32", 2, 4) + tv("_to_copy", "float16", 3)),
                ("    }\n    signature {\n",
                 node("torch.ops.aten._to_copy.default", "_to_copy",
                      [("self", t("sum_2")), ("dtype", "as_scalar_type: 6")], [t("_to_copy")]) +
                 "    }\n    signature {\n"))
    pair("gradient-changed", "bad_bias_gradient_cast_to_half", before, half,
         JOINT_HEADER + """.
         The lowering returns the bias gradient cast to float16 (a mixed-precision pass that
         reached the backward): its dtype is no longer the parameter's.""",
         ["error gradient-changed output_specs[2]"])
    reordered = edit(before, (grad_spec("mm", "fc.weight") + grad_spec("sum_2", "fc.bias"),
                              grad_spec("sum_2", "fc.bias") + grad_spec("mm", "fc.weight")),
                     (out_line("mm") + out_line("sum_2"), out_line("sum_2") + out_line("mm")))
    pair("gradient-changed", "good_gradients_reordered", before, reordered,
         JOINT_HEADER + """.
         AFTER returns the two gradients in the other order, each spec still beside its own value:
         gradients are paired by their input, not by position, so no finding.""")


def main():
    for name in os.listdir(HERE):
        if os.path.isdir(os.path.join(HERE, name)):
            shutil.rmtree(os.path.join(HERE, name))
    write_back_goldens()
    calling_convention_goldens()
    program_goldens()
    undecidable_goldens()
    constant_fold_goldens()
    node_goldens()
    joint_goldens()
    print(f"{len(WRITTEN)} pairs written under {HERE}")


if __name__ == "__main__":
    main()
