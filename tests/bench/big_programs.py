#!/usr/bin/env python3
"""`make bench`: wall time (hyperfine) and peak RSS (GNU time) of `pt2lint check --quiet` on the
large programs, beside a bare simdjson DOM parse of each program's JSON in the same run, the
growth from 256 to 1,024 to 4,096 layers, and the budgets of docs/performance.md.

Usage: big_programs.py BUILD_DIR CORPUS_DIR
  RUNS=N        hyperfine runs for programs under 50 MB of JSON (default 30; larger ones get 10)
  PROGRAMS=a,b  only these (names as printed)
Not a pass/fail test: it prints "met" or "NOT met" beside each budget, and exits 0."""
import json
import os
import shutil
import statistics
import subprocess
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH_DATA = os.path.join(HERE, "..", "data", "bench")
BUDGETS = {  # docs/performance.md
    "kv_nested_256l": {"median_ms": 25.0, "rss_mb": 52.0},
    "kv_nested_4096l": {"median_ms": 400.0, "rss_per_json": 2.5},
}
GROWTH_BUDGET = 4.4  # 1,024 -> 4,096 layers, time and peak RSS


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def unpack(build, name):
    """The bench program (gzipped in tests/data/bench) as a .pt2 under BUILD/bench, once."""
    gz = os.path.join(BENCH_DATA, name + ".pt2.gz")
    out = os.path.join(build, "bench", name + ".pt2")
    if not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(gz):
        with open(out + ".tmp", "wb") as f:
            subprocess.run(["gzip", "-dc", gz], stdout=f, check=True)
        os.replace(out + ".tmp", out)
    return out


def program_json(build, name, pt2):
    """The program JSON member, extracted for the bare parse; its size and call-node count."""
    out = os.path.join(build, "bench", name + ".json")
    with zipfile.ZipFile(pt2) as z:
        member = next(n for n in z.namelist() if "/models/" in n and n.endswith(".json"))
        if not os.path.exists(out) or os.path.getsize(out) != z.getinfo(member).file_size:
            with z.open(member) as src, open(out, "wb") as dst:
                shutil.copyfileobj(src, dst)
    with open(out, "rb") as f:
        data = f.read()
    return out, len(data), data.count(b'{"target": ')


def hyperfine(commands, runs, warmup):
    """Median, mean and min wall seconds of each command, from one hyperfine call."""
    out = "/tmp/pt2lint-bench.json"
    args = ["hyperfine", "-N", "-i", "--warmup", str(warmup), "--runs", str(runs), "--export-json", out]
    # Its warnings about outliers are about the machine's load, which the report prints.
    subprocess.run(args + commands, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out) as f:
        return [(r["median"], r["mean"], r["min"]) for r in json.load(f)["results"]]


def peak_rss_mb(command):
    """Peak RSS of one run (GNU time), in MB; the lowest of three."""
    best = None
    for _ in range(3):
        r = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, capture_output=True, text=True)
        kb = int(r.stderr.strip().splitlines()[-1])
        best = kb if best is None else min(best, kb)
    return best * 1024 / 1e6


def main():
    build, corpus = sys.argv[1], sys.argv[2]
    tool = os.path.join(build, "pt2lint")
    os.makedirs(os.path.join(build, "bench"), exist_ok=True)
    bare = os.path.join(build, "bench", "bare_parse")
    subprocess.run([os.environ.get("CXX", "g++"), "-std=c++20", "-O2", os.path.join(HERE, "bare_parse.cc"),
                    "-o", bare, "-lsimdjson"], check=True)
    programs = [(n, os.path.join(corpus, "big", n + ".pt2")) for n in ("kv_nested_64l", "kv_nested_256l", "hf_llama_32l")]
    programs = [(n, p) for n, p in programs if os.path.exists(p)]
    programs += [(n, unpack(build, n)) for n in ("kv_nested_1024l", "kv_nested_4096l")]
    only = os.environ.get("PROGRAMS")
    if only:
        programs = [(n, p) for n, p in programs if n in only.split(",")]
    runs = int(os.environ.get("RUNS", "30"))
    print(f"load average: {load_average()} on {os.cpu_count()} cores")
    print(f"{'program':16s} {'JSON MB':>8s} {'calls':>7s} {'median':>9s} {'mean':>9s} {'min':>9s} "
          f"{'peak RSS':>9s} {'RSS/JSON':>8s} {'bare parse':>10s} {'ratio':>6s}")
    rows = {}
    for name, pt2 in programs:
        json_path, json_bytes, calls = program_json(build, name, pt2)
        big = json_bytes > 50e6
        (lint, parse) = hyperfine([f"{tool} check --quiet {pt2}", f"{bare} {json_path}"],
                                  10 if big else runs, 1 if big else 3)
        rss = peak_rss_mb([tool, "check", "--quiet", pt2])
        row = {"json_mb": json_bytes / 1e6, "calls": calls, "median_ms": lint[0] * 1e3, "mean_ms": lint[1] * 1e3,
               "min_ms": lint[2] * 1e3, "rss_mb": rss, "rss_per_json": rss / (json_bytes / 1e6),
               "bare_ms": parse[0] * 1e3, "ratio": lint[0] / parse[0]}
        rows[name] = row
        print(f"{name:16s} {row['json_mb']:8.1f} {calls:7d} {row['median_ms']:7.1f}ms {row['mean_ms']:7.1f}ms "
              f"{row['min_ms']:7.1f}ms {rss:7.1f}MB {row['rss_per_json']:7.2f}x {row['bare_ms']:8.1f}ms "
              f"{row['ratio']:5.2f}x", flush=True)
    print(f"load average: {load_average()}")
    for a, b in (("kv_nested_256l", "kv_nested_1024l"), ("kv_nested_1024l", "kv_nested_4096l")):
        if a in rows and b in rows:
            t = rows[b]["median_ms"] / rows[a]["median_ms"]
            m = rows[b]["rss_mb"] / rows[a]["rss_mb"]
            j = rows[b]["json_mb"] / rows[a]["json_mb"]
            budget = f" (budget {GROWTH_BUDGET}x: {'met' if max(t, m) <= GROWTH_BUDGET else 'NOT met'})" \
                if b == "kv_nested_4096l" else ""
            print(f"growth {a} -> {b}: JSON {j:.2f}x, time {t:.2f}x, peak RSS {m:.2f}x{budget}")
    for name, budget in BUDGETS.items():
        if name not in rows:
            continue
        for key, limit in budget.items():
            value = rows[name][key]
            print(f"budget {name} {key}: {value:.2f} <= {limit} {'met' if value <= limit else 'NOT met'}")
    with open(os.path.join(build, "bench", "results.json"), "w") as f:
        json.dump({"load": load_average(), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
