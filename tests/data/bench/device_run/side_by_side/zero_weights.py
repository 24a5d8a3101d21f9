"""Copy a .pt2 archive with every weight/constant blob (members under data/weights/ or
data/constants/ other than the JSON configs) overwritten by zeros in place, CRC-32s patched in
the local headers and the central directory: same layout, names, sizes and JSON, so the
archive xz-compresses to almost nothing. Usage: zero_weights.py IN OUT"""
import struct, sys, zipfile, zlib
src, dst = sys.argv[1], sys.argv[2]
data = bytearray(open(src, "rb").read())
z = zipfile.ZipFile(src)
eocd = data.rfind(b"PK\x05\x06")
n_entries = struct.unpack_from("<H", data, eocd + 10)[0]
cd_off = struct.unpack_from("<I", data, eocd + 16)[0]
if cd_off == 0xFFFFFFFF:
    raise SystemExit("zip64 directory: not handled")
pos, zeroed = cd_off, 0
for _ in range(n_entries):
    assert data[pos:pos + 4] == b"PK\x01\x02"
    flags, method = struct.unpack_from("<HH", data, pos + 8)
    csize, usize = struct.unpack_from("<II", data, pos + 20)
    nlen, elen, clen = struct.unpack_from("<HHH", data, pos + 28)
    lho = struct.unpack_from("<I", data, pos + 42)[0]
    name = bytes(data[pos + 46:pos + 46 + nlen]).decode()
    blob = ("/data/weights/" in name or "/data/constants/" in name) and not name.endswith(".json")
    if blob and method == 0 and not flags & 8 and csize == usize and 0xFFFFFFFF not in (csize, lho):
        lnlen, lelen = struct.unpack_from("<HH", data, lho + 26)
        start = lho + 30 + lnlen + lelen
        data[start:start + usize] = bytes(usize)
        crc = zlib.crc32(bytes(usize)) & 0xFFFFFFFF
        struct.pack_into("<I", data, lho + 14, crc)
        struct.pack_into("<I", data, pos + 16, crc)
        zeroed += usize
    pos += 46 + nlen + elen + clen
open(dst, "wb").write(data)
bad = zipfile.ZipFile(dst).testzip()
print(dst, "zeroed", zeroed, "bytes; testzip:", bad)
