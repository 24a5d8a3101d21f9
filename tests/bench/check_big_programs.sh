#!/bin/sh
# Benchmark: wall time (hyperfine) and peak RSS (GNU time) of `pt2lint check` on the large
# corpus programs. Numbers go into docs/performance.md; this is not a pass/fail test.
# Usage: tests/bench/check_big_programs.sh [BUILD_DIR] [CORPUS_DIR]
#   PHASES=1     also print the phase breakdown of kv_nested_256l (median of 15 cold
#                processes), from tests/bench/phase_timings.cc compiled against BUILD_DIR
#   CALLGRIND=1  also print instruction counts (valgrind), which do not depend on machine load
set -eu
build=${1:-build}
corpus=${2:-../shared/corpus}
tool="$build/pt2lint"
here=$(dirname "$0")
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for file in "$corpus/big/kv_nested_64l.pt2" "$corpus/big/kv_nested_256l.pt2" "$corpus/big/hf_llama_32l.pt2"; do
  [ -f "$file" ] || continue
  echo "== $file"
  # Exit code 1 (findings) is expected for hf_* programs, so it is ignored.
  hyperfine --warmup 3 --runs 30 -i -N "$tool check --quiet $file" --export-json /tmp/pt2lint-bench.json >/dev/null
  python3 - <<'PY'
import json
r = json.load(open("/tmp/pt2lint-bench.json"))["results"][0]
print(f"  wall: mean {r['mean']*1000:.1f} ms, median {r['median']*1000:.1f} ms, min {r['min']*1000:.1f} ms, max {r['max']*1000:.1f} ms ({len(r['times'])} runs)")
PY
  /usr/bin/time -f "  peak RSS: %M KiB" "$tool" check --quiet "$file" || true
  if [ "${CALLGRIND:-0}" = 1 ]; then
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$tool" check --quiet "$file" 2>&1 \
      | sed -n 's/.*I *refs: */  instructions: /p' || true
  fi
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

if [ "${PHASES:-0}" = 1 ] && [ -f "$corpus/big/kv_nested_256l.pt2" ]; then
  exe=/tmp/pt2lint-phase-timings
  # One static library per layer (CMakeLists.txt), listed from the top layer down so that each
  # archive's undefined symbols are resolved by the ones after it.
  libs=""
  for layer in properties reports lowering contract engine diagnosis rules analysis io core support \
               op_table ir; do
    libs="$libs $build/libpt2lint_$layer.a"
  done
  # shellcheck disable=SC2086
  ${CXX:-g++} -std=c++20 -O2 -I"$here/../../src" -I"$build" "$here/phase_timings.cc" -o "$exe" \
    $libs -lprotobuf -lminizip -lz -lsimdjson -lfmt -pthread
  echo "== phases of kv_nested_256l (median of 15 cold processes; wall ms, CPU ms)"
  python3 - "$exe" "$corpus/big/kv_nested_256l.pt2" <<'PY'
import collections, statistics, subprocess, sys
exe, path = sys.argv[1], sys.argv[2]
runs = collections.OrderedDict()
for _ in range(15):
    out = subprocess.run([exe, path], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        name, wall, cpu = line.rsplit(None, 2)
        runs.setdefault(name.strip(), []).append((float(wall), float(cpu)))
total = [0.0, 0.0]
for name, xs in runs.items():
    w = statistics.median(x[0] for x in xs); c = statistics.median(x[1] for x in xs)
    total[0] += w; total[1] += c
    print(f"  {name:16s} {w:7.2f} {c:7.2f}")
print(f"  {'sum':16s} {total[0]:7.2f} {total[1]:7.2f}")
PY
fi
