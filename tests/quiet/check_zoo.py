#!/usr/bin/env python3
"""Quiet defaults on the device-exported clean zoo (tests/data/device/zoo, labels.json).

usage: check_zoo.py PT2LINT ZOO_DIR [LOWERED_DIR]

1. Default rules: every file gets 0 errors. A warning is allowed only when the file's label
   expects its rule (the aliased-state programs expect aliased-state-written), and a file whose
   label expects a rule must get it.
2. Every opt-in rule selected (read from `pt2lint rules`): the findings must be exactly the true
   findings listed in TRUE_OPT_IN_FINDINGS (each justified in docs/quiet-defaults.md), on top of
   what the default run reported. Nothing about num_batches_tracked in eval mode, tied aliases,
   state another program of the archive uses, or buffers written by a full overwrite.
3. The full-size torchvision programs of ZOO_DIR/fullsize (program JSON only, gzipped; resnet50
   alone has 53 eval-mode BatchNorm num_batches_tracked buffers): no error or warning, with
   every opt-in rule selected.
4. With LOWERED_DIR (tests/quiet/data: the ATEN programs `pt2lint lower` wrote from the zoo's
   aliased-state programs, which PyTorch's run_decompositions cannot write): each gets
   aliased-state-written and nothing else, so the rule holds in the ATEN dialect too.
Exits 1 and prints every difference when any fails.
"""
import collections
import glob
import gzip
import json
import os
import subprocess
import sys
import tempfile

# (file, rule name, state FQN): true findings of opt-in rules, justified in
# docs/quiet-defaults.md. BertModel computes its pooler, but the exported forward returns only
# last_hidden_state; run_decompositions drops the dead pooler, so in the ATEN programs its
# parameters are declared and never read.
TRUE_OPT_IN_FINDINGS = collections.Counter({
    ("hf_bert_eval.aten.pt2", "state-is-used", "model.pooler.dense.weight"): 1,
    ("hf_bert_eval.aten.pt2", "state-is-used", "model.pooler.dense.bias"): 1,
    ("hf_bert_train.aten.pt2", "state-is-used", "model.pooler.dense.weight"): 1,
    ("hf_bert_train.aten.pt2", "state-is-used", "model.pooler.dense.bias"): 1,
    # run_decompositions() puts the decoder's lifted tensor constants before its cache buffers,
    # an order nativert's source refuses (a note: nativert 2.11 still loads it).
    ("hf_llama_static_cache.aten.pt2", "nativert-input-order", ""): 1,
    # The aliased-state programs update their state from its old value: a call counter
    # (`calls += 1`) and a scale multiplied in place (written-state-needs-initial-value, true).
    ("shared_submodule_written.pt2", "written-state-needs-initial-value", "reused.calls"): 1,
    ("two_names_one_tensor_written.pt2", "written-state-needs-initial-value", "scale_alias"): 1,
})


# An opt-in rule whose findings are true by what they name, not by file: the buffers a model
# updates from their old value (docs/quiet-defaults.md). A finding on any other state fails.
def depends_on_initial_value(rule, state):
    leaf = state.rsplit(".", 1)[-1]
    return rule == "written-state-needs-initial-value" and (
        leaf in ("running_mean", "running_var", "num_batches_tracked") or leaf.endswith("cache"))


def run(tool, args):
    out = subprocess.run([tool] + args, capture_output=True, text=True, timeout=300)
    return out


def findings(tool, zoo, extra):
    out = run(tool, ["check", "--no-config", "--format", "json", zoo] + extra)
    if out.returncode not in (0, 1):
        raise SystemExit(f"pt2lint exited {out.returncode}: {out.stderr[-500:]}")
    report = json.loads(out.stdout)
    by_file = {}
    for f in report["files"]:
        by_file[os.path.basename(f["path"])] = [
            (x["severity"], x["name"], x.get("state", ""), x["message"]) for x in f["findings"]]
    return by_file


