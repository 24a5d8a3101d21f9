#!/usr/bin/env python3
"""Device script of issue 24: has PyTorch judge each hostile archive, and checks a >= 4 GiB
archive torch.export.save writes with the pt2lint binary carried over.

    PYTHONUNBUFFERED=1 python3 judge_hostile.py ARCHIVES_DIR PT2LINT_BIN OUT_DIR

For each ARCHIVES_DIR/*.pt2: torch.export.load, then one call of the loaded module on its
sample inputs when there are any; the verdict ("loads", or the exception's type and first
line) goes to OUT_DIR/verdicts.json, written after every archive so that a timeout loses
nothing. Then an nn.Embedding of 2**28 + 16 rows of 4 zeros (4 GiB + 256 bytes of fp32) is
exported and saved, loaded back, and checked with pt2lint (OUT_DIR/big.json).
Nothing here trusts the archives: they are judged in this throwaway machine only.
"""
import glob
import json
import os
import subprocess
import sys
import time
import traceback


def verdict_of(path, torch):
    try:
        ep = torch.export.load(path)
    except BaseException as e:  # noqa: BLE001 - every refusal is a verdict
        return {"verdict": "refuses", "error": f"{type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}"}
    out = {"verdict": "loads"}
    try:
        args, kwargs = ep.example_inputs or ((), {})
        ep.module()(*args, **kwargs)
        out["runs"] = True
    except BaseException as e:  # noqa: BLE001
        out["runs"] = False
        out["run_error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"
    return out


def pt2lint(binary, path, env):
    start = time.time()
    run = subprocess.run([binary, "check", "--format", "json", path], capture_output=True,
                         text=True, env=env, timeout=120)
    took = time.time() - start
    try:
        findings = [f"{f['severity']} {f['name']}" for f in json.loads(run.stdout)["files"][0]["findings"]]
    except Exception:  # noqa: BLE001
        findings = [run.stdout[-300:], run.stderr[-300:]]
    return {"exit": run.returncode, "seconds": round(took, 2), "findings": findings}


def carried_env(binary):
    """The environment the carried binary runs in: lib/ (minizip, simdjson, fmt) beside it, and
    libstdcxx/ (Debian 12's libstdc++) only when the device's own is too old."""
    here = os.path.dirname(binary)
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(here, "lib"))
    probe = subprocess.run([binary, "--version"], capture_output=True, text=True, env=env)
    if probe.returncode != 0:
        env["LD_LIBRARY_PATH"] += ":" + os.path.join(here, "libstdcxx")
        probe = subprocess.run([binary, "--version"], capture_output=True, text=True, env=env)
    print("pt2lint:", probe.returncode, probe.stdout.strip(), probe.stderr.strip()[:300], flush=True)
    return env


def main():
    archives, binary, out_dir = sys.argv[1:4]
    os.makedirs(out_dir, exist_ok=True)
    env = carried_env(binary)
    t0 = time.time()
    import torch
    print(f"torch {torch.__version__} imported in {time.time() - t0:.1f}s", flush=True)
    verdicts = {"torch": torch.__version__}
    files = sorted(glob.glob(os.path.join(archives, "**", "*.pt2"), recursive=True))
    for path in files:
        name = os.path.relpath(path, archives)
        verdicts[name] = verdict_of(path, torch)
        try:
            verdicts[name]["pt2lint"] = pt2lint(binary, path, env)
        except Exception as e:  # noqa: BLE001
            verdicts[name]["pt2lint"] = {"error": repr(e)[:200]}
        print(name, json.dumps(verdicts[name]), flush=True)
        with open(os.path.join(out_dir, "verdicts.json"), "w") as f:
            json.dump(verdicts, f, indent=1, sort_keys=True)

    # Does a pickle in the sample inputs run code at load? A marker file says so.
    marker = "/tmp/pt2lint-pickle-ran"
    try:
        import io
        import struct
        import zipfile
        source = next(p for p in files if p.endswith("good_sample_inputs_tensors_only.pt2"))
        command = f"touch {marker}".encode()
        pickle = b"\x80\x02cposix\nsystem\nX" + struct.pack("<I", len(command)) + command + b"\x85R."
        nested = io.BytesIO()
        with zipfile.ZipFile(nested, "w") as z:
            z.writestr("model/data.pkl", pickle)
            z.writestr("model/.data/version", "3\n")
        marked = "/tmp/marker_pickle.pt2"
        with zipfile.ZipFile(source) as src, zipfile.ZipFile(marked, "w") as dst:
            for info in src.infolist():
                data = nested.getvalue() if info.filename.endswith("sample_inputs/model.pt") else src.read(info)
                dst.writestr(info.filename, data)
        result = verdict_of(marked, torch)
        result["code_ran_at_load"] = os.path.exists(marker)
        result["pt2lint"] = pt2lint(binary, marked, env)
        verdicts["marker_pickle_in_sample_inputs"] = result
        print("marker", result, flush=True)
    except BaseException:  # noqa: BLE001
        verdicts["marker_pickle_in_sample_inputs"] = {"error": traceback.format_exc()[-800:]}
    with open(os.path.join(out_dir, "verdicts.json"), "w") as f:
        json.dump(verdicts, f, indent=1, sort_keys=True)

    big = {}
    try:
        class Big(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.table = torch.nn.Embedding(2 ** 28 + 16, 4, _weight=torch.zeros(2 ** 28 + 16, 4))

            def forward(self, idx):
                return self.table(idx)

        t = time.time()
        ep = torch.export.export(Big(), (torch.tensor([0, 1, 2]),))
        path = "/tmp/big_embedding.pt2"
        torch.export.save(ep, path)
        big["save_seconds"] = round(time.time() - t, 1)
        big["bytes"] = os.path.getsize(path)
        print("saved", big, flush=True)
        big["pt2lint"] = pt2lint(binary, path, env)
        print("pt2lint", big["pt2lint"], flush=True)
        with open(os.path.join(out_dir, "big.json"), "w") as f:
            json.dump(big, f, indent=1)
        subprocess.run(["python3", "-c", "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); "
                        "print([(i.filename, i.file_size, i.header_offset) for i in z.infolist()])", path],
                       check=False)
        t = time.time()
        loaded = torch.export.load(path)
        big["load"] = f"loads in {time.time() - t:.1f}s; {tuple(loaded.module()(torch.tensor([1])).shape)}"
    except BaseException:  # noqa: BLE001
        big["error"] = traceback.format_exc()[-1500:]
    print("big", big, flush=True)
    with open(os.path.join(out_dir, "big.json"), "w") as f:
        json.dump(big, f, indent=1)


if __name__ == "__main__":
    main()
