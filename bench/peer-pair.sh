#!/usr/bin/env bash
# Festival and ours back to back on each collection, the same hour (issue 33's two-thread comparison).
# usage: bench/peer-pair.sh FESTIVAL SOKOBAN OUT_DIR COLLECTION.xsb...   (THREADS=2 SECONDS=30 by default)
# writes OUT_DIR/festival-NAME.csv, ours-NAME.csv, hours.txt; compare with bench/peer-compare.py OUT_DIR
set -euo pipefail
fest=$(realpath "$1"); ours=$(realpath "$2"); out=$3; shift 3
threads=${THREADS:-2}; secs=${SECONDS_PER_LEVEL:-30}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"; out=$(realpath "$out")
for xsb in "$@"; do
  name=$(basename "$xsb" .xsb)
  python3 - "$xsb" > "$out/$name.sok" <<'PY'
import re, sys
parts = re.split(r'^; (\d+)\s*$', open(sys.argv[1]).read(), flags=re.M)
for i in range(1, len(parts), 2):
    rows = [l for l in parts[i + 1].split('\n') if l.strip() and not l.startswith(';')]
    print(f'Level {parts[i]}\n\n' + '\n'.join(rows) + '\n')
PY
  mkdir -p "$out/festival-$name"
  echo "$name festival start $(date -u +%T)" >> "$out/hours.txt"
  "$fest" "$out/$name.sok" -cores "$threads" -time "$secs" -out_dir "$out/festival-$name" < /dev/null > "$out/festival-$name/stdout.txt" 2>&1 || true
  python3 "$here/runs/2026-11-29-festival-cores2/fest2csv.py" "$out/festival-$name/times.txt" > "$out/festival-$name.csv"
  echo "$name ours start $(date -u +%T)" >> "$out/hours.txt"
  "$ours" solve "$xsb" --mode fast --threads "$threads" --jobs 1 --csv --timeout "$secs" > "$out/ours-$name.csv" 2> "$out/ours-$name.err" || true
  echo "$name done $(date -u +%T)" >> "$out/hours.txt"
done
touch "$out/all.done"
