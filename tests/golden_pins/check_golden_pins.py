#!/usr/bin/env python3
"""The golden runners' message pins (`# expect: ... {{TEXT}}`) hold and fail as documented.

Usage: check_golden_pins.py PT2LINT TESTS_DIR
Copies one check golden and one diff golden pair into a scratch folder, rewrites their
`# expect:` line with pins, and runs run_golden.py / run_diff_golden.py on each: a pin of the
message, of a note or of the fix passes; a pin that no finding's text contains, a pin that spans
the message and a note, and an unterminated pin fail with exit 1 and say why.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

CHECK_GOLDEN = "golden/structural/value-names-unique/bad_duplicate_name.textproto"
CHECK_KEY = "error value-names-unique node:add"
DIFF_CASE = "golden/contract/write-back-duplicated/bad_cache_written_back_twice"
DIFF_KEY = "error write-back-duplicated output_specs[1]"


def with_expect(source, target, key, pins):
    """`source` copied to `target` with its one `# expect:` line replaced by KEY PINS."""
    with open(source, encoding="utf-8") as f:
        text = f.read()
    text, count = re.subn(r"^# expect: .*$", lambda _: f"# expect: {key} {pins}".rstrip(), text,
                          count=1, flags=re.MULTILINE)
    assert count == 1, source
    with open(target, "w", encoding="utf-8") as f:
        f.write(text)


def run(runner, pt2lint, path):
    done = subprocess.run([sys.executable, runner, pt2lint, path], capture_output=True, text=True,
                          timeout=120)
    return done.returncode, done.stdout + done.stderr


def main():
    pt2lint, tests = sys.argv[1], sys.argv[2]
    run_golden = os.path.join(tests, "golden", "run_golden.py")
    run_diff = os.path.join(tests, "golden", "run_diff_golden.py")
    failures = []
    ran = []

    def expect(label, code, output, want_code, want_text=None):
        ran.append(label)
        if code != want_code or (want_text and want_text not in output):
            failures.append(f"{label}: exit {code} (want {want_code}"
                            f"{', output with ' + repr(want_text) if want_text else ''}):\n{output}")

    with tempfile.TemporaryDirectory() as scratch:
        golden = os.path.join(scratch, "golden.textproto")
        cases = [
            ("message pin", "{{is defined twice}}", 0, None),
            ("two pins", "{{`add` is defined twice}} {{again by node `add` (position 2)}}", 0, None),
            ("note pin", "{{torch.export.load rejects this file}}", 0, None),
            ("fix pin", "{{give the second definition of `add` a fresh name}}", 0, None),
            ("wrong pin", "{{is defined three times}}", 1, "pin        error value-names-unique node:add"),
            ("one wrong of two", "{{is defined twice}} {{position 7}}", 1, "{{position 7}}"),
            ("pin across message and note", "{{(position 2) note: torch.export}}", 1, "pin "),
            ("unterminated pin", "{{is defined twice", 1, "[{{TEXT}} ...]"),
        ]
        for label, pins, want_code, want_text in cases:
            with_expect(os.path.join(tests, CHECK_GOLDEN), golden, CHECK_KEY, pins)
            code, output = run(run_golden, pt2lint, golden)
            expect(f"run_golden.py, {label}", code, output, want_code, want_text)

        before = os.path.join(scratch, "case.before.textproto")
        after = os.path.join(scratch, "case.after.textproto")
        shutil.copy(os.path.join(tests, DIFF_CASE + ".before.textproto"), before)
        for label, pins, want_code, want_text in [
            ("message pin", "{{is written back 2 times}}", 0, None),
            ("wrong pin", "{{is written back 3 times}}", 1, "{{is written back 3 times}}"),
        ]:
            with_expect(os.path.join(tests, DIFF_CASE + ".after.textproto"), after, DIFF_KEY, pins)
            code, output = run(run_diff, pt2lint, after)
            expect(f"run_diff_golden.py, {label}", code, output, want_code, want_text)

    for failure in failures:
        print(f"FAIL {failure}")
    print(f"golden pins: {len(ran) - len(failures)}/{len(ran)} cases as documented")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
