#!/usr/bin/env python3
"""Fails when a file of src/ includes a header of a layer its own layer does not link.

A layer is a folder of src/ and one static library (CMakeLists.txt, `pt2lint_layer`). Layers
share the include root src/, so the linker alone cannot stop an upward `#include` of a
header: this check does, on every build. `--graph` is the layer graph CMake writes, one
"layer: dependency dependency" line per layer. Includes that name no layer (system headers)
are not checked; the generated program.pb.h belongs to core.

Usage: check_layers.py --src DIR --graph build/layer_graph.txt
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)
# Headers generated into the build tree, and the layer that owns them.
GENERATED = {"program.pb.h": "core"}


def parse_graph(text):
    graph = {}
    for line in text.splitlines():
        if line.strip():
            layer, dependencies = line.split(":", 1)
            graph[layer.strip()] = dependencies.split()
    return graph


def reachable(graph, layer):
    seen, stack = set(), [layer]
    while stack:
        for dep in graph.get(stack.pop(), []):
            if dep not in seen:
                seen.add(dep)
                stack.append(dep)
    return seen | {layer}


def violations(src, graph):
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".cc", ".h")):
                continue
            path = os.path.join(root, name)
            layer = os.path.relpath(path, src).split(os.sep)[0]
            if layer not in graph:
                yield path, 0, f"`{layer}` is not a layer: add it with pt2lint_layer() in CMakeLists.txt"
                continue
            allowed = reachable(graph, layer)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for match in INCLUDE.finditer(text):
                header = match.group(1)
                target = GENERATED.get(header) or header.split("/")[0]
                if target not in graph or target in allowed:
                    continue
                line = text.count("\n", 0, match.start()) + 1
                yield path, line, (f"layer `{layer}` includes \"{header}\" of layer `{target}`, "
                                   f"which it does not link (it may include: "
                                   f"{', '.join(sorted(allowed))})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", required=True)
    parser.add_argument("--graph", required=True)
    args = parser.parse_args()
    with open(args.graph, encoding="utf-8") as f:
        graph = parse_graph(f.read())
    found = list(violations(args.src, graph))
    for path, line, message in found:
        print(f"{path}:{line}: error: {message}", file=sys.stderr)
    if found:
        print(f"check_layers: {len(found)} include(s) against the layer graph "
              "(CONTRIBUTING.md, \"Layout of the code\")", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
