"""Joint programs (issue 22, item 3; issue 23, gradient pairings), exported and judged by PyTorch 2.11.

- joint graphs from torch.export.experimental._export_forward_backward: an MLP, BatchNorm in
  training, gradients to user inputs (two, to measure their order), a parameter used twice, a
  frozen parameter, and tied weights (every way 2.11 might take them); each with its forward
  program (`NAME.forward.pt2`, TRAINING) so that `pt2lint diff NAME.forward.pt2 NAME.pt2` can be
  run on a clean pair;
- the order of the output specs `_export_forward_backward` emits, against the input specs;
- defects made by passes over the saved programs' signatures (gradient dropped, two gradients
  exchanged, a gradient renamed to a parameter that does not exist, one parameter named twice,
  two same-shaped gradients renamed away: a tie);
- `pt2lint fix` on every defect (the binary is carried beside this script, PT2LINT=...), and
  each repaired program judged: loaded, validated, its graph module run, every gradient, the
  loss and every buffer write compared with eager autograd and with the clean program.

results.json has one record per file, and `order`, one record per clean program.

    PT2LINT=path/to/pt2lint python3 export_joint.py OUT_DIR"""
import copy
import dataclasses
import json
import os
import subprocess
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export.graph_signature import InputKind, OutputKind, OutputSpec

HERE = os.path.dirname(os.path.abspath(__file__))
for p in (os.path.join(HERE, ".."), os.path.join(os.getcwd(), "tests", "data", "device")):
    sys.path.insert(0, p)
from common import attempt, judge, log, low_entropy_, save  # noqa: E402

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
PT2LINT = os.environ.get("PT2LINT", "")
RESULTS = {"files": [], "order": [], "tied": []}


def record(rec):
    RESULTS["files"].append(rec)
    log("  ", json.dumps(rec)[:500])


# ---------------------------------------------------------------- models
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x, target):
        return F.cross_entropy(self.fc2(torch.relu(self.fc1(x))), target)


class BNTrain(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 8)
        self.bn = nn.BatchNorm1d(8)

    def forward(self, x):
        return self.bn(self.fc(x)).pow(2).mean()


class TwoInputGrads(nn.Module):
    """Two user inputs that require grad (of different shapes, the second used first), and one
    that does not."""
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 3)

    def forward(self, x, y, scale):
        return self.fc(y * scale).pow(2).sum() + self.fc(x).pow(2).sum()


class SharedUse(nn.Module):
    """One parameter used twice (embedding and output head): one gradient, the sum of both uses."""
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.bias = nn.Parameter(torch.zeros(10))

    def forward(self, idx, target):
        return F.cross_entropy(F.linear(self.emb(idx), self.emb.weight, self.bias), target)


class Frozen(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 3)
        self.fc1.weight.requires_grad_(False)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x))).pow(2).mean()


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.head = nn.Linear(4, 10, bias=False)
        self.head.weight = self.emb.weight

    def forward(self, idx, target):
        return F.cross_entropy(self.head(self.emb(idx)), target)


# ---------------------------------------------------------------- judging
def flat_inputs(ep, user_inputs):
    flat, u = [], 0
    for spec in ep.graph_signature.input_specs:
        if spec.kind == InputKind.PARAMETER:
            flat.append(ep.state_dict[spec.target])
        elif spec.kind == InputKind.BUFFER:
            src = ep.state_dict if spec.target in ep.state_dict else ep.constants
            flat.append(src[spec.target].clone())
        elif spec.kind == InputKind.CONSTANT_TENSOR:
            flat.append(ep.constants[spec.target])
        elif spec.kind == InputKind.USER_INPUT:
            flat.append(user_inputs[u].detach().clone())
            u += 1
        else:
            flat.append(None)
    return flat


def run_outputs(ep, user_inputs):
    """{(kind, target): value} of one run of the joint graph module."""
    outs = ep.graph_module(*flat_inputs(ep, user_inputs))
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    got = {}
    for spec, value in zip(ep.graph_signature.output_specs, outs):
        got.setdefault((spec.kind.name, spec.target), value)
    return got


def close(a, b):
    return (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and a.shape == b.shape
            and torch.allclose(a.detach().float(), b.detach().float(), rtol=1e-4, atol=1e-5))


