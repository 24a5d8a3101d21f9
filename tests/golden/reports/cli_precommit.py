#!/usr/bin/env python3
"""Parses .pre-commit-hooks.yaml, checks the fields pre-commit requires, and runs the hook's
entry the way pre-commit would: entry + the staged files that match `files`. A broken
archive must fail the hook, a clean one pass it. PyYAML is used when present; otherwise a
minimal parser reads the manifest's flat `- key: value` list.

usage: cli_precommit.py PT2LINT_BUILD_DIR REPO_ROOT CLEAN_FILE BROKEN_FILE"""
import os
import re
import shlex
import subprocess
import sys

REQUIRED = ("id", "name", "entry", "language")


def parse_minimal(text):
    hooks = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = re.match(r"^(-)?\s*([A-Za-z_]+):\s*(.*)$", line)
        if not match:
            raise ValueError(f"cannot parse manifest line: {line}")
        if match.group(1):
            hooks.append({})
        value = match.group(3).strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        hooks[-1][match.group(2)] = {"true": True, "false": False}.get(value, value)
    return hooks


def load_manifest(path):
    with open(path) as f:
        text = f.read()
    try:
        import yaml
    except ImportError:
        return parse_minimal(text)
    return yaml.safe_load(text)


def main():
    build_dir, repo, clean, broken = sys.argv[1:5]
    hooks = load_manifest(os.path.join(repo, ".pre-commit-hooks.yaml"))
    hook = next((h for h in hooks if h.get("id") == "pt2lint"), None)
    if hook is None or any(not hook.get(key) for key in REQUIRED):
        print(f"manifest: a pt2lint hook with {REQUIRED} is required, got {hook}")
        return 1
    pattern = re.compile(hook["files"])
    if not pattern.search("models/encoder.pt2") or pattern.search("model.pt2.json"):
        print(f"files pattern {hook['files']!r} must match .pt2 files only")
        return 1
    env = dict(os.environ, PATH=build_dir + os.pathsep + os.environ.get("PATH", ""), PRE_COMMIT="1")
    entry = shlex.split(hook["entry"])
    for files, expected in (([clean], 0), ([clean, broken], 1)):
        staged = [f for f in files if pattern.search(f)]
        run = subprocess.run(entry + staged, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if run.returncode != expected:
            print(f"{hook['entry']} {' '.join(staged)}: exit {run.returncode}, expected {expected}\n{run.stdout}{run.stderr}")
            return 1
    print(f"hook {hook['id']}: `{hook['entry']}` passes a clean archive and fails a broken one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
