#!/usr/bin/env python3
# usage: RUNS=21 tests/bench/format_costs.py LABEL=PT2LINT:PATH:FORMAT ...  (see docs/performance.md)
"""Interleaved runs (so machine load hits every variant alike): wall and CPU (user+sys) medians."""
import os, resource, statistics, subprocess, sys, time
runs = int(os.environ.get("RUNS", "25"))
variants = [v.split("=", 1) for v in sys.argv[1:] if "=" in v]   # label=TOOL:FILE:FORMAT
res = {label: ([], []) for label, _ in variants}
for i in range(runs):
    for label, spec in variants:
        tool, path, fmt = spec.split(":")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run([tool, "check", path, "--format", fmt, "-o", "/tmp/bench_out_" + label, "-q", "--no-config"])
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        res[label][0].append(wall); res[label][1].append(cpu)
for label, (w, c) in res.items():
    print(f"{label:28s} wall median {statistics.median(w)*1000:7.1f} ms (min {min(w)*1000:6.1f})  CPU median {statistics.median(c)*1000:6.1f} ms  out {os.path.getsize('/tmp/bench_out_' + label)/1e6:.2f} MB")
