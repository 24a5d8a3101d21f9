#!/usr/bin/env python3
"""Device script of issue 24, second run: has PyTorch judge what the first run
(judge_hostile.py, results/verdicts.json) left unjudged, beside the carried pt2lint.

    PYTHONUNBUFFERED=1 python3 judge_unjudged.py ARCHIVES_DIR PT2LINT_BIN OUT_DIR

ARCHIVES_DIR holds cases/ (make_unjudged_cases.py) and golden/ (every .pt2 golden of issue
24's folders, named FOLDER__FILE.pt2). Made here, with torch: a weight stored with use_pickle
as torch.save writes it (benign), and a use_pickle weight that is a 4x4 view of a 300 MiB
storage (honest, and larger than pt2lint's 256 MiB pickle bound). Made here, sparse, with
tests/hostile/check_unread_members.py's writer: sample inputs and an extra file of 80 MiB.
For each: torch.export.load, one call on the sample inputs, the state dict's sums (which copy
of a case-variant member was read), whether a marker file appeared (code ran at load), and
pt2lint's exit and findings (with --verify-data too). OUT_DIR/verdicts.json is rewritten after
every archive, so a timeout loses nothing.
"""
import glob
import json
import os
import sys
import time
import traceback
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from judge_hostile import carried_env, pt2lint, verdict_of  # noqa: E402

MARKERS = ["/tmp/pt2lint-marker-use-pickle", "/tmp/pt2lint-marker-opaque"]


def judge(path, torch, binary, env):
    for marker in MARKERS:
        if os.path.exists(marker):
            os.remove(marker)
    result = verdict_of(path, torch)
    if result["verdict"] == "loads":
        try:
            ep = torch.export.load(path)
            result["state_sums"] = {k: round(float(v.float().sum()), 4) for k, v in ep.state_dict.items()}
        except BaseException as e:  # noqa: BLE001
            result["state_sums"] = repr(e)[:200]
    result["code_ran_at_load"] = [m for m in MARKERS if os.path.exists(m)]
    result["pt2lint"] = pt2lint(binary, path, env)
    result["pt2lint_verify_data"] = pt2lint_flags(binary, path, env, ["--verify-data"])
    return result


def pt2lint_flags(binary, path, env, flags):
    import subprocess
    start = time.time()
    run = subprocess.run([binary, "check", "--format", "json", *flags, path], capture_output=True, text=True,
                         env=env, timeout=120)
    try:
        findings = [f"{f['severity']} {f['name']}" for f in json.loads(run.stdout)["files"][0]["findings"]]
    except Exception:  # noqa: BLE001
        findings = [run.stdout[-300:], run.stderr[-300:]]
    return {"exit": run.returncode, "seconds": round(time.time() - start, 2), "findings": findings}


def torch_made_cases(torch, archives):
    """The use_pickle weights torch.save itself writes, in a copy of the clean golden."""
    out = os.path.join(archives, "cases")
    clean = next(p for p in glob.glob(os.path.join(archives, "golden", "*good_clean_archive.pt2")))
    made = []
    with zipfile.ZipFile(clean) as z:
        base = [(i.filename, z.read(i.filename)) for i in z.infolist()]
    root = base[0][0].split("/")[0] + "/"
    # Large members, sparse: check_unread_members.py's stored-zip writer (no torch needed).
    from check_unread_members import write_stored_zip
    MIB = 2 ** 20
    big_sample = [(n, 80 * MIB) if n.endswith("sample_inputs/model.pt") else (n, d) for n, d in base]
    write_stored_zip(os.path.join(out, "big_sample_inputs_80mib_zeros.pt2"), big_sample)
    write_stored_zip(os.path.join(out, "big_extra_80mib_zeros.pt2"), base + [(root + "extra/big.txt", 80 * MIB)])
    made += [os.path.join(out, "big_sample_inputs_80mib_zeros.pt2"), os.path.join(out, "big_extra_80mib_zeros.pt2")]
    weight = torch.frombuffer(bytearray(dict(base)[root + "data/weights/weight_0"]), dtype=torch.float32).reshape(4, 4)
    for name, tensor in (("pickle_use_pickle_weight_benign.pt2", weight.clone()),
                         ("pickle_use_pickle_weight_view_of_300mib.pt2",
                          torch.cat([weight.flatten(), torch.zeros(75 * 2 ** 20)])[:16].view(4, 4))):
        import io
        buf = io.BytesIO()
        torch.save(tensor, buf)
        entries = []
        for n, d in base:
            if n.endswith("model_weights_config.json"):
                config = json.loads(d)
                config["config"]["lin.weight"]["use_pickle"] = True
                d = json.dumps(config).encode()
            elif n.endswith("weights/weight_0"):
                d = buf.getvalue()
            entries.append((n, d))
        path = os.path.join(out, name)
        with zipfile.ZipFile(path, "w") as z:
            for n, d in entries:
                z.writestr(zipfile.ZipInfo(n, (2024, 1, 1, 0, 0, 0)), d)
        made.append(path)
    return made


def main():
    archives, binary, out_dir = sys.argv[1:4]
    os.makedirs(out_dir, exist_ok=True)
    env = carried_env(binary)
    t0 = time.time()
    import torch
    print(f"torch {torch.__version__} imported in {time.time() - t0:.1f}s", flush=True)
    verdicts = {"torch": torch.__version__}
    try:
        torch_made_cases(torch, archives)
    except BaseException:  # noqa: BLE001
        verdicts["torch_made_cases"] = traceback.format_exc()[-800:]
    files = sorted(glob.glob(os.path.join(archives, "cases", "*.pt2"))) + \
        sorted(glob.glob(os.path.join(archives, "golden", "*.pt2")))
    for path in files:
        name = os.path.relpath(path, archives)
        try:
            verdicts[name] = judge(path, torch, binary, env)
        except BaseException:  # noqa: BLE001
            verdicts[name] = {"error": traceback.format_exc()[-500:]}
        print(name, json.dumps(verdicts[name])[:400], flush=True)
        with open(os.path.join(out_dir, "verdicts.json"), "w") as f:
            json.dump(verdicts, f, indent=1, sort_keys=True)
    print(f"done: {len(files)} archives in {time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
