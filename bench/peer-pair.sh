#!/usr/bin/env bash
# Festival and ours back to back on each collection, the same hour (issue 33's two-thread comparison).
# usage: bench/peer-pair.sh FESTIVAL SOKOBAN OUT_DIR COLLECTION.xsb...   (THREADS=2 SECONDS_PER_LEVEL=30 by default)
# writes OUT_DIR/festival-NAME.csv, ours-NAME.csv, hours.txt; compare with bench/peer-compare.py OUT_DIR.
# Festival's copies of the collections, its own output and our stderr go to RAW (a scratch folder
# by default, printed): the collections are not committed with a run.
set -euo pipefail
fest=$(realpath "$1"); ours=$(realpath "$2"); out=$3; shift 3
threads=${THREADS:-2}; secs=${SECONDS_PER_LEVEL:-30}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"; out=$(realpath "$out")
raw=${RAW:-$(mktemp -d)}; mkdir -p "$raw"; echo "raw output: $raw" >&2
for xsb in "$@"; do
  name=$(basename "$xsb" .xsb)
  # Festival reads `Level N` blocks: festival-plan.py's reader of the `; N` titles writes them.
  python3 - "$here/festival-plan.py" "$xsb" > "$raw/$name.sok" <<'PY'
import runpy, sys
levels = runpy.run_path(sys.argv[1])['levels_of'](sys.argv[2])
for n in sorted(levels):
    print(f'Level {n}\n\n{levels[n]}\n')
PY
  mkdir -p "$raw/festival-$name"
  echo "$name festival start $(date -u +%T)" >> "$out/hours.txt"
  "$fest" "$raw/$name.sok" -cores "$threads" -time "$secs" -out_dir "$raw/festival-$name" < /dev/null > "$raw/festival-$name/stdout.txt" 2>&1 || true
  python3 "$here/runs/2026-11-29-festival-cores2/fest2csv.py" "$raw/festival-$name/times.txt" > "$out/festival-$name.csv"
  echo "$name ours start $(date -u +%T)" >> "$out/hours.txt"
  "$ours" solve "$xsb" --mode fast --threads "$threads" --jobs 1 --csv --timeout "$secs" > "$out/ours-$name.csv" 2> "$raw/ours-$name.err" || true
  echo "$name done $(date -u +%T)" >> "$out/hours.txt"
done
touch "$raw/all.done"
