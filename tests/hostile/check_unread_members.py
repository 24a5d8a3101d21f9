#!/usr/bin/env python3
"""What pt2lint does not read is never silent (issue 24), and --verify-data reads it:

    python3 tests/hostile/check_unread_members.py PT2LINT CORPUS WORK_DIR

Generates, from corpus/base/counter.aten.pt2, archives whose members lie beyond pt2lint's size
bounds (written sparse: the zeros are holes, so 260 MiB costs a few kB of disk), and checks
each with and without --verify-data:
- sample inputs of 80 MiB (read whole up to 64 MiB): stored, so their nested zip is opened in
  place and refused as PyTorch refuses it (zeros are no torch.save zip): malformed-program;
- an extra/ file of 80 MiB (read whole up to 64 MiB): stored, so decoded in chunks: clean, and
  malformed-program when its last bytes are Latin-1;
- a use_pickle weight of 260 MiB of zeros (bound 256 MiB), a bare pickle: its first 16 MiB are
  walked as torch.save's legacy format (its pickles come first) and refused as torch.load refuses
  it (PyTorch 2.11: "invalid load key, '\x00'"): malformed-program, with --verify-data too;
- bare use_pickle weights of 260 MiB whose first pickle, or whose object pickle in the legacy
  format, calls posix.system: pickle-runs-code-at-load (PyTorch 2.11 ran both: device run 3);
- a use_pickle weight that is a 260 MiB torch.save zip whose data.pkl calls posix.system:
  opened in place, pickle-runs-code-at-load;
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


def segments_crc(segments):
    """CRC-32 of `segments` (bytes, or an int: that many zero bytes)."""
    crc, zeros = 0, bytes(16 * MIB)
    for part in segments:
        if isinstance(part, int):
            n = part
            while n > 0:
                step = min(n, len(zeros))
                crc = zlib.crc32(zeros if step == len(zeros) else zeros[:step], crc)
                n -= step
        else:
            crc = zlib.crc32(part, crc)
    return crc


def zip_segments(entries):
    """A stored zip of `entries` [(name, data[, crc])] as segments: data is bytes, an int (that
    many zero bytes, a hole on disk) or a list of such segments (a nested zip with holes)."""
    out, central, offset = [], [], 0
    for entry in entries:
        name, data = entry[0], entry[1]
        parts = data if isinstance(data, list) else [data]
        size = sum(p if isinstance(p, int) else len(p) for p in parts)
        crc = entry[2] if len(entry) > 2 else segments_crc(parts)
        raw = name.encode()
        header = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0x21, crc, size, size, len(raw), 0)
        out += [header + raw] + parts
        central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 0, 0, 0x21, crc, size, size,
                                   len(raw), 0, 0, 0, 0, 0, offset) + raw)
        offset += len(header) + len(raw) + size
    directory = b"".join(central)
    out += [directory, struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(central), len(central), len(directory),
                                   offset, 0)]
    return out


def write_stored_zip(path, entries):
    """The stored zip of `entries` (zip_segments) at `path`, its zeros left as holes."""
    with open(path, "wb") as f:
        for part in zip_segments(entries):
            if isinstance(part, int):
                f.seek(part, os.SEEK_CUR)
            else:
                f.write(part)
        f.truncate()


def system_pickle(command):
    """Protocol-2 opcodes of posix.system(command), written by hand: nothing here unpickles."""
    arg = command.encode()
    return b"\x80\x02cposix\nsystem\nX" + struct.pack("<I", len(arg)) + arg + b"\x85R."


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

    def pickled_weight(data):
        def change(entries):
            config = json.loads(dict(entries)[ROOT + "data/weights/model_weights_config.json"])
            config["config"]["lin.weight"]["use_pickle"] = True
            entries = replaced(entries, "model_weights_config.json", json.dumps(config).encode())
            return replaced(entries, "weights/weight_0", data)
        return change

    sample = variant("big_sample_inputs.pt2", lambda e: replaced(e, "sample_inputs/model.pt", 80 * MIB))
    extra = variant("big_extra.pt2", lambda e: e + [(ROOT + "extra/big.txt", 80 * MIB)])
    extra_latin1 = variant("big_extra_not_utf8.pt2", lambda e: e + [(ROOT + "extra/big.txt",
                                                                       [80 * MIB, b"caf\xe9"])])
    pickle = variant("big_pickled_weight.pt2", pickled_weight(260 * MIB))
    pickle_first = variant("big_bare_pickle_system_first.pt2", pickled_weight([system_pickle("true"), 260 * MIB]))
    magic, protocol = b"\x80\x02\x8a\nl\xfc\x9cF\xf9 j\xa8P\x19.", b"\x80\x02M\xe9\x03."  # pickle.dumps
    pickle_legacy = variant("big_bare_legacy_object_system.pt2", pickled_weight(
        [magic + protocol + b"\x80\x02}." + system_pickle("true") + b"\x80\x02].", 260 * MIB]))
    # A torch.save zip of 260 MiB whose data.pkl calls posix.system: opened in place, its pickle
    # is walked whatever the storage's size.
    nested = zip_segments([("archive/data.pkl", system_pickle("true")), ("archive/data/0", 260 * MIB),
                           ("archive/.data/version", b"3\n")])
    pickle_zip = variant("big_pickled_weight_zip.pt2", pickled_weight(nested))
    crc = variant("weight_crc.pt2", lambda e: replaced(e, "weights/weight_0", dict(base)[ROOT + "data/weights/weight_0"],
                                                     crc=0x12345678))
    clean = variant("clean.pt2", lambda e: e)
    cases = [
        # (path, flags, expected exit, findings that must be there, findings that must not)
        # Stored, so opened in place: refused as PyTorch refuses them (zeros are no torch.save zip).
        (sample, [], 1, [("malformed-program", ROOT + "data/sample_inputs/model.pt")],
         [("member-not-checked", ROOT + "data/sample_inputs/model.pt")]),
        (sample, ["--verify-data"], 1, [("malformed-program", ROOT + "data/sample_inputs/model.pt")],
         [("member-not-checked", ROOT + "data/sample_inputs/model.pt")]),
        # Stored, so decoded in chunks: zeros are UTF-8; a Latin-1 tail is not.
        (extra, [], 0, [], [("member-not-checked", ROOT + "extra/big.txt")]),
        (extra, ["--verify-data"], 0, [], [("member-not-checked", ROOT + "extra/big.txt")]),
        (extra_latin1, [], 1, [("malformed-program", ROOT + "extra/big.txt")], []),
        # Bare pickles of 260 MiB: beyond the bound, so their first 16 MiB are walked.
        (pickle, [], 1, [("malformed-program", ROOT + "data/weights/weight_0")],
         [("member-not-checked", ROOT + "data/weights/weight_0")]),
        (pickle, ["--verify-data"], 1, [("malformed-program", ROOT + "data/weights/weight_0")],
         [("member-not-checked", ROOT + "data/weights/weight_0")]),
        (pickle_first, [], 1, [("pickle-runs-code-at-load", ROOT + "data/weights/weight_0")],
         [("member-not-checked", ROOT + "data/weights/weight_0")]),
        (pickle_legacy, [], 1, [("pickle-runs-code-at-load", ROOT + "data/weights/weight_0")],
         [("member-not-checked", ROOT + "data/weights/weight_0")]),
        (pickle_zip, [], 1, [("pickle-runs-code-at-load", ROOT + "data/weights/weight_0")],
         [("member-not-checked", ROOT + "data/weights/weight_0")]),
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
    for args in (["check", hostile], ["check", "--format", hostile, clean], ["fix", "--dry-run", hostile],
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
