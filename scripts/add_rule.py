#!/usr/bin/env python3
"""Scaffolds a new rule, like clang-tidy's add_new_check.py: the files below and nothing else.

A rule the engine runs (structural, dataflow):
  src/core/rule_catalogue.def                    one catalogue line, with the next free ID
  src/rules/<phase>/<name>.cc                    the rule, in the shape every rule has
  docs/rules/<name>.md                           its page (`pt2lint explain`, the README link)
  tests/golden/<phase>/<name>/bad_example.textproto   a program the rule must flag
  tests/golden/<phase>/<name>/good.textproto          a near miss it must leave alone
  CHANGELOG.md                                   the "New rule" line under Unreleased / Added

A reported rule (load: the readers report it; contract: `pt2lint diff` does) has no .cc: its
findings are emitted where the readers or the contract diff find the problem, with the
catalogue's `kClass`. Its goldens sit under tests/golden/files/<name>/ (load) or are
BEFORE/AFTER pairs under tests/golden/contract/<name>/ (contract).

The script then regenerates the README's rule tables (scripts/rule_table.py): generated, not
edited. The build finds the new .cc and the golden folder by itself. The goldens start as a clean
program: edit the bad one into the bug and its `# expect:` line into the finding, then write the
check. IDs skip retired ones (the catalogue's `// retired:` tombstones): an ID is never reused.

Usage: add_rule.py {structural|dataflow|load|contract} NAME --severity {error|warning|note}
                   --summary "when the rule reports" [--opt-in] [--id PTnnn] [--issue N]
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rule_table import CATALOGUE, read_catalogue, read_retired  # noqa: E402  the one parser of the catalogue

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHASES = {"load": ("kLoad", "PT1"), "structural": ("kStructural", "PT2"), "dataflow": ("kDataflow", "PT3"),
          "contract": ("kContract", "PT4")}
REPORTED = {"load", "contract"}  # no .cc: the readers or the contract diff emit the findings
CHANGELOG = os.path.join(ROOT, "CHANGELOG.md")
# A clean program both goldens start from: a counter buffer written back, one user output.
TEMPLATE_GOLDEN = os.path.join(ROOT, "tests", "golden", "structural", "value-names-unique",
                               "good.textproto")

RULE_CC = """\
// {id} {name}: {summary}.
// docs/rules/{name}.md
#include <fmt/format.h>

#include <memory>

#include "analysis/program_index.h"
#include "core/rule.h"
#include "core/rule_catalogue.h"

namespace pt2lint {{
namespace {{

class {cls} final : public Rule {{
 public:
  const RuleInfo& info() const override {{ return k{cls}; }}

  void check(const ProgramIndex& index, DiagnosticSink& sink) const override {{
    // Report each violation with emit(sink, k{cls}, index.name(), message), then a location
    // (.at_node / .at_input_spec / .at_output_spec / .at_value), .note(why it matters at run
    // time) and .fix(how to fix it): docs/rules/{name}.md says the same in prose.
    (void)index;
    (void)sink;
  }}
}};

}}  // namespace

std::unique_ptr<Rule> make_{cls}() {{ return std::make_unique<{cls}>(); }}

}}  // namespace pt2lint
"""

DOCS_MD = """\
# {name} ({id})

{Summary}.

## What it checks
What the rule reads in the program, and exactly when it reports.

## Why it matters at run time
What goes wrong when the program is loaded or run: an error from `torch.export.load`, or state
that silently computes the wrong value.

## Example
```textproto
the smallest program fragment that triggers it
```

