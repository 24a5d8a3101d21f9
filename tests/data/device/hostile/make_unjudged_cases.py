#!/usr/bin/env python3
"""Archives of issue 24's classes that the first device run did not judge (docs/reliability.md,
"PyTorch's verdict beside pt2lint's"), from corpus/base/counter.aten.pt2:

    python3 make_unjudged_cases.py CORPUS OUT_DIR

- case variants of the weights config, archive_version and .data/version names: beside the
  real member (after it and before it) and alone;
- a weight stored with use_pickle whose torch.save zip calls posix.system (a marker file says
  whether it ran), and an opaque_obj_0 a constants config names doing the same;
- a weight whose CRC-32 is wrong (PyTorch checks no CRC: loads it?).
No pickle here is ever loaded: the hostile ones are written opcode by opcode. judge_unjudged.py
judges them on the device, with the goldens of tests/golden/files.
"""
import json
import os
import struct
import sys
import zipfile

DATE = (2024, 1, 1, 0, 0, 0)
ROOT = "counter.aten/"
MARKER_USE_PICKLE = "/tmp/pt2lint-marker-use-pickle"
MARKER_OPAQUE = "/tmp/pt2lint-marker-opaque"


def write(path, entries, crc=None):
    with zipfile.ZipFile(path, "w") as z:
        for n, d in entries:
            z.writestr(zipfile.ZipInfo(n, DATE), d)
    if crc is None:
        return
    suffix, value = crc  # declare a wrong CRC-32 in both headers
    blob = bytearray(open(path, "rb").read())
    eocd = blob.rfind(b"PK\x05\x06")
    count, _, start = struct.unpack_from("<HII", blob, eocd + 10)
    pos = start
    for _ in range(count):
        nlen, xlen, clen = struct.unpack_from("<HHH", blob, pos + 28)
        name = bytes(blob[pos + 46:pos + 46 + nlen]).decode()
        local = struct.unpack_from("<I", blob, pos + 42)[0]
        if name.endswith(suffix):
            struct.pack_into("<I", blob, pos + 16, value)
            struct.pack_into("<I", blob, local + 14, value)
        pos += 46 + nlen + xlen + clen
    open(path, "wb").write(bytes(blob))


def system_pickle(command):
    arg = command.encode()
    return b"\x80\x02cposix\nsystem\nX" + struct.pack("<I", len(arg)) + arg + b"\x85R."


def torch_save_zip(pickle_bytes):
    import io
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for n, d in (("archive/data.pkl", pickle_bytes), ("archive/byteorder", b"little"),
                     ("archive/.data/version", b"3\n")):
            z.writestr(zipfile.ZipInfo(n, DATE), d)
    return buf.getvalue()


def main():
    corpus, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with zipfile.ZipFile(os.path.join(corpus, "base", "counter.aten.pt2")) as z:
        base = [(i.filename, z.read(i.filename)) for i in z.infolist()]
    data = dict(base)
    wcfg = ROOT + "data/weights/model_weights_config.json"
    config = json.loads(data[wcfg])
    # The variant maps lin.bias onto weight_0's first floats: which copy PyTorch read shows in
    # the loaded state dict.
    variant = json.loads(data[wcfg])
    variant["config"]["lin.bias"]["path_name"] = "weight_0"
    variant_bytes = json.dumps(variant).encode()

    def beside(real, variant_name, variant_data, before=False):
        out_entries = []
        for n, d in base:
            if n == real and before:
                out_entries.append((variant_name, variant_data))
            out_entries.append((n, d))
            if n == real and not before:
                out_entries.append((variant_name, variant_data))
        return out_entries

    def renamed(real, new_name):
        return [(new_name if n == real else n, d) for n, d in base]

    cases = {
        "case_weights_config_variant_after.pt2":
            beside(wcfg, ROOT + "data/weights/MODEL_weights_config.json", variant_bytes),
        "case_weights_config_variant_before.pt2":
            beside(wcfg, ROOT + "data/weights/MODEL_weights_config.json", variant_bytes, before=True),
        "case_weights_config_variant_only.pt2":
            renamed(wcfg, ROOT + "data/weights/MODEL_weights_config.json"),
        "case_archive_version_variant_after.pt2":
            beside(ROOT + "archive_version", ROOT + "ARCHIVE_VERSION", b"1"),
        "case_archive_version_variant_only.pt2":
            renamed(ROOT + "archive_version", ROOT + "ARCHIVE_VERSION"),
        "case_data_version_variant_after.pt2":
            beside(ROOT + ".data/version", ROOT + ".DATA/VERSION", b"11\n"),
        "case_data_version_variant_only.pt2":
            renamed(ROOT + ".data/version", ROOT + ".DATA/VERSION"),
    }
    pickled = json.loads(data[wcfg])
    pickled["config"]["lin.weight"]["use_pickle"] = True
    cases["pickle_use_pickle_weight_marker.pt2"] = [
        (n, json.dumps(pickled).encode() if n == wcfg else
         torch_save_zip(system_pickle(f"touch {MARKER_USE_PICKLE}")) if n.endswith("weights/weight_0") else d)
        for n, d in base]
    ccfg = ROOT + "data/constants/model_constants_config.json"
    constants = json.loads(data[ccfg])
    constants.setdefault("config", {})["opaque_thing"] = {"path_name": "opaque_obj_0", "is_param": False,
                                                          "use_pickle": True, "tensor_meta": None}
    cases["pickle_named_opaque_object_marker.pt2"] = [
        (n, json.dumps(constants).encode() if n == ccfg else d) for n, d in base] + [
        (ROOT + "data/constants/opaque_obj_0", system_pickle(f"touch {MARKER_OPAQUE}"))]
    for name, entries in cases.items():
        write(os.path.join(out, name), entries)
    write(os.path.join(out, "crc_weight_mismatch.pt2"), base, crc=("weights/weight_0", 0x12345678))
    print(f"{len(cases) + 1} archives in {out}")


if __name__ == "__main__":
    main()
