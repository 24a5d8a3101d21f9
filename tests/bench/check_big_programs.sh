#!/bin/sh
# Benchmark: wall time (hyperfine) and peak RSS (GNU time) of `pt2lint check` on the large
# corpus programs. Numbers go into docs/performance.md; this is not a pass/fail test.
# Usage: tests/bench/check_big_programs.sh [BUILD_DIR] [CORPUS_DIR]
set -eu
build=${1:-build}
corpus=${2:-../shared/corpus}
tool="$build/pt2lint"
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
done
