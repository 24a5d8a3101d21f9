"""One device run for issue 28: export the kv_nested decoder deeper, time torch.export.load
(best of 3) and pt2lint check (best of 3) side by side. Every step runs in its own process,
in parallel, under one deadline; partial results land in OUT as they come.

Usage: python3 device_bench.py HERE OUT DEADLINE_S
  HERE holds export_decoder.py, kv_nested_256l.pt2.gz, hf_llama_32l.pt2.gz and pt2lint/ (bin + libs)."""
import glob
import gzip
import json
import os
import shutil
import subprocess
import sys
import time

T0 = time.time()
HERE, OUT, DEADLINE = sys.argv[1], sys.argv[2], float(sys.argv[3])
TMP = "/tmp/i28"
LAYERS = [int(x) for x in os.environ.get("LAYERS", "1024 2048 2816").split()]
RESULTS = {"layers": {}, "torch_load_s": {}, "pt2lint_s": {}, "notes": []}


def log(*a):
    print(f"[{time.time() - T0:6.1f}s]", *a, flush=True)


def spawn(args, log_name, env=None):
    """A child whose output goes to a file (a full pipe would stall it)."""
    path = os.path.join(TMP, log_name)
    p = subprocess.Popen(args, env=env, stdout=open(path, "w"), stderr=subprocess.STDOUT, text=True)
    p.log_path = path
    return p


def output(p):
    with open(p.log_path) as f:
        return f.read()


def dump():
    with open(os.path.join(OUT, "results.json"), "w") as f:
        json.dump(RESULTS, f, indent=1)


LOAD_ONE = r"""
import sys, time, torch
warm, path = sys.argv[1], sys.argv[2]
torch.export.load(warm)
t = time.perf_counter(); ep = torch.export.load(path); dt = time.perf_counter() - t
print(dt, len(ep.graph.nodes), flush=True)
"""

LOAD_SEQ = r"""
import sys, time, torch
for path in sys.argv[1:]:
    for _ in range(3):
        t = time.perf_counter(); ep = torch.export.load(path); dt = time.perf_counter() - t
        print(path, dt, len(ep.graph.nodes), flush=True)
"""


def main():
    os.makedirs(TMP, exist_ok=True)
    small = {}
    for name in ("kv_nested_256l", "hf_llama_32l"):
        dst = os.path.join(TMP, name + ".pt2")
        with gzip.open(os.path.join(HERE, name + ".pt2.gz")) as src, open(dst, "wb") as f:
            shutil.copyfileobj(src, f)
        small[name] = dst
    log("inputs unpacked", {k: os.path.getsize(v) for k, v in small.items()})
    env = dict(os.environ, OMP_NUM_THREADS="1", EXPORT_TMP=TMP, PYTHONUNBUFFERED="1")
    exports = {}
    for n in LAYERS:
        out = os.path.join(OUT, f"kv_nested_{n}l.pt2.gz")
        exports[n] = spawn([sys.executable, os.path.join(HERE, "export_decoder.py"), str(n), out], f"export_{n}.log", env)
    seq = spawn([sys.executable, "-c", LOAD_SEQ, small["kv_nested_256l"], small["hf_llama_32l"]], "load_seq.log")
    one_loads = []
    lint_done = set()
    while time.time() - T0 < DEADLINE:
        for n, p in list(exports.items()):
            if p.poll() is None:
                continue
            text = output(p)
            del exports[n]
            try:
                info = json.loads(text.strip().splitlines()[-1])
                RESULTS["layers"][str(n)] = info
                log("exported", info)
            except Exception:
                RESULTS["notes"].append(f"export {n} failed: {text[-2000:]}")
                log("export", n, "FAILED", text[-2000:])
                continue
            plain = os.path.join(TMP, f"kv_nested_{n}l.pt2")
            lint(f"kv_nested_{n}l", plain)
            if n == LAYERS[0]:
                for i in range(3):
                    one_loads.append(spawn([sys.executable, "-c", LOAD_ONE, small["hf_llama_32l"], plain], f"load_{i}.log"))
            dump()
        if seq is not None and seq.poll() is not None:
            for line in output(seq).splitlines():
                parts = line.split()
                if len(parts) == 3 and parts[0].endswith(".pt2"):
                    key = os.path.basename(parts[0])[:-4]
                    RESULTS["torch_load_s"].setdefault(key, []).append(float(parts[1]))
                    RESULTS.setdefault("torch_nodes", {})[key] = int(parts[2])
                else:
                    log("load:", line)
            log("sequential loads", RESULTS["torch_load_s"])
            seq = None
            for name, path in small.items():
                lint(name, path)
            dump()
        for p in list(one_loads):
            if p.poll() is None:
                continue
            one_loads.remove(p)
            text = output(p).strip().splitlines()
            try:
                dt, nodes = text[-1].split()
                key = f"kv_nested_{LAYERS[0]}l"
                RESULTS["torch_load_s"].setdefault(key, []).append(float(dt))
                RESULTS.setdefault("torch_nodes", {})[key] = int(nodes)
                log("parallel load", key, dt)
            except Exception:
                RESULTS["notes"].append("load failed: " + "\n".join(text[-20:]))
            dump()
        if not exports and seq is None and not one_loads:
            break
        time.sleep(0.5)
    for p in list(exports.values()) + one_loads + ([seq] if seq else []):
        if p.poll() is None:
            p.kill()
            RESULTS["notes"].append(f"killed at the deadline: {p.args[:3]}")
    RESULTS["exports_unfinished"] = sorted(exports)
    RESULTS["wall_s"] = time.time() - T0
    dump()
    subprocess.run(["tar", "czf", os.path.join(OUT, "logs.tar.gz"), "-C", TMP] +
                   [f for f in os.listdir(TMP) if f.endswith(".log")])
    log("done", json.dumps(RESULTS)[:3000])


def lint(name, path):
    exe = os.path.join(HERE, "pt2lint", "pt2lint")
    if not os.path.exists(exe):
        return
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(HERE, "pt2lint"))
    times = []
    for _ in range(3):
        t = time.perf_counter()
        r = subprocess.run([exe, "check", "--quiet", path], env=env, capture_output=True, text=True)
        times.append(time.perf_counter() - t)
    RESULTS["pt2lint_s"][name] = {"times": times, "rc": r.returncode, "stderr": r.stderr[-500:]}
    log("pt2lint", name, min(times), r.returncode)


if __name__ == "__main__":
    try:
        main()
    finally:
        dump()
