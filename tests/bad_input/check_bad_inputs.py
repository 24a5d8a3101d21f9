#!/usr/bin/env python3
"""Feeds hostile files to the real `pt2lint check` and asserts what pt2lint promises for them:
each gets a finding (exit 1) or a clear error (exit 2), never a crash, within a time limit and,
outside sanitizer builds, well under 1 GB of peak RSS.

usage: check_bad_inputs.py PT2LINT MAX_RSS_MB   (MAX_RSS_MB 0 skips the memory check)"""
import io
import json
import os
import threading
import subprocess
import sys
import tempfile
import time
import zipfile

TIME_LIMIT_S = 20


def program_json(**overrides):
    program = {"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": [],
                                          "tensor_values": {}},
                                "signature": {"input_specs": [], "output_specs": []},
                                "module_call_graph": []},
               "schema_version": {"major": 8, "minor": 17}, "verifiers": ["ATEN"]}
    program.update(overrides)
    return json.dumps(program)


def pt2_zip(members):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as z:
        for name, data in members:
            z.writestr(name, data)
    return buffer.getvalue()


def valid_archive():
    return pt2_zip([("m/archive_format", b"pt2"), ("m/archive_version", b"0"),
                    ("m/models/model.json", program_json().encode()),
                    ("m/data/weights/model_weights_config.json", b'{"config": {}}'),
                    ("m/data/constants/model_constants_config.json", b'{"config": {}}')])


def lying_sizes():
    data = bytearray(valid_archive())
    # Central directory entries ("PK\1\2"): claim absurd sizes and offsets for every member.
    at = data.find(b"PK\x01\x02")
    while at != -1:
        data[at + 20:at + 24] = (0xFFFFFFF0).to_bytes(4, "little")  # compressed size
        data[at + 24:at + 28] = (0xFFFFFFF0).to_bytes(4, "little")  # uncompressed size
        data[at + 42:at + 46] = (0x7FFFFFF0).to_bytes(4, "little")  # local header offset
        at = data.find(b"PK\x01\x02", at + 4)
    return bytes(data)


def cases():
    yield "empty.pt2", b""
    yield "random.pt2", os.urandom(65536)
    yield "truncated.pt2", valid_archive()[: len(valid_archive()) // 2]
    yield "lying_sizes.pt2", lying_sizes()
    yield "dotdot.pt2", pt2_zip([("m/archive_format", b"pt2"), ("m/../../etc/passwd", b"x"),
                                 ("m/models/model.json", program_json().encode())])
    yield "absolute.pt2", pt2_zip([("/etc/cron.d/evil", b"x"), ("m/archive_format", b"pt2")])
    yield "deep.json", ("[" * 100_000 + "]" * 100_000).encode()
    yield "deep_program.json", ('{"graph_module": ' + "[" * 100_000 + "]" * 100_000 + "}").encode()
    yield "huge_numbers.json", program_json(schema_version={"major": 1e999, "minor": 2 ** 70}).encode() \
        .replace(b"Infinity", b"1e999")
    yield "huge_string.json", program_json(torch_version="x" * (200 << 20)).encode()


def write_cases(folder):
    for name, data in cases():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)


def main():
    if sys.argv[1] == "--write":
        write_cases(sys.argv[2])
        return 0
    pt2lint, max_rss_mb = sys.argv[1], int(sys.argv[2])
    failures = []
    with tempfile.TemporaryDirectory(prefix="pt2lint-bad-") as work:
        # The files are written by a child process: a child forked while this process holds
        # a 200 MB string would count those pages in its own peak RSS.
        subprocess.run([sys.executable, __file__, "--write", work], check=True)
        names = sorted(os.listdir(work))
        peak_mb = 0.0
        for name in names:
            path = os.path.join(work, name)
            start = time.monotonic()
            with open(path + ".out", "wb+") as out, open(path + ".err", "wb+") as err:
                process = subprocess.Popen([pt2lint, "check", "--format", "json", path],
                                           stdout=out, stderr=err)
                # Reaped with wait4 for this child's own peak RSS; a timer bounds the time.
                watchdog = threading.Timer(TIME_LIMIT_S, process.kill)
                watchdog.start()
                _, status, usage = os.wait4(process.pid, 0)
                watchdog.cancel()
                process.returncode = os.waitstatus_to_exitcode(status)
                out.seek(0)
                err.seek(0)
                stdout, stderr = out.read(), err.read()
            seconds = time.monotonic() - start
            rss_mb = usage.ru_maxrss / 1024
            peak_mb = max(peak_mb, rss_mb)
            if seconds >= TIME_LIMIT_S:
                failures.append(f"{name}: still running after {TIME_LIMIT_S} s")
                continue
            code = process.returncode
            verdict = ""
            if code == 1:
                findings = [f for f in json.loads(stdout)["files"][0]["findings"]
                            if f["severity"] == "error"]
                verdict = findings[0]["name"] if findings else "no error finding"
                if not findings:
                    failures.append(f"{name}: exit 1 without an error finding")
            elif code == 2:
                verdict = stderr.decode(errors="replace").strip().splitlines()[-1]
            else:
                failures.append(f"{name}: exit {code}: {stderr.decode(errors='replace')[-400:]}")
            print(f"{name:22} exit {code} in {seconds:5.2f} s, peak RSS {rss_mb:4.0f} MB: {verdict[:90]}")
            for leftover in (path, path + ".out", path + ".err"):
                os.remove(leftover)
    print(f"peak RSS of any run: {peak_mb:.0f} MB")
    if max_rss_mb and peak_mb > max_rss_mb:
        failures.append(f"peak RSS {peak_mb:.0f} MB is over {max_rss_mb} MB")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
