#!/usr/bin/env python3
"""Joint programs PyTorch 2.11 exported in tests/data/device/joint (export_joint.py, results.json):
issue 22's joint-graph contract and issue 23's gradient pairings.

  - every clean joint program and its forward program: no error and no warning by default, and
    none from the opt-in joint-gradient-order (the order _export_forward_backward emits, measured);
  - `diff NAME.forward.pt2 NAME.pt2` exits 0 (a joint program keeps its forward program's
    promises and gains its gradients by design), and `diff NAME.pt2 NAME.pt2` exits 0;
  - every defect: caught by the rules its record names (`expect`), and `diff CLEAN DEFECT` by the
    gradient rules of its corruption (PT415-PT417);
  - `fix` on every defect: a repair only where the shapes and dtypes decide, and then the
    repaired signature is the clean program's, it checks clean and `diff CLEAN FIXED` exits 0;
    otherwise exit 1 with the reason (a tie names its candidates; a dropped gradient is out of
    reach); PyTorch's verdict on the device for each repair (results.json) is equal to eager
    and to the clean program;
  - `lower` on every clean joint program: written with its gradients unchanged (`diff` exits 0),
    as PyTorch judged on the device, or refused naming the joint program.

usage: check_joint.py PT2LINT DATA_DIR WORK_DIR"""
import json
import os
import subprocess
import sys
import zipfile

# What `diff CLEAN DEFECT` must report for each corruption, and what `fix` must do.
DIFF_RULES = {"gradient_dropped": {"gradient-lost"}, "gradients_swapped": {"gradient-changed"},
              "gradient_renamed": {"gradient-gained", "gradient-lost"},
              "gradient_twice": {"gradient-lost", "gradient-gained"}}
REFUSED = {"joint_mlp__gradient_dropped": "out of reach", "joint_batchnorm__two_renamed_tie": "more than one pairing"}
UNSEEN = {"joint_batchnorm__same_shape_swapped"}  # two (8,) gradients exchanged: nothing can tell


def run(*args):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=120)


def output_specs(path):
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if name.endswith(".json") and "/models/" in "/" + name:
                return json.loads(z.read(name))["graph_module"]["signature"]["output_specs"]
    return None


