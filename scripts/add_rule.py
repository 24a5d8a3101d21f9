#!/usr/bin/env python3
"""Scaffolds a new rule, like clang-tidy's add_new_check.py: five files and nothing else.

  src/core/rule_catalogue.def                    one catalogue line, with the next free ID
  src/rules/<phase>/<name>.cc                    the rule, in the shape every rule has
  docs/rules/<name>.md                           its page (`pt2lint explain`, the README link)
  tests/golden/<phase>/<name>/bad_example.textproto   a program the rule must flag
  tests/golden/<phase>/<name>/good.textproto          a near miss it must leave alone

and regenerates the README's rule tables (scripts/rule_table.py). The build finds the new
.cc and the golden folder by itself. The goldens start as a clean program: edit the bad one
into the bug and its `# expect:` line into the finding, then write the check.

Usage: add_rule.py {structural|dataflow} NAME --severity {error|warning|note}
                   --summary "what the rule checks" [--opt-in]
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rule_table import CATALOGUE, read_catalogue  # noqa: E402  the one parser of the catalogue

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHASES = {"structural": ("kStructural", "PT2"), "dataflow": ("kDataflow", "PT3")}
# A clean program both goldens start from: a counter buffer written back, one user output.
TEMPLATE_GOLDEN = os.path.join(ROOT, "tests", "golden", "structural", "value-names-unique",
                               "good.textproto")

RULE_CC = """\
// {name} ({id}): {summary}.
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("phase", choices=sorted(PHASES))
    parser.add_argument("name", help="kebab-case, e.g. mutation-keeps-dtype")
    parser.add_argument("--severity", choices=["error", "warning", "note"], required=True)
    parser.add_argument("--summary", required=True, help="one line, no final period")
    parser.add_argument("--opt-in", action="store_true", help="runs only when selected")
    args = parser.parse_args()
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", args.name):
        sys.exit(f"add_rule: '{args.name}' is not kebab-case")
    with open(CATALOGUE, encoding="utf-8") as f:
        catalogue = f.read()
    rules = read_catalogue()
    if any(rule["name"] == args.name for rule in rules):
        sys.exit(f"add_rule: a rule named '{args.name}' exists already")
    phase, prefix = PHASES[args.phase]
    rule_id = f"PT{max(int(r['id'][2:]) for r in rules if r['id'].startswith(prefix)) + 1}"
    cls = "".join(part.capitalize() for part in args.name.split("-"))
    snake = args.name.replace("-", "_")
    summary = args.summary.rstrip(".").replace('"', '\\"')

    # The catalogue line goes after the last entry of its phase: rules run in catalogue order.
    entries = list(re.finditer(rf'^PT2LINT_RULE\(\w+, "{prefix}\d\d".*?\)\n', catalogue,
                               re.MULTILINE | re.DOTALL))
    line = (f'PT2LINT_RULE({cls}, "{rule_id}", "{args.name}", {phase}, '
            f'k{args.severity.capitalize()}, {"kOptIn" if args.opt_in else "kOn"},\n'
            f'    "{summary}")\n')
    at = entries[-1].end()
    catalogue = catalogue[:at] + line + catalogue[at:]

    with open(TEMPLATE_GOLDEN, encoding="utf-8") as f:
        program = "".join(l for l in f if not l.startswith("#")).lstrip("\n")
    golden_dir = os.path.join(ROOT, "tests", "golden", args.phase, args.name)
    files = {
        os.path.join(ROOT, "src", "rules", args.phase, snake + ".cc"):
            RULE_CC.format(name=args.name, id=rule_id, summary=summary, cls=cls),
        os.path.join(ROOT, "docs", "rules", args.name + ".md"):
            DOCS_MD.format(name=args.name, id=rule_id,
                           Summary=summary[0].upper() + summary[1:]),
        os.path.join(golden_dir, "bad_example.textproto"):
            f"# The program {args.name} must flag: edit it into the bug, and the line below\n"
            f"# into the finding's severity, rule and location (tests/golden/run_golden.py).\n"
            f"# expect: {args.severity} {args.name} -\n\n" + program,
        os.path.join(golden_dir, "good.textproto"):
            f"# A near miss of bad_example that {args.name} must leave alone.\n"
            f"# expect: none\n\n" + program,
    }
    for path in files:
        if os.path.exists(path):
            sys.exit(f"add_rule: {os.path.relpath(path, ROOT)} exists already")
    with open(CATALOGUE, "w", encoding="utf-8") as f:
        f.write(catalogue)
    os.makedirs(golden_dir, exist_ok=True)
    for path, text in files.items():
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "rule_table.py")], check=True)
    print(f"{rule_id} {args.name} ({cls}):")
    for path in [CATALOGUE, *files]:
        print("  " + os.path.relpath(path, ROOT))
    print("  README.md (rule tables, generated)")
    print("Next: make the bad golden show the bug, write check(), fill in the docs page, "
          f"then `make build && cd build && ctest -R '{args.name}|RuleCatalogue'`.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
