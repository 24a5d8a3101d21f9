#!/usr/bin/env python3
"""Golden tests: run `pt2lint check --format json` on small programs and compare findings.

Usage: run_golden.py PT2LINT PATH [PATH ...]
Each PATH is a golden file or a folder searched recursively. A golden file is any
`*.textproto` file, or any file X with a sidecar `X.expect` (for formats without comments:
.json, .pt2). Expectations are comment lines, in the file itself or in its sidecar:

  # expect: SEVERITY RULE LOCATION    one line per expected finding (duplicates count)
  # expect: SEVERITY RULE LOCATION {{TEXT}} ...
                                      the same, and that finding's text must contain each
                                      TEXT (a pin, as in MLIR and clang-tidy tests)
  # expect: none                      the file must produce no finding (also the default
                                      for a file without any expect line)
  # ignore-rules: NAME, NAME          findings of these rules are not compared
  # extend-select: NAME, NAME         also run these (opt-in) rules: --extend-select
  # args: ARG ARG                     extra `check` arguments (--time-budget 1e-9, --verify-data)

RULE is a rule name or ID. LOCATION is the finding's most specific location, the first
present of: input_specs[i], output_specs[i], node:NAME, value:NAME, state:FQN,
json:PATH, member:PATH; or `-` when the finding has no location.
A pin `{{TEXT}}` matches a substring, case and spaces exact, of the finding's text: its
message, each note and the fix's description, one per line (so a pin never spans two of them).
Expected findings of one key with different pins each take a finding of their own.
Fails (exit 1) on any unexpected or missing finding, or when pt2lint does not produce a
JSON report; prints every difference first.
"""
import collections
import json
import os
import re
import subprocess
import sys

EXPECT = "# expect:"
IGNORE = "# ignore-rules:"
EXTEND = "# extend-select:"
ARGS = "# args:"
PIN = re.compile(r"\{\{(.+?)\}\}")


def location_key(finding):
    loc = finding.get("location", {})
    if "input_spec" in loc:
        return f"input_specs[{loc['input_spec']}]"
    if "output_spec" in loc:
        return f"output_specs[{loc['output_spec']}]"
    for field, prefix in (("node", "node"), ("value", "value")):
        if loc.get(field):
            return f"{prefix}:{loc[field]}"
    if finding.get("state"):
        return f"state:{finding['state']}"
    for field, prefix in (("json_path", "json"), ("archive_member", "member")):
        if loc.get(field):
            return f"{prefix}:{loc[field]}"
    return "-"


