#!/usr/bin/env bash
# Build, serve and test the Sokoban player.
#
#   ./build.sh            build the wasm (release) into www/pkg/ and serve www/ on
#                         http://127.0.0.1:${PORT:-8000}/
#   ./build.sh build      build only
#   ./build.sh test       run every test: native cargo tests, wasm-bindgen tests in
#                         headless Chromium, end-to-end page tests (tests/e2e)
#   ./build.sh bench      native benchmarks (box-path search, solver on project levels)
#
# Installs what is missing (Debian packages, wasm-bindgen-cli at the pinned version,
# playwright-core) and does nothing extra when it is already there. With a rustup
# toolchain that has the wasm32-unknown-unknown target, that toolchain is used;
# otherwise Debian's rustc-web + rust-web-src build std for wasm32 (-Zbuild-std).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"

log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# The wasm-bindgen crate is pinned with `=` in crates/sokoban-wasm/Cargo.toml; the CLI
# must be exactly the same version.
WASM_BINDGEN_VERSION="$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)"/\1/p' crates/sokoban-wasm/Cargo.toml)"
[ -n "$WASM_BINDGEN_VERSION" ] || { echo "cannot read the pinned wasm-bindgen version" >&2; exit 1; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# Install Debian packages that are not installed yet.
ensure_apt() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    log "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    as_root apt-get install -y --no-install-recommends "${missing[@]}" \
        || { as_root apt-get update && as_root apt-get install -y --no-install-recommends "${missing[@]}"; }
}

# Host cargo: rustup's if present, else Debian's.
HOST_CARGO=cargo
ensure_host_cargo() {
    if ! command -v cargo >/dev/null 2>&1; then
        ensure_apt rustc-web cargo-web gcc libc6-dev
        HOST_CARGO=/usr/bin/cargo
    fi
}

# Choose how to build for wasm32: rustup target, or Debian's std source with -Zbuild-std.
WASM_CARGO=()
WASM_FLAGS=()
WASM_TARGET_DIR="$ROOT/target"
setup_wasm_toolchain() {
    if command -v rustup >/dev/null 2>&1 \
        && rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
        WASM_CARGO=(cargo)
        WASM_FLAGS=()
        WASM_TARGET_DIR="$ROOT/target"
    else
        ensure_apt rustc-web cargo-web rust-web-src lld
        WASM_CARGO=(env RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
            CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=/usr/bin/wasm-ld /usr/bin/cargo)
        WASM_FLAGS=(-Zbuild-std=std,panic_abort)
        # A separate target dir: Debian's rustc and rustup's must not share artifacts.
        WASM_TARGET_DIR="$ROOT/target/wasm-debian"
    fi
}

ensure_wasm_bindgen() {
    if command -v wasm-bindgen >/dev/null 2>&1 \
        && [ "$(wasm-bindgen --version | awk '{print $2}')" = "$WASM_BINDGEN_VERSION" ]; then
        return 0
    fi
    ensure_host_cargo
    log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (takes a few minutes once)"
    # --locked first; if a locked dependency is missing from the registry, let cargo resolve.
    "$HOST_CARGO" install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --locked \
        || "$HOST_CARGO" install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
}

ensure_node() {
    command -v node >/dev/null 2>&1 || ensure_apt nodejs npm
}

build_wasm() {
    setup_wasm_toolchain
    ensure_wasm_bindgen
    log "building the wasm (release)"
    CARGO_TARGET_DIR="$WASM_TARGET_DIR" "${WASM_CARGO[@]}" build --release --locked \
        -p sokoban-wasm --target wasm32-unknown-unknown "${WASM_FLAGS[@]}"
    wasm-bindgen --target web --no-typescript --out-dir www/pkg \
        "$WASM_TARGET_DIR/wasm32-unknown-unknown/release/sokoban_wasm.wasm"
    log "www/pkg: $(du -h www/pkg/sokoban_wasm_bg.wasm | cut -f1) wasm"
}

serve() {
    ensure_node
    local port="${PORT:-8000}"
    log "serving www/ on http://127.0.0.1:$port/ (Ctrl+C to stop)"
    exec node tests/serve.mjs www "$port"
}

ensure_browser() {
    ensure_apt chromium chromium-driver
}

ensure_playwright() {
    ensure_node
    if [ ! -d tests/node_modules/playwright-core ]; then
        log "installing playwright-core (npm; uses Debian's Chromium, downloads no browser)"
        (cd tests && npm ci --no-audit --no-fund)
    fi
}

run_tests() {
    ensure_host_cargo
    log "native tests"
    "$HOST_CARGO" test --workspace --exclude sokoban-wasm --locked
    log "limits that protect the page, timed in a release build"
    "$HOST_CARGO" test --release --locked -p sokoban-fuzz --test limits -- --test-threads 1

    build_wasm
    ensure_browser
    log "wasm-bindgen tests in headless Chromium"
    CARGO_TARGET_DIR="$WASM_TARGET_DIR" \
        CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
        CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=120 \
        "${WASM_CARGO[@]}" test --release --locked -p sokoban-wasm \
        --target wasm32-unknown-unknown "${WASM_FLAGS[@]}"

    ensure_playwright
    log "end-to-end tests in headless Chromium"
    node --test --test-concurrency=1 tests/e2e/
}

run_bench() {
    ensure_host_cargo
    "$HOST_CARGO" bench --locked -p sokoban-path "$@"
}

case "${1:-serve}" in
    serve) build_wasm; serve ;;
    build) build_wasm ;;
    test) run_tests ;;
    bench) shift; run_bench "$@" ;;
    *) echo "usage: $0 [serve|build|test|bench]" >&2; exit 2 ;;
esac
