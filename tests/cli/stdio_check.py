#!/usr/bin/env python3
"""`pt2lint check -` (standard input, --stdin-filename) and `pt2lint lower -o -` (standard
output), as the Python package uses them: exit codes, names in findings, byte-identical
output, no temporary file left behind, bad input on stdin reported and never a crash.

usage: stdio_check.py PT2LINT REPO_ROOT"""
import glob
import os
import subprocess
import sys
import tempfile


def run(binary, *args, stdin=b"", env=None):
    return subprocess.run([binary, *args], input=stdin, capture_output=True, env=env, timeout=60)


def main(binary, root):
    clean = os.path.join(root, "tests/data/demo/kv_cache_clean.pt2")
    broken = os.path.join(root, "tests/data/demo/kv_cache_broken.pt2")
    textproto = sorted(glob.glob(os.path.join(root, "tests/golden/structural/mutation-target-resolves/bad*.textproto")))[0]
    failures = []

    def expect(what, condition, proc=None):
        if not condition:
            detail = "" if proc is None else f" (exit {proc.returncode}; stderr: {proc.stderr.decode()[:400]!r})"
            failures.append(what + detail)

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, TMPDIR=tmp, NO_COLOR="1")
        data = lambda path: open(path, "rb").read()  # noqa: E731

        p = run(binary, "check", "-", "--stdin-filename", "piped.pt2", stdin=data(broken), env=env)
        expect("broken program on stdin exits 1", p.returncode == 1, p)
        expect("findings name --stdin-filename", p.stdout.decode().startswith("piped.pt2:model: error:"), p)
        p = run(binary, "check", "-", stdin=data(clean), env=env)
        expect("clean program on stdin exits 0", p.returncode == 0, p)
        p = run(binary, "check", "-", "--format", "json", stdin=data(broken), env=env)
        expect("default stdin name is <stdin>", b'"path": "<stdin>"' in p.stdout, p)
        p = run(binary, "check", "-", "--stdin-filename", "bug.textproto", stdin=data(textproto), env=env)
        expect("a textproto on stdin is read by its --stdin-filename extension", b"PT204" in p.stdout, p)
        p = run(binary, "check", clean, "-", "--stdin-filename", "x.pt2", stdin=data(broken), env=env)
        expect("a path and stdin together", p.returncode == 1 and b"x.pt2:model" in p.stdout, p)
        for junk in (b"", b"PK\x03\x04garbage", b"{\"not\": \"a program\"}", os.urandom(4096)):
            p = run(binary, "check", "-", stdin=junk, env=env)
            expect(f"junk on stdin ({junk[:12]!r}) is a finding, not a crash", p.returncode == 1 and b"PT101" in p.stdout, p)
        project = os.path.join(tmp, "project")
        os.mkdir(project)
        with open(os.path.join(project, "pyproject.toml"), "w") as config:
            config.write('[tool.pt2lint]\n[tool.pt2lint.per-file-ignores]\n"legacy/*.pt2" = ["PT204", "PT303"]\n')
        for name, status in (("legacy/model.pt2", 0), ("model.pt2", 1)):
            p = run(binary, "check", "-", "--stdin-filename", os.path.join(project, name), stdin=data(broken), env=env)
            expect(f"config and per-file ignores apply to stdin named {name}", p.returncode == status, p)
        os.remove(os.path.join(project, "pyproject.toml"))
        os.rmdir(project)
        p = run(binary, "check", "-", "-", env=env)
        expect("'-' twice is a usage error", p.returncode == 2 and b"only once" in p.stderr, p)

        lowered = os.path.join(tmp, "lowered.pt2")
        p = run(binary, "lower", clean, "-o", lowered, "-q", env=env)
        expect("lower to a file", p.returncode == 0, p)
        p = run(binary, "lower", clean, "-o", "-", "-q", env=env)
        expect("lower -o - writes the same bytes to stdout", p.returncode == 0 and p.stdout == data(lowered), p)
        p = run(binary, "lower", clean, "-o", "-", "--format", "textproto", "-q", env=env)
        expect("lower -o - --format textproto", p.returncode == 0 and b"programs {" in p.stdout, p)
        p = run(binary, "check", "-", "--stdin-filename", "lowered.pt2", stdin=data(lowered), env=env)
        expect("the lowered program from stdout checks clean", p.returncode == 0, p)
        os.remove(lowered)
        left = os.listdir(tmp)
        expect(f"no temporary file is left in TMPDIR: {left}", left == [])

    for failure in failures:
        print("FAIL:", failure)
    print(f"{'FAIL' if failures else 'PASS'}: stdin/stdout checks, {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
