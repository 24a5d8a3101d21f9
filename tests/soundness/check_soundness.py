#!/usr/bin/env python3
"""Issue 22's acceptance on the programs PyTorch 2.11 exported in tests/data/device/soundness
(user Triton kernels in both launch styles, a triton_op, joint graphs, fp8 observers, one tensor
in two written slots, nested compile regions, and defects made by passes):

  - every clean program: no error, and no warning other than output-aliases-state and
    unknown-op-may-write-state (a Triton kernel whose writes are not declared);
  - every defect: caught by the rule its label names (`expect`);
  - a TRAINING Triton program without declarations: possible_mutations lists the buffers the
    kernel writes, `mutations` does not claim them, `lower` refuses naming the op;
  - with the kernels' writes declared (the `kernel_writes` PyTorch's analysis recorded, as
    `triton::` schemas): no unknown-op warning, `mutations` names exactly the written buffers;
  - `diff TRAINING ATEN` exits 0 or 3, never 1, on every clean pair; `diff` of a program against
    the one whose launch a pass erased is never empty (exit 1 or 3);
  - one "update of" (item 4): the fp8 observers' exchanged write-backs (full overwrites,
    `copy_(maximum(amax, ...))`) are an error for `check`, a difference for `diff` (exit 1), and
    `fix` exchanges them back: the repaired program diffs clean (exit 0) against the original.

usage: check_soundness.py PT2LINT DATA_DIR WORK_DIR"""
import json
import os
import subprocess
import sys

ALLOWED_ON_CLEAN = {"output-aliases-state", "unknown-op-may-write-state"}


def run(*args):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=120)


