#!/usr/bin/env python3
"""Custom ops that write state (--op-schemas, PT310, PT414), on the programs PyTorch 2.11
exported in tests/data/device/customops (TRAINING programs calling the ops, their ATEN twins with
auto_functionalized_v2, and an ATEN program whose custom-op write-back a pass dropped).

  with-schemas:    pass the folder's schemas.txt. Clean programs get no error and no warning
                   other than output-aliases-state; every defect is caught by the rule its label
                   names; both dialects have the same effective mutation set; `diff TRAINING
                   ATEN` exits 0; `lower` of every TRAINING program gives a program `check`
                   finds clean and whose diff against the ATEN twin is empty. Writes the lowered
                   programs to WORK_DIR (tests/customops/run_lowered.py runs them in PyTorch).
  without-schemas: the unknown-op warning names op and state, JSON `possible_mutations` lists
                   the state and `mutations` does not, `diff` of a TRAINING program against
                   itself exits 3 (undecidable), `diff TRAINING ATEN` learns the writes from the
                   twin and exits 0, `lower` refuses naming the op, `schemas --missing` prints
                   the op, and the dropped write-back is still caught (v2 needs no schema).

usage: check_customops.py PT2LINT DATA_DIR WORK_DIR with-schemas|without-schemas"""
import json
import os
import shutil
import subprocess
import sys

ALLOWED_ON_CLEAN = {"output-aliases-state"}


def run(*args):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=60)


def check_json(pt2lint, path, *extra):
    result = run(pt2lint, "check", "--format", "json", path, *extra)
    report = json.loads(result.stdout)
    file = report["files"][0]
    return result.returncode, file["findings"], file["programs"]


def state_set(programs, key):
    return sorted((m["kind"], m["target"]) for p in programs for m in p.get(key, []))


