#!/usr/bin/env python3
"""`check --format html` on the device corpus (tests/data/device, real PyTorch 2.11 exports):
one process draws the picture of every finding, so this also runs the drawing code over real
programs under ASan + UBSan. Each finding of the JSON report must appear once, with an SVG
that has a box in focus.

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
        findings = sum(len(file["findings"]) for file in json.load(f)["files"])
    with open(page, encoding="utf-8") as f:
        html = f.read()
    articles = re.findall(r'<article class="finding".*?</article>', html, re.S)
    drawn = sum(1 for a in articles if '<div class="picture"><svg' in a and 'class="box focus"' in a)
    print(f"device corpus: {findings} findings in JSON, {len(articles)} in the page, {drawn} drawn with a focus box")
    ok = findings == len(articles) == drawn and findings > 0
    print("ok" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