def judge_joint(path, eager, user_inputs, clean=None):
    """Load and validate; run the graph module; compare loss, gradients and buffer writes with
    eager autograd, and (given `clean`, a loaded program) with the clean program's outputs."""
    rec = judge(path)
    if rec["torch_load"] != "ok":
        return rec
    try:
        ep = torch.export.load(path)
        got = run_outputs(ep, user_inputs)
        m = copy.deepcopy(eager)
        ins = [t.detach().clone().requires_grad_(t.requires_grad) for t in user_inputs]
        loss = m(*ins)
        loss.backward()
        names = [s.arg.name for s in ep.graph_signature.input_specs if s.kind == InputKind.USER_INPUT]
        wrong = []
        for (kind, target), value in got.items():
            if kind == "LOSS_OUTPUT":
                ref = loss
            elif kind == "GRADIENT_TO_PARAMETER":
                try:
                    ref = m.get_parameter(target).grad
                except Exception:  # noqa: BLE001
                    ref = None
            elif kind == "GRADIENT_TO_USER_INPUT":
                ref = ins[names.index(target)].grad if target in names else None
            elif kind == "BUFFER_MUTATION":
                ref = m.get_buffer(target)
            else:
                continue
            if ref is None or not close(ref, value):
                wrong.append(f"{kind}:{target}")
        # Every parameter that requires grad gets its gradient, exactly once.
        want = {n for n, p in m.named_parameters() if p.requires_grad}
        have = [t for (k, t) in got if k == "GRADIENT_TO_PARAMETER"]
        for n in sorted(want - set(have)):
            wrong.append(f"no gradient for {n}")
        rec["torch_run"] = "ok"
        rec["same_as_eager"] = not wrong
        if wrong:
            rec["differs"] = wrong
        if clean is not None:
            ref = run_outputs(clean, user_inputs)
            rec["same_as_clean"] = set(ref) == set(got) and all(close(ref[k], got[k]) for k in ref)
    except Exception as e:  # noqa: BLE001
        rec["torch_run"] = f"{type(e).__name__}: {str(e)[:300]}"
    return rec


def spec_list(ep):
    return [f"{s.kind.name}:{s.target}:{s.arg.name if hasattr(s.arg, 'name') else s.arg}"
            for s in ep.graph_signature.output_specs]


def input_list(ep):
    return [f"{s.kind.name}:{s.target}:{s.arg.name if hasattr(s.arg, 'name') else s.arg}"
            for s in ep.graph_signature.input_specs]


def order_facts(ep):
    """Whether the output specs are mutations, then one loss, then one gradient per parameter
    in input order, then gradients to user inputs in input order."""
    ins = ep.graph_signature.input_specs
    outs = ep.graph_signature.output_specs
    kinds = [s.kind.name for s in outs]
    params = [s.target for s in ins if s.kind == InputKind.PARAMETER]
    users = [s.arg.name for s in ins if s.kind == InputKind.USER_INPUT]
    grads = [s.target for s in outs if s.kind == OutputKind.GRADIENT_TO_PARAMETER]
    ugrads = [s.target for s in outs if s.kind == OutputKind.GRADIENT_TO_USER_INPUT]
    blocks = []
    for k in kinds:
        if not blocks or blocks[-1] != k:
            blocks.append(k)
    return {"blocks": blocks,
            "parameter_gradients_in_input_order": grads == [p for p in params if p in grads],
            "every_parameter_has_a_gradient": set(params) <= set(grads),
            "parameters_without_gradient": [p for p in params if p not in grads],
            "user_input_gradients_in_input_order": ugrads == [u for u in users if u in ugrads]}


# ---------------------------------------------------------------- export
JOINT = {}


def export_joint(name, model, user_inputs, strict=False):
    from torch.export.experimental import _export_forward_backward
    snapshot = copy.deepcopy(model)
    args = tuple(t.detach().clone().requires_grad_(t.requires_grad) for t in user_inputs)
    ep = torch.export.export(model, args, strict=strict)
    fwd = os.path.join(OUT, f"{name}.forward.pt2")
    save(ep, fwd)
    record({"case": name, "file": os.path.basename(fwd), "dialect": "TRAINING", "clean": True,
            "input_specs": input_list(ep), "output_specs": spec_list(ep), **judge(fwd)})
    joint = _export_forward_backward(ep)
    path = os.path.join(OUT, f"{name}.pt2")
    note = ""
    raw = spec_list(joint)
    try:
        save(joint, path)
    except Exception as e:  # noqa: BLE001
        # 2.11: a gradient to a user input names a stale placeholder; point it at the input.
        note = f"save failed ({type(e).__name__}: {str(e)[:120]}); gradient specs re-pointed at the user inputs"
        # By shape where it decides (the inputs here have different shapes), else by order.
        users = [s.arg.name for s in joint.graph_signature.input_specs if s.kind == InputKind.USER_INPUT]
        specs = list(joint.graph_signature.output_specs)
        grads = [k for k, s in enumerate(specs) if s.kind == OutputKind.GRADIENT_TO_USER_INPUT]
        needs = [(users[k], tuple(t.shape)) for k, t in enumerate(user_inputs) if t.requires_grad]
        vals = {n.name: n.meta.get("val") for n in joint.graph.nodes}
        for j, k in enumerate(grads):
            val = vals.get(specs[k].arg.name)
            fits = [u for u, shape in needs if val is not None and tuple(val.shape) == shape]
            by_order = needs[j][0] if j < len(needs) else specs[k].target
            specs[k] = dataclasses.replace(specs[k], target=fits[0] if len(fits) == 1 else by_order)
        joint.graph_signature.output_specs[:] = specs
        save(joint, path)
    rec = {"case": name, "file": os.path.basename(path), "dialect": "JOINT", "clean": True,
           "input_specs": input_list(joint), "output_specs": spec_list(joint)}
    if note:
        rec["note"] = note
        rec["output_specs_as_exported"] = raw
    rec.update(judge_joint(path, snapshot, user_inputs))
    record(rec)
    RESULTS["order"].append({"case": name, **order_facts(joint)})
    JOINT[name] = (path, snapshot, user_inputs)


