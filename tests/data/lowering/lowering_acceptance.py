#!/usr/bin/env python3
"""Acceptance checks of the reference lowering and the contract diff, run by ctest.

Usage: lowering_acceptance.py PT2LINT CORPUS MODE WORKDIR
  pairs    for every TRAINING/ATEN pair in base/: contract(lower(NAME)) == contract(NAME.aten),
           `diff NAME NAME.aten` and `diff NAME lower(NAME)` exit 0, `check lower(NAME)` is clean
  corrupt  for every corrupt program labelled `silent` or `runtime`: `diff BASE FILE` exits 1
           and names the broken promise
  rename   `lower --rename-nested kv_nested_2l`: clean, contract kept given the recorded
           mapping, broken when an empty mapping overrides it
Exits 77 (ctest's skip code) when the corpus is absent.
"""
import json
import os
import re
import subprocess
import sys

SKIP = 77
PAIRS = ["counter", "user_input_mutation", "dict_out", "kv_nested_2l", "conv_bn_train"]
FINDING = re.compile(r"\[PT4\d\d ([a-z-]+)\]")


def run(pt2lint, *args):
    return subprocess.run([pt2lint, *args], capture_output=True, text=True)


def expect(condition, message, failures):
    if not condition:
        failures.append(message)


def pairs(pt2lint, corpus, work, failures):
    for name in PAIRS:
        training = os.path.join(corpus, "base", name + ".pt2")
        aten = os.path.join(corpus, "base", name + ".aten.pt2")
        lowered = os.path.join(work, name + ".lowered.pt2")
        r = run(pt2lint, "lower", "-q", training, "-o", lowered)
        expect(r.returncode == 0, f"lower {name}: exit {r.returncode}: {r.stderr}", failures)
        if r.returncode != 0:
            continue
        mine = run(pt2lint, "contract", "--format", "json", lowered)
        theirs = run(pt2lint, "contract", "--format", "json", aten)
        expect(mine.returncode == 0 and mine.stdout == theirs.stdout,
               f"contract of lower({name}) differs from {name}.aten:\n{mine.stdout}\n---\n{theirs.stdout}", failures)
        for before, after in ((training, aten), (training, lowered), (aten, lowered)):
            d = run(pt2lint, "diff", before, after)
            expect(d.returncode == 0, f"diff {before} {after}: exit {d.returncode}\n{d.stdout}{d.stderr}", failures)
        c = run(pt2lint, "check", lowered)
        expect(c.returncode == 0, f"check lower({name}): exit {c.returncode}\n{c.stdout}", failures)
        print(f"ok   {name}")


def corrupt(pt2lint, corpus, work, failures):
    count = 0
    for labels in ("labels.jsonl", "extra_labels.jsonl"):
        path = os.path.join(corpus, labels)
        if not os.path.exists(path):
            continue
        for line in open(path):
            label = json.loads(line)
            if label.get("effect") not in ("silent", "runtime"):
                continue
            base = os.path.join(corpus, "base", label["base"] + ".pt2")
            if not os.path.exists(base):
                base = os.path.join(corpus, label["base"] + ".pt2")
            r = run(pt2lint, "diff", base, os.path.join(corpus, label["file"]))
            names = sorted(set(FINDING.findall(r.stdout)))
            expect(r.returncode == 1 and names,
                   f"diff {label['base']} {label['file']}: exit {r.returncode}, findings {names}\n{r.stdout}{r.stderr}",
                   failures)
            print(f"{'ok  ' if r.returncode == 1 and names else 'FAIL'} {label['file']}: {', '.join(names)}")
            count += 1
    expect(count >= 22, f"only {count} silent/runtime corrupt programs found", failures)


def rename(pt2lint, corpus, work, failures):
    original = os.path.join(corpus, "base", "kv_nested_2l.pt2")
    renamed = os.path.join(work, "kv_nested_2l.renamed.pt2")
    r = run(pt2lint, "lower", "-q", "--rename-nested", original, "-o", renamed)
    expect(r.returncode == 0, f"lower --rename-nested: exit {r.returncode}: {r.stderr}", failures)
    c = run(pt2lint, "check", renamed)
    expect(c.returncode == 0, f"check of the renamed program: exit {c.returncode}\n{c.stdout}", failures)
    d = run(pt2lint, "diff", original, renamed)
    expect(d.returncode == 0 and d.stdout.count("error") == 0,
           f"diff with the recorded mapping: exit {d.returncode}\n{d.stdout}", failures)
    empty = os.path.join(work, "empty_map.json")
    with open(empty, "w") as f:
        f.write("{}")
    d = run(pt2lint, "diff", "--rename", empty, original, renamed)
    names = FINDING.findall(d.stdout)
    expect(d.returncode == 1 and names == ["write-back-target-renamed"] * 4,
           f"diff without a mapping: exit {d.returncode}, findings {names}", failures)
    print("ok   rename-nested")


def main():
    pt2lint, corpus, mode, work = sys.argv[1:5]
    if not os.path.exists(os.path.join(corpus, "labels.jsonl")):
        print(f"SKIPPED: corpus not found at {corpus}")
        return SKIP
    os.makedirs(work, exist_ok=True)
    failures = []
    {"pairs": pairs, "corrupt": corrupt, "rename": rename}[mode](pt2lint, corpus, work, failures)
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
