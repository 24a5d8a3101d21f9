"""Issue 28, item 5: pt2lint check against torch.export.load on the device, in one run.

Usage (repository root on the device): python3 side_by_side.py HERE OUT DEADLINE_S
  HERE holds kv_nested_256l.pt2.xz and hf_llama_32l.pt2.xz (the corpus's programs with their
  weight blobs zeroed in place by zero_weights.py, CRC-32s patched: same layout, JSON and sizes;
  the device call carries at most 64 MiB with the tree) and pt2lint.tar.xz (pt2lint/: the binary
  and its non-system libraries: libminizip, libsimdjson, libfmt). The 1,024-layer program is
  the tree's tests/data/bench/kv_nested_1024l.pt2.gz.

Order: pt2lint first, alone on the machine (1 warm-up, then 10 runs per program: best of the
first 3 and the median of all 10; peak RSS from wait4; the JSON report's sha256 to compare with
the local build). Then torch.export.load: one process loads kv_nested_256l and hf_llama_32l 3
times each in sequence (after one warm-up load of hf_llama_32l), and three processes load the
1,024-layer program once each, in parallel (after the same warm-up). Results land in
OUT/results.json as they come; everything is cut at DEADLINE_S."""
import gzip
import lzma
import tarfile
import hashlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

T0 = time.time()
HERE, OUT, DEADLINE = sys.argv[1], sys.argv[2], float(sys.argv[3])
TMP = "/tmp/h2_i28"
NAMES = ["kv_nested_256l", "hf_llama_32l", "kv_nested_1024l"]
R = {"host": {}, "pt2lint": {}, "torch_load_s": {}, "torch_nodes": {}, "notes": []}


def log(*a):
    print(f"[{time.time() - T0:6.1f}s]", *a, flush=True)


def dump():
    with open(os.path.join(OUT, "results.json"), "w") as f:
        json.dump(R, f, indent=1)


def timed(args, env, cwd):
    """Wall seconds, exit code and peak RSS (KiB) of one child."""
    t = time.perf_counter()
    p = subprocess.Popen(args, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode(errors="replace")
    return dt, p.returncode, ru.ru_maxrss, err


LOAD = r"""
import sys, time, torch
torch.export.load(sys.argv[1])  # warm-up: imports and lazy initialisation
for path in sys.argv[3:]:
    for _ in range(int(sys.argv[2])):
        t = time.perf_counter(); ep = torch.export.load(path); dt = time.perf_counter() - t
        print("LOAD", path, dt, len(ep.graph.nodes), flush=True)
"""


def main():
    os.makedirs(TMP, exist_ok=True)
    R["host"] = {"cpus": os.cpu_count(), "machine": platform.machine(),
                 "cpu": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?"),
                 "load_at_start": os.getloadavg()}
    paths = {}
    for n in NAMES:
        dst = os.path.join(TMP, n + ".pt2")
        packed = os.path.join(HERE, n + ".pt2.xz")
        opener = lzma.open if os.path.exists(packed) else gzip.open
        if not os.path.exists(packed):
            packed = os.path.join("tests/data/bench", n + ".pt2.gz")
        with opener(packed) as src, open(dst, "wb") as f:
            shutil.copyfileobj(src, f)
        paths[n] = dst
    log("inputs", {k: os.path.getsize(v) for k, v in paths.items()})

    with tarfile.open(os.path.join(HERE, "pt2lint.tar.xz")) as t:
        t.extractall(TMP)
    exe = os.path.join(TMP, "pt2lint", "pt2lint")
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(TMP, "pt2lint"))
    v = subprocess.run([exe, "--version"], env=env, capture_output=True, text=True)
    R["pt2lint_version"] = {"rc": v.returncode, "out": v.stdout.strip(), "err": v.stderr[-1000:]}
    log("pt2lint --version", v.returncode, v.stdout.strip(), v.stderr[-300:])
    if v.returncode != 0:
        ldd = subprocess.run(["ldd", exe], env=env, capture_output=True, text=True)
        R["notes"].append("pt2lint does not run here; ldd:\n" + ldd.stdout + ldd.stderr)
        log("ldd", ldd.stdout, ldd.stderr)
    else:
        for n in NAMES:
            rep = subprocess.run([exe, "check", "--format", "json", n + ".pt2"], env=env, cwd=TMP, capture_output=True)
            entry = {"rc": rep.returncode, "report_sha256": hashlib.sha256(rep.stdout).hexdigest()}
            timed([exe, "check", "--quiet", n + ".pt2"], env, TMP)  # warm-up (page cache)
            runs = [timed([exe, "check", "--quiet", n + ".pt2"], env, TMP) for _ in range(10)]
            times = [r[0] for r in runs]
            entry.update(times_s=times, best_of_3_s=min(times[:3]), median_of_10_s=statistics.median(times),
                         peak_rss_kib=min(r[2] for r in runs), rcs=sorted({r[1] for r in runs}),
                         stderr=runs[-1][3][-300:])
            R["pt2lint"][n] = entry
            log("pt2lint", n, entry["best_of_3_s"], entry["median_of_10_s"], entry["rc"], entry["report_sha256"][:12])
        dump()

    tenv = dict(os.environ, OMP_NUM_THREADS="4", PYTHONUNBUFFERED="1")
    warm = paths["hf_llama_32l"]
    procs = []
    for i, (count, progs) in enumerate([(3, [paths["kv_nested_256l"], paths["hf_llama_32l"]])] +
                                       [(1, [paths["kv_nested_1024l"]])] * 3):
        logf = open(os.path.join(TMP, f"load_{i}.log"), "w")
        procs.append((subprocess.Popen([sys.executable, "-c", LOAD, warm, str(count)] + progs, env=tenv,
                                       stdout=logf, stderr=subprocess.STDOUT), logf.name))
    seen = set()
    while time.time() - T0 < DEADLINE:
        for p, name in procs:
            for line in open(name).read().splitlines():
                parts = line.split()
                if len(parts) == 4 and parts[0] == "LOAD" and (name, line) not in seen:
                    seen.add((name, line))
                    key = os.path.basename(parts[1])[:-4]
                    R["torch_load_s"].setdefault(key, []).append(float(parts[2]))
                    R["torch_nodes"][key] = int(parts[3])
                    log("torch.export.load", key, parts[2])
                    dump()
        if all(p.poll() is not None for p, _ in procs):
            break
        time.sleep(0.5)
    for p, name in procs:
        if p.poll() is None:
            p.kill()
            R["notes"].append(f"killed at the deadline: {name}")
        elif p.returncode != 0:
            R["notes"].append(f"{name} exit {p.returncode}: " + open(name).read()[-1500:])
    R["torch_best_s"] = {k: min(v) for k, v in R["torch_load_s"].items()}
    R["wall_s"] = time.time() - T0
    dump()
    subprocess.run(["tar", "czf", os.path.join(OUT, "logs.tar.gz"), "-C", TMP] +
                   [f for f in os.listdir(TMP) if f.endswith(".log")])
    log("done", json.dumps({k: R[k] for k in ("torch_best_s", "notes")})[:2000])


if __name__ == "__main__":
    try:
        main()
    finally:
        dump()
