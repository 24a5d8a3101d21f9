"""Checks of each report format against its schema or, where none exists, the fields its
consumer documents (GitHub code scanning, reviewdog, GitLab, Jenkins, GitHub Actions).
Each check returns a list of problems; empty means valid."""
import json
import os
import re
import xml.etree.ElementTree as ElementTree

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))


# The OASIS SARIF 2.1.0 schema in its final committee draft (rtm.5), which GitHub code
# scanning validates uploads against; see tests/schemas/README.md for where it comes from.
SARIF_SCHEMA = os.path.join(HERE, "sarif-schema-2.1.0-rtm.5.json")


def schema_problems(document, schema_path):
    with open(schema_path) as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]


def regions(value, path):
    """Every object under a "region" or "contextRegion" key, with its path."""
    if isinstance(value, dict):
        for key, child in value.items():
            if key in ("region", "contextRegion") and isinstance(child, dict):
                yield f"{path}/{key}", child
            yield from regions(child, f"{path}/{key}")
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from regions(child, f"{path}/{i}")


def check_sarif(text):
    log = json.loads(text)
    problems = schema_problems(log, SARIF_SCHEMA)
    # GitHub's own requirements, stricter than the schema.
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    for rule in rules:
        for key in ("shortDescription", "fullDescription", "help"):
            body = rule.get(key, {}).get("text", "")
            if not body or len(body) > 1024 and key != "help":
                problems.append(f"rule {rule['id']}: {key}.text empty or over 1024 characters")
    # The one constraint of the final OASIS 2.1.0 schema (errata01) on objects pt2lint emits that
    # rtm.5 lacks: a region names where it starts.
    for path, region in regions(run["results"], "results"):
        if not any(key in region for key in ("startLine", "charOffset", "byteOffset")):
            problems.append(f"{path}: a region needs startLine, charOffset or byteOffset")
    prints = set()
    for i, result in enumerate(run["results"]):
        where = f"results[{i}]"
        if not result["message"].get("text"):
            problems.append(f"{where}: empty message")
        if rules[result["ruleIndex"]]["id"] != result["ruleId"]:
            problems.append(f"{where}: ruleIndex does not point at ruleId")
        physical = result["locations"][0]["physicalLocation"]
        if not physical["artifactLocation"].get("uri") or physical["region"].get("startLine", 0) < 1:
            problems.append(f"{where}: no uri or startLine")
        fingerprint = result.get("partialFingerprints", {}).get("primaryLocationLineHash")
        if not fingerprint:
            problems.append(f"{where}: no primaryLocationLineHash")
        elif fingerprint in prints:
            problems.append(f"{where}: duplicate fingerprint {fingerprint}")
        prints.add(fingerprint)
    return problems, len(run["results"])


def check_rdjson(text):
    result = json.loads(text)
    problems = schema_problems(result, os.path.join(HERE, "rdjson.schema.json"))
    # What reviewdog's proto documents but the generated schema leaves optional.
    for i, d in enumerate(result.get("diagnostics", [])):
        if not d.get("message") or not d.get("location", {}).get("path"):
            problems.append(f"diagnostics[{i}]: message and location.path are needed")
        if d.get("severity") not in ("ERROR", "WARNING", "INFO"):
            problems.append(f"diagnostics[{i}]: severity {d.get('severity')!r}")
        start = d.get("location", {}).get("range", {}).get("start")
        if start is not None and start.get("line", 0) < 1:
            problems.append(f"diagnostics[{i}]: lines start at 1")
    return problems, len(result.get("diagnostics", []))


GITLAB_SEVERITIES = {"info", "minor", "major", "critical", "blocker"}