class Checker:
    def __init__(self, pt2lint, data, work):
        self.pt2lint, self.data, self.work = pt2lint, data, work
        with open(os.path.join(data, "labels.json")) as f:
            self.labels = [r for r in json.load(f) if "file" in r]
        self.failures, self.checked = [], 0
        os.makedirs(work, exist_ok=True)

    def fail(self, message):
        self.failures.append(message)

    def path(self, name):
        return os.path.join(self.data, name)

    def check(self, name, *extra):
        result = run(self.pt2lint, "check", "--format", "json", self.path(name), *extra)
        try:
            report = json.loads(result.stdout)
        except json.JSONDecodeError:
            self.fail(f"{name}: check printed no JSON (exit {result.returncode}): {result.stderr[:300]}")
            return result.returncode, [], []
        file = report["files"][0]
        return result.returncode, file["findings"], file["programs"]

    def outcomes(self):
        for label in self.labels:
            name = label["file"]
            if not os.path.exists(self.path(name)):
                self.fail(f"{name}: listed in labels.json but missing")
                continue
            code, findings, _ = self.check(name)
            self.checked += 1
            names = {f["name"] for f in findings}
            if label.get("expect"):
                missing = set(label["expect"]) - names
                if missing:
                    self.fail(f"{name}: expected {sorted(missing)}, got {sorted(names)}")
                continue
            bad = [f"{f['name']}: {f['message']}" for f in findings
                   if f["severity"] in ("error", "warning") and f["name"] not in ALLOWED_ON_CLEAN]
            if bad or code not in (0, 1) or any(f["severity"] == "error" for f in findings):
                self.fail(f"{name} (clean): exit {code}, findings {bad[:3]}")

    def declarations(self, label):
        """The kernels' writes PyTorch's analysis recorded, as `triton::` schema lines."""
        lines = []
        for launch in label.get("kernel_writes", []):
            if "written" not in launch:
                continue
            params = []
            for i, param in enumerate(launch["tensor_params"]):
                params.append(f"Tensor({chr(97 + i)}!) {param}" if param in launch["written"] else f"Tensor {param}")
            params += ["int n", "float alpha", "int BLOCK"]
            lines.append(f"triton::{launch['kernel']}({', '.join(params)}) -> ()")
        path = os.path.join(self.work, label["file"] + ".schemas.txt")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def triton_training(self):
        for label in self.labels:
            if label.get("dialect") != "TRAINING" or not label.get("kernel_writes"):
                continue
            name = label["file"]
            written = sorted({"acc", "count"} if "same_buffer_twice" not in name else {"acc"})
            code, findings, programs = self.check(name)
            possible = sorted(m["target"] for p in programs for m in p.get("possible_mutations", []))
            claimed = sorted(m["target"] for p in programs for m in p.get("mutations", []))
            if not set(written) <= set(possible) or set(claimed) & set(written):
                self.fail(f"{name}: possible_mutations {possible}, mutations {claimed}; want {written} possible")
            if not any(f["name"] == "unknown-op-may-write-state" for f in findings):
                self.fail(f"{name}: no unknown-op-may-write-state warning")
            out = os.path.join(self.work, "lowered_" + name)
            result = run(self.pt2lint, "lower", self.path(name), "-o", out)
            if result.returncode == 0 or "triton" not in result.stderr.lower() or os.path.exists(out):
                self.fail(f"{name}: lower did not refuse naming the Triton launch: exit {result.returncode} "
                          f"{result.stderr[:200]}")
            schemas = self.declarations(label)
            code, findings, programs = self.check(name, "--op-schemas", schemas)
            claimed = sorted(m["target"] for p in programs for m in p.get("mutations", []))
            warned = [f for f in findings if f["name"] == "unknown-op-may-write-state"]
            if claimed != written or warned:
                self.fail(f"{name} with declared writes: mutations {claimed} (want {written}), "
                          f"{len(warned)} unknown-op warnings")
            self.checked += 1

    def diffs(self):
        clean = {}
        for label in self.labels:
            # Clean: no expected finding other than the warnings a clean program may have.
            if set(label.get("expect") or ()) <= ALLOWED_ON_CLEAN and label.get("dialect") in ("TRAINING", "ATEN"):
                clean.setdefault(label["case"], {})[label["dialect"]] = label["file"]
        for case, pair in sorted(clean.items()):
            if len(pair) != 2:
                continue
            result = run(self.pt2lint, "diff", self.path(pair["TRAINING"]), self.path(pair["ATEN"]))
            self.checked += 1
            if result.returncode not in (0, 3):
                self.fail(f"diff {pair['TRAINING']} {pair['ATEN']}: exit {result.returncode}: {result.stdout[:300]}")
        for before, after in (("triton_wrap.pt2", "triton_wrap__launch_erased.pt2"),):
            if not os.path.exists(self.path(after)):
                continue
            result = run(self.pt2lint, "diff", self.path(before), self.path(after))
            self.checked += 1
            if result.returncode not in (1, 3):
                self.fail(f"diff {before} {after}: exit {result.returncode}, want 1 or 3 (the launch is gone)")


def overwrites(checker):
    clean, bad = "fp8_observers.aten.pt2", "fp8_observers__swapped_write_backs.aten.pt2"
    if not os.path.exists(checker.path(bad)):
        return
    result = run(checker.pt2lint, "diff", checker.path(clean), checker.path(bad))
    checker.checked += 1
    if result.returncode != 1:
        checker.fail(f"diff {clean} {bad}: exit {result.returncode}, want 1 (the write-backs are exchanged)")
    fixed = os.path.join(checker.work, "fixed_" + bad)
    result = run(checker.pt2lint, "fix", checker.path(bad), "-o", fixed)
    checker.checked += 1
    if result.returncode != 0 or not os.path.exists(fixed):
        checker.fail(f"fix {bad}: exit {result.returncode}: {result.stderr[:300]}")
        return
    result = run(checker.pt2lint, "diff", checker.path(clean), fixed)
    if result.returncode != 0:
        checker.fail(f"diff {clean} fixed_{bad}: exit {result.returncode}, want 0: {result.stdout[:300]}")


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    checker = Checker(*sys.argv[1:4])
    checker.outcomes()
    checker.triton_training()
    checker.diffs()
    overwrites(checker)
    for failure in checker.failures:
        print("FAIL", failure)
    print(f"{checker.checked} checks, {len(checker.failures)} failures")
    return 1 if checker.failures or checker.checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
