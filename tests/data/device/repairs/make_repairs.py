#!/usr/bin/env python3
"""Issue 23's device acceptance, the half that runs here (no torch): defective programs made by
backend-style passes over real PyTorch 2.11 exports, and their repairs by `pt2lint fix` (and
`fix --against CLEAN` where a write-back was lost), judged here by exact JSON comparison with the
clean source (fix_passes.py's judge) and, for --against, by `pt2lint diff CLEAN REPAIRED`.
judge_repairs.py then runs every repaired program in PyTorch on the device.

The passes are tests/data/fix/corrupt_passes.py's, plus three of lost write-backs (below):
  dropped_first_write_back  the first write-back dropped (spec and graph output): on a state
                            overwritten whole (`copy_`, an observer), `check` alone cannot tell
  dropped_all_write_backs   every write-back dropped, as a lowering that forgets its copy-backs
  erased_computation        the last write-back dropped with the nodes that computed it only:
                            no signature edit can restore it (`--against` must say so)

usage: make_repairs.py PT2LINT OUT_DIR [--markdown] [--models a,b] [--expect-min-repaired N]
       make_repairs.py --table RESULTS.json        (docs/fix.md's table from judge_repairs.py's results)
(writes OUT_DIR/manifest.json; exits 1 on any WRONG, or fewer repaired files than N)
"""
import collections
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "..", "fix"))
import corrupt_passes  # noqa: E402
import fix_passes  # noqa: E402

# Real exports (PyTorch 2.11), each judged by PyTorch when it was made; name -> (path, family).
CLEAN = {
    "hf_llama": ("tests/data/device/seedbugs/hf_llama_clean.aten.pt2", "transformers static cache"),
    "encdec_cache": ("tests/data/fix/device/clean/encdec_cache.aten.pt2", "encoder-decoder cache"),
    "hybrid_cache": ("tests/data/fix/device/clean/hybrid_cache.aten.pt2", "hybrid sliding/global cache"),
    "custom_op_cache": ("tests/data/fix/device/clean/custom_op_cache.aten.pt2", "custom-op cache, unknown op"),
    "two_caches": ("tests/data/device/customops/two_caches.aten.pt2", "custom-op multi-cache"),
    "ema_buffer": ("tests/data/device/customops/ema_buffer.aten.pt2", "custom-op EMA buffer"),
    "fp8_observers": ("tests/data/device/soundness/fp8_observers.aten.pt2", "observers"),
    "conv_bn_train": ("tests/data/fix/device/clean/conv_bn_train.aten.pt2", "BatchNorm (training)"),
    "effect_tokens": ("tests/data/fix/device/clean/effect_tokens.aten.pt2", "effect tokens"),
    "dynamic_kv_cache": ("tests/data/device/subgraphs/dynamic_kv_cache.aten.pt2", "dynamic-shape KV cache"),
}


def _drop(doc, indices):
    """Output specs and graph outputs `indices` removed; the user outputs, and so the out_spec, stay."""
    gm = doc["graph_module"]
    for i in sorted(indices, reverse=True):
        del gm["signature"]["output_specs"][i]
        del gm["graph"]["outputs"][i]


def dropped_first_write_back(doc, w, c):
    """The first write-back dropped (spec and graph output)."""
    muts = corrupt_passes._mutations(doc["graph_module"]["signature"]["output_specs"])
    if not muts:
        return False
    _drop(doc, [muts[0]])
    return True


def dropped_all_write_backs(doc, w, c):
    """Every write-back dropped, as a lowering that forgets its copy-backs."""
    muts = corrupt_passes._mutations(doc["graph_module"]["signature"]["output_specs"])
    if len(muts) < 2:
        return False
    _drop(doc, muts)
    return True


def _names_in(arg, out):
    """Every name an argument mentions (more than the tensors it reads: never too few)."""
    if isinstance(arg, dict):
        for k, v in arg.items():
            if k == "name" and isinstance(v, str):
                out.add(v)
            else:
                _names_in(v, out)
    elif isinstance(arg, list):
        for v in arg:
            _names_in(v, out)


