#!/usr/bin/env python3
"""Loads programs written by `pt2lint lower` with PyTorch and runs them against the originals.

Usage: python3 check_with_torch.py BUNDLE_DIR
BUNDLE_DIR holds, for each NAME, the original `NAME.pt2` and one or more lowered variants
`NAME.<variant>.lowered.pt2` (prepare_torch_check.sh builds it). For each lowered file this
  1. loads it with torch.export.load (and calls ExportedProgram.validate() where it exists),
  2. runs ep.module() for 3 steps on the example inputs stored in the archive
     (data/sample_inputs), or on inputs synthesized from the placeholders' metadata,
  3. runs the original the same way, and compares the user outputs, every buffer after each
     step (through the rename mapping the lowered file records), and mutated user inputs.
It prints one line per file and exits 1 if anything fails to load, run or match.
"""
import copy
import glob
import json
import os
import sys
import traceback
import zipfile

import torch
import torch.utils._pytree as pytree

STEPS = 3
RENAME_KEY = "pt2lint.renamed_buffers"


def recorded_renames(path):
    """The old FQN -> new name mapping `lower --rename-nested` records in the program JSON."""
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if "/models/" in name and name.endswith(".json"):
                meta = json.loads(z.read(name))["graph_module"].get("metadata") or {}
                custom = json.loads(meta.get("custom") or "{}")
                if RENAME_KEY in custom:
                    return custom[RENAME_KEY]
    return {}


def example_inputs(ep):
    if ep.example_inputs is not None:
        return ep.example_inputs
    torch.manual_seed(0)
    args = []
    user_inputs = set(ep.graph_signature.user_inputs)
    for node in ep.graph.nodes:
        if node.op != "placeholder" or node.name not in user_inputs:
            continue
        val = node.meta["val"]
        if val.dtype.is_floating_point:
            args.append(torch.randn(val.shape, dtype=val.dtype))
        else:  # indices and positions: 0 is valid for any nonempty dimension
            args.append(torch.zeros(val.shape, dtype=val.dtype))
    return tuple(args), {}


def run_steps(ep, inputs):
    """Outputs, buffers and user inputs after each step, all detached copies."""
    module = ep.module()
    args, kwargs = copy.deepcopy(inputs)
    trace = []
    for _ in range(STEPS):
        outputs = module(*args, **kwargs)
        buffers = {k: v.detach().clone() for k, v in module.named_buffers()}
        trace.append((pytree.tree_map(lambda t: t.detach().clone() if isinstance(t, torch.Tensor) else t, outputs),
                      buffers, copy.deepcopy((args, kwargs))))
    return trace


def compare(reference, lowered, renames):
    problems = []
    for step, ((out_r, buf_r, in_r), (out_l, buf_l, in_l)) in enumerate(zip(reference, lowered)):
        flat_r, spec_r = pytree.tree_flatten(out_r)
        flat_l, spec_l = pytree.tree_flatten(out_l)
        if spec_r != spec_l:
            problems.append(f"step {step}: output structure {spec_l} != {spec_r}")
        for i, (a, b) in enumerate(zip(flat_l, flat_r)):
            try:
                torch.testing.assert_close(a, b)
            except AssertionError as e:
                problems.append(f"step {step}: output {i} differs: {str(e).splitlines()[0]}")
        for name, value in buf_r.items():
            other = buf_l.get(renames.get(name, name))
            if other is None:
                problems.append(f"step {step}: buffer {name} missing from the lowered module")
                continue
            try:
                torch.testing.assert_close(other, value)
            except AssertionError as e:
                problems.append(f"step {step}: buffer {name} differs: {str(e).splitlines()[0]}")
        for i, (a, b) in enumerate(zip(pytree.tree_leaves(in_l), pytree.tree_leaves(in_r))):
            if isinstance(a, torch.Tensor) and not torch.equal(a, b):
                problems.append(f"step {step}: user input {i} ends up different")
    return problems


def load_programs(path):
    """name -> ExportedProgram. torch.export.load reads the one program `model`; an archive
    with several programs (prefill/decode) is read with load_pt2, as the corpus made it."""
    with zipfile.ZipFile(path) as z:
        models = [n.split("/models/")[1][:-5] for n in z.namelist() if "/models/" in n and n.endswith(".json")]
    if models == ["model"]:
        return {"model": torch.export.load(path)}
    from torch.export.pt2_archive._package import load_pt2
    return dict(load_pt2(path).exported_programs)


def check(original, lowered):
    programs = load_programs(lowered)
    references = load_programs(original)
    if sorted(programs) != sorted(references):
        return [f"programs {sorted(programs)} != {sorted(references)}"], ""
    problems, summary = [], []
    renames = recorded_renames(lowered)
    for name, ep in programs.items():
        if hasattr(ep, "validate"):
            ep.validate()
        reference = references[name]
        inputs = example_inputs(reference)
        problems += [f"{name}: {p}" for p in compare(run_steps(reference, inputs), run_steps(ep, inputs), renames)]
        changed = sum(1 for s in ep.graph_signature.output_specs if s.kind.name.endswith("MUTATION"))
        summary.append(f"{name}: verifiers {[v.dialect for v in ep.verifiers]}, {changed} mutation output(s)")
    return problems, "; ".join(summary)


def main():
    bundle = sys.argv[1]
    print(f"torch {torch.__version__}")
    failed = 0
    lowered_files = sorted(glob.glob(os.path.join(bundle, "*.lowered.pt2")))
    for lowered in lowered_files:
        name = os.path.basename(lowered).split(".")[0]
        original = os.path.join(bundle, name + ".pt2")
        try:
            problems, summary = check(original, lowered)
        except Exception:
            failed += 1
            print(f"FAIL {os.path.basename(lowered)}: raised\n{traceback.format_exc()}")
            continue
        if problems:
            failed += 1
            print(f"FAIL {os.path.basename(lowered)}: " + "; ".join(problems[:5]))
        else:
            print(f"ok   {os.path.basename(lowered)}: loads, validates, {STEPS} steps match {name}.pt2 ({summary})")
    print(f"{len(lowered_files) - failed}/{len(lowered_files)} lowered programs load and match")
    return 1 if failed or not lowered_files else 0


if __name__ == "__main__":
    sys.exit(main())
