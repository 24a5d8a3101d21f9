#!/usr/bin/env python3
"""`check --format html` on the device corpus (tests/data/device, real PyTorch 2.11 exports):
one process draws the picture of every finding, so this also runs the drawing code over real
programs under ASan + UBSan. Each finding of the JSON report must appear once; each one with
dataflow to draw has an SVG with a box in focus (a state-dict-mismatch or a file that is not a
program gets no picture).

usage: device_report.py PT2LINT DEVICE_DIR WORKDIR"""
import json
import os
import re
import subprocess
import sys


def main():
    pt2lint, device, work = (os.path.abspath(a) for a in sys.argv[1:4])
    os.makedirs(work, exist_ok=True)
    page, report = os.path.join(work, "device.html"), os.path.join(work, "device.json")
    for fmt, out in (("html", page), ("json", report)):
        done = subprocess.run([pt2lint, "check", device, "--format", fmt, "-o", out, "-q", "--no-config"])
        if done.returncode not in (0, 1):
            print(f"check --format {fmt} exited {done.returncode}")
            return 1
    with open(report) as f:
        rules = [f["rule"] for file in json.load(f)["files"] for f in file["findings"]]
    findings = len(rules)
    with open(page, encoding="utf-8") as f:
        html = f.read()
    articles = re.findall(r'<article class="finding[ "].*?</article>', html, re.S)
    pictured = [a for a in articles if '<div class="picture"><svg' in a]
    drawn = sum(1 for a in pictured if 'class="box focus"' in a)
    undrawn = sorted({re.search(r'data-rule="(\w+)"', a)[1] for a in articles if a not in pictured})
    print(f"device corpus: {findings} findings in JSON, {len(articles)} in the page, {len(pictured)} with a "
          f"picture, {drawn} of them with a focus box; no picture for {undrawn}")
    # Rules whose findings may have no dataflow to draw (pictures only where there is dataflow,
    # issue 26): the loaders, the state dict, state handed to an op of unknown schema or into a
    # subgraph that may write it, a Triton launch's loadability, state shared across an
    # archive's programs, effect-token chains (a signature fact, not a value's path), and a
    # joint program's missing gradient (the value is absent: there is no path to draw).
    ok = findings == len(articles) and drawn == len(pictured) > 0 and all(
        r in ("PT206", "PT216", "PT218", "PT310", "PT311", "PT320", "PT321", "PT323") or r.startswith("PT1")
        for r in undrawn)
    print("ok" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