def erased_computation(doc, w, c):
    """The last write-back dropped, and with it every node whose outputs then nobody reads
    (the computation of the state's new value): an erased computation."""
    gm = doc["graph_module"]
    specs = gm["signature"]["output_specs"]
    muts = corrupt_passes._mutations(specs)
    if not muts:
        return False
    _drop(doc, [muts[-1]])
    nodes = gm["graph"]["nodes"]
    removed = False
    while True:
        read = set()
        for n in nodes:
            _names_in(n.get("inputs", []), read)
        _names_in(gm["graph"]["outputs"], read)
        dead = [i for i, n in enumerate(nodes)
                if "aten" in n["target"] and n.get("outputs")
                and all(o.get("as_tensor", {}).get("name") not in read for o in n["outputs"])
                and all("as_tensor" in o for o in n["outputs"])]
        if not dead:
            break
        for i in reversed(dead):
            del nodes[i]
        removed = True
    return removed


LOST = [dropped_first_write_back, dropped_all_write_backs, erased_computation]
PASSES = corrupt_passes.PASSES + LOST
LOST_NAMES = {fn.__name__ for fn in LOST} | {"dropped_write_back", "copy_back_as_user_output"}
# Also run with --against: a consistent rename of the state goes back to ORIGINAL's names there.
LOST_NAMES |= {"rename_state_lifted"}


def partial(clean, fixed):
    """Whether the repair is the clean program with some write-backs still missing (and nothing
    else different): what `fix` proved is applied, the rest is a loss `check` cannot see."""
    want, got = fix_passes.program_jsons(clean), fix_passes.program_jsons(fixed)
    if set(want) != set(got):
        return False
    for name in want:
        w, g = want[name]["graph_module"], got[name]["graph_module"]
        if w["signature"]["input_specs"] != g["signature"]["input_specs"] or w["graph"]["nodes"] != g["graph"]["nodes"]:
            return False
        pairs_w = list(zip(w["signature"]["output_specs"], w["graph"]["outputs"]))
        pairs_g = list(zip(g["signature"]["output_specs"], g["graph"]["outputs"]))
        it = iter(pairs_w)
        if not all(any(p == q for q in it) for p in pairs_g):  # a subsequence
            return False
        if any("user_output" in p[0] for p in pairs_w if p not in pairs_g):
            return False
    return True


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def fix_against(pt2lint, clean, broken, out):
    """`fix --against CLEAN`: (outcome, detail, safety); the repair must pass `diff CLEAN OUT`."""
    if os.path.exists(out):
        os.remove(out)
    r = run([pt2lint, "fix", broken, "--against", clean, "-o", out])
    said = (r.stderr.strip().splitlines() or [""])[-1][:300]
    if r.returncode != 0:
        if os.path.exists(out):
            return "WRONG", f"exit {r.returncode} but wrote {out}"
        erased = "no signature edit" in r.stderr
        return ("refused (erased)" if erased else "refused"), said
    if not os.path.exists(out):
        return ("clean" if "is clean" in r.stderr else "WRONG"), said
    d = run([pt2lint, "diff", clean, out])
    if d.returncode != 0:
        return "WRONG", f"diff CLEAN OUT exits {d.returncode}"
    outcome, detail = fix_passes.judge_files(pt2lint, clean, out)
    return outcome, detail or said


def label(case):
    """safe / unsafe / ambiguous / out of reach / undetected / partial, as docs/fix.md counts them."""
    local, detail = case["local"], case.get("detail", "")
    if local in ("identical", "renamed", "equivalent"):
        return "safe"
    if local.startswith("unsafe+"):
        return "unsafe"
    if local == "refused":
        return "ambiguous" if "ambiguous" in detail else "out of reach"
    if local == "refused (erased)":
        return "out of reach (erased)"
    return local


def print_table(results_path):
    """The markdown table of docs/fix.md from the device's results.json."""
    cases = json.load(open(results_path))["cases"]
    cols = ["safe", "unsafe", "ambiguous", "out of reach", "out of reach (erased)", "undetected", "partial"]
    rows = collections.defaultdict(collections.Counter)
    device = collections.defaultdict(collections.Counter)
    for c in cases:
        key = (c["pass"], "--against" if "against" in c["command"] else "")
        rows[key][label(c)] += 1
        device[key][c.get("device")] += 1
    print("| pass | `--against` | programs | " + " | ".join(cols) + " | PyTorch: equal to clean / WRONG |")
    print("|---|---|---|" + "---|" * len(cols) + "---|")
    total, total_dev = collections.Counter(), collections.Counter()
    for key in sorted(rows):
        total.update(rows[key])
        total_dev.update(device[key])
        equal, wrong = device[key]["equal to clean (3 steps)"], device[key]["WRONG"]
        print(f"| `{key[0]}` | {'yes' if key[1] else ''} | {sum(rows[key].values())} | "
              + " | ".join(str(rows[key][k]) for k in cols) + f" | {equal} / {wrong} |")
    print(f"| **total** | | **{sum(total.values())}** | " + " | ".join(f"**{total[k]}**" for k in cols)
          + f" | **{total_dev['equal to clean (3 steps)']} / {total_dev['WRONG']}** |")
    controls = collections.Counter(c["control"].split(":")[0] for c in cases if c.get("control"))
    print(f"\ncontrols (unrepaired defects run the same way): {dict(controls)}")


