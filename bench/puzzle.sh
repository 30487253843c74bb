#!/usr/bin/env bash
# Sliding-tile benchmark: Korf's 100 random 15-puzzles (../shared/puzzles/korf-100.csv, not
# part of the repository), solved optimally natively (`sokoban puzzle`) and in wasm under
# Node (bench/puzzle-wasm.mjs, the page worker's code), then summed up against the listed
# optimal lengths and Korf's 1985 node counts (bench/puzzle-summary.mjs).
#
#   bench/puzzle.sh                  both runs, pinned to CPU 0 (PIN= to run unpinned)
#   bench/puzzle.sh manhattan 10     the first 10 instances with Korf's own heuristic
#
# Raw CSVs go to bench/out/; bench/puzzle-results.md holds the figures worth keeping.
set -euo pipefail
cd "$(dirname "$0")/.."
PUZZLES="${PUZZLES:-../shared/puzzles}"
KORF="$PUZZLES/korf-100.csv"
[ -f "$KORF" ] || { echo "no $KORF: the benchmark needs the public instances" >&2; exit 1; }
PIN="${PIN-taskset -c 0}"
mkdir -p bench/out
cargo build --release --locked -p sokoban-cli
SOKOBAN=target/release/sokoban

case "${1:-korf}" in
    korf)
        $PIN "$SOKOBAN" puzzle --csv --goal blank-first "$KORF" \
            > bench/out/puzzle-native.csv 2> bench/out/puzzle-native.err
        cat bench/out/puzzle-native.err
        ./build.sh build
        $PIN node bench/puzzle-wasm.mjs "$KORF" --goal blank-first \
            > bench/out/puzzle-wasm.csv 2> bench/out/puzzle-wasm.err
        cat bench/out/puzzle-wasm.err
        node bench/puzzle-summary.mjs "$KORF" bench/out/puzzle-native.csv bench/out/puzzle-wasm.csv
        ;;
    manhattan)
        n="${2:-10}"
        head -n $((n + 1)) "$KORF" > bench/out/korf-first.csv
        $PIN "$SOKOBAN" puzzle --csv --goal blank-first --heuristic manhattan bench/out/korf-first.csv \
            > bench/out/puzzle-manhattan.csv 2> bench/out/puzzle-manhattan.err
        cat bench/out/puzzle-manhattan.err
        node bench/puzzle-summary.mjs bench/out/korf-first.csv bench/out/puzzle-manhattan.csv --table
        ;;
    *) echo "usage: $0 [korf | manhattan [N]]" >&2; exit 2 ;;
esac
