#!/usr/bin/env python3
"""`pt2lint reduce` end to end: a device program with a finding shrinks to a smaller textproto
that still has the finding, whose `# expect:` lines the golden runner accepts; a program
without the finding is refused with exit 1; --crash on a healthy program is refused too.

usage: check_reduce.py PT2LINT RUN_GOLDEN PROGRAM RULE"""
import os
import subprocess
import sys
import tempfile


def main():
    pt2lint, run_golden, program, rule = sys.argv[1:5]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "reduced.textproto")
        r = subprocess.run([pt2lint, "reduce", program, "--rule", rule, "-o", out], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        text = open(out).read()
        expects = [l for l in text.splitlines() if l.startswith("# expect:")]
        assert any(rule in l for l in expects), expects
        print(f"reduced {os.path.getsize(program)} bytes of {os.path.basename(program)} to {len(text)} bytes of "
              f"textproto with {len(expects)} expect lines")
        assert len(text) < 20000, "the reduced program is not small"
        g = subprocess.run([sys.executable, run_golden, pt2lint, out], capture_output=True, text=True)
        assert g.returncode == 0, g.stdout + g.stderr
        r = subprocess.run([pt2lint, "reduce", out, "--rule", "PT999"], capture_output=True, text=True)
        assert r.returncode == 1 and "does not show" in r.stderr, r.stderr
        r = subprocess.run([pt2lint, "reduce", out, "--crash"], capture_output=True, text=True)
        assert r.returncode == 1 and "does not show" in r.stderr, r.stderr
    print("PASS")


if __name__ == "__main__":
    main()