def check_gitlab(text):
    """GitLab Code Quality: docs.gitlab.com/ci/testing/code_quality (no official schema)."""
    issues = json.loads(text)
    problems = []
    if not isinstance(issues, list):
        return ["the report must be a JSON array"], 0
    prints = set()
    for i, issue in enumerate(issues):
        for key in ("description", "check_name", "fingerprint"):
            if not isinstance(issue.get(key), str) or not issue[key]:
                problems.append(f"[{i}]: {key} must be a non-empty string")
        if issue.get("severity") not in GITLAB_SEVERITIES:
            problems.append(f"[{i}]: severity {issue.get('severity')!r}")
        location = issue.get("location", {})
        begin = location.get("lines", {}).get("begin")
        if not location.get("path") or not isinstance(begin, int) or begin < 1:
            problems.append(f"[{i}]: location.path and location.lines.begin >= 1 are needed")
        if issue.get("fingerprint") in prints:
            problems.append(f"[{i}]: duplicate fingerprint (GitLab would merge the issues)")
        prints.add(issue.get("fingerprint"))
    return problems, len(issues)


def check_junit(text):
    """The subset GitLab parses (docs.gitlab.com/ci/testing/unit_test_reports) and what
    Jenkins' junit.xsd requires (testsuite@name, @tests)."""
    root = ElementTree.fromstring(text)
    problems = []
    if root.tag != "testsuites":
        return [f"root element is <{root.tag}>, not <testsuites>"], 0
    keys, failures_total = set(), 0
    for suite in root.findall("testsuite"):
        cases = suite.findall("testcase")
        if not suite.get("name"):
            problems.append("a testsuite has no name")
        for attribute, expected in (("tests", len(cases)),
                                    ("failures", sum(1 for c in cases if c.find("failure") is not None))):
            if suite.get(attribute) != str(expected):
                problems.append(f"testsuite {suite.get('name')}: {attribute}={suite.get(attribute)}, counted {expected}")
        for case in cases:
            key = (case.get("classname"), case.get("name"))
            if not all(key):
                problems.append(f"testsuite {suite.get('name')}: a testcase lacks classname or name")
            if key in keys:
                problems.append(f"duplicate testcase {key}: GitLab keeps only the first")
            keys.add(key)
            failure = case.find("failure")
            if failure is not None:
                failures_total += 1
                if not failure.get("message"):
                    problems.append(f"testcase {key}: failure without a message")
    if root.get("failures") != str(failures_total):
        problems.append(f"testsuites failures={root.get('failures')}, counted {failures_total}")
    return problems, len(keys)


COMMAND = re.compile(r"^::(error|warning|notice) ([^:]*)::(.*)$")
PROPERTY = re.compile(r"^(title|file|line|col|endLine|endColumn)=(.*)$")
ESCAPED = re.compile(r"%(?!25|0D|0A|3A|2C)")


def check_github(text):
    """Workflow commands as actions/toolkit's command.ts writes them."""
    problems, count = [], 0
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("pt2lint: "):
            continue  # a plain log line: how many root causes were left unannotated
        match = COMMAND.match(line)
        if not match:
            problems.append(f"line {number}: not a workflow command: {line[:80]}")
            continue
        count += 1
        for prop in match.group(2).split(","):
            parsed = PROPERTY.match(prop)
            if not parsed or ":" in parsed.group(2) or ESCAPED.search(parsed.group(2)):
                problems.append(f"line {number}: badly escaped property {prop!r}")
            elif parsed.group(1) == "line" and not parsed.group(2).isdigit():
                problems.append(f"line {number}: line={parsed.group(2)}")
        if ESCAPED.search(match.group(3)):
            problems.append(f"line {number}: unescaped % in the message")
    return problems, count


MARKDOWN_LIMIT = 65536
ANNOTATIONS_PER_LEVEL = 10
LEVELS = {"error": 0, "warning": 1, "note": 2}


def entries(report):
    """The findings a per-cause format shows: primaries and ungrouped findings."""
    return [(file, f) for file in report["files"] for f in file["findings"] if "cause" not in f]


def expected_annotations(report):
    per_level = {}
    for _, f in entries(report):
        per_level[f["severity"]] = per_level.get(f["severity"], 0) + 1
    return sum(min(n, ANNOTATIONS_PER_LEVEL) for n in per_level.values())


