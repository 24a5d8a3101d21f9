#!/usr/bin/env python3
"""Writes the diagnosis goldens of this folder (run once; the outputs are committed).

Each program is a small functional (ATEN) KV-cache decoder: buffers written by index_put
(functional twins of index_copy_, as run_decompositions leaves them), and logits from a fresh
op. The signature is then broken the way a backend pass breaks it. The `# expect:` lines are the
findings of the rules (checked by run_golden.py); the `# diagnosis:` and `# edit:` lines are the
one primary finding and its repair (checked by check_diagnosis.py).
"""
import os

CACHE = 'dtype: 7 sizes { as_int: 1 } sizes { as_int: 4 } sizes { as_int: 8 } device { type: "cpu" }'
LOGITS = 'dtype: 7 sizes { as_int: 1 } sizes { as_int: 1 } sizes { as_int: 90 } device { type: "cpu" }'
FROM_NODE = r'[{\"name\": \"index_copy_\", \"target\": \"aten.index_copy_.default\", \"from_node\": []}]'


def program(fqns, outputs, specs, header, checks=()):
    """fqns: buffer FQNs; outputs: graph output names; specs: output spec text lines."""
    lines = [f"# {h}" for h in header] + [f"# {c}" for c in checks]
    lines += ['name: "model"', "program {", '  verifiers: "ATEN"',
              "  schema_version { major: 8 minor: 17 }", "  graph_module {", "    graph {"]
    ph = ["b_" + f.replace(".", "_") for f in fqns]
    for p in ph:
        lines.append(f'      inputs {{ as_tensor {{ name: "{p}" }} }}')
    for u in ("pos", "kv", "x"):
        lines.append(f'      inputs {{ as_tensor {{ name: "{u}" }} }}')
    values = {}
    for i, p in enumerate(ph):
        name = "index_put" if i == 0 else f"index_put_{i}"
        values[name] = CACHE
        lines += [
            f'      nodes {{ target: "torch.ops.aten.index_put.default" name: "{name}"',
            f'        inputs {{ name: "self" arg {{ as_tensor {{ name: "{p}" }} }} }}',
            '        inputs { name: "indices" arg { as_optional_tensors { items { as_none: true } '
            'items { as_tensor { name: "pos" } } } } }',
            '        inputs { name: "values" arg { as_tensor { name: "kv" } } }',
            f'        outputs {{ as_tensor {{ name: "{name}" }} }}',
            f'        metadata {{ key: "from_node" value: "{FROM_NODE}" }} }}']
    lines += ['      nodes { target: "torch.ops.aten.mul.Tensor" name: "view_60"',
              '        inputs { name: "self" arg { as_tensor { name: "x" } } }',
              '        inputs { name: "other" arg { as_tensor { name: "x" } } }',
              '        outputs { as_tensor { name: "view_60" } } }']
    for o in outputs:
        lines.append(f'      outputs {{ as_tensor {{ name: "{o}" }} }}')
    meta = {p: CACHE for p in ph}
    meta.update(pos='dtype: 5 sizes { as_int: 1 } device { type: "cpu" }',
                kv='dtype: 7 sizes { as_int: 1 } sizes { as_int: 1 } sizes { as_int: 8 } device { type: "cpu" }',
                x=LOGITS, view_60=LOGITS)
    meta.update(values)
    for k, v in meta.items():
        lines.append(f'      tensor_values {{ key: "{k}" value {{ {v} }} }}')
    lines += ["    }", "    signature {"]
    for p, f in zip(ph, fqns):
        lines.append(f'      input_specs {{ buffer {{ arg {{ name: "{p}" }} buffer_name: "{f}" persistent: true }} }}')
    for u in ("pos", "kv", "x"):
        lines.append(f'      input_specs {{ user_input {{ arg {{ as_tensor {{ name: "{u}" }} }} }} }}')
    lines += ["      " + s for s in specs]
    lines += ["    }",
              '    module_call_graph { fqn: "" signature { out_spec: "[1, {\\"type\\": null, \\"context\\": null, \\"children_spec\\": []}]" } }',
              "  }", "}"]
    return "\n".join(lines) + "\n"


def mutation(value, fqn):
    return f'output_specs {{ buffer_mutation {{ arg {{ name: "{value}" }} buffer_name: "{fqn}" }} }}'


def user(value):
    return f'output_specs {{ user_output {{ arg {{ as_tensor {{ name: "{value}" }} }} }} }}'


