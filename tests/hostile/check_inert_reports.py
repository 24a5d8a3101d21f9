#!/usr/bin/env python3
"""Names from a file stay inert in every report people read (issue 24):

    python3 tests/hostile/check_inert_reports.py PT2LINT CORPUS WORK_DIR

A .pt2 whose file name and program name carry every payload of the issue (a newline then
GitHub workflow commands, ANSI, CR, BEL, a C1 CSI, U+2028, an <img onerror>, a javascript:
link, an image, an @mention, a backtick that would end a code span, a Mermaid %%{init}%%
directive) is checked in each format, and:
- text and github: no raw control byte, and no line starts with '::' except github's own
  annotations;
- markdown: rendered by CommonMark renderers (Debian's python3-markdown-it, and cmark-gfm, the
  renderer GitHub forked, with its autolink and table extensions), the HTML has no <a>, <img>
  or raw tag from a name, and no "@team" outside <code>;
- html: opened in headless Chromium (selenium), no alert fires, no element from a name exists
  (no <img src=x>), and the name shows as text.
A renderer or browser that is not installed is reported and skipped.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile

PT2LINT, CORPUS, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
DATE = (2024, 1, 1, 0, 0, 0)
PAYLOAD = ("x\n::add-mask::secret\n::notice title=fake::ok\x1b[31m\r\x07\xc2\x9b2J\u2028"
           "<img src=x onerror=alert(1)>[link](javascript:alert(1))![i](i.png)"
           "@team`break` %%{init: {'theme':'dark'}}%%")
FILE_NAME = "m\n::warning::fake `<img src=x onerror=alert(2)>` @team.pt2"
failures = []
checked = []


def expect(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def hostile_archive(path):
    """counter.aten with its program named PAYLOAD and output_specs written twice (a finding,
    so that the names reach every report)."""
    source = os.path.join(CORPUS, "base", "counter.aten.pt2")
    with zipfile.ZipFile(source) as z:
        entries = [(i.filename, z.read(i.filename)) for i in z.infolist()]
    out = []
    for name, data in entries:
        if name.endswith("models/model.json"):
            doc = json.loads(data)
            sig = doc["graph_module"]["signature"]
            sig["output_specs\u0000"] = sig["output_specs"]
            data = json.dumps(doc).replace('"output_specs\\u0000"', '"output_specs"').encode()
        for folder, suffix in (("models/", ".json"), ("data/weights/", "_weights_config.json"),
                               ("data/constants/", "_constants_config.json"), ("sample_inputs/", ".pt")):
            if name.endswith(folder + "model" + suffix):
                name = name[: -len("model" + suffix)] + PAYLOAD + suffix
        out.append((name, data))
    with zipfile.ZipFile(path, "w") as z:
        for name, data in out:
            z.writestr(zipfile.ZipInfo(name, DATE), data)


def control_bytes(text):
    return [c for c in text if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F
            or c in "\u2028\u2029"]


def check_lines(fmt, text):
    checked.append(fmt)
    expect(not control_bytes(text), f"{fmt}: no raw control character ({control_bytes(text)[:5]})")
    own = re.compile(r"^::(error|warning|notice) title=")
    bad = [l for l in text.split("\n") if l.startswith("::") and not (fmt == "github" and own.match(l))]
    expect(not bad, f"{fmt}: no line a name starts as a workflow command ({bad[:2]})")


def check_rendered_markdown(renderer, html):
    checked.append(renderer)
    expect("<img" not in html, f"{renderer}: no image from a name")
    expect(not re.search(r"<a\s", html), f"{renderer}: no link from a name")
    expect("onerror" not in html or "&lt;img" in html, f"{renderer}: no raw tag")
    outside_code = re.sub(r"<code[^>]*>.*?</code>", "", html, flags=re.S)
    expect("@team" not in outside_code, f"{renderer}: no @mention outside code")


def markdown_renderers(markdown):
    try:
        from markdown_it import MarkdownIt
        check_rendered_markdown("markdown-it", MarkdownIt("commonmark").enable("table").render(markdown))
    except ImportError:
        print("skip markdown-it: python3-markdown-it is not installed")
    cmark = shutil.which("cmark-gfm")
    if cmark:
        html = subprocess.run([cmark, "-e", "table", "-e", "autolink", "-e", "tagfilter",
                               "-e", "strikethrough"], input=markdown, capture_output=True,
                              text=True, check=True).stdout
        check_rendered_markdown("cmark-gfm", html)
    else:
        print("skip cmark-gfm: not installed")


def browser(html_path):
    try:
        from selenium import webdriver
        from selenium.common.exceptions import NoAlertPresentException
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        print("skip chromium: python3-selenium is not installed")
        return
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if not os.path.exists(driver_path):
        print("skip chromium: chromium-driver is not installed")
        return
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        driver.get("file://" + html_path)
        checked.append("chromium")
        try:
            driver.switch_to.alert
            fired = True
        except NoAlertPresentException:
            fired = False
        expect(not fired, "chromium: no alert fires")
        injected = driver.execute_script(
            "return document.querySelectorAll('img[src=\"x\"], a[href^=\"javascript\"]').length")
        expect(injected == 0, f"chromium: no element from a name ({injected})")
        text = driver.execute_script("return document.body.innerText")
        expect("onerror=alert(1)" in text, "chromium: the name shows as text")
    finally:
        driver.quit()


def main():
    try:
        import selenium  # noqa: F401
    except ImportError:
        if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != "/usr/bin/python3":
            os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    path = os.path.join(WORK, FILE_NAME)
    hostile_archive(path)
    outputs = {}
    for fmt in ("text", "github", "markdown", "html"):
        r = subprocess.run([PT2LINT, "check", "--format", fmt, path], capture_output=True, timeout=60,
                           env=dict(os.environ, GITHUB_STEP_SUMMARY=""))
        expect(r.returncode == 1, f"{fmt}: exit 1 (the repeated key is an error), got {r.returncode}")
        outputs[fmt] = r.stdout.decode("utf-8", "replace")
    expect("secret" in outputs["text"], "text: the payload is shown (escaped), not dropped")
    for fmt in ("text", "github", "markdown"):
        check_lines(fmt, outputs[fmt])
    markdown_renderers(outputs["markdown"])
    html_path = os.path.join(WORK, "report.html")
    with open(html_path, "w") as f:
        f.write(outputs["html"])
    browser(html_path)
    print("checked:", ", ".join(checked))
    if failures:
        print(f"{len(failures)} failures")
        sys.exit(1)


if __name__ == "__main__":
    main()