def joint_cases():
    torch.manual_seed(0)
    x = torch.randn(5, 6)
    t = torch.tensor([0, 2, 1, 1, 0])
    attempt("joint_mlp", lambda: export_joint("joint_mlp", low_entropy_(MLP()), [x, t]))
    attempt("joint_batchnorm", lambda: export_joint("joint_batchnorm", low_entropy_(BNTrain()).train(), [x]))
    attempt("joint_input_grads", lambda: export_joint(
        "joint_input_grads", low_entropy_(TwoInputGrads()),
        [x.clone().requires_grad_(True), torch.randn(4, 6).requires_grad_(True), torch.full((4, 6), 0.5)]))
    idx, tgt = torch.tensor([1, 3, 5]), torch.tensor([2, 4, 6])
    attempt("joint_shared_use", lambda: export_joint("joint_shared_use", low_entropy_(SharedUse()), [idx, tgt]))
    attempt("joint_frozen", lambda: export_joint("joint_frozen", low_entropy_(Frozen()), [x]))
    # Tied weights: every way 2.11 might take them.
    for label, strict in (("non-strict", False), ("strict", True)):
        def go(strict=strict, label=label):
            try:
                export_joint("joint_tied" + ("_strict" if strict else ""), low_entropy_(Tied()), [idx, tgt], strict)
                RESULTS["tied"].append({"how": label, "result": "ok"})
            except Exception as e:  # noqa: BLE001
                RESULTS["tied"].append({"how": label, "result": f"{type(e).__name__}: {str(e)[:300]}"})
        attempt("joint_tied_" + label, go)


# ---------------------------------------------------------------- defects by passes
def output_node(ep):
    return next(n for n in ep.graph.nodes if n.op == "output")


def make_defect(clean_name, name, corruption, change, expect, note):
    path, snapshot, user_inputs = JOINT[clean_name]

    def go():
        bad = torch.export.load(path)
        specs = list(bad.graph_signature.output_specs)
        outs = list(output_node(bad).args[0])
        specs, outs = change(specs, outs)
        bad.graph_signature.output_specs[:] = specs
        node = output_node(bad)
        node.args = (tuple(outs),)
        bad.graph_module.recompile()
        out = os.path.join(OUT, f"{name}.pt2")
        save(bad, out)
        rec = {"case": name, "file": os.path.basename(out), "dialect": "JOINT", "clean": False,
               "clean_source": os.path.basename(path), "corruption": corruption, "expect": expect, "note": note,
               "output_specs": spec_list(bad)}
        rec.update(judge_joint(out, snapshot, user_inputs))
        record(rec)
        DEFECTS.append((out, clean_name))
    attempt(name, go)


DEFECTS = []


def grad_index(specs, target):
    return next(k for k, s in enumerate(specs) if s.kind == OutputKind.GRADIENT_TO_PARAMETER and s.target == target)


def dropped(target):
    def change(specs, outs):
        k = grad_index(specs, target)
        return specs[:k] + specs[k + 1:], outs[:k] + outs[k + 1:]
    return change


def swapped(a_name, b_name):
    def change(specs, outs):
        a, b = grad_index(specs, a_name), grad_index(specs, b_name)
        specs[a], specs[b] = dataclasses.replace(specs[a], target=b_name), dataclasses.replace(specs[b], target=a_name)
        return specs, outs
    return change


def renamed(*pairs):
    def change(specs, outs):
        for old, new in pairs:
            k = grad_index(specs, old)
            specs[k] = dataclasses.replace(specs[k], target=new)
        return specs, outs
    return change


