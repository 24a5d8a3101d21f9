#!/bin/sh
# Benchmark: wall time (hyperfine) and peak RSS (GNU time) of `pt2lint check` on the large
# corpus programs and the bench programs of tests/data/bench (256, 1,024 and 4,096 layers of
# one decoder), beside a bare simdjson parse of the same JSON (big_programs.py). Numbers go
# into docs/performance.md; this is not a pass/fail test.
# Usage: tests/bench/check_big_programs.sh [BUILD_DIR] [CORPUS_DIR]
#   PHASES=1     also print the phase breakdown of kv_nested_256l (PHASES_FILE=another .pt2) (median of 15 cold
#                processes), from tests/bench/phase_timings.cc compiled against BUILD_DIR
#   CALLGRIND=1  also print instruction counts (valgrind) of kv_nested_256l and 1,024 layers,
#                which do not depend on machine load
set -eu
build=${1:-build}
corpus=${2:-../shared/corpus}
tool="$build/pt2lint"
here=$(dirname "$0")
python3 "$here/big_programs.py" "$build" "$corpus"
if [ "${CALLGRIND:-0}" = 1 ]; then
  for file in "$corpus/big/kv_nested_256l.pt2" "$build/bench/kv_nested_1024l.pt2"; do
    [ -f "$file" ] || continue
    printf '%s ' "$(basename "$file")"
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$tool" check --quiet "$file" 2>&1 \
      | sed -n 's/.*I *refs: */instructions: /p' || true
  done
fi

if [ "${PHASES:-0}" = 1 ] && [ -f "$corpus/big/kv_nested_256l.pt2" ]; then
  # Built by the Release tree with its tests (tests/CMakeLists.txt), as the checker is.
  cmake --build "$build" --target pt2lint_phase_timings >/dev/null
  exe=$build/tests/pt2lint_phase_timings
  phases_file=${PHASES_FILE:-$corpus/big/kv_nested_256l.pt2}
  echo "== phases of $(basename "$phases_file") (median of ${PHASE_RUNS:-15} cold processes; wall ms, CPU ms, RSS MB after, peak MB so far)"
  python3 - "$exe" "$phases_file" "${PHASE_RUNS:-15}" <<'PY'
import collections, statistics, subprocess, sys
exe, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
runs = collections.OrderedDict()
for _ in range(n):
    out = subprocess.run([exe, path], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        name, *values = line.rsplit(None, 4)
        runs.setdefault(name.strip(), []).append([float(v) for v in values])
total = [0.0, 0.0]
for name, xs in runs.items():
    w, c, rss, peak = (statistics.median(x[i] for x in xs) for i in range(4))
    total[0] += w; total[1] += c
    print(f"  {name:16s} {w:8.2f} {c:8.2f} {rss:8.1f} {peak:8.1f}")
print(f"  {'sum':16s} {total[0]:8.2f} {total[1]:8.2f}")
PY
fi
