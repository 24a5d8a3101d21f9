#!/usr/bin/env python3
"""`pt2lint graph` on every program of the device corpus (tests/data/device: torchvision,
timm and transformers models, custom-op and higher-order-op programs, seed bugs, all exported
by PyTorch 2.11): the whole contract of each file and the picture of each of its findings is
well-formed SVG with a focus box, at most MAX_BOXES boxes, and a wrong edge wherever the
finding names an output spec. A file pt2lint cannot read as a program is answered with exit 2.

usage: device_pictures.py PT2LINT DEVICE_DIR"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

MAX_BOXES = 40
SVG = "{http://www.w3.org/2000/svg}"


def svg(pt2lint, *args):
    done = subprocess.run([pt2lint, "graph", *args, "--format", "svg"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    return done.returncode, done.stdout, done.stderr


def main():
    pt2lint, device = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(device) for f in fs if f.endswith(".pt2"))
    failed = False
    pictures = 0
    largest = 0
    for path in files:
        report = json.loads(subprocess.run([pt2lint, "check", path, "--format", "json", "--no-config"],
                                           stdout=subprocess.PIPE, text=True).stdout)
        findings = report["files"][0]["findings"] if report["files"] else []
        runs = [([path], None)] + [([path, "--finding", str(n + 1)], f) for n, f in enumerate(findings)]
        for args, finding in runs:
            code, text, err = svg(pt2lint, *args)
            unreadable = any(f["rule"] == "PT101" and f["severity"] == "error" for f in findings)
            if code == 2 and finding is None and unreadable and ("could not be read" in err or "no readable program" in err):
                continue  # a program pt2lint could not read has no contract to draw
            if code != 0:
                print(f"{' '.join(args)}: exit {code}: {err.strip()}")
                failed = True
                continue
            tree = ET.fromstring(text)
            boxes = [g for g in tree.iter(SVG + "g") if g.get("class", "").startswith("box")]
            pictures += 1
            largest = max(largest, len(boxes))
            if not boxes or len(boxes) > MAX_BOXES:
                print(f"{' '.join(args)}: {len(boxes)} boxes")
                failed = True
            if finding is not None:
                if not any("focus" in g.get("class", "") for g in boxes):
                    print(f"{' '.join(args)}: no box in focus")
                    failed = True
                if "output_spec" in finding["location"] and 'class="edge wrong"' not in text:
                    print(f"{' '.join(args)}: {finding['rule']} at an output spec without a wrong edge")
                    failed = True
    print(f"{len(files)} files, {pictures} pictures, at most {largest} boxes")
    print("FAIL" if failed else "ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