class Checker:
    def __init__(self, pt2lint, data, work):
        self.pt2lint, self.data, self.work = pt2lint, data, work
        with open(os.path.join(data, "results.json")) as f:
            self.results = json.load(f)
        self.records = self.results["files"]
        self.failures, self.checked = [], 0
        os.makedirs(work, exist_ok=True)

    def fail(self, message):
        self.failures.append(message)

    def path(self, name):
        return os.path.join(self.data, name)

    def findings(self, path, *extra):
        result = run(self.pt2lint, "check", "--format", "json", path, *extra)
        try:
            return result.returncode, json.loads(result.stdout)["files"][0]["findings"]
        except (json.JSONDecodeError, KeyError, IndexError):
            self.fail(f"{path}: check printed no report (exit {result.returncode}): {result.stderr[:300]}")
            return result.returncode, []

    def clean_programs(self):
        for rec in self.records:
            if not rec.get("clean") or "file" not in rec:
                continue
            name = rec["file"]
            self.checked += 1
            code, found = self.findings(self.path(name), "--extend-select", "joint-gradient-order")
            noisy = [f"{f['severity']} {f['name']}" for f in found if f["severity"] in ("error", "warning")]
            if code != 0 or noisy:
                self.fail(f"{name}: a clean program, but exit {code} with {noisy}")
            if rec.get("dialect") != "JOINT":
                continue
            forward = name[:-len(".pt2")] + ".forward.pt2"
            if os.path.exists(self.path(forward)):
                d = run(self.pt2lint, "diff", self.path(forward), self.path(name))
                if d.returncode != 0:
                    self.fail(f"diff {forward} {name}: exit {d.returncode}, expected 0: {d.stdout[-600:]}")
            d = run(self.pt2lint, "diff", self.path(name), self.path(name))
            if d.returncode != 0:
                self.fail(f"diff {name} {name}: exit {d.returncode}")

    def defects(self):
        for rec in self.records:
            if rec.get("clean") is not False or "file" not in rec:
                continue
            name, case = rec["file"], rec["case"]
            self.checked += 1
            code, found = self.findings(self.path(name))
            rules = {f["name"] for f in found if f["severity"] == "error"}
            want = set(rec.get("expect", []))
            if want - rules:
                self.fail(f"{name}: expected {sorted(want)}, found {sorted(rules)}")
            if case in UNSEEN and rules:
                self.fail(f"{name}: recorded as beyond static evidence, but check reports {sorted(rules)}")
            clean = self.path(rec["clean_source"])
            d = run(self.pt2lint, "diff", "--format", "json", clean, self.path(name))
            try:
                diff_rules = {f["name"] for f in json.loads(d.stdout)["files"][0]["findings"]}
            except (json.JSONDecodeError, KeyError, IndexError):
                diff_rules = set()
            expected = set() if case in UNSEEN else DIFF_RULES.get(rec.get("corruption"), set())
            if expected - diff_rules or (not expected and d.returncode != 0):
                self.fail(f"diff {rec['clean_source']} {name}: exit {d.returncode} with {sorted(diff_rules)}, "
                          f"expected {sorted(expected)}")
            self.fix(rec, clean)

    def fix(self, rec, clean):
        name, case = rec["file"], rec["case"]
        if case in UNSEEN:
            return
        out = os.path.join(self.work, case + ".fixed.pt2")
        if os.path.exists(out):
            os.remove(out)
        result = run(self.pt2lint, "fix", self.path(name), "-o", out)
        text = result.stdout + result.stderr
        if case in REFUSED:
            if result.returncode != 1 or REFUSED[case] not in text or os.path.exists(out):
                self.fail(f"fix {name}: expected a refusal ({REFUSED[case]}), got exit {result.returncode}: "
                          f"{text[-400:]}")
            return
        if result.returncode != 0 or not os.path.exists(out):
            self.fail(f"fix {name}: exit {result.returncode}, expected a repair: {text[-400:]}")
            return
        if output_specs(out) != output_specs(clean):
            self.fail(f"fix {name}: the repaired output specs are not {rec['clean_source']}'s")
        code, found = self.findings(out)
        if code != 0 or any(f["severity"] == "error" for f in found):
            self.fail(f"fix {name}: the repair does not check clean (exit {code})")
        d = run(self.pt2lint, "diff", clean, out)
        if d.returncode != 0:
            self.fail(f"diff {rec['clean_source']} {case}.fixed.pt2: exit {d.returncode}: {d.stdout[-400:]}")
        judged = [r for r in self.records if r.get("fix_of") == name]
        if not judged or judged[0].get("same_as_eager") is not True or judged[0].get("same_as_clean") is not True:
            self.fail(f"fix {name}: no PyTorch verdict 'equal to eager and to the clean program' in results.json "
                      f"({judged[:1]})")

    def lowering(self):
        for rec in self.records:
            if not rec.get("clean") or rec.get("dialect") != "JOINT":
                continue
            name = rec["file"]
            out = os.path.join(self.work, name[:-len(".pt2")] + ".lowered.pt2")
            result = run(self.pt2lint, "lower", self.path(name), "-o", out)
            self.checked += 1
            if result.returncode != 0:
                if "joint program" not in result.stderr + result.stdout:
                    self.fail(f"lower {name}: exit {result.returncode} without naming the joint program")
                continue
            d = run(self.pt2lint, "diff", self.path(name), out)
            if d.returncode != 0:
                self.fail(f"diff {name} lowered: exit {d.returncode}: {d.stdout[-400:]}")
            judged = [r for r in self.records if r.get("lower_of") == name]
            if judged and judged[0].get("lower_exit") == 0 and judged[0].get("same_as_clean") is not True:
                self.fail(f"lower {name}: PyTorch judged the lowered program different from its source: {judged[0]}")

    def order(self):
        for rec in self.results.get("order", []):
            if not rec.get("parameter_gradients_in_input_order") or not rec.get("user_input_gradients_in_input_order"):
                self.fail(f"{rec['case']}: _export_forward_backward's order is not the one joint-gradient-order "
                          f"assumes: {rec}")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    checker = Checker(*sys.argv[1:])
    checker.clean_programs()
    checker.defects()
    checker.lowering()
    checker.order()
    for failure in checker.failures:
        print("FAIL", failure)
    print(f"check_joint: {checker.checked} checks, {len(checker.failures)} failures")
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main())