def check_markdown(report, text):
    """Bounded under GitHub's comment limit, a summary first, each root cause once: the table
    rows are entries (primaries and ungrouped findings), and what they leave out is counted."""
    problems = []
    if len(text) > MARKDOWN_LIMIT:
        problems.append(f"{len(text)} characters, over GitHub's {MARKDOWN_LIMIT}")
    if not text.startswith("## pt2lint\n"):
        problems.append("the report does not start with its summary heading")
    shown = entries(report)
    rows = [line for line in text.splitlines() if line.startswith("| :")]
    if len(rows) > len(shown):
        problems.append(f"{len(rows)} finding rows for {len(shown)} root causes and findings")
    represented = 0
    # Rows come errors first, then warnings, then notes, each in report order.
    ordered = sorted(shown, key=lambda e: LEVELS[e[1]["severity"]])
    for (file, f), row in zip(ordered, rows):
        if f"{f['rule']} {f['name']}" not in row:
            problems.append(f"row for {file['path']} is not {f['rule']}: {row[:120]}")
            break
        represented += 1 + len(f.get("related", []))
    # A grouped finding never has a row of its own: a swap, or a rotation of 8 specs, is one entry.
    for file in report["files"]:
        path = file["path"].replace("|", "\\|")
        for f in file["findings"]:
            if "cause" in f:
                start = f"| {f['rule']} {f['name']} | `{path}`"
                if any(start in row for row in rows) and f["message"][:60] in text:
                    problems.append(f"grouped finding {f['rule']} of {file['path']} has its own row")
    total = sum(len(file["findings"]) for file in report["files"])
    if represented < total:
        closing = f"{total - represented} more findings in the full report"
        if closing not in text:
            problems.append(f"the report does not end with \"{closing}\"")
    return problems


def sarif_fixes_match(report, text):
    """Every finding with repair edits (what `pt2lint fix` applies) has SARIF fixes, and only those."""
    results = json.loads(text)["runs"][0]["results"]
    findings = [f for file in report["files"] for f in file["findings"]]
    problems = []
    for i, (f, result) in enumerate(zip(findings, results)):
        wants = bool(f.get("fix", {}).get("edits"))
        if wants != bool(result.get("fixes")):
            problems.append(f"results[{i}] ({f['rule']}): fixes {'missing' if wants else 'unexpected'}")
        elif wants and result["fixes"][0]["properties"]["edits"] != f["fix"]["edits"]:
            problems.append(f"results[{i}]: fixes' edits differ from the JSON report's")
        elif wants:
            # The fix is unsafe as a whole when any edit is, and says so (docs/fix.md).
            safe = all(e["safety"] == "safe" for e in f["fix"]["edits"])
            fix = result["fixes"][0]
            if fix["properties"].get("safety") != ("safe" if safe else "unsafe"):
                problems.append(f"results[{i}]: fixes' safety {fix['properties'].get('safety')}, want "
                                f"{'safe' if safe else 'unsafe'}")
            if ("--unsafe-fixes" in fix["properties"]["command"]) == safe:
                problems.append(f"results[{i}]: the fix command and its safety disagree")
    return problems


def junit_fails_only_on_errors(report, text):
    """A file whose findings are all warnings or notes (or baselined) has no failed testcase;
    a file with a new error has one: JUnit agrees with the exit code and pytest --pt2lint."""
    root = ElementTree.fromstring(text)
    failed = {suite.get("name"): int(suite.get("failures")) for suite in root.findall("testsuite")}
    problems = []
    for file in report["files"]:
        errors = any(f["severity"] == "error" and not f["baseline"] for f in file["findings"])
        name = next((n for n in failed if file["path"].endswith(n) or n.endswith(file["path"])), None)
        if name is None:
            continue
        if errors != (failed[name] > 0):
            problems.append(f"{file['path']}: {failed[name]} failed testcases, errors: {errors}")
    return problems