def read_expectations(path, pins=None):
    """Returns (expected Counter of (severity, rule, location), ignored rule set, extra
    selected rules), or raises. When `pins` is a list, each expectation with pins is appended
    to it as ((severity, rule, location), [TEXT, ...])."""
    source = path + ".expect" if os.path.exists(path + ".expect") else path
    expected, ignored, extend = collections.Counter(), set(), []
    with open(source, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if line.startswith(IGNORE):
                ignored |= {r.strip() for r in line[len(IGNORE):].split(",") if r.strip()}
            elif line.startswith(EXTEND):
                extend += [r.strip() for r in line[len(EXTEND):].split(",") if r.strip()]
            elif line.startswith(ARGS):
                extend.append(("args", line[len(ARGS):].split()))
            elif line.startswith(EXPECT):
                rest = line[len(EXPECT):]
                texts = PIN.findall(rest)
                fields = PIN.sub(" ", rest).split()
                if fields == ["none"] and not texts:
                    continue
                if len(fields) != 3 or "{{" in " ".join(fields) or "}}" in " ".join(fields):
                    raise ValueError(f"{source}:{number}: want '# expect: SEVERITY RULE LOCATION "
                                     "[{{TEXT}} ...]'")
                expected[tuple(fields)] += 1
                if texts and pins is not None:
                    pins.append((tuple(fields), texts))
    return expected, ignored, extend


def actual_findings(tool, path, ignored, extend):
    command = [tool, "check", "--no-config", "--format", "json", path]
    rules = [e for e in extend if isinstance(e, str)]
    if rules:
        command += ["--extend-select", ",".join(rules)]
    for e in extend:
        if not isinstance(e, str):
            command += e[1]
    run = subprocess.run(command, capture_output=True, timeout=60)
    return report_findings(run, ignored)


def finding_text(finding):
    """What a pin is matched against: the message, each note and the fix, one per line."""
    lines = [finding.get("message", "")] + list(finding.get("notes", []))
    if finding.get("fix", {}).get("description"):
        lines.append(finding["fix"]["description"])
    return "\n".join(lines)


def report_findings(run, ignored):
    """(found, aliases) of the JSON report a finished pt2lint run printed: found counts
    (severity, rule name, location) keys; aliases maps the same key with the rule ID to it,
    ("message",) + key to a message, and ("texts",) + key to the finding_text of each finding
    of that key. Raises RuntimeError when there is no JSON report."""
    try:
        report = json.loads(run.stdout)
    except ValueError:
        raise RuntimeError(f"exit {run.returncode}, no JSON report: "
                           f"{run.stderr.decode(errors='replace')[-400:]}")
    found = collections.Counter()
    # Findings name the rule by ID and by name; an expectation may use either, so both are kept.
    aliases = {}
    for file in report.get("files", []):
        for f in file.get("findings", []):
            if f.get("name") in ignored or f.get("rule") in ignored:
                continue
            key = (f.get("severity"), f.get("name"), location_key(f))
            found[key] += 1
            aliases[(f.get("severity"), f.get("rule"), key[2])] = key
            aliases.setdefault(("message",) + key, f.get("message", ""))
            aliases.setdefault(("texts",) + key, []).append(finding_text(f))
    return found, aliases


def check_file(tool, path):
    pins = []
    expected, ignored, extend = read_expectations(path, pins)
    found, aliases = actual_findings(tool, path, ignored, extend)
    return compare(expected, found, aliases, pins)


def compare_pins(pins, aliases):
    """One line per pinned expectation that no finding of its key satisfies; each finding
    satisfies one pinned expectation at most."""
    problems = []
    unused = {}
    for key, texts in pins:
        key = aliases.get(key, key)
        candidates = unused.setdefault(key, list(aliases.get(("texts",) + key, [])))
        match = next((i for i, text in enumerate(candidates) if all(t in text for t in texts)), None)
        if match is None:
            shown = " ".join("{{" + t + "}}" for t in texts)
            seen = (candidates[0] if candidates else "").replace("\n", " | ")
            problems.append(f"pin        {' '.join(key)} {shown}: no finding of this key contains it" +
                            (f"; one has: {seen[:200]}" if seen else ""))
        else:
            del candidates[match]
    return problems


def compare(expected, found, aliases, pins=()):
    """One line per missing or unexpected finding, and per pin no finding satisfies; empty when
    they agree."""
    expected = collections.Counter({aliases.get(k, k): n for k, n in expected.items()})
    problems = []
    for key, n in (expected - found).items():
        problems.append(f"missing    {' '.join(key)}" + (f" (x{n})" if n > 1 else ""))
    for key, n in (found - expected).items():
        message = aliases.get(("message",) + key, "")
        problems.append(f"unexpected {' '.join(key)}" + (f" (x{n})" if n > 1 else "") +
                        f": {message[:160]}")
    if not problems:  # a missing finding already says why its pin cannot hold
        problems += compare_pins(pins, aliases)
    return problems


def golden_files(paths):
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        for folder, _, names in sorted(os.walk(path)):
            for name in sorted(names):
                full = os.path.join(folder, name)
                if name.endswith(".textproto") or os.path.exists(full + ".expect"):
                    yield full


def run_all(goldens, check, name_of, noun):
    """Checks every golden with check(golden) -> list of problems, prints one line per golden
    (named by name_of) and its problems, then a summary; returns the exit status."""
    failed = 0
    for golden in goldens:
        try:
            problems = check(golden)
        except (ValueError, RuntimeError, OSError, subprocess.TimeoutExpired) as error:
            problems = [f"error      {error}"]
        print(f"{'ok  ' if not problems else 'FAIL'} {name_of(golden)}")
        for problem in problems:
            print(f"       {problem}")
        failed += bool(problems)
    print(f"{len(goldens) - failed}/{len(goldens)} golden {noun} pass")
    return 1 if failed else 0


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    tool, paths = argv[1], argv[2:]
    files = list(golden_files(paths))
    if not files:
        print(f"no golden files under {' '.join(paths)}", file=sys.stderr)
        return 1
    return run_all(files, lambda path: check_file(tool, path), lambda path: path, "files")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
