#!/usr/bin/env python3
"""Writes the README's rule tables from the rule catalogue (src/core/rule_catalogue.def).

The tables stand between the markers `<!-- rule-table:begin -->` and `<!-- rule-table:end -->`
of README.md; nothing else in the file is touched. tests/unit/rule_catalogue_test.cc fails
when the README and the compiled catalogue differ, so run this after editing the catalogue
(scripts/add_rule.py does).

Usage: rule_table.py [--check] [README]   (default: README.md beside scripts/)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATALOGUE = os.path.join(ROOT, "src", "core", "rule_catalogue.def")
BEGIN, END = "<!-- rule-table:begin -->", "<!-- rule-table:end -->"
ENTRY = re.compile(
    r'^PT2LINT_(?:REPORTED_)?RULE\((\w+), "(PT\d+)", "([a-z0-9-]+)", (k\w+), k(\w+), (kOn|kOptIn),'
    r'\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\)', re.MULTILINE)
SECTIONS = [
    ("kLoad", "**Loading (reported by the readers)**"),
    ("kStructural", "**Structure (run first)**"),
    ("kDataflow", "**Dataflow and aliasing (run on a sound structure)**"),
    ("kContract", "**Contract diff (`pt2lint diff`)**"),
]


RETIRED = re.compile(r"^// retired: (PT\d{3}) ([a-z0-9-]+): (.+)$", re.MULTILINE)


def read_retired(path=CATALOGUE):
    """The tombstones of removed rules: (id, name, why) for each `// retired:` line."""
    with open(path, encoding="utf-8") as f:
        return RETIRED.findall(f.read())


def reused_retired(rules, retired):
    """Live rules that take a retired rule's ID or name: IDs and names are never reused."""
    ids, names = {r[0] for r in retired}, {r[1] for r in retired}
    return [r for r in rules if r["id"] in ids or r["name"] in names]


def read_catalogue(path=CATALOGUE):
    """Every entry as a dict: ident, id, name, phase, severity, on, summary."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    rules = []
    for m in ENTRY.finditer(text):
        summary = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(7)))
        rules.append(dict(ident=m.group(1), id=m.group(2), name=m.group(3), phase=m.group(4),
                          severity=m.group(5).lower(), on=m.group(6) == "kOn",
                          summary=summary.replace('\\"', '"')))
    return rules


def tables(rules):
    out = []
    for phase, title in SECTIONS:
        out += [title, "", "| ID | name | default | reports when |", "|---|---|---|---|"]
        for r in rules:
            if r["phase"] != phase:
                continue
            default = r["severity"] + ("" if r["on"] else ", opt-in")
            out.append(f"| {r['id']} | [`{r['name']}`](docs/rules/{r['name']}.md) | {default} "
                       f"| {r['summary']} |")
        out.append("")
    return "\n".join(out)


def main(argv):
    check = "--check" in argv
    paths = [a for a in argv if not a.startswith("--")]
    readme = paths[0] if paths else os.path.join(ROOT, "README.md")
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        print(f"{readme}: no {BEGIN} ... {END} markers", file=sys.stderr)
        return 1
    rules = read_catalogue()
    for rule in reused_retired(rules, read_retired()):
        print(f"catalogue: {rule['id']} {rule['name']} reuses a retired rule's ID or name", file=sys.stderr)
        return 1
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = head + BEGIN + "\n" + tables(rules) + END + tail
    if check:
        if new != text:
            print(f"{readme}: the rule tables differ from the catalogue; run scripts/rule_table.py",
                  file=sys.stderr)
            return 1
        return 0
    if new != text:
        with open(readme, "w", encoding="utf-8") as f:
            f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