EXPECT = {
    "bad_pairing_by_position": [
        "expect: error mutation-value-derives-from-target output_specs[1]",
        "expect: error mutation-value-derives-from-target output_specs[2]",
        "expect: error mutation-value-derives-from-target output_specs[3]",
        "expect: error mutation-shape-matches-target output_specs[0]",
        "diagnosis: pairing",
        "edit: retarget spec=1 kind=buffer_mutation target=key_cache_0 safety=safe proof=dataflow",
        "edit: retarget spec=2 kind=buffer_mutation target=value_cache_0 safety=safe proof=dataflow",
        "edit: retarget spec=3 kind=buffer_mutation target=key_cache_1 safety=safe proof=dataflow",
        "edit: retarget spec=0 kind=user_output safety=safe proof=dataflow",
        "edit: retarget spec=4 kind=buffer_mutation target=value_cache_1 safety=safe proof=dataflow",
        "edit: move spec=0 to=4 safety=safe proof=layout"
    ],
    "bad_rename_eight": [
        "expect: error mutation-target-resolves output_specs[0]",
        "expect: error mutation-target-resolves output_specs[1]",
        "expect: error mutation-target-resolves output_specs[2]",
        "expect: error mutation-target-resolves output_specs[3]",
        "expect: error mutation-target-resolves output_specs[4]",
        "expect: error mutation-target-resolves output_specs[5]",
        "expect: error mutation-target-resolves output_specs[6]",
        "expect: error mutation-target-resolves output_specs[7]",
        "diagnosis: rename",
        "edit: rename spec=0 kind=buffer_mutation target=layers.0.self_attn.kv_cache.k_cache from=lifted_buf_layers_0_self_attn_kv_cache_k_cache safety=safe proof=dataflow",
        "edit: rename spec=1 kind=buffer_mutation target=layers.0.self_attn.kv_cache.v_cache from=lifted_buf_layers_0_self_attn_kv_cache_v_cache safety=safe proof=dataflow",
        "edit: rename spec=2 kind=buffer_mutation target=layers.1.self_attn.kv_cache.k_cache from=lifted_buf_layers_1_self_attn_kv_cache_k_cache safety=safe proof=dataflow",
        "edit: rename spec=3 kind=buffer_mutation target=layers.1.self_attn.kv_cache.v_cache from=lifted_buf_layers_1_self_attn_kv_cache_v_cache safety=safe proof=dataflow",
        "edit: rename spec=4 kind=buffer_mutation target=layers.2.self_attn.kv_cache.k_cache from=lifted_buf_layers_2_self_attn_kv_cache_k_cache safety=safe proof=dataflow",
        "edit: rename spec=5 kind=buffer_mutation target=layers.2.self_attn.kv_cache.v_cache from=lifted_buf_layers_2_self_attn_kv_cache_v_cache safety=safe proof=dataflow",
        "edit: rename spec=6 kind=buffer_mutation target=layers.3.self_attn.kv_cache.k_cache from=lifted_buf_layers_3_self_attn_kv_cache_k_cache safety=safe proof=dataflow",
        "edit: rename spec=7 kind=buffer_mutation target=layers.3.self_attn.kv_cache.v_cache from=lifted_buf_layers_3_self_attn_kv_cache_v_cache safety=safe proof=dataflow"
    ],
    "bad_swap": [
        "expect: error mutation-value-derives-from-target output_specs[0] {{are swapped}} "
        "{{output_specs[1] names `key_cache_0`}}",
        "expect: error mutation-value-derives-from-target output_specs[1] "
        "{{`index_put_1` is the update of buffer `value_cache_0`}}",
        "diagnosis: swap",
        "edit: retarget spec=0 kind=buffer_mutation target=key_cache_0 safety=safe proof=dataflow",
        "edit: retarget spec=1 kind=buffer_mutation target=value_cache_0 safety=safe proof=dataflow"
    ],
    "good": [
        "expect: none",
        "diagnosis: none"
    ]
}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    caches = ["key_cache_0", "value_cache_0", "key_cache_1", "value_cache_1"]
    updates = ["index_put", "index_put_1", "index_put_2", "index_put_3"]
    # Torch-TensorRT's bug: the graph returns the logits first, then the copy-backs, and the
    # pass pairs output specs with outputs by position, mutations first.
    outs = ["view_60"] + updates
    specs = [mutation(o, c) for o, c in zip(outs, caches)] + [user(updates[-1])]
    with open(os.path.join(here, "bad_pairing_by_position.textproto"), "w") as f:
        f.write(program(caches, outs, specs, [
            "Copy-backs paired with buffers by position: the logits are declared as key_cache_0's",
            "update, each cache update as the next cache's, and value_cache_1's update is a user output."],
            EXPECT["bad_pairing_by_position"]))
    specs = [mutation(updates[0], caches[1]), mutation(updates[1], caches[0])] + \
            [mutation(u, c) for u, c in zip(updates[2:], caches[2:])] + [user("view_60")]
    with open(os.path.join(here, "bad_swap.textproto"), "w") as f:
        f.write(program(caches, updates + ["view_60"], specs, [
            "Two same-shape write-back targets swapped: one root cause."], EXPECT["bad_swap"]))
    nested = [f"layers.{n}.self_attn.kv_cache.{kv}_cache" for n in range(4) for kv in ("k", "v")]
    updates8 = ["index_put"] + [f"index_put_{i}" for i in range(1, 8)]
    specs = [mutation(u, "lifted_buf_" + f.replace(".", "_")) for u, f in zip(updates8, nested)] + [user("view_60")]
    with open(os.path.join(here, "bad_rename_eight.textproto"), "w") as f:
        f.write(program(nested, updates8 + ["view_60"], specs, [
            "Every nested cache renamed on the output side only (lifted_buf_ prefix, dots as underscores)."],
            EXPECT["bad_rename_eight"]))
    specs = [mutation(u, c) for u, c in zip(updates, caches)] + [user("view_60")]
    with open(os.path.join(here, "good.textproto"), "w") as f:
        f.write(program(caches, updates + ["view_60"], specs, ["The clean program: no finding, no diagnosis."], EXPECT["good"]))


if __name__ == "__main__":
    main()
