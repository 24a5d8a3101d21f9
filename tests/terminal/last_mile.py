#!/usr/bin/env python3
"""The paths around the findings, as a user at a terminal meets them (issue 26), on real files
from tests/data: the closing summary, empty folders, excludes and .gitignore, cascades, baselines,
the concise and statistics formats, colour, `config`, the user's source line, subcommands that
agree, `reduce` that strips what is private, and standard input named as the user knows it.

usage: last_mile.py PT2LINT SOURCE_DIR CASE     (CASE: one of CASES below; `all` runs every one)
Exits 1 naming each expectation that failed."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

PT2LINT = ""
DATA = ""
FAILURES = []

CLEAN = "device/zoo/timm_resnet_eval.pt2"            # no finding by default
BROKEN = "demo/kv_cache_broken.pt2"                   # one error, with a stack trace
STATIC_CACHE = "terminal/hf_gemma_2l.pt2"             # PT305 errors and PT308 warnings (corpus copy)
TRUNCATED = "terminal/conv_bn_train__truncated.pt2"   # the program JSON cut short (corpus copy)
CUSTOM = "device/customops/ema_buffer.pt2"            # a TRAINING program with a custom op
CUSTOM_SCHEMAS = "device/customops/schemas.txt"


def data(name):
    return os.path.join(DATA, name)


def run(*args, stdin=None, env=None, cwd=None):
    full_env = dict(os.environ)
    full_env.pop("NO_COLOR", None)
    full_env.pop("FORCE_COLOR", None)
    full_env.update(env or {})
    proc = subprocess.run([PT2LINT, *args], input=stdin, capture_output=True, env=full_env, cwd=cwd, timeout=120)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")


def expect(condition, what, detail=""):
    if not condition:
        FAILURES.append(f"{what}" + (f"\n    {detail}" if detail else ""))
    print(("ok   " if condition else "FAIL ") + what)


def last_line(text):
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def json_report(*args, **kwargs):
    code, out, err = run("check", *args, "--format", "json", **kwargs)
    try:
        return code, json.loads(out), err
    except ValueError:
        return code, None, err


def findings_of(report):
    return [f for file in report["files"] for f in file["findings"]] if report else []


# 1. The closing summary, paths that yield nothing, duplicates, excludes and .gitignore.
def case_summary(work):
    code, out, _ = run("check", data(CLEAN))
    expect(code == 0 and last_line(out) == "1 file checked: no findings",
           "a clean file ends with '1 file checked: no findings'", repr(last_line(out)))
    code, out, _ = run("check", data(BROKEN), data(CLEAN))
    expect(code == 1 and re.fullmatch(r"2 files checked: 1 error, \d+ warnings?, \d+ notes?", last_line(out)) is not None,
           "two files end with '2 files checked: 1 error, ...'", repr(last_line(out)))
    code, out, _ = run("check", data(CLEAN), data(CLEAN), os.path.join(DATA, "device", "..", CLEAN))
    expect(last_line(out) == "1 file checked: no findings", "a file given three times is checked once", repr(last_line(out)))
    code, report, _ = json_report(data(BROKEN), os.path.dirname(data(BROKEN)))
    paths = [f["path"] for f in report["files"]] if report else []
    expect(len(paths) == len({os.path.realpath(p) for p in paths}) == 2,
           "a file named and inside a named folder is checked once", str(paths))

    empty = os.path.join(work, "empty")
    os.makedirs(empty)
    code, out, err = run("check", empty)
    expect(code == 2 and f"no programs found under '{empty}'" in err,
           "an empty folder warns on stderr and exits 2", f"exit {code}, stderr {err!r}")
    code, out, err = run("check", empty, data(CLEAN))
    expect(code == 2 and "no programs found under" in err and "1 file checked" in out,
           "an empty folder among others still fails the run (exit 2)", f"exit {code}")

    tree = os.path.join(work, "tree")
    for folder in ("models", ".venv/lib", "__pycache__", "node_modules/x", "legacy", "build/out"):
        os.makedirs(os.path.join(tree, folder))
    for folder in ("models", ".venv/lib", "__pycache__", "node_modules/x", "legacy", "build/out"):
        shutil.copy(data(CLEAN), os.path.join(tree, folder, "m.pt2"))
    code, report, _ = json_report(tree)
    walked = sorted(os.path.relpath(f["path"], tree) for f in report["files"]) if report else []
    expect(walked == ["build/out/m.pt2", "legacy/m.pt2", "models/m.pt2"],
           "the walk skips .venv, __pycache__ and node_modules by default", str(walked))
    code, report, _ = json_report(tree, "--extend-exclude", "legacy")
    walked = sorted(os.path.relpath(f["path"], tree) for f in report["files"]) if report else []
    expect(walked == ["build/out/m.pt2", "models/m.pt2"], "--extend-exclude adds to the defaults", str(walked))
    code, report, _ = json_report(tree, "--exclude", "models")
    walked = sorted(os.path.relpath(f["path"], tree) for f in report["files"]) if report else []
    expect(".venv/lib/m.pt2" in walked and "models/m.pt2" not in walked,
           "--exclude replaces the defaults", str(walked))
    with open(os.path.join(tree, ".pt2lint.toml"), "w") as f:
        f.write('extend-exclude = ["build/out"]\n')
    code, report, _ = json_report(tree)
    walked = sorted(os.path.relpath(f["path"], tree) for f in report["files"]) if report else []
    expect(walked == ["legacy/m.pt2", "models/m.pt2"], "the config's extend-exclude (a path) applies", str(walked))
    os.remove(os.path.join(tree, ".pt2lint.toml"))
    os.makedirs(os.path.join(tree, ".git"))
    with open(os.path.join(tree, ".gitignore"), "w") as f:
        f.write("# generated\n/legacy/\n")
    with open(os.path.join(tree, "models", ".gitignore"), "w") as f:
        f.write("*.pt2\n!keep.pt2\n")
    shutil.copy(data(CLEAN), os.path.join(tree, "models", "keep.pt2"))
    code, report, _ = json_report(tree)
    walked = sorted(os.path.relpath(f["path"], tree) for f in report["files"]) if report else []
    expect(walked == ["build/out/m.pt2", "models/keep.pt2"], ".gitignore files (nested, negated) are respected", str(walked))
    code, report, _ = json_report(tree, "--no-respect-gitignore")
    walked = sorted(os.path.relpath(f["path"], tree) for f in report["files"]) if report else []
    expect("legacy/m.pt2" in walked and "models/m.pt2" in walked, "--no-respect-gitignore walks into them", str(walked))
    code, report, _ = json_report(os.path.join(tree, "models", "m.pt2"))
    expect(report is not None and len(report["files"]) == 1, "a file named on the command line is never excluded")
    only_ignored = os.path.join(tree, "legacy")
    code, _, err = run("check", os.path.join(tree, "models"), "--exclude", "*.pt2")
    expect(code == 2 and "no programs found under" in err, "a folder whose every file is excluded warns")


# 2. One finding per root cause.
def case_cascades(work):
    code, report, _ = json_report(data(TRUNCATED))
    found = findings_of(report)
    expect(len(found) == 1 and found[0]["rule"] == "PT101",
           "the truncated program gives exactly 1 finding (PT101)", str([f["rule"] for f in found]))
    code, out, _ = run("check", data(TRUNCATED))
    expect("model_weights_config" not in out and "remove the weight" not in out,
           "no state-dict advice when the program was not read")

    # The demo's broken program is structurally unsound (PT204); ignoring PT2 must not let
    # the dataflow rules advise from the broken structure.
    code, report, _ = json_report(data(BROKEN), "--ignore", "PT2")
    found = findings_of(report)
    sound = [p["structure_sound"] for file in report["files"] for p in file["programs"]] if report else []
    expect(not any(f["rule"].startswith("PT3") for f in found) and sound == [False],
           "with PT2 ignored, no dataflow finding is built on the unsound structure",
           f"{[f['rule'] for f in found]}, structure_sound {sound}")

    code, report, _ = json_report(data(STATIC_CACHE))
    found = findings_of(report)
    pt305 = [i for i, f in enumerate(found) if f["rule"] == "PT305"]
    pt308 = [f for f in found if f["rule"] == "PT308"]
    expect(pt305 and pt308 and all(f.get("cause") in pt305 for f in pt308),
           "every PT308 of a static-cache constant folds under its PT305",
           f"{len(pt305)} PT305, PT308 causes {[f.get('cause') for f in pt308]}")
    code, out, _ = run("check", data(STATIC_CACHE))
    shown = [line for line in out.splitlines() if "[PT308" in line]
    expect(not shown and "aliased-state-written" in out,
           "the text report shows the PT305s only, each saying what it explains", f"{len(shown)} PT308 lines")


# 3. Baselines.
def case_baseline(work):
    baseline = os.path.join(work, "baseline.json")
    code, out, err = run("check", data(CLEAN), "--baseline", baseline)
    expect(code == 0 and "does not exist yet" in err and "--update-baseline" in err,
           "a first run with a missing baseline passes, with a note saying how to create it", f"exit {code}, {err!r}")
    code, out, err = run("check", data(BROKEN), "--baseline", baseline)
    expect(code == 1, "a missing baseline reads as empty: the error is new (exit 1)", f"exit {code}")
    code, out, err = run("check", data(BROKEN), "--baseline", baseline, "--update-baseline")
    expect(os.path.exists(baseline) and code == 0, "--update-baseline writes it", f"exit {code} {err}")
    code, out, err = run("check", data(BROKEN), data(CLEAN), "--baseline", baseline)
    expect(code == 0 and "error (baselined):" in out, "text marks a baselined finding '(baselined)'")
    expect(last_line(out).startswith("2 files checked: 1 error (1 baselined)"),
           "the summary counts new and baselined apart", repr(last_line(out)))
    code, report, _ = json_report(data(BROKEN), "--baseline", baseline)
    summary = report["summary"] if report else {}
    expect(summary.get("errors") == 1 and summary.get("baselined", {}).get("errors") == 1
           and summary.get("new", {}).get("errors") == 0,
           "JSON summary: errors (all) = new + baselined", str(summary))
    code, out, _ = run("check", data(BROKEN), "--baseline", baseline, "--format", "concise")
    expect("(baselined)" in out and "(1 baselined)" in last_line(out), "concise marks and counts them too")

    # The config key, resolved against the config's folder.
    project = os.path.join(work, "project")
    os.makedirs(project)
    shutil.copy(data(BROKEN), os.path.join(project, "model.pt2"))
    # Fingerprints hold the path as given: the baseline is made where CI runs, as documented.
    run("check", "model.pt2", "--baseline", "accepted.json", "--update-baseline", cwd=project)
    with open(os.path.join(project, "pyproject.toml"), "w") as f:
        f.write('[tool.pt2lint]\nbaseline = "accepted.json"\n')
    code, out, _ = run("check", "model.pt2", cwd=project)
    expect(code == 0 and "(baselined)" in out, "the `baseline` config key applies", f"exit {code}")

    # A stale entry: a finding that is gone.
    with open(baseline) as f:
        doc = json.load(f)
    stale = dict(doc["findings"][0], fingerprint="0" * 16, message="a finding fixed long ago")
    doc["findings"].append(stale)
    with open(baseline, "w") as f:
        json.dump(doc, f)
    code, out, err = run("check", data(BROKEN), "--baseline", baseline)
    expect(code == 0 and "1 baseline entry no longer match" in err and "fixed long ago" in err,
           "stale baseline entries are reported", err)
    # Entries of rules that did not run were not looked for: never called stale (dropping
    # them with --update-baseline would lose accepted findings).
    for narrowed in (["--select", "PT3"], ["--ignore", "PT204"]):
        code, out, err = run("check", data(BROKEN), "--baseline", baseline, *narrowed)
        expect(code == 0 and "no longer match" not in err,
               f"with {' '.join(narrowed)}, only entries of rules that ran can be stale", err)


# 4. Formats and flags.
def case_formats(work):
    code, out, _ = run("check", data(STATIC_CACHE), "--format", "concise")
    lines = out.splitlines()
    finding_lines = [line for line in lines[:-1]]
    pattern = re.compile(r"^\S+:\w+: (error|warning|note)(?: \(baselined\))?: .+ \[PT\d{3} [a-z-]+\]$")
    expect(finding_lines and all(pattern.match(line) for line in finding_lines)
           and lines[-1].startswith("1 file checked: "),
           "--format concise: one line per finding, then the summary", "\n".join(lines[:3]))
    code, out, _ = run("check", data(STATIC_CACHE), "--statistics")
    rows = out.splitlines()
    table = rows[:-1]
    expect(table and all(re.fullmatch(r"\d+\tPT\d{3}\t[a-z-]+\t(error|warning|note)\t\d+ fixable", r) for r in table)
           and "  at:" not in out and rows[-1].startswith("1 file checked"),
           "--statistics alone prints only the table (count, rule, name, severity, fixable) and the summary",
           "\n".join(rows[:4]))
    code, _, _ = run("check", data(BROKEN), "--exit-zero")
    expect(code == 0, "--exit-zero exits 0 on error findings", f"exit {code}")
    code, _, _ = run("check", os.path.join(work, "missing.pt2"), "--exit-zero")
    expect(code == 2, "--exit-zero still exits 2 on a missing path", f"exit {code}")
    _, out, _ = run("check", data(BROKEN), "--color", "always")
    expect("\x1b[" in out, "--color always colours a pipe")
    _, out, _ = run("check", data(BROKEN), env={"FORCE_COLOR": "1"})
    expect("\x1b[" in out, "FORCE_COLOR colours a pipe")
    _, out, _ = run("check", data(BROKEN), "--color", "never", env={"FORCE_COLOR": "1"})
    expect("\x1b[" not in out, "--color never wins over FORCE_COLOR")
    _, out, _ = run("check", data(BROKEN), env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    expect("\x1b[" not in out, "NO_COLOR wins over FORCE_COLOR")
    _, out, _ = run("check", data(BROKEN))
    expect("\x1b[" not in out, "no colour on a pipe by default")

    project = os.path.join(work, "project")
    os.makedirs(os.path.join(project, "tests"))
    shutil.copy(data(BROKEN), os.path.join(project, "tests", "model.pt2"))
    with open(os.path.join(project, ".pt2lint.toml"), "w") as f:
        f.write('extend-select = ["state-is-used"]\nignore = ["PT308"]\n'
                '[per-file-ignores]\n"tests/*" = ["PT204"]\n[severity]\nPT301 = "warning"\n')
    code, out, _ = run("config", os.path.join(project, "tests", "model.pt2"))
    rules = dict(re.findall(r"^  (PT\d{3}) +\S+ +(\w+)$", out, re.M))
    expect(code == 0 and ".pt2lint.toml" in out and "PT204" not in rules and "PT308" not in rules
           and rules.get("PT301") == "warning" and "PT306" in rules and "PT201" in rules,
           "`pt2lint config FILE` shows the config and the rules that run on FILE", out[:400])
    shutil.copy(data(BROKEN), os.path.join(project, "model.pt2"))
    code, out, _ = run("config", os.path.join(project, "model.pt2"))
    rules = dict(re.findall(r"^  (PT\d{3}) +\S+ +(\w+)$", out, re.M))
    expect(code == 0 and "PT204" in rules and "PT308" not in rules,
           "`pt2lint config` applies per-file-ignores to the file's own path", str(sorted(rules)))


# 5. The user's source line.
def case_source(work):
    code, report, _ = json_report(data(BROKEN))
    with_source = [f for f in findings_of(report) if f.get("source")]
    expect(with_source and all(isinstance(f["source"].get("line"), int) and f["source"].get("file") for f in with_source),
           "JSON findings on a node carry the user's source line", str(with_source[:1]))
    if not with_source:
        return
    source = with_source[0]["source"]
    _, out, _ = run("check", data(BROKEN))
    expect(f"  source: {source['file']}:{source['line']}" in out, "text shows it as '  source: FILE:LINE ...'")
    root = os.path.dirname(source["file"])
    if os.path.isabs(source["file"]) and root:
        _, report, _ = json_report(data(BROKEN), "--source-root", root)
        mapped = [f["source"]["file"] for f in findings_of(report) if f.get("source")]
        expect(mapped and mapped[0] == os.path.basename(source["file"]),
               "--source-root maps the path as SARIF does", str(mapped))


# 7. Subcommands agree.
def case_subcommands(work):
    out_file = lambda name: os.path.join(work, name)
    lowered = out_file("lowered.pt2")
    code, _, err = run("lower", "--op-schemas", data(CUSTOM_SCHEMAS), data(CUSTOM), "-o", lowered)
    expect(code == 0 and os.path.exists(lowered), "`lower --op-schemas F IN -o OUT` works (F does not swallow IN)", err)
    calls = {
        "check": ["check", data(BROKEN)],
        "rules": ["rules"],
        "explain": ["explain", "PT204"],
        "lower": ["lower", data(CUSTOM), "--op-schemas", data(CUSTOM_SCHEMAS)],
        "contract": ["contract", data(CLEAN)],
        "diff": ["diff", data(CLEAN), data(CLEAN), "--format", "json"],
        "schemas": ["schemas", data(CUSTOM), "--missing"],
        "fix": ["fix", data(BROKEN)],
        "graph": ["graph", data(BROKEN), "--finding", "1"],
        "reduce": ["reduce", data(BROKEN), "--rule", "PT204"],
        "config": ["config", data(CLEAN)],
    }
    for name, args in calls.items():
        target = out_file(f"out-{name}")
        code, _, err = run(*args, "-o", target)
        expect(code != 2 and os.path.exists(target) and os.path.getsize(target) > 0,
               f"`{name}` accepts -o and writes there", f"exit {code}: {err[:300]}")
    code, _, _ = run("diff", data(CLEAN), data(CLEAN), "--format", "html", "-o", out_file("diff.html"))
    expect(code == 0 and "<html" in open(out_file("diff.html")).read(), "`diff --format html -o FILE` writes the page")

    code, new_form, _ = run("schemas", data(CUSTOM), "--missing")
    code2, old_form, _ = run("schemas", "--missing", data(CUSTOM))
    expect(code == code2 == 0 and new_form == old_form and "::" in new_form,
           "`schemas FILE --missing` and `schemas --missing FILE` agree")
    _, verbose, _ = run("check", data(CUSTOM), "--verbose")
    listed = set()
    for line in verbose.splitlines():
        if "ops without a known schema" in line:
            listed |= set(line.split(":")[-1].split())
    templated = {line.split("(")[0] for line in new_form.splitlines() if line and not line.startswith("#")}
    expect(listed and {op.replace("torch.ops.", "").rsplit(".", 1)[0].replace(".", "::", 1) for op in listed} ==
           {t.split(".")[0] for t in templated},
           "`schemas --missing` lists the ops `check --verbose` calls unknown", f"{listed} vs {templated}")

    code, _, err = run("chek", data(CLEAN))
    expect(code == 2 and "did you mean 'check'?" in err, "a misspelt subcommand gets a did-you-mean", err)
    expect("unknown subcommand 'chek'" in err and "A subcommand is required" not in err,
           "a misspelt subcommand is called unknown, not missing", err)
    code, _, err = run(data(CLEAN))
    expect(code == 2 and f"pt2lint check {data(CLEAN)}" in err, "a file given as the subcommand: `pt2lint check FILE` is suggested", err)
    missing = os.path.join(work, "missing.pt2")
    for name, args in {"contract": [missing], "diff": [missing, missing], "schemas": [missing, "--missing"],
                       "graph": [missing], "check": [missing]}.items():
        code, _, err = run(name, *args)
        expect(code == 2 and err.count("cannot open") == 1 and err.count(missing) == 1,
               f"`{name}` on a missing file says 'cannot open PATH' once", err)
    code, _, err = run("check", data(CLEAN), "--selct", "PT2")
    expect(code == 2 and "did you mean '--select'?" in err, "a misspelt flag gets a did-you-mean", err)
    code, out, _ = run("explain", "PT3")
    listed = re.findall(r"^(PT3\d\d) ", out, re.M)
    _, rules, _ = run("rules")
    family = re.findall(r"^(PT3\d\d) ", rules, re.M)
    expect(code == 0 and listed == family and len(family) > 3, "`explain PT3` lists the PT3 family", out[:300])


# 9. reduce strips what is private; messages never name temporary files.
def case_private(work):
    reduced = os.path.join(work, "reduced.textproto")
    code, _, err = run("reduce", data(STATIC_CACHE), "--rule", "PT305", "-o", reduced)
    text = open(reduced).read() if os.path.exists(reduced) else ""
    stripped_from = re.search(r"from (\d+) to", err)
    expect(code == 0 and "# expect: error constants-are-not-written" in text and "stack_trace" not in text
           and "nn_module_stack" not in text and "/src/" not in text,
           "reduce keeps the finding and drops stack traces, module stacks and paths", err)
    kept = os.path.join(work, "kept.textproto")
    code, _, err = run("reduce", data(STATIC_CACHE), "--rule", "PT305", "-o", kept, "--keep-metadata")
    kept_from = re.search(r"from (\d+) to", err)
    expect(code == 0 and stripped_from and kept_from and int(stripped_from[1]) < int(kept_from[1]),
           "--keep-metadata starts from the file with its metadata (the default strips it first)",
           f"{stripped_from and stripped_from[1]} vs {kept_from and kept_from[1]}")
    kept_text = open(kept).read() if os.path.exists(kept) else ""
    expect("stack_trace" in kept_text and "# expect: error constants-are-not-written" in kept_text,
           "--keep-metadata keeps the surviving nodes' stack traces in the reduced file")

    with open(data(TRUNCATED), "rb") as f:
        blob = f.read()
    tmp = tempfile.gettempdir()
    code, out, err = run("check", "-", stdin=blob)
    expect("<stdin>" in out and "pt2lint-" not in out + err and tmp + "/" not in out + err,
           "check - names standard input <stdin>, never the temporary file", (out + err)[:400])
    code, out, err = run("check", "-", "--stdin-filename", "<bytes>", "--format", "json", stdin=blob)
    expect("<bytes>" in out and "pt2lint-" not in out + err, "--stdin-filename names it in JSON too")

    # A textproto has no magic bytes: on standard input it is known by its opening.
    with open(os.path.join(os.path.dirname(DATA), "customops", "view_write.textproto"), "rb") as f:
        textproto = f.read()
    code, report, err = json_report("-", stdin=textproto)
    rules = [f["rule"] for f in findings_of(report)]
    expect(code in (0, 1) and rules and "PT101" not in rules and "pt2lint-" not in err,
           "a textproto piped to `check -` is read as one", f"exit {code}, {rules}, {err[:200]}")
    code, out, _ = run("check", "-", stdin=b"\x00\x01 not a program")
    expect(code == 1 and "<stdin>" in out and "is not a .pt2 archive or a program JSON" in out,
           "other bytes on standard input are called what they are not", out[:300])


CASES = {
    "summary": case_summary,
    "cascades": case_cascades,
    "baseline": case_baseline,
    "formats": case_formats,
    "source": case_source,
    "subcommands": case_subcommands,
    "private": case_private,
}


def main():
    global PT2LINT, DATA
    PT2LINT, source, case = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    DATA = os.path.join(os.path.abspath(source), "tests", "data")
    for name, body in CASES.items():
        if case not in ("all", name):
            continue
        with tempfile.TemporaryDirectory(prefix=f"last-mile-{name}-") as work:
            body(work)
    if FAILURES:
        print(f"\n{len(FAILURES)} expectation(s) failed:\n  " + "\n  ".join(FAILURES))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
