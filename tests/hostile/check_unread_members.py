#!/usr/bin/env python3
"""What pt2lint does not read is never silent (issue 24), and --verify-data reads it:

    python3 tests/hostile/check_unread_members.py PT2LINT CORPUS WORK_DIR

Generates, from corpus/base/counter.aten.pt2, archives whose members lie beyond pt2lint's size
bounds (written sparse: the zeros are holes, so 260 MiB costs a few kB of disk), and checks
each with and without --verify-data:
- sample inputs of 80 MiB (bound 64 MiB): member-not-checked; with --verify-data they are read
  and refused as PyTorch refuses them (zeros are no torch.save zip): malformed-program;
- an extra/ file of 80 MiB (bound 64 MiB): member-not-checked; with --verify-data, clean;
- a use_pickle weight of 260 MiB (bound 256 MiB): member-not-checked; with --verify-data its
  pickle is walked (zeros import nothing) and the warning goes;
- a weight whose CRC-32 is wrong: clean by default (weights are not read); with
  --verify-data, member-crc-mismatch;
- the clean base with --time-budget 1e-9: check-time-budget-spent, exit 1; by default, clean;
- CLI errors quoting a hostile path or option value: no raw control byte and no line of
  stderr starting with '::' (a GitHub workflow command).
Exits 1 on any failure, printing each check.
"""
import json
import os
import struct
import subprocess
import sys
import zipfile
import zlib

MIB = 1 << 20
ROOT = "counter.aten/"


def crc_of_zeros(n):
    crc, chunk = 0, bytes(16 * MIB)
    while n > 0:
        step = min(n, len(chunk))
        crc = zlib.crc32(chunk[:step] if step < len(chunk) else chunk, crc)
        n -= step
    return crc


def write_stored_zip(path, entries):
    """A stored zip of `entries` [(name, bytes or int)]: an int is that many zero bytes, left as
    a hole in the file. `crc_override` entries are (name, bytes, crc)."""
    central, offset = [], 0
    with open(path, "wb") as f:
        for entry in entries:
            name, data = entry[0], entry[1]
            size = data if isinstance(data, int) else len(data)
            crc = entry[2] if len(entry) > 2 else (crc_of_zeros(data) if isinstance(data, int) else zlib.crc32(data))
            raw = name.encode()
            header = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0x21, crc, size, size, len(raw), 0)
            f.write(header + raw)
            if isinstance(data, int):
                f.seek(data, os.SEEK_CUR)
            else:
                f.write(data)
            central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 0, 0, 0x21, crc, size, size,
                                       len(raw), 0, 0, 0, 0, 0, offset) + raw)
            offset += len(header) + len(raw) + size
        directory = b"".join(central)
        f.write(directory)
        f.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(central), len(central), len(directory), offset, 0))


def findings(binary, path, *flags):
    run = subprocess.run([binary, "check", "--format", "json", *flags, path], capture_output=True, text=True,
                         timeout=120)
    try:
        found = json.loads(run.stdout)["files"][0]["findings"]
    except (ValueError, KeyError, IndexError):
        return run.returncode, [("crash", run.stdout[-300:] + run.stderr[-300:])]
    return run.returncode, [(f["name"], f.get("location", {}).get("archive_member", "")) for f in found]


def main():
    binary, corpus, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    with zipfile.ZipFile(os.path.join(corpus, "base", "counter.aten.pt2")) as z:
        base = [(i.filename, z.read(i.filename)) for i in z.infolist()]

    def variant(name, change):
        path = os.path.join(work, name)
        write_stored_zip(path, change([tuple(e) for e in base]))
        return path

    def replaced(entries, suffix, data, crc=None):
        return [((n, data) if crc is None else (n, data, crc)) if n.endswith(suffix) else (n, d) for n, d in entries]

    def pickled_weight(entries):
        config = json.loads(dict(entries)[ROOT + "data/weights/model_weights_config.json"])
        config["config"]["lin.weight"]["use_pickle"] = True
        entries = replaced(entries, "model_weights_config.json", json.dumps(config).encode())
        return replaced(entries, "weights/weight_0", 260 * MIB)

    sample = variant("big_sample_inputs.pt2", lambda e: replaced(e, "sample_inputs/model.pt", 80 * MIB))
    extra = variant("big_extra.pt2", lambda e: e + [(ROOT + "extra/big.txt", 80 * MIB)])
    pickle = variant("big_pickled_weight.pt2", pickled_weight)
    crc = variant("weight_crc.pt2", lambda e: replaced(e, "weights/weight_0", dict(base)[ROOT + "data/weights/weight_0"],
                                                     crc=0x12345678))
    clean = variant("clean.pt2", lambda e: e)
    cases = [
        # (path, flags, expected exit, findings that must be there, findings that must not)
        (sample, [], 0, [("member-not-checked", ROOT + "data/sample_inputs/model.pt")], []),
        (sample, ["--verify-data"], 1, [("malformed-program", ROOT + "data/sample_inputs/model.pt")],
         [("member-not-checked", ROOT + "data/sample_inputs/model.pt")]),
        (extra, [], 0, [("member-not-checked", ROOT + "extra/big.txt")], []),
        (extra, ["--verify-data"], 0, [], [("member-not-checked", ROOT + "extra/big.txt")]),
        (pickle, [], None, [("member-not-checked", ROOT + "data/weights/weight_0")], []),
        (pickle, ["--verify-data"], None, [], [("member-not-checked", ROOT + "data/weights/weight_0")]),
        (crc, [], 0, [], [("member-crc-mismatch", ROOT + "data/weights/weight_0")]),
        (crc, ["--verify-data"], 1, [("member-crc-mismatch", ROOT + "data/weights/weight_0")], []),
        (clean, [], 0, [], [("check-time-budget-spent", "")]),
        (clean, ["--verify-data"], 0, [], [("member-crc-mismatch", ROOT + "data/weights/weight_0")]),
        (clean, ["--time-budget", "1e-9"], 1, [("check-time-budget-spent", "")], []),
    ]
    failed = False
    for path, flags, want_exit, present, absent in cases:
        code, found = findings(binary, path, *flags)
        bad = (want_exit is not None and code != want_exit) or any(p not in found for p in present) or \
            any(a in found for a in absent) or code not in (0, 1)
        failed |= bad
        print(f"{'FAIL' if bad else 'ok  '} {os.path.basename(path)} {' '.join(flags)}: exit {code}, {found}")
        if clean == path and not flags and found:
            print("FAIL: the clean base must stay clean")
            failed = True

    # CLI errors quote what they were given inert, as the text report does.
    hostile = "nope\n::add-mask::secret\x1b[31m\r.pt2"
    for args in (["check", hostile], ["check", "--format", hostile, clean], ["fix", hostile],
                 ["check", "--time-budget", hostile, clean]):
        run = subprocess.run([binary, *args], capture_output=True, timeout=60)
        err = run.stderr.decode("utf-8", "replace")
        raw = [c for c in err if (ord(c) < 32 and c != "\n") or ord(c) == 127]
        lines = [line for line in err.splitlines() if line.lstrip().startswith("::")]
        bad = run.returncode != 2 or raw or lines or "add-mask" not in err
        failed |= bool(bad)
        print(f"{'FAIL' if bad else 'ok  '} pt2lint {args[0]} {args[1]!r}...: exit {run.returncode}, "
              f"{len(raw)} raw controls, {len(lines)} '::' lines: {err.strip()[:160]!r}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
