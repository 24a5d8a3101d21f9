#!/usr/bin/env python3
"""The command line around the reports: config discovery (pyproject.toml and .pt2lint.toml,
--config, --no-config, "did you mean" errors), per-file-ignores, --shard, --statistics,
--quiet and the GitHub step summary, on the two archives next to this script.

usage: cli_options.py PT2LINT WORK_DIR"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def check(pt2lint, *args, cwd=None, env=None):
    return subprocess.run([pt2lint, "check", *args], cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


def expect(condition, what, run=None):
    if not condition:
        failures.append(what + (f" (exit {run.returncode})\n{run.stdout}{run.stderr}" if run else ""))


def main():
    pt2lint, work = os.path.abspath(sys.argv[1]), sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    zoo = os.path.join(work, "zoo")
    os.makedirs(os.path.join(zoo, "legacy"))
    shutil.copy(os.path.join(HERE, "counter_broken.pt2"), os.path.join(zoo, "legacy", "old.pt2"))
    shutil.copy(os.path.join(HERE, "counter_clean.pt2"), os.path.join(zoo, "clean.pt2"))

    def write(name, text):
        with open(os.path.join(zoo, name), "w") as f:
            f.write(text)

    run = check(pt2lint, "zoo", cwd=work)
    expect(run.returncode == 1, "without a config the broken archive fails", run)

    write("pyproject.toml", '[project]\nname = "zoo"\n[tool.pt2lint]\nselct = ["PT2"]\n')
    run = check(pt2lint, "zoo", cwd=work)
    expect(run.returncode == 2 and "did you mean 'select'?" in run.stderr, "unknown key: exit 2 + hint", run)
    write("pyproject.toml", '[tool.pt2lint]\nignore = ["input-specs-match-placeholder"]\n')
    run = check(pt2lint, "zoo", cwd=work)
    expect(run.returncode == 2 and "did you mean 'input-specs-match-placeholders'?" in run.stderr,
           "unknown rule: exit 2 + hint", run)

    write("pyproject.toml", '[tool.pt2lint]\n[tool.pt2lint.per-file-ignores]\n'
                            '"legacy/*.pt2" = ["PT2"]\n[tool.pt2lint.severity]\nstate-dict-mismatch = "note"\n')
    run = check(pt2lint, os.path.join(zoo, "legacy", "old.pt2"), "--format", "json")
    expect(run.returncode == 0, "per-file-ignores silence the PT2xx errors of legacy/", run)
    if run.returncode == 0:
        findings = json.loads(run.stdout)["files"][0]["findings"]
        expect(all(not f["rule"].startswith("PT2") or f["severity"] == "note" for f in findings),
               "only notes remain after per-file-ignores and the severity override", run)
    run = check(pt2lint, "zoo", "--no-config", cwd=work)
    expect(run.returncode == 1, "--no-config ignores pyproject.toml", run)

    write(".pt2lint.toml", 'select = ["malformed-program"]\n')
    run = check(pt2lint, "zoo", cwd=work)
    expect(run.returncode == 0, ".pt2lint.toml wins over pyproject.toml in one folder", run)
    other = os.path.join(work, "strict.toml")
    with open(other, "w") as f:
        f.write('select = ["PT2"]\n')
    run = check(pt2lint, "zoo", "--config", other, cwd=work)
    expect(run.returncode == 1, "--config FILE replaces the discovered config", run)
    os.remove(os.path.join(zoo, ".pt2lint.toml"))
    os.remove(os.path.join(zoo, "pyproject.toml"))

    shards = []
    for index in (1, 2, 3):
        run = check(pt2lint, "zoo", "--shard", f"{index}/3", "--format", "json", "--no-config", cwd=work)
        shards.append([f["path"] for f in json.loads(run.stdout)["files"]])
    every = [f["path"] for f in json.loads(check(pt2lint, "zoo", "--format", "json", cwd=work).stdout)["files"]]
    expect(sorted(sum(shards, [])) == sorted(every), f"shards {shards} partition {every}")
    run = check(pt2lint, "zoo", "--shard", "4/3", cwd=work)
    expect(run.returncode == 2, "--shard 4/3 is a usage error", run)

    run = check(pt2lint, "zoo", "--statistics", "--format", "sarif", cwd=work)
    expect("PT201\tinput-specs-match-placeholders" in run.stderr and run.stdout.startswith("{"),
           "--statistics goes to stderr beside a machine-readable format", run)
    run = check(pt2lint, "zoo", "--quiet", cwd=work)
    expect(run.returncode == 1 and run.stdout == "" and run.stderr == "", "--quiet prints nothing", run)

    summary = os.path.join(work, "step_summary.md")
    env = dict(os.environ, GITHUB_STEP_SUMMARY=summary)
    run = check(pt2lint, "zoo", "--format", "github", cwd=work, env=env)
    expect(run.stdout.startswith("::error ") and os.path.exists(summary) and
           "| Severity | Rule |" in open(summary).read(), "github format appends the step summary", run)
    # A summary that cannot be written is said on stderr; the annotations and the exit code stay.
    env = dict(os.environ, GITHUB_STEP_SUMMARY=os.path.join(work, "no_such_folder", "summary.md"))
    run = check(pt2lint, "zoo", "--format", "github", cwd=work, env=env)
    expect(run.returncode == 1 and run.stdout.startswith("::error ") and
           "warning: cannot append the job summary to $GITHUB_STEP_SUMMARY" in run.stderr,
           "an unwritable step summary is a warning", run)

    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
