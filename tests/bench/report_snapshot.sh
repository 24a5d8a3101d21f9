#!/bin/sh
# Writes the JSON report of `pt2lint check` for every program file under tests/ and the corpus
# into OUT_DIR (one report per input, plus its exit code), so that two builds can be compared
# byte for byte:
#   tests/bench/report_snapshot.sh build-before /tmp/before
#   tests/bench/report_snapshot.sh build /tmp/after
#   diff -r /tmp/before /tmp/after && echo identical
# Usage: tests/bench/report_snapshot.sh BUILD_DIR OUT_DIR [CORPUS_DIR]
set -eu
build=$1
out=$2
corpus=${3:-../shared/corpus}
tool="$build/pt2lint"
mkdir -p "$out"
count=0
find tests "$corpus" -type f \( -name '*.pt2' -o -name '*.json' -o -name '*.textproto' -o -name '*.pbtxt' \) \
    -not -path '*/build*' | LC_ALL=C sort > "$out/.inputs"
while IFS= read -r file; do
  name=$(printf '%s' "$file" | sed 's|^\.\./||; s|/|__|g')
  rc=0
  "$tool" check --format json "$file" > "$out/$name.report" 2> "$out/$name.stderr" || rc=$?
  echo "$rc" > "$out/$name.rc"
  count=$((count + 1))
done < "$out/.inputs"
echo "$count reports in $out"
