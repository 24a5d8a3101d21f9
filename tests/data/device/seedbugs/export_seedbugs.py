"""The three seed bugs, made on a real transformers static-cache decoder by passes written the way
backends write them (the repairs of docs/fix.md), each judged by PyTorch against the clean program:

- pairing_by_position: a lifting pass returns the engine's outputs user-outputs-first, then pairs
  the first N outputs with the mutated buffers by position (the Torch-TensorRT bug, PR #4470);
- rename_one_side: a pass renames the write-back targets to flat `lifted_buf_` names and forgets
  the input specs and the state dict. torch.export.save validates the signature and refuses this
  program, so this pass does what a backend that writes its own archive does: it edits the
  serialized signature of the saved clean program;
- dropped_write_back: a pass drops one cache's write-back output.

    python3 export_seedbugs.py OUT_DIR"""
import copy
import os
import sys

import torch
from torch.export.graph_signature import OutputKind, OutputSpec, TensorArgument

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
from common import Labels, attempt, judge, save, export  # noqa: E402
from hf_static_decoder import decode_steps, make_decoder  # noqa: E402

OUT = sys.argv[1]
labels = Labels(OUT)


def output_node(ep):
    return next(n for n in ep.graph.nodes if n.op == "output")


def set_outputs(ep, values, specs):
    node = output_node(ep)
    node.args = (tuple(values),)
    ep.graph_signature.output_specs[:] = specs
    ep.graph_module.recompile()


def pairing_by_position(ep):
    """Engine outputs come back user-outputs-first; the pass pairs them with the buffers in order."""
    specs = list(ep.graph_signature.output_specs)
    values = list(output_node(ep).args[0])
    mutated = [(v, s) for v, s in zip(values, specs) if s.kind == OutputKind.BUFFER_MUTATION]
    users = [(v, s) for v, s in zip(values, specs) if s.kind == OutputKind.USER_OUTPUT]
    reordered = [v for v, _ in users] + [v for v, _ in mutated]
    new_specs = []
    for i, v in enumerate(reordered):
        if i < len(mutated):
            new_specs.append(OutputSpec(OutputKind.BUFFER_MUTATION, TensorArgument(name=v.name), mutated[i][1].target))
        else:
            new_specs.append(OutputSpec(OutputKind.USER_OUTPUT, TensorArgument(name=v.name), None))
    set_outputs(ep, reordered, new_specs)


def rename_one_side(src, dst):
    """Write-back targets renamed to flat `lifted_buf_` names; input specs and state dict untouched."""
    import json
    import zipfile
    with zipfile.ZipFile(src) as zin:
        members = [(i.filename, zin.read(i.filename)) for i in zin.infolist()]
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as zout:
        for name, data in members:
            if name.endswith("models/model.json"):
                doc = json.loads(data)
                for spec in doc["graph_module"]["signature"]["output_specs"]:
                    if "buffer_mutation" in spec:
                        body = spec["buffer_mutation"]
                        body["buffer_name"] = "lifted_buf_" + body["buffer_name"].replace(".", "_")
                data = json.dumps(doc).encode()
            zout.writestr(name, data)


def dropped_write_back(ep):
    """The write-back of one value cache is dropped: its output and its spec."""
    specs = list(ep.graph_signature.output_specs)
    values = list(output_node(ep).args[0])
    drop = next(i for i, s in enumerate(specs) if s.kind == OutputKind.BUFFER_MUTATION and s.target.endswith("v_cache"))
    del specs[drop], values[drop]
    set_outputs(ep, values, specs)


def main():
    torch.manual_seed(0)
    model = make_decoder()
    snapshot = copy.deepcopy(model)
    steps = decode_steps()
    args, _ = steps[0]
    ep = export(model, tuple(a.clone() for a in args))
    aten = ep.run_decompositions()
    for name, prog, dialect in (("clean", ep, "TRAINING"), ("clean.aten", aten, "ATEN")):
        path = os.path.join(OUT, f"hf_llama_{name}.pt2")
        save(prog, path)
        labels.add({"file": os.path.basename(path), "corruption": None, "clean_source": None, "dialect": dialect,
                    **judge(path, snapshot, steps)})
    for bug in (pairing_by_position, rename_one_side, dropped_write_back):
        def case(bug=bug):
            path = os.path.join(OUT, f"hf_llama__{bug.__name__}.pt2")
            if bug is rename_one_side:
                bug(os.path.join(OUT, "hf_llama_clean.aten.pt2"), path)
            else:
                broken = copy.deepcopy(aten)
                bug(broken)
                save(broken, path)
            labels.add({"file": os.path.basename(path), "corruption": bug.__name__,
                        "clean_source": "hf_llama_clean.aten.pt2", "dialect": "ATEN", "note": bug.__doc__,
                        **judge(path, snapshot, steps)})
        attempt(bug.__name__, case, labels)
    labels.write()


main()
