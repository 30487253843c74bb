#!/usr/bin/env bash
# Solver benchmarks on the public collections in ../shared/levels (not part of the repo).
#
#   bench/run.sh            Microban at 10 s per level: native and wasm, compared
#   bench/run.sh xsokoban   XSokoban at 60 s per level, native (up to 90 minutes)
#   bench/ratio.sh          the wasm / native ratio, native and wasm interleaved (see there)
#
# Raw CSVs go to bench/out/; bench/results.md holds the figures worth keeping.
set -euo pipefail
cd "$(dirname "$0")/.."
LEVELS="${LEVELS:-../shared/levels}"
[ -d "$LEVELS" ] || { echo "no $LEVELS: the benchmarks need the public level collections" >&2; exit 1; }
mkdir -p bench/out
cargo build --release --locked -p sokoban-cli
SOKOBAN=target/release/sokoban

case "${1:-microban}" in
    microban)
        # Exit 1 (a level not solved or a push-count mismatch) is a result; 2 is an error.
        "$SOKOBAN" solve "$LEVELS/microban-1.xsb" --timeout 10 --csv \
            --expect "$LEVELS/microban-1.optimal-pushes.csv" > bench/out/native-microban.csv \
            || [ $? -eq 1 ]
        ./build.sh build
        node bench/wasm-solve.mjs "$LEVELS/microban-1.xsb" --timeout 10 > bench/out/wasm-microban.csv
        node bench/compare.mjs bench/out/native-microban.csv bench/out/wasm-microban.csv
        ;;
    xsokoban)
        "$SOKOBAN" solve "$LEVELS/xsokoban-90.xsb" --timeout 60 --memory 1024 --csv \
            > bench/out/native-xsokoban.csv || [ $? -eq 1 ]
        ;;
    *) echo "usage: $0 [microban|xsokoban]" >&2; exit 2 ;;
esac
