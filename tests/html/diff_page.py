#!/usr/bin/env python3
"""`pt2lint diff --format html`: the contracts side by side. On the demo pair (a nested cache
target renamed to `lifted_buf_*`) the renamed state's row shows the write-back lost, the new
name's row the write-back added, the other three states kept; the lowering of the clean
program by `pt2lint lower` keeps every promise. The page must parse as XML-ish HTML sections
and fetch nothing.

usage: diff_page.py PT2LINT REPO_ROOT WORKDIR"""
import os
import re
import subprocess
import sys


def diff_html(pt2lint, root, before, after):
    done = subprocess.run([pt2lint, "diff", before, after, "--format", "html"], cwd=root,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return done.returncode, done.stdout


def main():
    pt2lint, root, work = (os.path.abspath(a) for a in sys.argv[1:4])
    os.makedirs(work, exist_ok=True)
    failed = False
    code, page = diff_html(pt2lint, root, "tests/data/demo/kv_cache_clean.pt2", "tests/data/demo/kv_cache_broken.pt2")
    rows = re.findall(r'<tr class="([^"]*)"><td><code>([^<]*)</code>.*?<td>([^<]*)</td></tr>', page)
    verdicts = {state: (style, verdict) for style, state, verdict in rows}
    want = {
        "layers.0.self_attn.kv_cache.k_cache": ("diff-lost", "write-back lost"),
        "lifted_buf_layers_0_self_attn_kv_cache_k_cache": ("diff-added", "write-back added"),
        "layers.1.self_attn.kv_cache.v_cache": ("", "kept"),
    }
    for state, expected in want.items():
        if verdicts.get(state) != expected:
            print(f"renamed pair: {state}: got {verdicts.get(state)}, want {expected}")
            failed = True
    if code != 1 or "PT403 write-back-target-renamed" not in page:
        print(f"renamed pair: want exit 1 and the PT403 finding, got exit {code}")
        failed = True
    lowered = os.path.join(work, "kv_cache_clean.lowered.pt2")
    subprocess.run([pt2lint, "lower", "tests/data/demo/kv_cache_clean.pt2", "-o", lowered], cwd=root,
                   check=True, stdout=subprocess.DEVNULL)
    code, page = diff_html(pt2lint, root, "tests/data/demo/kv_cache_clean.pt2", lowered)
    if code != 0 or "keeps every promise" not in page or "<tr class=\"diff-" in page \
            or page.count("<td>kept</td>") != 4:
        print(f"clean lowering: want exit 0 and 4 kept states, got exit {code}")
        failed = True
    for bad in ("src=", "<link", 'href="http'):
        if bad in page:
            print(f"the page fetches something: {bad}")
            failed = True
    print("FAIL" if failed else "ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
