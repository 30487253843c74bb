#!/usr/bin/env bash
# The long fuzz run: 10 million inputs in all, on one core (CPU 0 unless PIN says otherwise):
# formats and session 4.5 million each, the solver (about 10 times dearer per input) 1
# million. A panic, or an input over 10 s in the instrumented build (-timeout=10, TIMEOUT
# to change: the instrumentation makes some inputs 30 times slower, e.g. a line of eleven
# million walls, 0.1 s in release and over 3 s instrumented; a hang still stops the run),
# stops the run with the input in fuzz/artifacts/<target>/. Then every input of the final
# corpora, and any such artifact, is run again in a release build without instrumentation,
# timed: the slowest must stay under a second (what the page promises). Logs go to
# fuzz/logs/.
#
#   fuzz/run.sh                        the three runs (needs cargo-fuzz and nightly)
#   RUNS_FORMATS=100000 fuzz/run.sh    fewer inputs
#   MAX_TIME=600 fuzz/run.sh           each target stops after 10 minutes at the latest
set -euo pipefail
cd "$(dirname "$0")"
PIN="${PIN-taskset -c 0}"
mkdir -p logs
for t in formats session solver; do
    [ -d "corpus/$t" ] || cargo run -q --release -p sokoban-fuzz --manifest-path ../Cargo.toml \
        --bin sokoban-fuzz -- seeds "corpus/$t" "$t"
done
run() {
    local target=$1 runs=$2; shift 2
    local start=$SECONDS
    $PIN cargo +nightly fuzz run -s none --release "$@" "$target" -- -runs="$runs" \
        -timeout="${TIMEOUT:-10}" -max_total_time="${MAX_TIME:-0}" -rss_limit_mb=2048 -print_final_stats=1 > "logs/$target.log" 2>&1
    echo "$target: $((SECONDS - start)) s with the build: $(grep -E '^Done' "logs/$target.log")"
}
run formats "${RUNS_FORMATS:-4500000}"
run session "${RUNS_SESSION:-4500000}"
# The solver's search loops make comparison tracing costly (5x): without it.
run solver "${RUNS_SOLVER:-1000000}" --no-trace-compares --target-dir target/ntc
$PIN cargo build -q --release -p sokoban-fuzz --manifest-path ../Cargo.toml
for t in formats session solver; do
    echo "corpus/$t, release build: $(../target/release/sokoban-fuzz replay "corpus/$t" "$t" | grep "^$t")"
    if [ -n "$(ls -A "artifacts/$t" 2>/dev/null)" ]; then
        echo "artifacts/$t, release build: $(../target/release/sokoban-fuzz replay "artifacts/$t" "$t" | grep "^$t")"
    fi
done
