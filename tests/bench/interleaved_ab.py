#!/usr/bin/env python3
"""Times `BINARY check --quiet FILE` for two or more binaries, runs interleaved (A B A B ...),
so that a noisy VM's drift hits each binary alike. Prints wall median and minimum, and the
medians of user and system time (os.wait4), per binary.

    tests/bench/interleaved_ab.py RUNS FILE BINARY BINARY...
"""
import os
import statistics
import sys
import time


def main() -> int:
    if len(sys.argv) < 5:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    runs, path, binaries = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    samples = {b: [] for b in binaries}
    for _ in range(runs):
        for binary in binaries:
            start = time.perf_counter()
            pid = os.fork()
            if pid == 0:
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, 1)
                os.execv(binary, [binary, "check", "--quiet", path])
            _, _, usage = os.wait4(pid, 0)
            samples[binary].append(((time.perf_counter() - start) * 1000, usage.ru_utime * 1000,
                                    usage.ru_stime * 1000))
    for binary, rows in samples.items():
        wall = [r[0] for r in rows]
        print(f"{binary}: wall median {statistics.median(wall):.1f} ms, min {min(wall):.1f} ms; "
              f"user median {statistics.median(r[1] for r in rows):.1f} ms, "
              f"system median {statistics.median(r[2] for r in rows):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
