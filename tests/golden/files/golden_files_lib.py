"""Helpers of make_file_goldens.py: zip archives as member lists, raw central-directory
edits, and writing a golden file with its `.expect` sidecar."""
import io
import json
import os
import struct
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATE = (2024, 1, 1, 0, 0, 0)


# ------------------------------------------------------------------ archives as members
def members(path):
    with zipfile.ZipFile(path) as z:
        return [(i.filename, z.read(i.filename)) for i in z.infolist()]


def write_zip(entries, method=zipfile.ZIP_STORED, methods=None):
    """Bytes of a zip holding `entries` [(name, bytes)] in order, with fixed dates."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = (methods or {}).get(name, method)
            z.writestr(info, data)
    return bytearray(buf.getvalue())


def program_member(entries):
    return next(n for n, _ in entries if "/models/" in n and n.endswith(".json"))


def edit_program(entries, edit):
    """entries with the program JSON replaced by edit(doc) (which may return a new doc)."""
    name = program_member(entries)
    out = []
    for n, data in entries:
        if n == name:
            doc = json.loads(data)
            doc = edit(doc) or doc
            data = json.dumps(doc).encode()
        out.append((n, data))
    return out


# ------------------------------------------------------------------ raw central directory
def central_directory(blob):
    """[(record offset, fields)] of each central-directory record, and the EOCD offset."""
    eocd = blob.rfind(b"PK\x05\x06")
    count, size, start = struct.unpack_from("<HII", blob, eocd + 10)
    records, at = [], start
    for _ in range(count):
        method, = struct.unpack_from("<H", blob, at + 10)
        csize, usize, nlen, xlen, clen = struct.unpack_from("<IIHHH", blob, at + 20)
        local, = struct.unpack_from("<I", blob, at + 42)
        name = bytes(blob[at + 46:at + 46 + nlen]).decode()
        records.append({"pos": at, "name": name, "method": method, "local": local,
                        "csize": csize, "len": 46 + nlen + xlen + clen})
        at += 46 + nlen + xlen + clen
    return records, eocd


def record(blob, suffix):
    records, _ = central_directory(blob)
    return next(r for r in records if r["name"].endswith(suffix))


def append_directory_entry(blob, copy_of, new_name, local):
    """A new central-directory record, a copy of `copy_of`'s with another name and offset."""
    records, eocd = central_directory(blob)
    count, size, start = struct.unpack_from("<HII", blob, eocd + 10)
    raw = bytearray(blob[copy_of["pos"]:copy_of["pos"] + 46])
    struct.pack_into("<HHHI", raw, 28, len(new_name), 0, 0, 0)  # name, extra, comment lengths
    struct.pack_into("<I", raw, 42, local)
    raw += new_name.encode()
    directory_end = start + size
    out = blob[:directory_end] + raw + blob[directory_end:]
    eocd += len(raw)
    struct.pack_into("<HHI", out, eocd + 8, count + 1, count + 1, size + len(raw))
    return out


# ------------------------------------------------------------------ goldens
# Opt-in rules (off by default) whose golden folders select them.
OPT_IN_RULES = {"nativert-input-order"}


def put(folder, name, data, expect_lines, comment):
    path = os.path.join(HERE, folder)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, name), "wb") as f:
        f.write(bytes(data))
    with open(os.path.join(path, name + ".expect"), "w") as f:
        if folder in OPT_IN_RULES:  # an opt-in rule's goldens select it
            f.write(f"# extend-select: {folder}\n")
        for line in comment.strip().splitlines():
            line = line.strip()
            f.write(f"# ignore-rules:{line[len('IGNORE'):]}\n" if line.startswith("IGNORE")
                    else f"# args:{line[len('ARGS'):]}\n" if line.startswith("ARGS")
                    else f"# {line}\n")
        for line in expect_lines or ["none"]:
            f.write(f"# expect: {line}\n")
