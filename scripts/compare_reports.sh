#!/bin/bash
# Behaviour-preserving changes: the JSON report and exit code of every program file in tests/
# and the corpus, from two checker binaries, compared byte for byte.
# Usage: scripts/compare_reports.sh OLD_PT2LINT NEW_PT2LINT [CORPUS_DIR] [WORK_DIR]
# Prints each file whose report differs and ends with "files=N differing=M"; exit 1 if M > 0.
set -u
old=$1
new=$2
corpus=${3:-../shared/corpus}
work=${4:-$(mktemp -d)}
mkdir -p "$work/old" "$work/new"
cd "$(dirname "$0")/.."
{
  find tests -type f \( -name '*.pt2' -o -name '*.json' -o -name '*.textproto' \) -size -20M
  [ -d "$corpus" ] && find "$corpus" -type f \( -name '*.pt2' -o -name '*.json' \) -size -20M
} | grep -v '/schemas/\|expect\|\.sarif\|/golden/reports/' | sort > "$work/files.txt"
files=0
differing=0
while read -r file; do
  files=$((files + 1))
  key=$(printf '%s' "$file" | md5sum | cut -c1-12)
  for side in old new; do
    binary=$old
    [ "$side" = new ] && binary=$new
    timeout 20 "$binary" check --format json "$file" > "$work/$side/$key" 2>&1
    echo "exit=$?" >> "$work/$side/$key"
  done
  if ! cmp -s "$work/old/$key" "$work/new/$key"; then
    differing=$((differing + 1))
    echo "differs: $file ($work/old/$key $work/new/$key)"
  fi
done < "$work/files.txt"
echo "files=$files differing=$differing"
[ "$differing" -eq 0 ]
