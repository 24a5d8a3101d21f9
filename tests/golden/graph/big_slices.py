#!/usr/bin/env python3
"""`pt2lint graph` stays a picture a person can read on a 9,000-node program, quickly:
  - a copy of kv_nested_256l, functionalized by `pt2lint lower` (so that it has write-back
    outputs) with two cache targets swapped by the corpus' corruptions.py: `--finding 1`;
  - the clean kv_nested_256l: `--state` of one cache buffer, and the whole contract;
each gives at most 40 boxes in under 1 s of CPU time (the child's user + system time, so
that a loaded machine, as CI's or a developer's running other builds, does not fail it). Exits 77 (skipped) without the corpus.

usage: big_slices.py PT2LINT CORPUS WORKDIR"""
import importlib.util
import os
import resource
import re
import subprocess
import sys

MAX_BOXES = 40
MAX_SECONDS = 1.0
BOX = re.compile(r'^  (?!graph )(\w+) \[label=', re.M)


def swapped_copy(pt2lint, corpus, work):
    lowered = os.path.join(work, "kv_nested_256l.lowered.pt2")
    swapped = os.path.join(work, "kv_nested_256l__swap_same_shape.pt2")
    subprocess.run([pt2lint, "lower", os.path.join(corpus, "big", "kv_nested_256l.pt2"), "-o", lowered],
                   check=True, stdout=subprocess.DEVNULL)
    spec = importlib.util.spec_from_file_location("corruptions", os.path.join(corpus, "tools", "corruptions.py"))
    corruptions = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(corruptions)
    if not corruptions.rewrite_archive(lowered, swapped, corruptions.c_swap_same_shape):
        raise SystemExit("corruptions.py found no two cache targets to swap")
    return swapped


def main():
    pt2lint, corpus, work = (os.path.abspath(a) for a in sys.argv[1:4])
    big = os.path.join(corpus, "big", "kv_nested_256l.pt2")
    if not os.path.exists(big):
        print(f"skipped: {big} not found")
        return 77
    os.makedirs(work, exist_ok=True)
    swapped = swapped_copy(pt2lint, corpus, work)
    cases = {
        "--finding 1 on the swapped copy": [swapped, "--finding", "1"],
        "--state on the clean program": [big, "--state", "layers.200.self_attn.kv_cache.v_cache"],
        "the whole contract of the clean program": [big],
    }
    failed = False
    for name, args in cases.items():
        for fmt in ("dot", "svg"):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run([pt2lint, "graph", *args, "--format", fmt], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            if done.returncode != 0:
                print(f"{name} ({fmt}): exit {done.returncode}: {done.stderr}")
                failed = True
                continue
            # Legend samples are indented further in DOT and are no <g class="box"> in SVG.
            drawn = len(BOX.findall(done.stdout)) if fmt == "dot" else done.stdout.count('<g class="box')
            print(f"{name} ({fmt}): {drawn} boxes, {seconds:.3f} s of CPU")
            if drawn > MAX_BOXES or drawn < 3 or seconds > MAX_SECONDS:
                print(f"  FAIL: want 3..{MAX_BOXES} boxes in < {MAX_SECONDS} s of CPU")
                failed = True
            if "--finding" in args and fmt == "svg" and 'class="edge wrong"' not in done.stdout:
                print("  FAIL: no wrong edge drawn")
                failed = True
    print("FAIL" if failed else "ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
