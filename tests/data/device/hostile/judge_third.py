#!/usr/bin/env python3
"""Device script of issue 24, third run: has PyTorch judge the two cases the first two runs
(results/, results2/) never judged, and their neighbours, beside the carried pt2lint:

    PYTHONUNBUFFERED=1 python3 judge_third.py BASE_PT2 PT2LINT_BIN OUT_DIR

BASE_PT2 is corpus/base/counter.aten.pt2. Every archive is made here, from it, under
OUT_DIR/cases3 (the large ones sparse where no torch is involved: zeros are holes):
- a program config missing entirely: the constants config, the weights config, and the
  constants config replaced by the legacy whole-state file data/constants/model.pt;
- bare pickles (no torch.save zip) in a use_pickle weight, small and larger than pt2lint's
  256 MiB pickle bound (300 MiB): zeros; posix.system in the first pickle; torch.save's legacy
  format (torch.save(..., _use_new_zipfile_serialization=False)) of an nn.Parameter, honest;
  the legacy format with posix.system in its object pickle; a pickle of one int; not a pickle;
- the sample inputs in torch.save's legacy format.
A marker file says whether code ran at load. judge_unjudged.judge records, for each archive,
PyTorch's verdict, the state dict's sums, the markers, and pt2lint's exit and findings (also
with --verify-data); OUT_DIR/verdicts.json is rewritten after every archive. The small archives
are copied to OUT_DIR/small/ (to keep as goldens).
"""
import io
import json
import os
import pickle
import shutil
import struct
import sys
import time
import traceback
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import judge_unjudged  # noqa: E402
from check_unread_members import system_pickle, write_stored_zip  # noqa: E402
from judge_hostile import carried_env  # noqa: E402

MIB = 1 << 20
ROOT = "counter.aten/"
WCFG = ROOT + "data/weights/model_weights_config.json"
CCFG = ROOT + "data/constants/model_constants_config.json"
MARKER_BARE = "/tmp/pt2lint-marker-bare-first-pickle"
MARKER_LEGACY = "/tmp/pt2lint-marker-legacy-object"
judge_unjudged.MARKERS.extend([MARKER_BARE, MARKER_LEGACY])


def legacy_pickles(object_pickle, storage_keys=b"\x80\x02].", system_info=b"\x80\x02}."):
    """torch.save's legacy stream around a hand-written object pickle: magic number, protocol
    version, system info, the object, the storage keys (pickle.dumps of two ints only)."""
    return pickle.dumps(0x1950A86A20F9469CFC6C, protocol=2) + pickle.dumps(1001, protocol=2) + \
        system_info + object_pickle + storage_keys


def make_cases(torch, base, out):
    os.makedirs(out, exist_ok=True)
    data = dict(base)

    def use_pickle(entries, weight):
        config = json.loads(dict(entries)[WCFG])
        config["config"]["lin.weight"]["use_pickle"] = True
        return [(n, json.dumps(config).encode() if n == WCFG else weight if n.endswith("weights/weight_0") else d)
                for n, d in entries]

    def write(name, entries):
        try:
            write_stored_zip(os.path.join(out, name), entries() if callable(entries) else entries)
        except BaseException:  # noqa: BLE001 - one case failing never loses the others
            print(f"{name}: not made:", traceback.format_exc()[-1200:], flush=True)

    write("config_constants_missing.pt2", [(n, d) for n, d in base if n != CCFG])
    write("config_weights_missing.pt2", [(n, d) for n, d in base if n != WCFG])
    def saved(value, legacy=False):
        buf = io.BytesIO()
        torch.save(value, buf, _use_new_zipfile_serialization=not legacy)
        return buf.getvalue()

    write("config_constants_legacy_file.pt2",
          lambda: [(n, d) for n, d in base if n != CCFG] + [(ROOT + "data/constants/model.pt", saved({}))])

    weight = torch.frombuffer(bytearray(data[ROOT + "data/weights/weight_0"]), dtype=torch.float32).reshape(4, 4)
    write("bare_legacy_parameter_small.pt2",
          lambda: use_pickle(base, saved(torch.nn.Parameter(weight.clone()), legacy=True)))
    write("bare_legacy_object_system_small.pt2",
          use_pickle(base, legacy_pickles(system_pickle(f"touch {MARKER_LEGACY}"))))
    write("bare_first_pickle_system_small.pt2", use_pickle(base, system_pickle(f"touch {MARKER_BARE}")))
    write("bare_int_small.pt2", use_pickle(base, pickle.dumps(5, protocol=2)))
    write("bare_not_a_pickle_small.pt2", use_pickle(base, b"not a pickle"))

    big = 300 * MIB
    write("bare_zeros_300mib.pt2", use_pickle(base, big))
    write("bare_first_pickle_system_300mib.pt2", use_pickle(base, [system_pickle(f"touch {MARKER_BARE}"), big]))
    write("bare_legacy_object_system_300mib.pt2",
          use_pickle(base, [legacy_pickles(system_pickle(f"touch {MARKER_LEGACY}")), big]))
    # Honest: a 4x4 parameter viewing a 300 MiB storage, which the legacy format saves whole.
    write("bare_legacy_parameter_300mib.pt2", lambda: use_pickle(base, saved(torch.nn.Parameter(
        torch.cat([weight.flatten(), torch.zeros(big // 4 - 16)])[:16].view(4, 4)), legacy=True)))

    def sample_inputs_legacy():
        sample = torch.load(io.BytesIO(data[ROOT + "data/sample_inputs/model.pt"]), weights_only=True)
        return [(n, saved(sample, legacy=True) if n.endswith("sample_inputs/model.pt") else d) for n, d in base]
    write("sample_inputs_legacy_format.pt2", sample_inputs_legacy)


def main():
    base_path, binary, out_dir = sys.argv[1:4]
    os.makedirs(out_dir, exist_ok=True)
    env = carried_env(binary)
    t0 = time.time()
    import torch
    print(f"torch {torch.__version__} imported in {time.time() - t0:.1f}s", flush=True)
    with zipfile.ZipFile(base_path) as z:
        base = [(i.filename, z.read(i.filename)) for i in z.infolist()]
    cases = os.path.join("/tmp", "cases3")
    verdicts = {"torch": torch.__version__}
    try:
        make_cases(torch, base, cases)
    except BaseException:  # noqa: BLE001
        verdicts["make_cases"] = traceback.format_exc()[-1500:]
        print(verdicts["make_cases"], flush=True)
    small = os.path.join(out_dir, "small")
    os.makedirs(small, exist_ok=True)
    for name in sorted(os.listdir(cases)):
        path = os.path.join(cases, name)
        if os.path.getsize(path) < MIB:
            shutil.copy(path, small)
        try:
            verdicts[name] = judge_unjudged.judge(path, torch, binary, env)
        except BaseException:  # noqa: BLE001
            verdicts[name] = {"error": traceback.format_exc()[-800:]}
        print(name, json.dumps(verdicts[name])[:600], flush=True)
        with open(os.path.join(out_dir, "verdicts.json"), "w") as f:
            json.dump(verdicts, f, indent=1, sort_keys=True)
    print(f"done: {len(verdicts) - 1} archives in {time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