class Checker:
    def __init__(self, pt2lint, data, work):
        self.pt2lint, self.data, self.work = pt2lint, data, work
        self.schemas = os.path.join(data, "schemas.txt")
        with open(os.path.join(data, "labels.json")) as f:
            self.labels = json.load(f)
        self.failures = []
        self.checked = 0
        os.makedirs(work, exist_ok=True)

    def fail(self, message):
        self.failures.append(message)

    def path(self, name):
        return os.path.join(self.data, name)

    def clean_pairs(self):
        """(case, TRAINING file, ATEN file) for every clean case with both dialects."""
        by_case = {}
        for label in self.labels:
            if label.get("expect") == [] and "corruption" not in label:
                by_case.setdefault(label["case"], {})[label["dialect"]] = label["file"]
        return [(case, d["TRAINING"], d["ATEN"]) for case, d in sorted(by_case.items())
                if "TRAINING" in d and "ATEN" in d]

    def with_schemas(self):
        op = ["--op-schemas", self.schemas]
        sets = {}
        for label in self.labels:
            path = self.path(label["file"])
            code, findings, programs = check_json(self.pt2lint, path, *op)
            self.checked += 1
            names = {f["name"] for f in findings}
            if label.get("expect") == []:
                bad = [f"{f['name']}: {f['message']}" for f in findings if f["name"] not in ALLOWED_ON_CLEAN]
                if code != 0 or bad:
                    self.fail(f"{label['file']}: clean program, exit {code}, findings {bad}")
            else:
                missing = set(label["expect"]) - names
                if missing or code != 1:
                    self.fail(f"{label['file']}: expected {label['expect']}, exit {code}, got {sorted(names)}")
            sets[label["file"]] = state_set(programs, "mutations")
            if state_set(programs, "possible_mutations"):
                self.fail(f"{label['file']}: possible_mutations with every schema declared")
        # The config key `op-schemas` works like --op-schemas (paths relative to the config; a
        # config may name only files inside its own folder tree, so the schemas sit beside it).
        config = os.path.join(self.work, ".pt2lint.toml")
        shutil.copy(self.schemas, os.path.join(self.work, "schemas.txt"))
        with open(config, "w") as f:
            f.write('op-schemas = ["schemas.txt"]\n')
        for case, training, aten in self.clean_pairs():
            code, findings, _ = check_json(self.pt2lint, self.path(training), "--config", config)
            if code != 0 or any(f["name"] == "unknown-op-may-write-state" for f in findings):
                self.fail(f"{training}: the config key op-schemas is not honoured (exit {code})")
        for case, training, aten in self.clean_pairs():
            if not sets[training] or sets[training] != sets[aten]:
                self.fail(f"{case}: mutation sets TRAINING {sets[training]} vs ATEN {sets[aten]}")
            result = run(self.pt2lint, "diff", self.path(training), self.path(aten), *op)
            if result.returncode != 0:
                self.fail(f"{case}: diff TRAINING ATEN exits {result.returncode}: {result.stdout}")
            lowered = os.path.join(self.work, f"{case}.lowered.pt2")
            result = run(self.pt2lint, "lower", self.path(training), "-o", lowered, *op)
            if result.returncode != 0:
                self.fail(f"{case}: lower exits {result.returncode}: {result.stderr}")
                continue
            code, findings, programs = check_json(self.pt2lint, lowered)  # v2 needs no schema
            bad = [f"{f['name']}: {f['message']}" for f in findings if f["name"] not in ALLOWED_ON_CLEAN]
            if code != 0 or bad:
                self.fail(f"{case}: the lowered program is not clean: {bad}")
            if state_set(programs, "mutations") != sets[aten]:
                self.fail(f"{case}: lowered mutation set {state_set(programs, 'mutations')} vs ATEN {sets[aten]}")
            result = run(self.pt2lint, "diff", lowered, self.path(aten), *op)
            if result.returncode != 0 or result.stdout.strip():
                self.fail(f"{case}: diff lowered ATEN is not empty (exit {result.returncode}): {result.stdout}")
            result = run(self.pt2lint, "diff", self.path(training), lowered, *op)
            if result.returncode != 0:
                self.fail(f"{case}: diff TRAINING lowered exits {result.returncode}: {result.stdout}")

        # The lowered programs committed for the device check (run_lowered.py) stay valid.
        committed = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lowered")
        for case, training, aten in self.clean_pairs():
            path = os.path.join(committed, f"{case}.lowered.pt2")
            if not os.path.exists(path):
                self.fail(f"{case}: no committed lowered program {path}")
                continue
            code, findings, _ = check_json(self.pt2lint, path)
            result = run(self.pt2lint, "diff", path, self.path(aten))
            if code != 0 or [f for f in findings if f["name"] not in ALLOWED_ON_CLEAN] or result.returncode != 0:
                self.fail(f"{path}: not clean, or its diff against {aten} is not empty")

        # A bundled schema (ExecuTorch's llama::update_cache) needs no --op-schemas.
        golden = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden", "dataflow",
                              "unknown-op-may-write-state", "good_bundled_executorch_update_cache.textproto")
        lowered = os.path.join(self.work, "executorch_update_cache.lowered.textproto")
        result = run(self.pt2lint, "lower", golden, "-o", lowered, "--format", "textproto")
        if result.returncode != 0:
            self.fail(f"lower of the bundled-schema program exits {result.returncode}: {result.stderr}")
        else:
            code, findings, programs = check_json(self.pt2lint, lowered)
            if code != 0 or findings or state_set(programs, "mutations") != [("buffer", "k_cache")]:
                self.fail(f"the lowered bundled-schema program: exit {code}, {findings}, {programs}")

        # A custom op writing a view of state: the write is carried back to the base.
        here = os.path.dirname(os.path.abspath(__file__))
        view, schemas = os.path.join(here, "view_write.textproto"), os.path.join(here, "view_write_schemas.txt")
        lowered = os.path.join(self.work, "view_write.lowered.textproto")
        result = run(self.pt2lint, "lower", view, "-o", lowered, "--format", "textproto", "--op-schemas", schemas)
        if result.returncode != 0:
            self.fail(f"lower of view_write.textproto exits {result.returncode}: {result.stderr}")
        else:
            code, findings, programs = check_json(self.pt2lint, lowered)
            text = open(lowered).read()
            if code != 0 or findings or state_set(programs, "mutations") != [("buffer", "cache")] or \
                    "auto_functionalized_v2" not in text or "slice_scatter" not in text:
                self.fail(f"view_write lowered: exit {code}, {findings}, {programs}")
            if run(self.pt2lint, "diff", view, lowered, "--op-schemas", schemas).returncode != 0:
                self.fail("view_write: diff TRAINING lowered is not clean")

    def without_schemas(self):
        pairs = self.clean_pairs()
        for case, training, aten in pairs:
            self.checked += 1
            code, findings, programs = check_json(self.pt2lint, self.path(training))
            warned = [f for f in findings if f["name"] == "unknown-op-may-write-state"]
            if code != 0 or not warned or any(f["severity"] != "warning" for f in warned):
                self.fail(f"{training}: expected unknown-op-may-write-state warnings, exit {code}")
            for f in warned:
                if "schema" not in f["message"] or not f.get("state") or "--op-schemas" not in f["fix"]["description"]:
                    self.fail(f"{training}: the warning does not name the state and how to declare: {f}")
            possible = state_set(programs, "possible_mutations")
            _, _, aten_programs = check_json(self.pt2lint, self.path(aten))
            written = state_set(aten_programs, "mutations")
            if not set(written) <= set(possible) or state_set(programs, "mutations"):
                self.fail(f"{training}: possible_mutations {possible} should cover the twin's writes {written}, "
                          f"mutations stay empty")
            result = run(self.pt2lint, "diff", self.path(training), self.path(training))
            if result.returncode != 3 or "write-back-undecidable" not in result.stdout:
                self.fail(f"{training}: diff against itself exits {result.returncode}, expected 3 (undecidable)")
            result = run(self.pt2lint, "diff", self.path(training), self.path(aten))
            if result.returncode != 0 or "learned from" not in result.stdout:
                self.fail(f"{case}: diff TRAINING ATEN without schemas exits {result.returncode} "
                          f"(expected 0, learning from the twin): {result.stdout}")
            result = run(self.pt2lint, "lower", self.path(training), "-o", os.path.join(self.work, "refused.pt2"))
            op_name = training  # the op is named in the message; check for the namespace
            if result.returncode != 1 or "schema pt2lint does not know" not in result.stderr or \
                    "pt2lint_" not in result.stderr:
                self.fail(f"{op_name}: lower should refuse naming the op, exit {result.returncode}: {result.stderr}")
            result = run(self.pt2lint, "schemas", "--missing", self.path(training))
            if result.returncode != 0 or "pt2lint_" not in result.stdout:
                self.fail(f"{training}: schemas --missing lists no op: {result.stdout}")
        for label in self.labels:
            if "corruption" not in label:
                continue
            self.checked += 1
            code, findings, _ = check_json(self.pt2lint, self.path(label["file"]))
            if code != 1 or not set(label["expect"]) <= {f["name"] for f in findings}:
                self.fail(f"{label['file']}: without schemas, expected {label['expect']}, exit {code}")


def main():
    pt2lint, data, work, mode = sys.argv[1:5]
    checker = Checker(pt2lint, data, work)
    getattr(checker, mode.replace("-", "_"))()
    for failure in checker.failures:
        print("FAIL:", failure)
    print(f"custom-op programs ({mode}): {checker.checked} checked,",
          "FAILED" if checker.failures else "ok")
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main())
