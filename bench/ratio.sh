#!/usr/bin/env bash
# Wasm / native time ratio on the same levels, measured so that both builds see the same
# background load (on a shared VM, whole-collection runs minutes apart drift by 10-20%):
# ROUNDS rounds, each a native run then a wasm run of the same levels; per level the median
# times are compared. The wasm run is one Node process per round that first solves a
# warm-up level unreported (V8 tiers the solver up to its optimizing compiler once, as the
# page's worker does); native runs are one process per level.
#
#   bench/ratio.sh [LEVELS...]      default: the Microban levels that take >= 100 ms
#   ROUNDS=5 bench/ratio.sh 99 111 139
set -euo pipefail
cd "$(dirname "$0")/.."
FILE="${FILE:-../shared/levels/microban-1.xsb}"
ROUNDS="${ROUNDS:-3}"
TIMEOUT="${TIMEOUT:-30}"
WARMUP="${WARMUP:-99}"
levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=(93 98 99 108 109 111 112 117 122 123 134 138 139 143)
mkdir -p bench/out
out=bench/out/ratio.csv
echo "level,round,build,status,nodes,ms" > "$out"
list=$(IFS=,; echo "${levels[*]}")
for r in $(seq "$ROUNDS"); do
    for l in "${levels[@]}"; do
        # Exit 1 (not solved in time) is a result too.
        n=$( (target/release/sokoban solve "$FILE" --levels "$l" --timeout "$TIMEOUT" --memory 256 --csv || [ $? -eq 1 ]) | tail -1)
        echo "$l,$r,native,$(echo "$n" | cut -d, -f2,5,6)" >> "$out"
    done
    node bench/wasm-solve.mjs "$FILE" --levels "$list" --warmup "$WARMUP" --timeout "$TIMEOUT" \
        --memory 256 2>/dev/null | tail -n +2 | while IFS= read -r w; do
        echo "$(echo "$w" | cut -d, -f1),$r,wasm,$(echo "$w" | cut -d, -f2,5,6)" >> "$out"
    done
done
node -e '
const rows = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").slice(1).map(l => l.split(","));
const med = xs => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const by = {};
for (const [level, , build, status, , ms] of rows) {
  (by[level] ??= { native: [], wasm: [], ok: true })[build].push(Number(ms));
  if (status !== "solved") by[level].ok = false;
}
const ratios = []; let tn = 0, tw = 0;
console.log("level  native ms  wasm ms  ratio");
for (const [level, v] of Object.entries(by)) {
  if (!v.ok) { console.log(`${level.padStart(5)}  not solved in every run`); continue; }
  const n = med(v.native), w = med(v.wasm);
  ratios.push(w / n); tn += n; tw += w;
  console.log(`${level.padStart(5)}  ${String(n).padStart(9)}  ${String(w).padStart(7)}  ${(w / n).toFixed(2)}`);
}
console.log(`median ratio ${med(ratios).toFixed(2)} over ${ratios.length} levels; total ${(tw / tn).toFixed(2)}`);
' "$out"