def defects():
    make_defect("joint_mlp", "joint_mlp__gradient_dropped", "gradient_dropped", dropped("fc2.bias"), ["joint-gradient-missing"],
                "a pass prunes the fc2.bias gradient output (spec and graph output): diff against the clean program")
    make_defect("joint_mlp", "joint_mlp__gradients_swapped", "gradients_swapped", swapped("fc1.weight", "fc1.bias"),
                ["joint-gradient-matches-input"], "fc1's weight and bias gradients exchanged: fix decides by shape")
    make_defect("joint_mlp", "joint_mlp__weights_swapped", "gradients_swapped", swapped("fc1.weight", "fc2.weight"),
                ["joint-gradient-matches-input"], "the two weights' gradients exchanged ((8, 6) and (3, 8))")
    make_defect("joint_mlp", "joint_mlp__gradient_renamed", "gradient_renamed", renamed(("fc2.bias", "fc3.bias")),
                ["joint-gradient-names-input"], "a gradient renamed to a parameter that does not exist")
    make_defect("joint_mlp", "joint_mlp__gradient_twice", "gradient_twice", renamed(("fc1.weight", "fc2.weight")),
                ["joint-gradient-names-input"], "two gradients declared for fc2.weight, none for fc1.weight")
    make_defect("joint_batchnorm", "joint_batchnorm__gradients_swapped", "gradients_swapped",
                swapped("fc.weight", "fc.bias"), ["joint-gradient-matches-input"],
                "fc's weight and bias exchanged, beside two other (8,) gradients (bn.weight, bn.bias)")
    make_defect("joint_batchnorm", "joint_batchnorm__gradient_renamed", "gradient_renamed",
                renamed(("fc.bias", "fc.b")), ["joint-gradient-names-input"],
                "fc.bias's gradient renamed; bn.weight and bn.bias have the same shape but their own gradients")
    make_defect("joint_batchnorm", "joint_batchnorm__two_renamed_tie", "gradient_renamed",
                renamed(("bn.weight", "bn.gamma"), ("bn.bias", "bn.beta")), ["joint-gradient-names-input"],
                "two (8,) gradients renamed away: the shapes tie, so fix must refuse")
    make_defect("joint_batchnorm", "joint_batchnorm__same_shape_swapped", "gradients_swapped",
                swapped("bn.weight", "bn.bias"), [],
                "bn.weight and bn.bias (both (8,)) exchanged: no static evidence tells them apart")
    make_defect("joint_input_grads", "joint_input_grads__gradient_renamed", "gradient_renamed",
                renamed(("fc.bias", "bias")), ["joint-gradient-names-input"],
                "a parameter gradient renamed in a program with gradients to user inputs")


# ---------------------------------------------------------------- pt2lint fix, judged
def pt2lint(*args):
    run = subprocess.run([PT2LINT, *args], capture_output=True, text=True, timeout=60)
    return run.returncode, (run.stdout + run.stderr)[-1500:]


def fix_and_judge():
    if not PT2LINT or not os.path.exists(PT2LINT):
        log("no pt2lint binary: fix not judged")
        return
    for path, clean_name in DEFECTS:
        clean_path, snapshot, user_inputs = JOINT[clean_name]
        fixed = path[:-len(".pt2")] + ".fixed.pt2"
        rc, text = pt2lint("fix", path, "-o", fixed)
        rec = {"case": os.path.basename(fixed)[:-4], "file": os.path.basename(fixed), "fix_of": os.path.basename(path),
               "fix_exit": rc, "fix_output": text}
        if rc == 0 and os.path.exists(fixed):
            rec.update(judge_joint(fixed, snapshot, user_inputs, clean=torch.export.load(clean_path)))
            rc2, text2 = pt2lint("diff", clean_path, fixed)
            rec["diff_clean_fixed_exit"] = rc2
        record(rec)
    # lower on a joint program: refused by name, or gradients kept.
    for name, (clean_path, snapshot, user_inputs) in JOINT.items():
        lowered = os.path.join(OUT, f"{name}.lowered.pt2")
        rc, text = pt2lint("lower", clean_path, "-o", lowered)
        rec = {"case": f"{name}.lowered", "lower_of": os.path.basename(clean_path), "lower_exit": rc,
               "lower_output": text}
        if rc == 0 and os.path.exists(lowered):
            rec.update(judge_joint(lowered, snapshot, user_inputs, clean=torch.export.load(clean_path)))
            os.remove(lowered)  # judged; the program is the source's
        record(rec)


RESULTS["versions"] = f"torch {torch.__version__}"
for step in (joint_cases, defects, fix_and_judge):
    attempt(step.__name__, step)
    with open(os.path.join(OUT, "results.json"), "w") as f:  # after each step: a timeout keeps what was done
        json.dump(RESULTS, f, indent=1)
log("done")