def opt_in_rules(tool):
    out = run(tool, ["rules"])
    return [line.split()[1] for line in out.stdout.splitlines() if " opt-in " in line]


def main():
    tool, zoo = sys.argv[1], sys.argv[2]
    with open(os.path.join(zoo, "labels.json")) as f:
        # Rows whose file PyTorch could not write (run_decompositions of aliased-state
        # programs fails) have no file to check.
        labels = {row["file"]: set(row.get("expect", [])) for row in json.load(f)
                  if os.path.exists(os.path.join(zoo, row["file"]))}
    problems = []
    default = findings(tool, zoo, [])
    missing_files = sorted(set(labels) - set(default))
    if missing_files:
        problems.append(f"not checked: {missing_files}")
    for name, found in sorted(default.items()):
        expect = labels.get(name, set())
        for severity, rule, state, message in found:
            if severity == "error" or rule not in expect:
                problems.append(f"default run: {name}: {severity} {rule}: {message[:200]}")
        for rule in expect:
            if not any(r == rule for _, r, _, _ in found):
                problems.append(f"default run: {name}: expected a {rule} finding, got none")

    rules = opt_in_rules(tool)
    if "state-is-used" not in rules:
        problems.append(f"state-is-used is not listed as opt-in by `pt2lint rules`: {rules}")
    selected = findings(tool, zoo, ["--extend-select", ",".join(rules)])
    extra = collections.Counter()
    accepted_by_state = collections.Counter()
    for name, found in selected.items():
        before = collections.Counter(default.get(name, []))
        for item, n in (collections.Counter(found) - before).items():
            if depends_on_initial_value(item[1], item[2]):
                accepted_by_state[item[1]] += n
                continue
            extra[(name, item[1], item[2])] += n
            if item[0] == "error":
                problems.append(f"opt-in run: {name}: error {item[1]}: {item[3][:200]}")
    if "written-state-needs-initial-value" in rules and not accepted_by_state:
        problems.append("opt-in run: no written-state-needs-initial-value finding on the train-mode "
                        "BatchNorms and caches of the zoo")
    for key, n in (extra - TRUE_OPT_IN_FINDINGS).items():
        problems.append(f"opt-in run: unexpected {key} (x{n})")
    for key, n in (TRUE_OPT_IN_FINDINGS - extra).items():
        problems.append(f"opt-in run: missing true finding {key} (x{n})")

    fullsize = sorted(glob.glob(os.path.join(zoo, "fullsize", "*.json.gz")))
    with tempfile.TemporaryDirectory() as folder:
        for packed in fullsize:
            with gzip.open(packed) as src, open(os.path.join(folder, os.path.basename(packed)[:-3]), "wb") as dst:
                dst.write(src.read())
        for name, found in sorted(findings(tool, folder, ["--extend-select", ",".join(rules)]).items()):
            for severity, rule, state, message in found:
                if severity != "note":
                    problems.append(f"fullsize: {name}: {severity} {rule}: {message[:200]}")
    if len(sys.argv) > 3:
        lowered = findings(tool, sys.argv[3], [])
        if not lowered:
            problems.append(f"no program under {sys.argv[3]}")
        for name, found in sorted(lowered.items()):
            rules_found = {(severity, rule) for severity, rule, _, _ in found}
            if rules_found != {("warning", "aliased-state-written")}:
                problems.append(f"lowered: {name}: expected only aliased-state-written, got {sorted(rules_found)}")
    aliased = sum(1 for e in labels.values() if "aliased-state-written" in e)
    if aliased == 0:
        problems.append("no file of the zoo expects aliased-state-written")
    for problem in problems:
        print(problem)
    print(f"{len(default)} files; default run: 0 errors expected, {aliased} files expect "
          f"aliased-state-written; opt-in rules {rules}: {sum(extra.values())} extra findings; "
          f"{len(fullsize)} full-size programs; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
