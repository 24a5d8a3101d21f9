#!/usr/bin/env python3
"""The HTML report of the whole public corpus, opened in a real browser (headless Chromium
driven by Selenium, from Debian's chromium, chromium-driver and python3-selenium; `make test`
installs them, see the Makefile's TEST_PACKAGES). It checks that:
  - `check --format html` renders the corpus in <= 10 s into <= 15 MB;
  - the page loads with no console error;
  - the number of findings shown equals the JSON report's, and each has its SVG picture;
  - filtering by one rule hides every finding of the other rules, and the severity filter
    hides what it unticks;
and takes screenshots (the page, one finding) into WORKDIR; with --docs-images DIR also into
DIR (how docs/images/html_report.png and graph_finding.png were made).
Exits 77 (skipped) without the corpus or without the browser packages.

usage: browser_report.py PT2LINT CORPUS WORKDIR [--docs-images DIR]"""
import json
import os
import shutil
import subprocess
import sys
import time

MAX_SECONDS = 10.0
MAX_BYTES = 15 * 1024 * 1024


def browser():
    try:
        from selenium import webdriver
    except ImportError:
        return None
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if not os.path.exists(driver_path):
        return None
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--disable-gpu", "--window-size=1400,1000", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium refuses to run as root otherwise
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    from selenium.webdriver.chrome.service import Service
    return webdriver.Chrome(service=Service(driver_path), options=options)


def visible_findings(driver):
    """(rule, severity, id) of each finding the browser lays out (one script, not 791 calls)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('article.finding'))"
        ".filter(a => a.getClientRects().length > 0)"
        ".map(a => [a.dataset.rule, a.dataset.severity, a.id])")


def main():
    # Debian's python3-selenium lives in the system Python; a pyenv or venv python on the PATH
    # does not see it.
    try:
        import selenium  # noqa: F401
    except ImportError:
        if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
            os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
    args = sys.argv[1:]
    docs_images = None
    if "--docs-images" in args:
        i = args.index("--docs-images")
        docs_images = os.path.abspath(args[i + 1])
        del args[i:i + 2]
    pt2lint, corpus, work = (os.path.abspath(a) for a in args[:3])
    if not os.path.isdir(corpus):
        print(f"skipped: {corpus} not found")
        return 77
    os.makedirs(work, exist_ok=True)
    report_json = os.path.join(work, "corpus.json")
    report_html = os.path.join(work, "corpus.html")
    subprocess.run([pt2lint, "check", corpus, "--format", "json", "-o", report_json, "-q"], check=False)
    start = time.monotonic()
    done = subprocess.run([pt2lint, "check", corpus, "--format", "html", "-o", report_html, "-q"])
    seconds = time.monotonic() - start
    if done.returncode not in (0, 1):
        print(f"check --format html exited {done.returncode}")
        return 1
    size = os.path.getsize(report_html)
    with open(report_json) as f:
        report = json.load(f)
    findings = [f for file in report["files"] for f in file["findings"]]
    per_rule = {}
    for f in findings:
        per_rule[f["rule"]] = per_rule.get(f["rule"], 0) + 1
    print(f"html report of the corpus: {len(findings)} findings, {size / 1e6:.2f} MB, {seconds:.2f} s")
    failed = False
    if seconds > MAX_SECONDS or size > MAX_BYTES:
        print(f"FAIL: want <= {MAX_SECONDS} s and <= {MAX_BYTES / 1e6:.0f} MB")
        failed = True

    driver = browser()
    if driver is None:
        print("skipped: no selenium/chromedriver (run `make test-deps`)")
        return 77
    try:
        from selenium.webdriver.common.by import By
        driver.get("file://" + report_html)
        errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        if errors:
            print(f"FAIL: console errors: {errors}")
            failed = True
        articles = driver.find_elements(By.CSS_SELECTOR, "article.finding")
        shown = len(visible_findings(driver))
        with_svg = driver.execute_script(
            "return document.querySelectorAll('article.finding .picture > svg').length")
        drawn = driver.execute_script(  # every picture has at least one laid-out box
            "return Array.from(document.querySelectorAll('article.finding .picture > svg'))"
            ".filter(s => s.querySelector('g.box') && s.getBBox().width > 0).length")
        print(f"browser: {len(articles)} findings, {shown} shown, {with_svg} with an SVG, {drawn} drawn")
        if not (len(articles) == shown == with_svg == drawn == len(findings)):
            print(f"FAIL: want {len(findings)} of each (the JSON report's count)")
            failed = True
        driver.save_screenshot(os.path.join(work, "report.png"))
        # Filter by the rule with the fewest findings: every other finding must hide.
        rule = min(per_rule, key=lambda r: (per_rule[r], r))
        driver.execute_script("arguments[0].scrollIntoView()", driver.find_element(By.ID, "by-rule"))
        driver.find_element(By.CSS_SELECTOR, f'[data-only-rule="{rule}"]').click()
        visible = visible_findings(driver)
        counter = driver.find_element(By.ID, "shown-count").text
        print(f"only {rule}: {len(visible)} shown (JSON: {per_rule[rule]}), counter says {counter}")
        if len(visible) != per_rule[rule] or any(r != rule for r, _, _ in visible) \
                or counter != str(per_rule[rule]):
            print("FAIL: the rule filter does not hide exactly the other rules")
            failed = True
        if visible:
            first = driver.find_element(By.ID, visible[0][2])
            first.screenshot(os.path.join(work, "finding.png"))
            driver.execute_script("arguments[0].scrollIntoView()", driver.find_element(By.ID, "findings"))
            driver.save_screenshot(os.path.join(work, "report_filtered.png"))
        driver.find_element(By.ID, "show-all").click()
        errors_only = sum(1 for f in findings if f["severity"] == "error")
        for box in driver.find_elements(By.CSS_SELECTOR, 'input[data-filter="severity"]'):
            if box.get_attribute("value") != "error":
                box.click()
        visible = visible_findings(driver)
        print(f"only errors: {len(visible)} shown (JSON: {errors_only})")
        if len(visible) != errors_only or any(severity != "error" for _, severity, _ in visible):
            print("FAIL: the severity filter does not hide warnings and notes")
            failed = True
        errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        if errors:
            print(f"FAIL: console errors after filtering: {errors}")
            failed = True
    finally:
        driver.quit()
    if docs_images:
        for name in ("report", "report_filtered", "finding"):
            shutil.copy(os.path.join(work, name + ".png"), os.path.join(docs_images, f"html_{name}.png"))
    print("FAIL" if failed else f"ok (screenshots in {work})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
