"""Shared by the device export scripts: low-entropy weights, saving with neutralised paths,
and judging each written file with PyTorch (load, validate, steps against eager)."""
import copy
import json
import os
import re
import sys
import traceback
import zipfile

import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def log(*parts):
    print(*parts, flush=True)


def low_entropy_(model, seed=0):
    """Weights from nine values: the archive stays tiny once compressed, the maths stays real."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in model.parameters():
            if p.is_floating_point():
                p.copy_(torch.randint(-4, 5, p.shape, generator=gen).to(p.dtype) / 64)
    return model


def _path_prefixes():
    prefixes = set()
    for entry in sys.path:
        if entry and ("site-packages" in entry or "dist-packages" in entry):
            prefixes.add((os.path.abspath(entry), "/site-packages"))
    for mod in ("torch", "torchvision", "timm", "transformers"):
        try:
            m = __import__(mod)
            prefixes.add((os.path.dirname(os.path.dirname(os.path.abspath(m.__file__))), "/site-packages"))
        except Exception:
            pass
    repo = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
    prefixes.add((repo, "/src"))
    prefixes.add((os.path.abspath(os.getcwd()), "/src"))
    prefixes.add((sys.prefix, "/python"))
    # Longest first, so a site-packages folder inside the repo is not half-replaced.
    return sorted(prefixes, key=lambda p: -len(p[0]))


PREFIXES = None
ABS_PATH = re.compile(rb'File \\"(/(?!src/|site-packages/|python/)[^"\\]*)')


def neutralise(path):
    """Rewrite the stack-trace paths of every JSON member to /src/ and /site-packages/; nothing else."""
    global PREFIXES
    PREFIXES = PREFIXES or _path_prefixes()
    with zipfile.ZipFile(path) as zin:
        members = [(info, zin.read(info.filename)) for info in zin.infolist()]
    leftovers = set()
    out = []
    for info, data in members:
        if info.filename.endswith(".json"):
            for prefix, repl in PREFIXES:
                data = data.replace(prefix.encode() + b"/", repl.encode() + b"/")
            leftovers.update(m.group(1)[:80] for m in ABS_PATH.finditer(data))
        out.append((info.filename, data))
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as zout:
        for name, data in out:
            zout.writestr(name, data)
    if leftovers:
        log(f"  note: {path}: absolute paths left: {sorted(leftovers)[:3]}")


def save(ep, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    torch.export.save(ep, path)
    neutralise(path)


def save_many(programs, path):
    from torch.export.pt2_archive._package import package_pt2
    os.makedirs(os.path.dirname(path), exist_ok=True)
    package_pt2(path, exported_programs=programs)
    neutralise(path)


def _clone(x):
    return x.clone() if isinstance(x, torch.Tensor) else x


def _leaves(x):
    return [t for t in torch.utils._pytree.tree_leaves(x) if isinstance(t, torch.Tensor)]


def _same(a, b):
    la, lb = _leaves(a), _leaves(b)
    if len(la) != len(lb):
        return False
    return all(x.shape == y.shape and torch.allclose(x.float(), y.float(), rtol=1e-4, atol=1e-5, equal_nan=True)
               for x, y in zip(la, lb))


def run_steps(module, steps):
    outs = []
    for args, kwargs in steps:
        outs.append(module(*[_clone(a) for a in args], **{k: _clone(v) for k, v in kwargs.items()}))
    state = {k: v.detach().clone() for k, v in module.state_dict(keep_vars=False).items()}
    return outs, state


def judge(path, eager_model=None, steps=None, program=None):
    """What PyTorch says of a written file: load, validate, and steps against eager.
    Returns a dict for labels.json."""
    rec = {"torch_load": None, "torch_validate": None, "torch_run": None, "same_as_eager": None}
    try:
        if program is None:
            ep = torch.export.load(path)
        else:
            from torch.export.pt2_archive._package import load_pt2
            ep = load_pt2(path).exported_programs[program]
        rec["torch_load"] = "ok"
    except Exception as e:
        rec["torch_load"] = f"{type(e).__name__}: {str(e)[:300]}"
        return rec
    try:
        (getattr(ep, "validate", None) or ep._validate)()
        rec["torch_validate"] = "ok"
    except Exception as e:
        rec["torch_validate"] = f"{type(e).__name__}: {str(e)[:300]}"
    if steps is None:
        return rec
    try:
        outs, state = run_steps(ep.module(), steps)
        rec["torch_run"] = "ok"
    except Exception as e:
        rec["torch_run"] = f"{type(e).__name__}: {str(e)[:300]}"
        return rec
    if eager_model is not None:
        try:
            e_outs, e_state = run_steps(copy.deepcopy(eager_model), steps)
            same = all(_same(a, b) for a, b in zip(outs, e_outs))
            differing = [k for k in e_state if k in state and not _same(state[k], e_state[k])]
            rec["same_as_eager"] = same and not differing
            if differing:
                rec["state_differs"] = differing[:5]
            if not same:
                rec["outputs_differ"] = True
        except Exception as e:
            rec["same_as_eager"] = f"eager failed: {type(e).__name__}: {str(e)[:200]}"
    return rec


class Labels:
    """labels.json of one folder: one record per written file."""

    def __init__(self, out_dir):
        self.out_dir = out_dir
        self.records = []
        os.makedirs(out_dir, exist_ok=True)

    def add(self, rec):
        self.records.append(rec)
        log("  ", json.dumps(rec)[:400])

    def write(self):
        with open(os.path.join(self.out_dir, "labels.json"), "w") as f:
            json.dump(self.records, f, indent=1)


def attempt(name, fn, labels=None):
    """Run one case; a failure is logged and recorded, never fatal to the rest."""
    log(f"[{name}]")
    try:
        fn()
    except Exception as e:
        log(f"  FAILED {type(e).__name__}: {e}")
        log(traceback.format_exc()[-2500:])
        if labels is not None:
            labels.add({"case": name, "export_failed": f"{type(e).__name__}: {str(e)[:300]}"})


def export(model, args, kwargs=None, dynamic_shapes=None, strict=False):
    return torch.export.export(model, args, kwargs=kwargs or {}, dynamic_shapes=dynamic_shapes, strict=strict)


def export_pair(labels, out_dir, name, model, steps, dynamic_shapes=None, expect=(), extra=None, strict=False):
    """Export `model` on steps[0], save TRAINING and (where run_decompositions works) ATEN, judge both."""
    snapshot = copy.deepcopy(model)
    args, kwargs = steps[0]
    try:
        ep = export(model, tuple(_clone(a) for a in args), kwargs, dynamic_shapes, strict)
    except Exception:
        if strict:
            raise
        log("  non-strict export failed; trying strict=True")
        ep = export(model, tuple(_clone(a) for a in args), kwargs, dynamic_shapes, True)
    base = {"case": name, "expect": list(expect)}
    base.update(extra or {})
    path = os.path.join(out_dir, f"{name}.pt2")
    save(ep, path)
    labels.add(dict(base, file=os.path.basename(path), dialect="TRAINING", **judge(path, snapshot, steps)))
    try:
        aten = ep.run_decompositions()
    except Exception as e:
        labels.add(dict(base, file=f"{name}.aten.pt2", dialect="ATEN",
                        run_decompositions=f"{type(e).__name__}: {str(e)[:300]}"))
        return ep, None
    path = os.path.join(out_dir, f"{name}.aten.pt2")
    save(aten, path)
    labels.add(dict(base, file=os.path.basename(path), dialect="ATEN", **judge(path, snapshot, steps)))
    return ep, aten


# How a repaired program is judged against its clean source (tests/data/device/repairs,
# tests/data/fix/device): the state renames the program records, then each step's outputs and
# buffers compared under them.
def recorded_mapping(path):
    with zipfile.ZipFile(path) as z:
        for n in z.namelist():
            if n.endswith(".json") and "/models/" in "/" + n:
                meta = json.loads(z.read(n))["graph_module"].get("metadata", {})
                if "custom" in meta:
                    return json.loads(meta["custom"]).get("pt2lint.renamed_buffers", {})
    return {}


def compare(got, want, mapping):
    diffs = []
    for step, ((outs, bufs), (w_outs, w_bufs)) in enumerate(zip(got, want)):
        if len(outs) != len(w_outs) or any(a.shape != b.shape or not torch.equal(a, b) for a, b in zip(outs, w_outs)):
            diffs.append(f"step {step}: outputs differ")
        for name, value_want in w_bufs.items():
            value = bufs.get(mapping.get(name, name))
            if value is None:
                diffs.append(f"step {step}: buffer {name} missing")
            elif value.shape != value_want.shape or not torch.equal(value, value_want):
                diffs.append(f"step {step}: buffer {name} differs")
        if len(bufs) != len(w_bufs):
            diffs.append(f"step {step}: {len(bufs)} buffers, the clean program has {len(w_bufs)}")
    return diffs
