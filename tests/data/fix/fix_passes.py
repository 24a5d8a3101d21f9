#!/usr/bin/env python3
"""`pt2lint fix` over backend-style passes (corrupt_passes.py) applied to real clean exports.

For each clean program and each pass that applies: the defective file is made, `pt2lint fix`
runs on it, and the outcome is one of
- identical: the repaired program JSON equals the clean source's byte for byte;
- renamed: equal to the clean source once the state renaming the repair records
  (`pt2lint_state_renames` in the program's metadata) is undone, and `pt2lint diff CLEAN OUT`
  exits 0 (it reads the same mapping);
- refused: exit 1 with a reason (ambiguous, out of reach), nothing written;
- WRONG: anything else (a repaired program that is not the clean one). Any WRONG fails.
No torch needed: the JSON comparison is exact. The device script (device_fix_check.py) runs
the same passes on fresh exports and judges the repairs with PyTorch.

usage: fix_passes.py PT2LINT WORKDIR CLEAN.pt2... [--markdown] [--expect-min N]
"""
import collections
import json
import os
import subprocess
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corrupt_passes  # noqa: E402


def program_jsons(path):
    with zipfile.ZipFile(path) as z:
        return {n.split("/", 1)[-1]: json.loads(z.read(n)) for n in z.namelist()
                if n.endswith(".json") and "/models/" in "/" + n}


def state_configs(path):
    with zipfile.ZipFile(path) as z:
        return {n.split("/", 1)[-1]: json.loads(z.read(n)) for n in z.namelist()
                if n.endswith("_config.json")}


def undo_renames(doc, clean_doc):
    """Undoes the state renaming a repaired program records (graph_module.metadata["custom"]
    ["pt2lint.renamed_buffers"], old -> new) in `doc`; returns the mapping."""
    meta = doc["graph_module"].get("metadata", {})
    if "custom" not in meta:
        return {}
    custom = json.loads(meta["custom"])
    mapping = custom.pop("pt2lint.renamed_buffers", None)
    if not mapping:
        return {}
    if custom or "custom" in clean_doc["graph_module"].get("metadata", {}):
        meta["custom"] = json.dumps(custom)
    else:
        del meta["custom"]
    text = json.dumps(doc)
    for old, new in mapping.items():
        text = text.replace(json.dumps(new), json.dumps(old))
    doc.clear()
    doc.update(json.loads(text))
    return mapping


def loose(docs, configs):
    """The programs and saved state with where a buffer is saved left out: a buffer restored as
    non-persistent (kept with the constants) computes what the persistent one did."""
    docs = json.loads(json.dumps(docs))
    for doc in docs.values():
        for spec in doc["graph_module"]["signature"]["input_specs"]:
            if "buffer" in spec:
                spec["buffer"].pop("persistent", None)
    merged = {}
    for cfg in configs.values():
        for key, entry in cfg.get("config", {}).items():
            merged[key] = {k: v for k, v in entry.items() if k not in ("path_name", "is_param")}
    return docs, merged


def judge(pt2lint, clean, broken, out, unsafe=False):
    if os.path.exists(out):
        os.remove(out)
    fix = subprocess.run([pt2lint, "fix", broken, "-o", out] + (["--unsafe-fixes"] if unsafe else []),
                         capture_output=True, text=True, timeout=120)
    if fix.returncode == 1 and "needs --unsafe-fixes" in fix.stderr and not unsafe:
        if os.path.exists(out):
            return "WRONG", "refused as unsafe but wrote " + out
        outcome, detail = judge(pt2lint, clean, broken, out, unsafe=True)
        return "unsafe+" + outcome, detail
    if fix.returncode != 0:
        if os.path.exists(out):
            return "WRONG", f"exit {fix.returncode} but wrote {out}"
        reason = [l for l in fix.stderr.splitlines() if "ambiguous" in l or "out of reach" in l]
        return ("refused", reason[0][:200]) if fix.returncode == 1 and reason else ("WRONG", fix.stderr[:300])
    if not os.path.exists(out):
        if "is clean: nothing to repair" in fix.stderr:  # check itself sees no defect: nothing was written
            return "undetected", "check finds no error (a write the dataflow cannot tie to its state)"
        return ("WRONG", "exit 0 but nothing written: " + fix.stderr[:200])
    return judge_files(pt2lint, clean, out)


def judge_files(pt2lint, clean, out):
    """A written repair `out` against its clean source: identical, renamed, equivalent or WRONG."""
    want, got = program_jsons(clean), program_jsons(out)
    if set(want) != set(got):
        return "WRONG", "the repaired archive has other programs than the clean source"
    mappings = {name: undo_renames(got[name], want[name]) for name in got}
    configs = state_configs(out)
    for mapping in mappings.values():
        for cfg in configs.values():
            for old, new in mapping.items():
                if new in cfg.get("config", {}):
                    cfg["config"][old] = cfg["config"].pop(new)
    if want != got or state_configs(clean) != configs:
        if loose(want, state_configs(clean)) == loose(got, configs):
            return "equivalent", "a buffer restored as non-persistent (saved with the constants)"
        return "WRONG", "the repaired program differs from the clean source"
    if not any(mappings.values()):
        return "identical", ""
    diff = subprocess.run([pt2lint, "diff", clean, out], capture_output=True, text=True, timeout=120)
    if diff.returncode != 0:
        return "WRONG", f"diff CLEAN OUT exits {diff.returncode}: {diff.stdout[-300:]}"
    return "renamed", json.dumps(mappings)[:200]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    markdown = "--markdown" in sys.argv
    pt2lint, work, cleans = args[0], args[1], args[2:]
    os.makedirs(work, exist_ok=True)
    table = collections.defaultdict(collections.Counter)
    wrong = 0
    for clean in cleans:
        stem = os.path.basename(clean)[: -len(".pt2")]
        for fn in corrupt_passes.PASSES:
            broken = os.path.join(work, f"{stem}__{fn.__name__}.pt2")
            if not corrupt_passes.corrupt(clean, broken, fn):
                continue
            outcome, detail = judge(pt2lint, clean, broken, broken[:-4] + ".fixed.pt2")
            table[fn.__name__][outcome] += 1
            wrong += outcome.endswith("WRONG")
            print(f"{outcome:9} {stem}__{fn.__name__} {detail}", flush=True)
    kinds = ["identical", "renamed", "equivalent", "refused", "unsafe+identical", "unsafe+refused", "undetected",
             "WRONG"]
    if markdown:
        print("\n| pass | files | " + " | ".join(kinds) + " |\n|---|---|" + "---|" * len(kinds))
    total = collections.Counter()
    for name in sorted(table):
        total.update(table[name])
        row = [str(table[name][k]) for k in kinds]
        print(f"| `{name}` | {sum(table[name].values())} | " + " | ".join(row) + " |" if markdown
              else f"{name}: " + ", ".join(f"{k} {table[name][k]}" for k in kinds))
    print(f"total {sum(total.values())}: " + ", ".join(f"{k} {total[k]}" for k in kinds))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