## How to fix
The change to the exporting code or to the pass that produced the program.
"""


def next_free_id(prefix, rules, retired):
    taken = [int(r["id"][2:]) for r in rules if r["id"].startswith(prefix)]
    taken += [int(t[0][2:]) for t in retired if t[0].startswith(prefix)]
    return f"PT{max(taken, default=int(prefix[2:]) * 100) + 1}"


def changelog_with(text, entry):
    """CHANGELOG.md with `entry` first under Unreleased / Added (made if missing)."""
    head, sep, rest = text.partition("## Unreleased\n")
    if not sep:
        sys.exit("add_rule: CHANGELOG.md has no '## Unreleased' section")
    section_end = rest.find("\n## ")
    section = rest if section_end < 0 else rest[:section_end]
    if "### Added\n" in section:
        at = rest.index("### Added\n") + len("### Added\n")
        return head + sep + rest[:at] + entry + rest[at:]
    return head + sep + "\n### Added\n" + entry + rest


def golden_files(phase, name, severity, program):
    """The golden files of a new rule, by path: a pair of programs for a contract rule."""
    if phase == "contract":
        folder = os.path.join(ROOT, "tests", "golden", "contract", name)
        return {
            os.path.join(folder, "bad_example.before.textproto"):
                f"# The original program of the pair {name} must flag (tests/golden/run_diff_golden.py).\n\n"
                + program,
            os.path.join(folder, "bad_example.after.textproto"):
                f"# The lowering that breaks the promise {name} checks: edit it into the bug, and the\n"
                f"# line below into the finding.\n# expect: {severity} {name} -\n\n" + program,
            os.path.join(folder, "good.before.textproto"):
                f"# The original of a near miss {name} must leave alone.\n\n" + program,
            os.path.join(folder, "good.after.textproto"):
                f"# A lowering that keeps the promise.\n# expect: none\n\n" + program,
        }
    folder = os.path.join(ROOT, "tests", "golden", "files" if phase == "load" else phase, name)
    where = (" When the bug lives in the archive rather than the program, replace this file\n"
             "# with a generated .pt2 and its .expect sidecar (tests/golden/files/make_file_goldens.py).\n#"
             if phase == "load" else "")
    return {
        os.path.join(folder, "bad_example.textproto"):
            f"# The program {name} must flag: edit it into the bug, and the line below\n"
            f"# into the finding's severity, rule and location (tests/golden/run_golden.py).{where}\n"
            f"# expect: {severity} {name} -\n\n" + program,
        os.path.join(folder, "good.textproto"):
            f"# A near miss of bad_example that {name} must leave alone.\n"
            f"# expect: none\n\n" + program,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("phase", choices=sorted(PHASES))
    parser.add_argument("name", help="kebab-case, e.g. mutation-keeps-dtype")
    parser.add_argument("--severity", choices=["error", "warning", "note"], required=True)
    parser.add_argument("--summary", required=True,
                        help="when the rule reports: the violation, one line, no final period")
    parser.add_argument("--opt-in", action="store_true", help="runs only when selected")
    parser.add_argument("--id", help="the ID to take (default: the next free one of the phase)")
    parser.add_argument("--issue", help="the tracker issue, for the changelog line")
    args = parser.parse_args()
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", args.name):
        sys.exit(f"add_rule: '{args.name}' is not kebab-case")
    with open(CATALOGUE, encoding="utf-8") as f:
        catalogue = f.read()
    rules, retired = read_catalogue(), read_retired()
    if any(rule["name"] == args.name for rule in rules):
        sys.exit(f"add_rule: a rule named '{args.name}' exists already")
    if any(t[1] == args.name for t in retired):
        sys.exit(f"add_rule: '{args.name}' is a retired rule's name, and names are never reused")
    phase, prefix = PHASES[args.phase]
    rule_id = args.id or next_free_id(prefix, rules, retired)
    if not re.fullmatch(prefix + r"\d\d", rule_id):
        sys.exit(f"add_rule: {rule_id} is not an ID of the {args.phase} phase ({prefix}xx)")
    if any(r["id"] == rule_id for r in rules) or any(t[0] == rule_id for t in retired):
        sys.exit(f"add_rule: {rule_id} is taken or retired, and IDs are never reused")
    cls = "".join(part.capitalize() for part in args.name.split("-"))
    snake = args.name.replace("-", "_")
    summary = args.summary.rstrip(".").replace('"', '\\"')
    reported = args.phase in REPORTED

    # The catalogue line goes after the last entry of its phase: rules run in catalogue order.
    entries = list(re.finditer(rf'^PT2LINT_(?:REPORTED_)?RULE\(\w+, "{prefix}\d\d".*?\)\n', catalogue,
                               re.MULTILINE | re.DOTALL))
    macro = "PT2LINT_REPORTED_RULE" if reported else "PT2LINT_RULE"
    line = (f'{macro}({cls}, "{rule_id}", "{args.name}", {phase}, '
            f'k{args.severity.capitalize()}, {"kOptIn" if args.opt_in else "kOn"},\n'
            f'    "{summary}")\n')
    at = entries[-1].end()
    catalogue = catalogue[:at] + line + catalogue[at:]

    with open(TEMPLATE_GOLDEN, encoding="utf-8") as f:
        program = "".join(l for l in f if not l.startswith("#")).lstrip("\n")
    files = {}
    if not reported:
        files[os.path.join(ROOT, "src", "rules", args.phase, snake + ".cc")] = RULE_CC.format(
            name=args.name, id=rule_id, summary=summary, cls=cls)
    files[os.path.join(ROOT, "docs", "rules", args.name + ".md")] = DOCS_MD.format(
        name=args.name, id=rule_id, Summary=summary[0].upper() + summary[1:])
    files.update(golden_files(args.phase, args.name, args.severity, program))
    for path in files:
        if os.path.exists(path):
            sys.exit(f"add_rule: {os.path.relpath(path, ROOT)} exists already")
    default = args.severity + ("" if not args.opt_in else ", opt-in")
    tracker = f"; issue {args.issue}" if args.issue else ""
    entry = f"- New rule {rule_id} `{args.name}` ({default}): reports when {summary}. *(rules{tracker})*\n"
    with open(CHANGELOG, encoding="utf-8") as f:
        changelog = changelog_with(f.read(), entry)

    with open(CATALOGUE, "w", encoding="utf-8") as f:
        f.write(catalogue)
    for path, text in files.items():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    with open(CHANGELOG, "w", encoding="utf-8") as f:
        f.write(changelog)
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "rule_table.py")], check=True)
    print(f"{rule_id} {args.name} ({cls}):")
    for path in [CATALOGUE, *files, CHANGELOG]:
        print("  " + os.path.relpath(path, ROOT))
    print("  README.md (rule tables, generated)")
    where = {"load": f"emit it with k{cls} where a reader in src/io/readers finds the problem",
             "contract": f"emit it with k{cls} from src/contract/contract_diff.cc"}.get(
                 args.phase, "write check()")
    print(f"Next: make the bad golden show the bug, {where}, fill in the docs page, "
          f"then `make build && cd build && ctest -R '{args.name}|RuleCatalogue'`.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
