#!/usr/bin/env bash
# The fast search on the whole development suite, one command, one table: XSokoban,
# Sasquatch I and III-VI, Microban I (about 500 levels; ../shared/levels, not in the repo),
# each level solved beside Festival's figures where ../shared/design has them.
#
#   bench/suite.sh --nodes 250000            decisions: a budget of moves and pulls, the same on any machine
#   bench/suite.sh --timeout 30              figures: seconds a level (XSokoban at twice that)
#   bench/suite.sh --timeout 30 --threads 2  the portfolio on both cores
#
# Any other `sokoban solve` option passes through (e.g. --experiments nohf). CSVs go to
# bench/runs/DATE-LABEL/ (LABEL: $LABEL, default the options), then bench/suite-table.py
# prints solved per collection, ours beside Festival's, and the levels only one solves.
set -euo pipefail
cd "$(dirname "$0")/.."
LEVELS="${LEVELS:-../shared/levels}"
DESIGN="${DESIGN:-../shared/design}"
[ -d "$LEVELS" ] || { echo "no $LEVELS: the suite needs the public level collections" >&2; exit 1; }
cargo build --release --locked -p sokoban-cli >&2
SOKOBAN=target/release/sokoban
ARGS=("$@")
# One level at a time on one core unless the options say otherwise (timed figures).
case " ${ARGS[*]} " in *" --threads "*|*" --jobs "*) ;; *) ARGS+=(--threads 1 --jobs 1) ;; esac
label="${LABEL:-$(echo "${ARGS[*]}" | tr -c 'a-zA-Z0-9.=,\n' '-' | tr -s '-' | sed 's/^-//;s/-$//')}"
out="bench/runs/$(date +%Y-%m-%d)-$label"
mkdir -p "$out"
git rev-parse --short HEAD > "$out/build.txt" 2>/dev/null || true
echo "${ARGS[*]}" > "$out/options.txt"
# COLLECTIONS picks some (e.g. one half per core, both into the same LABEL's folder).
COLLECTIONS="${COLLECTIONS:-xsokoban-90 sasquatch-1 sasquatch-3 sasquatch-4 sasquatch-5 sasquatch-6 microban-1}"
for c in $COLLECTIONS; do
    extra=()
    # XSokoban's figures are at 60 s (Festival's too): twice a timed run's limit.
    if [ "$c" = xsokoban-90 ]; then
        for ((i = 0; i < ${#ARGS[@]}; i++)); do
            if [ "${ARGS[$i]}" = --timeout ]; then
                extra=(--timeout "$(awk "BEGIN { print ${ARGS[$((i + 1))]} * 2 }")")
            fi
        done
    fi
    echo "== $c" >&2
    # Exit 1 (a level not solved) is a result; 2 is an error.
    "$SOKOBAN" solve "$LEVELS/$c.xsb" --mode fast --csv "${ARGS[@]}" "${extra[@]}" \
        > "$out/$c.csv" || [ $? -eq 1 ]
done
python3 bench/suite-table.py "$out" --festival "$DESIGN" | tee "$out/README.md"
