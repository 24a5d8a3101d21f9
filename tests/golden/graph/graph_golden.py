#!/usr/bin/env python3
"""`pt2lint graph` goldens: the DOT of a swap, a dropped write-back, a renamed target and a
clean KV-cache program (all exported by PyTorch 2.11), compared with CASE.dot; the SVG of each
must be well-formed XML with one <g class="box"> per DOT box. PT2LINT_UPDATE_GOLDEN=1 rewrites
the .dot files and docs/images/graph_CASE.svg.

usage: graph_golden.py PT2LINT REPO_ROOT"""
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = {
    # case: (input under the repo root, extra arguments, what the golden must show)
    "swap": ("tests/data/graph/kv_cache_swapped.pt2", ["--finding", "1"],
             ["✗ writes the update of", "expected target", "style=dashed"]),
    "dropped_write_back": ("tests/data/graph/kv_cache_dropped.pt2", ["--finding", "1"],
                           ["no write-back", "✗ update dropped", "expected write-back"]),
    "renamed_target": ("tests/data/demo/kv_cache_broken.pt2", ["--finding", "1"],
                       ["lifted_buf_layers_0_self_attn_kv_cache_k_cache", "✗ target does not exist",
                        "did you mean `layers.0.self_attn.kv_cache.k_cache`?"]),
    "clean_kv_cache": ("tests/data/demo/kv_cache_clean.pt2", [],
                       ["layers.1.self_attn.kv_cache.v_cache", "writes back"]),
}
BOX = re.compile(r'^  (?!graph )(\w+) \[label=', re.M)


def run(pt2lint, root, path, args, fmt):
    done = subprocess.run([pt2lint, "graph", path, *args, "--format", fmt], cwd=root,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise SystemExit(f"pt2lint graph {path} {args} exited {done.returncode}: {done.stderr}")
    return done.stdout


def main():
    pt2lint, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    update = os.environ.get("PT2LINT_UPDATE_GOLDEN") == "1"
    failed = False
    for case, (path, args, must_show) in CASES.items():
        dot = run(pt2lint, root, path, args, "dot")
        golden = os.path.join(HERE, case + ".dot")
        svg = run(pt2lint, root, path, args, "svg")
        if update:
            with open(golden, "w") as f:
                f.write(dot)
            with open(os.path.join(root, "docs", "images", f"graph_{case}.svg"), "w") as f:
                f.write(svg)
        with open(golden) as f:
            if f.read() != dot:
                print(f"{case}: DOT differs from {golden} (PT2LINT_UPDATE_GOLDEN=1 to accept)")
                failed = True
        for text in must_show:
            if text not in dot:
                print(f"{case}: DOT lacks {text!r}")
                failed = True
        boxes = len(BOX.findall(dot))
        tree = ET.fromstring(svg)
        drawn = sum(1 for g in tree.iter("{http://www.w3.org/2000/svg}g")
                    if g.get("class", "").startswith("box"))
        if drawn != boxes:
            print(f"{case}: the SVG draws {drawn} boxes, the DOT has {boxes}")
            failed = True
        if args and 'class="edge wrong"' not in svg:
            print(f"{case}: the SVG has no wrong edge")
            failed = True
    print("FAIL" if failed else f"ok: {len(CASES)} graph goldens")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
