#!/usr/bin/env python3
"""Inputs that cost a careless reader time or memory out of proportion to their size (issue 24),
and the check that pt2lint stays within budget on each:

    python3 tests/hostile/make_blowups.py CORPUS OUT_DIR [PT2LINT]

- aliases_40k.pt2: 40,000 weights-config entries sharing lin.weight's record (one alias
  group of 40,000); must be checked in under 1 s;
- write_backs_40k.pt2: 40,000 buffer write-backs of one buffer (output specs and graph
  outputs); under 1 s, and under 3 s and 300 MB as markdown and as HTML (pictures and folded
  lists are bounded per root cause);
- deflate_bomb.pt2: a program JSON of ~1 GB of spaces deflated into ~1 MB; pt2lint's peak
  memory must stay under 300 MB, and the refusal must be the inflate budget's (it refuses to
  inflate more than its per-file budget), not another check's;
- deflate_bomb_split.pt2: three programs of 96 MiB of spaces each, deflated: each one alone is
  within the 128 MiB budget, the three are not. The budget is per archive, so the second is
  refused, and the peak stays under 300 MB with --jobs 2 as well.
With PT2LINT, runs each and fails when a budget is exceeded (wall time and peak RSS from
wait4, as measured by the kernel; the time budget is CPU time).
"""
import json
import os
import subprocess
import sys
import time
import zipfile

DATE = (2024, 1, 1, 0, 0, 0)
N = 40_000


def members(path):
    with zipfile.ZipFile(path) as z:
        return [(i.filename, z.read(i.filename)) for i in z.infolist()]


def write(path, entries, bomb_member=None, bomb_mib=1024):
    """The archive; `bomb_member`'s data (one name, or a set of names) is `bomb_mib` MiB of
    spaces between braces, deflated, written in 1 MiB chunks so that it is never held whole."""
    bombs = {bomb_member} if isinstance(bomb_member, str) else set(bomb_member or ())
    with zipfile.ZipFile(path, "w") as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, DATE)
            if name not in bombs:
                z.writestr(info, data)
                continue
            info.compress_type = zipfile.ZIP_DEFLATED
            chunk = b" " * (1 << 20)
            with z.open(info, "w", force_zip64=True) as out:
                out.write(b"{")
                for _ in range(bomb_mib):
                    out.write(chunk)
                out.write(b"}")


def edit(entries, suffix, change):
    return [(n, change(d) if n.endswith(suffix) else d) for n, d in entries]


def aliases(entries):
    def change(data):
        config = json.loads(data)
        weight = config["config"]["lin.weight"]
        for i in range(N):
            config["config"][f"alias_{i}"] = dict(weight, is_param=False)
        return json.dumps(config).encode()
    return edit(entries, "model_weights_config.json", change)


def write_backs(entries):
    def change(data):
        doc = json.loads(data)
        sig = doc["graph_module"]["signature"]
        mutation = next(s for s in sig["output_specs"] if "buffer_mutation" in s)
        index = sig["output_specs"].index(mutation)
        graph = doc["graph_module"]["graph"]
        value = graph["outputs"][index]
        sig["output_specs"] = [mutation] * N + sig["output_specs"]
        graph["outputs"] = [value] * N + graph["outputs"]
        return json.dumps(doc).encode()
    return edit(entries, "models/model.json", change)



def measure(binary, path, flags=()):
    """CPU seconds (user + system: on a shared CI machine wall time measures the neighbours),
    wall seconds, peak RSS in MB, the exit code and the text report of `pt2lint check PATH`."""
    start = time.monotonic()
    with open(path + ".txt", "w+b") as report:
        process = subprocess.Popen([binary, "check", *flags, path], stdout=report, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        report.seek(0)
        text = report.read().decode("utf-8", "replace")
    return (usage.ru_utime + usage.ru_stime, time.monotonic() - start, usage.ru_maxrss / 1024,
            os.waitstatus_to_exitcode(status), text)


def main():
    corpus, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    base = members(os.path.join(corpus, "base", "counter.aten.pt2"))
    cases = []
    write(os.path.join(out_dir, "aliases_40k.pt2"), aliases(base))
    cases.append(("aliases_40k.pt2", 1.0, None, ()))
    write(os.path.join(out_dir, "write_backs_40k.pt2"), write_backs(base))
    cases.append(("write_backs_40k.pt2", 1.0, None, ()))
    # The reports that draw pictures and list folded findings: bounded per root cause (before:
    # 2,000 write-backs took 70 s and 449 MB in markdown, 201 s and 3.4 GB of HTML).
    cases.append(("write_backs_40k.pt2", 3.0, 300.0, ("--format", "markdown")))
    cases.append(("write_backs_40k.pt2", 3.0, 300.0, ("--format", "html")))
    program = next(n for n, _ in base if n.endswith("models/model.json"))
    write(os.path.join(out_dir, "deflate_bomb.pt2"), base, bomb_member=program)
    cases.append(("deflate_bomb.pt2", None, 300.0, ()))
    programs = [program.replace("models/model.json", f"models/{p}.json") for p in ("a", "b", "c")]
    split = [(n, d) for n, d in base if n != program] + [(p, b"") for p in programs]
    write(os.path.join(out_dir, "deflate_bomb_split.pt2"), split, bomb_member=programs, bomb_mib=96)
    cases.append(("deflate_bomb_split.pt2", None, 300.0, ()))
    cases.append(("deflate_bomb_split.pt2", None, 300.0, ("--jobs", "2")))
    for name in sorted({c[0] for c in cases}):
        print(f"{name}: {os.path.getsize(os.path.join(out_dir, name))} bytes")
    if len(sys.argv) < 4:
        return
    failed = False
    for name, max_seconds, max_mb, flags in cases:
        seconds, wall, mb, code, text = measure(sys.argv[3], os.path.join(out_dir, name), flags)
        over = (max_seconds is not None and seconds > max_seconds) or (max_mb is not None and mb > max_mb)
        # A bomb must be stopped by the inflate budget (zip_archive.h), not by luck elsewhere.
        # The 1 GB one never reaches the inflate budget: its declared size is past the 1 GiB
        # program-JSON limit (or the 1032:1 ratio). The split one, each member plausible, must be
        # stopped by the budget itself.
        stopped_by = ("deflate bomb", "more than the limit", "more than any compression achieves") \
            if name == "deflate_bomb.pt2" else ("deflate bomb",)
        unstopped = name.startswith("deflate_bomb") and (not any(s in text for s in stopped_by) or code != 1)
        failed |= over or unstopped or code not in (0, 1)
        print(f"{name} {' '.join(flags)}: exit {code}, {seconds:.2f} s CPU ({wall:.2f} s wall), peak {mb:.0f} MB"
              f"{'  OVER BUDGET' if over else ''}{'  NOT STOPPED BY THE INFLATE BUDGET' if unstopped else ''}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
