#!/usr/bin/env python3
"""Device check (PyTorch 2.11, no network): does torch.export.load agree with pt2lint's
goldens of the files PyTorch writes? For every tests/golden/files/**/*.pt2 with a `.expect`
sidecar: pt2lint expects an error exactly when PyTorch should refuse the file. AOTInductor packages
are skipped (no exported program; their .so is a stand-in), and so are unsafe-archive-member
goldens (hostile, not necessarily unloadable). Loaded programs are also run on
a (4,) float input when they take one, and the result is recorded.

    python3 tests/files/device_check_goldens.py        (from the repository root)

Writes $OUT/golden_verdicts.json; prints one line per file and PASS or FAIL at the end."""
import glob
import json
import os
import sys

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.environ.get("OUT", ".")


def expects_error(path):
    with open(path + ".expect") as f:
        return any(line.startswith("# expect: error") for line in f)


def main():
    sys.setrecursionlimit(1000)  # the default, as measured
    results, disagreements = {}, []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/golden/files/**/*.pt2"), recursive=True)):
        rel = os.path.relpath(path, ROOT)
        if "aotinductor-package" in rel:
            continue
        # unsafe-archive-member (PT102) flags hostile archives (absolute, '..' and symlink
        # members), which torch.export.load may well read: an error there is not a claim that
        # PyTorch refuses the file.
        if "unsafe-archive-member" in rel:
            continue
        record = {"pt2lint_error": expects_error(path)}
        try:
            ep = torch.export.load(path)
            record["load"] = "ok"
            try:
                ep.module()(torch.randn(4))
                record["run"] = "ok"
            except BaseException as e:  # noqa: BLE001 - any failure is a result
                record["run"] = f"{type(e).__name__}: {str(e)[:160]}"
        except BaseException as e:  # noqa: BLE001
            record["load"] = f"{type(e).__name__}: {str(e)[:160]}"
        agree = (record["load"] != "ok") == record["pt2lint_error"]
        record["agree"] = agree
        results[rel] = record
        print(("ok   " if agree else "DIFF ") + rel + ": load " + record["load"][:80] +
              ("" if "run" not in record else ", run " + record["run"][:60]))
        if not agree:
            disagreements.append(rel)
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "golden_verdicts.json"), "w") as f:
        json.dump({"torch": torch.__version__, "results": results}, f, indent=1)
    print(("PASS" if not disagreements else "FAIL") +
          f": {len(results) - len(disagreements)}/{len(results)} goldens agree with torch.export.load")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
