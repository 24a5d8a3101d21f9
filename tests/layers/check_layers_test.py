#!/usr/bin/env python3
"""scripts/check_layers.py can fail: on a small tree, an upward include (even of a header
only), an include of an unlinked sibling layer and a folder that is no layer are each
reported, and the same tree without them passes. Then the real src/ against the real graph.

usage: check_layers_test.py SOURCE_ROOT LAYER_GRAPH"""
import os
import subprocess
import sys
import tempfile

GRAPH = "support: \ncore: support\nio: core\nanalysis: core\nrules: analysis\n"


def write(root, path, text):
    os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
    with open(os.path.join(root, path), "w") as f:
        f.write(text)


def run(script, src, graph_text):
    graph = os.path.join(os.path.dirname(src), "graph.txt")
    with open(graph, "w") as f:
        f.write(graph_text)
    return subprocess.run([sys.executable, script, "--src", src, "--graph", graph],
                          capture_output=True, text=True)


def main():
    source_root, real_graph = sys.argv[1], sys.argv[2]
    script = os.path.join(source_root, "scripts", "check_layers.py")
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        write(src, "support/json.h", "#pragma once\n")
        write(src, "core/finding.h", '#pragma once\n#include "support/json.h"\n#include "program.pb.h"\n')
        write(src, "analysis/index.h", '#pragma once\n#include "core/finding.h"\n#include <vector>\n')
        write(src, "rules/rule.cc", '#include "analysis/index.h"\n#include "support/json.h"\n')
        clean = run(script, src, GRAPH)
        if clean.returncode != 0:
            failures.append(f"a sound tree was refused: {clean.stderr}")
        cases = [
            ("core/upward.h", '#pragma once\n#include "rules/rule.h"\n', "layer `core` includes \"rules/rule.h\""),
            ("io/sibling.cc", '#include "analysis/index.h"\n', "layer `io` includes \"analysis/index.h\""),
            ("stray/file.cc", "int x;\n", "`stray` is not a layer"),
        ]
        for path, text, message in cases:
            write(src, path, text)
            result = run(script, src, GRAPH)
            if result.returncode == 0 or message not in result.stderr:
                failures.append(f"{path}: expected a failure naming {message!r}, got exit "
                                f"{result.returncode}: {result.stderr}")
            os.remove(os.path.join(src, path))
    real = subprocess.run([sys.executable, script, "--src", os.path.join(source_root, "src"),
                           "--graph", real_graph], capture_output=True, text=True)
    if real.returncode != 0:
        failures.append(f"src/ breaks the layer graph:\n{real.stderr}")
    for failure in failures:
        print(failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
