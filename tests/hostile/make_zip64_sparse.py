#!/usr/bin/env python3
"""A sparse PT2 archive of more than 4 GiB in the zip64 layout torch.export.save writes, and
pt2lint's check of it (issue 24: minizip misread every zip64 size as 4,294,967,295 bytes, so
a real >= 4 GiB weight got a false state-dict-mismatch error).

    python3 tests/hostile/make_zip64_sparse.py CORPUS OUT.pt2 [PT2LINT]

From corpus/base/counter.aten.pt2, with weight_0 (the 4x4 fp32 lin.weight) replaced by a
record of 2**32 + 64 zero bytes: a storage larger than its tensor, which PyTorch loads (the
tensor views its first 64 bytes). Every member is stored, its data 64-byte aligned by an 'FB'
padding extra field, as PyTorchFileWriter writes it; the big record's sizes and every later
member's offset need zip64 fields, and the end records are zip64. The zeros are a hole in the
file (no disk used) and their CRC-32 is computed by zlib's combine algorithm, not by reading
4 GiB. With PT2LINT, checks the file: exit 0, no finding, and prints the seconds it took.
"""
import json
import os
import struct
import subprocess
import sys
import time
import zipfile
import zlib

BIG = 2 ** 32 + 64
SATURATED = 0xFFFFFFFF


def gf2_times(matrix, vector):
    out, i = 0, 0
    while vector:
        if vector & 1:
            out ^= matrix[i]
        vector >>= 1
        i += 1
    return out


def gf2_square(matrix):
    return [gf2_times(matrix, m) for m in matrix]


def crc32_of_zeros(count, crc=0):
    """zlib.crc32(b"\\0" * count, crc) without the bytes: zlib's crc32_combine operator."""
    odd = [0xEDB88320] + [1 << i for i in range(31)]  # one zero bit
    even = gf2_square(odd)  # two zero bits
    odd = gf2_square(even)  # four zero bits
    crc ^= 0xFFFFFFFF
    n = count
    while n:
        even = gf2_square(odd)
        if n & 1:
            crc = gf2_times(even, crc)
        n >>= 1
        if not n:
            break
        odd = gf2_square(even)
        if n & 1:
            crc = gf2_times(odd, crc)
        n >>= 1
    return crc ^ 0xFFFFFFFF


def zip64_extra(*values):
    return struct.pack("<HH", 1, 8 * len(values)) + b"".join(struct.pack("<Q", v) for v in values)


def write(corpus, out_path):
    source = os.path.join(corpus, "base", "counter.aten.pt2")
    with zipfile.ZipFile(source) as z:
        entries = [(i.filename, z.read(i.filename)) for i in z.infolist()]
    directory = []
    # Tests run in any order: the work folder may not exist yet.
    os.makedirs(os.path.dirname(out_path) or ".", exist_ok=True)
    with open(out_path, "wb") as f:
        for name, data in entries:
            big = name.endswith("data/weights/weight_0")
            size = BIG if big else len(data)
            crc = crc32_of_zeros(BIG) if big else zlib.crc32(data)
            offset = f.tell()
            raw = name.encode()
            local_extra = zip64_extra(size, size) if big else b""
            unpadded = offset + 30 + len(raw) + len(local_extra) + 4
            pad = (-unpadded) % 64
            local_extra += b"FB" + struct.pack("<H", pad) + b"Z" * pad
            f.write(struct.pack("<IHHHHHIIIHH", 0x04034B50, 45 if big else 20, 0, 0, 0, 0x21, crc,
                                SATURATED if big else size, SATURATED if big else size,
                                len(raw), len(local_extra)))
            f.write(raw + local_extra)
            if big:
                f.seek(size, os.SEEK_CUR)  # a hole: the zeros take no disk
            else:
                f.write(data)
            directory.append((raw, crc, size, offset))
        start = f.tell()
        for raw, crc, size, offset in directory:
            fields = []
            if size >= SATURATED:
                fields += [size, size]
            if offset >= SATURATED:
                fields.append(offset)
            extra = zip64_extra(*fields) if fields else b""
            f.write(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x031E, 45, 0, 0, 0, 0x21, crc,
                                SATURATED if size >= SATURATED else size,
                                SATURATED if size >= SATURATED else size, len(raw), len(extra),
                                0, 0, 0, 0o100644 << 16, min(offset, SATURATED)))
            f.write(raw + extra)
        end = f.tell()
        count = len(directory)
        f.write(struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, count, count,
                            end - start, start))
        f.write(struct.pack("<IIQI", 0x07064B50, 0, end, 1))
        f.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, count, count, end - start,
                            min(start, SATURATED), 0))


def main():
    corpus, out_path = sys.argv[1], sys.argv[2]
    write(corpus, out_path)
    size = os.path.getsize(out_path)
    assert size > BIG, size
    with zipfile.ZipFile(out_path) as z:  # Python's reader agrees on the layout
        sizes = {i.filename.rsplit("/", 1)[-1]: i.file_size for i in z.infolist()}
        assert sizes["weight_0"] == BIG, sizes
        json.loads(z.read("counter.aten/models/model.json"))
    print(f"wrote {out_path}: {size} bytes, {os.stat(out_path).st_blocks * 512} on disk")
    if len(sys.argv) > 3:
        start = time.monotonic()
        run = subprocess.run([sys.argv[3], "check", "--format", "json", out_path],
                             capture_output=True, text=True, timeout=60)
        seconds = time.monotonic() - start
        findings = json.loads(run.stdout)["files"][0]["findings"]
        print(f"pt2lint: exit {run.returncode}, {len(findings)} findings, {seconds:.2f} s")
        for f in findings:
            print(" ", f["rule"], f["message"][:200])
        if run.returncode != 0 or findings or seconds > 5:
            sys.exit(1)


if __name__ == "__main__":
    main()