def main():
    argv = sys.argv[1:]
    if argv and argv[0] == "--table":
        print_table(argv[1])
        return 0
    option = lambda name: argv[argv.index(name) + 1] if name in argv else None  # noqa: E731
    models = option("--models").split(",") if option("--models") else list(CLEAN)
    expect_min = int(option("--expect-min-repaired") or 0)
    values = {option("--models"), option("--expect-min-repaired")}
    args = [a for a in argv if not a.startswith("--") and a not in values]
    markdown = "--markdown" in argv
    pt2lint, out_dir = os.path.abspath(args[0]), os.path.abspath(args[1])
    for sub in ("clean", "defects", "repaired"):
        os.makedirs(os.path.join(out_dir, sub), exist_ok=True)
    cases = []
    for model in models:
        rel, family = CLEAN[model]
        clean = os.path.join(out_dir, "clean", model + ".pt2")
        shutil.copyfile(os.path.join(REPO, rel), clean)
        for fn in PASSES:
            name = f"{model}__{fn.__name__}"
            broken = os.path.join(out_dir, "defects", name + ".pt2")
            if not corrupt_passes.corrupt(clean, broken, fn):
                continue
            fixed = os.path.join(out_dir, "repaired", name + ".fixed.pt2")
            outcome, detail = fix_passes.judge(pt2lint, clean, broken, fixed)
            if outcome == "WRONG" and os.path.exists(fixed) and partial(clean, fixed):
                outcome, detail = "partial", "the proven write-backs restored; the rest are lost where check cannot see"
            case = {"model": model, "family": family, "pass": fn.__name__, "clean": f"clean/{model}.pt2",
                    "defect": f"defects/{name}.pt2", "command": "fix", "local": outcome, "detail": detail,
                    "safety": "unsafe" if outcome.startswith("unsafe+") else "safe"}
            if os.path.exists(fixed):
                case["partial" if outcome == "partial" else "repaired"] = f"repaired/{name}.fixed.pt2"
            cases.append(case)
            print(f"{outcome:18} {name} {detail[:150]}", flush=True)
            if fn.__name__ in LOST_NAMES or outcome in ("refused", "undetected", "partial"):
                against = os.path.join(out_dir, "repaired", name + ".against.pt2")
                a_outcome, a_detail = fix_against(pt2lint, clean, broken, against)
                a_case = dict(case, command="fix --against CLEAN", local=a_outcome, detail=a_detail, safety="safe")
                a_case.pop("repaired", None)
                a_case.pop("partial", None)
                if os.path.exists(against):
                    a_case["repaired"] = f"repaired/{name}.against.pt2"
                cases.append(a_case)
                print(f"{a_outcome:18} {name} --against {a_detail[:150]}", flush=True)
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump({"cases": cases}, f, indent=1)
    table = collections.defaultdict(collections.Counter)
    for c in cases:
        table[(c["pass"], c["command"])][c["local"]] += 1
    kinds = sorted({c["local"] for c in cases})
    if markdown:
        print("\n| pass | command | " + " | ".join(kinds) + " |\n|---|---|" + "---|" * len(kinds))
        for (p, cmd), counts in sorted(table.items()):
            print(f"| `{p}` | `{cmd}` | " + " | ".join(str(counts[k]) for k in kinds) + " |")
    total = collections.Counter(c["local"] for c in cases)
    repaired = sum(1 for c in cases if "repaired" in c)
    print(f"total {len(cases)} runs over {len({c['defect'] for c in cases})} defective programs, "
          f"{repaired} repaired files: {dict(total)}")
    if repaired < expect_min:
        print(f"FAIL: {repaired} repaired files, expected at least {expect_min}")
        return 1
    return 1 if any("WRONG" in c["local"] for c in cases) else 0


if __name__ == "__main__":
    sys.exit(main())
