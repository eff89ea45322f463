#!/usr/bin/env bash
# Head-of-line blocking: builds the program offline and runs it against a broker; prints the run
# contract JSON.
#   ./run.sh AMQP_URL [TIME_SCALE]
#   ./run.sh --build          (only builds)
# cargo with --offline: the dependencies come from ~/.cargo/registry (there once delaylab
# is built), nothing is downloaded. DELAYLAB_RUST_TARGET_DIR (else CARGO_TARGET_DIR, else
# ./target) may be shared by several exports: lapin and tokio then compile once.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
USAGE="usage: run.sh AMQP_URL [TIME_SCALE] | run.sh --build"
[ $# -gt 0 ] || { echo "$USAGE" >&2; exit 2; }
export CARGO_TARGET_DIR="${DELAYLAB_RUST_TARGET_DIR:-${CARGO_TARGET_DIR:-$HERE/target}}"
export CARGO_NET_OFFLINE=true
cd "$HERE"
[ -f Cargo.lock ] || cargo generate-lockfile --offline --quiet
cargo build --offline --locked --quiet
[ "$1" != --build ] || exit 0
export TIME_SCALE="${2:-${TIME_SCALE:-1}}"
exec "$CARGO_TARGET_DIR/debug/dl-head-of-line-blocking" "$1"
