#!/usr/bin/env python3
"""Writes the goldens of norm-stats-match-training-mode (PT322): one BatchNorm1d `bn` over
x (2, 4), as torch.export writes it in TRAINING (aten.batch_norm, num_batches_tracked.add_) and
ATEN (_native_batch_norm_legit_functional / _no_training, write-back outputs) dialects, each bad
case what a pass or a decomposition did to a clean program (the file's header says what).

    python3 tests/golden/dataflow/make_norm_goldens.py

Deterministic: run it again and `git diff` shows nothing."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from textproto_builders import F32, I64, arg, tv  # noqa: E402

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "norm-stats-match-training-mode")




def node(target, name, inputs, outputs):
    text = f'      nodes {{\n        target: "torch.ops.{target}" name: "{name}"\n'
    text += "".join(f'        inputs {{ name: "{k}" arg {{ {arg(v)} }} }}\n' for k, v in inputs)
    text += "".join(f'        outputs {{ as_tensor {{ name: "{o}" }} }}\n' for o in outputs)
    return text + "      }\n"


def program(dialect, nodes, values, stats_kind="buffer", mutations=(), output="out"):
    rm, rv = ("b_bn_running_mean", "b_bn_running_var") if stats_kind == "buffer" else ("c_rm", "c_rv")
    text = (f'name: "model"\nprogram {{\n  schema_version {{ major: 8 minor: 17 }}\n  verifiers: "{dialect}"\n'
            '  graph_module {\n    graph {\n')
    placeholders = ["p_bn_weight", "p_bn_bias", rm, rv] + (["b_bn_num_batches_tracked"] if stats_kind == "buffer" else []) + ["x"]
    text += "".join(f'      inputs {{ as_tensor {{ name: "{p}" }} }}\n' for p in placeholders)
    text += "".join(nodes)
    text += "".join(f'      outputs {{ as_tensor {{ name: "{v}" }} }}\n' for v, _ in mutations)
    text += f'      outputs {{ as_tensor {{ name: "{output}" }} }}\n'
    base = {"p_bn_weight": (F32, 4), "p_bn_bias": (F32, 4), rm: (F32, 4), rv: (F32, 4), "x": (F32, 2, 4)}
    if stats_kind == "buffer":
        base["b_bn_num_batches_tracked"] = (I64,)
    base.update(values)
    text += "".join(tv(k, v[0], *v[1:]) for k, v in base.items())
    text += "    }\n    signature {\n"
    text += '      input_specs { parameter { arg { name: "p_bn_weight" } parameter_name: "bn.weight" } }\n'
    text += '      input_specs { parameter { arg { name: "p_bn_bias" } parameter_name: "bn.bias" } }\n'
    if stats_kind == "buffer":
        for p, fqn in ((rm, "bn.running_mean"), (rv, "bn.running_var"), ("b_bn_num_batches_tracked", "bn.num_batches_tracked")):
            text += f'      input_specs {{ buffer {{ arg {{ name: "{p}" }} buffer_name: "{fqn}" persistent: true }} }}\n'
    else:
        for p, fqn in ((rm, "rm"), (rv, "rv")):
            text += f'      input_specs {{ tensor_constant {{ arg {{ name: "{p}" }} tensor_constant_name: "{fqn}" }} }}\n'
    text += '      input_specs { user_input { arg { as_tensor { name: "x" } } } }\n'
    text += "".join(f'      output_specs {{ buffer_mutation {{ arg {{ name: "{v}" }} buffer_name: "{t}" }} }}\n'
                    for v, t in mutations)
    text += f'      output_specs {{ user_output {{ arg {{ as_tensor {{ name: "{output}" }} }} }} }}\n'
    text += "    }\n  }\n}\n"
    return text


def training_ir(training, count=None):
    nodes = []
    values = {"out": (F32, 2, 4)}
    if count:
        nodes.append(node("aten.add_.Tensor", "add_", [("self", "b_bn_num_batches_tracked"), ("other", 1)], ["add_"]))
        values["add_"] = (I64,)
    nodes.append(node("aten.batch_norm.default", "batch_norm",
                      [("input", "x"), ("weight", "p_bn_weight"), ("bias", "p_bn_bias"), ("running_mean", "b_bn_running_mean"),
                       ("running_var", "b_bn_running_var"), ("training", training), ("momentum", 0.1), ("eps", 1e-05),
                       ("cudnn_enabled", True)], ["out"]))
    return program("TRAINING", nodes, values)


def functional(training, stats_kind="buffer", count=True):
    rm, rv = ("b_bn_running_mean", "b_bn_running_var") if stats_kind == "buffer" else ("c_rm", "c_rv")
    nodes, values, mutations = [], {"out": (F32, 2, 4), "save_mean": (F32, 4), "save_rstd": (F32, 4),
                                    "new_mean": (F32, 4), "new_var": (F32, 4)}, []
    if count and stats_kind == "buffer":
        nodes.append(node("aten.add.Tensor", "add", [("self", "b_bn_num_batches_tracked"), ("other", 1)], ["add"]))
        values["add"] = (I64,)
    nodes.append(node("aten._native_batch_norm_legit_functional.default", "_native_batch_norm_legit_functional",
                      [("input", "x"), ("weight", "p_bn_weight"), ("bias", "p_bn_bias"), ("running_mean", rm),
                       ("running_var", rv), ("training", training), ("momentum", 0.1), ("eps", 1e-05)],
                      ["out", "save_mean", "save_rstd", "new_mean", "new_var"]))
    if stats_kind == "buffer":
        mutations = [("new_mean", "bn.running_mean"), ("new_var", "bn.running_var")]
        if count:
            mutations.append(("add", "bn.num_batches_tracked"))
    return program("ATEN", nodes, values, stats_kind, mutations)


def no_training():
    nodes = [node("aten._native_batch_norm_legit_no_training.default", "_native_batch_norm_legit_no_training",
                  [("input", "x"), ("weight", "p_bn_weight"), ("bias", "p_bn_bias"), ("running_mean", "b_bn_running_mean"),
                   ("running_var", "b_bn_running_var"), ("momentum", 0.1), ("eps", 1e-05)], ["out", "unused_1", "unused_2"])]
    values = {"out": (F32, 2, 4), "unused_1": (F32, 0), "unused_2": (F32, 0)}
    return program("ATEN", nodes, values)


def ema_by_hand():
    """An eval-mode norm next to statistics the model updates itself (an EMA of the input)."""
    nodes = [node("aten.mean.dim", "mean", [("self", "x"), ("dim", 0)], ["mean"]),
             node("aten.lerp_.Scalar", "lerp_", [("self", "b_bn_running_mean"), ("end", "mean"), ("weight", 0.1)],
                  ["lerp_"])]
    text = training_ir(False)
    marker = '      nodes {\n        target: "torch.ops.aten.batch_norm.default"'
    text = text.replace(marker, "".join(nodes) + marker)
    return text.replace("      tensor_values { key: \"out\"",
                        tv("mean", F32, 4) + tv("lerp_", F32, 4) + "      tensor_values { key: \"out\"")


CASES = {
    "bad_flipped_to_eval.aten": (
        "A pass flipped the training-mode norm of a BatchNorm in train mode to eval (training=False) and kept\n"
        "# its three write-backs: the statistics are written back unchanged, the counter still grows.",
        ["error norm-stats-match-training-mode node:_native_batch_norm_legit_functional"], functional(False)),
    "bad_counter_written_in_eval": (
        "TRAINING dialect: the norm runs in eval mode, but num_batches_tracked is still incremented (a pass\n"
        "# flipped the mode, or a decomposition re-added the counter's update: executorch#19980).",
        ["error norm-stats-match-training-mode node:batch_norm"], training_ir(False, count=True)),
    "good_train.aten": ("BatchNorm in train mode after run_decompositions: three write-backs.", [], functional(True)),
    "good_train": ("BatchNorm in train mode, TRAINING dialect: batch_norm(training=True) and the counter's add_.",
                   [], training_ir(True, count=True)),
    "good_eval.aten": ("BatchNorm in eval mode after run_decompositions: no write-back.", [], no_training()),
    "good_eval": ("BatchNorm in eval mode, TRAINING dialect.", [], training_ir(False)),
    "good_statistic_updated_by_hand": (
        "An eval-mode norm whose running_mean the model updates itself (lerp_): not a norm's write.",
        [], ema_by_hand()),
}


def main():
    for name in ("bad_example.textproto", "good.textproto"):  # the scaffold's placeholders
        if os.path.exists(os.path.join(HERE, name)):
            os.remove(os.path.join(HERE, name))
    for case, (what, expect, text) in CASES.items():
        head = f"# {what}\n# Written by tests/golden/dataflow/make_norm_goldens.py.\n"
        head += "".join(f"# expect: {e}\n" for e in expect) or "# expect: none\n"
        with open(os.path.join(HERE, case + ".textproto"), "w") as f:
            f.write(head + text)


main()
