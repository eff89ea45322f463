#!/usr/bin/env bash
# The live check of the cost model (issue 16): for each burst workload (tests/costs/*.json)
# calibrate a real RabbitMQ 3.10.8, then run the workload in the simulation with that cost
# file and on the broker (`delaylab replay`); drain time and lateness p50/p99 must agree within
# DELAYLAB_COSTS_TOLERANCE (default 0.35, i.e. +-35 %). A workload that differs is
# replayed again up to DELAYLAB_RETRIES times (default 2, as conformance.sh) before it counts
# as failed: a live timing on a shared machine can catch a load spike.
#
#   bash scripts/costs-check.sh [--amqp URL] [WORKLOAD.json...]
#
# With --amqp it uses that broker (e.g. the one scripts/conformance.sh started); without,
# it starts its own node on a free port (scripts/lib/broker.sh), and stops it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BIN="$ROOT/target/release/delaylab"
TOL="${DELAYLAB_COSTS_TOLERANCE:-0.35}"
RETRIES="${DELAYLAB_RETRIES:-2}"
die() { echo "costs-check.sh: FAILED: $*" >&2; exit 1; }
AMQP=""
if [ "${1:-}" = "--amqp" ]; then AMQP="$2"; shift 2; fi
files=("$@")
[ "${#files[@]}" -gt 0 ] || files=("$ROOT"/tests/costs/*.json)
cargo build --release -p delaylab-cli --quiet
OUT="$ROOT/tests/artifacts/costs"
mkdir -p "$OUT"

. "$ROOT/scripts/lib/broker.sh"
trap broker_stop EXIT
trap 'exit 130' INT TERM
if [ -z "$AMQP" ]; then
  broker_start delaylab-costs
  AMQP="$BROKER_AMQP"
fi

failed=0
for f in "${files[@]}"; do
  name="$(basename "$f" .json)"
  set +e
  ok=1
  for attempt in $(seq 0 "$RETRIES"); do
    # Calibrated right before each replay: on a shared machine the broker's speed drifts
    # within minutes, and the model is only as good as its figures of the moment.
    echo "-- calibrate ($name, attempt $((attempt + 1)))"
    "$BIN" calibrate --amqp "$AMQP" --out "$OUT/$name.costs.json" | tee "$OUT/$name.calibrate.txt" || { ok=0; continue; }
    "$BIN" run "$f" --costs "$OUT/$name.costs.json" > "$OUT/$name.sim.json"
    "$BIN" replay "$f" --amqp "$AMQP" > "$OUT/$name.live.json" || { ok=0; continue; }
    if python3 scripts/costs_compare.py "$OUT/$name.sim.json" "$OUT/$name.live.json" --tolerance "$TOL" > "$OUT/$name.txt"; then
      ok=1; break
    fi
    ok=0
  done
  set -e
  if [ "$ok" = 1 ]; then echo "ok   $name"; else echo "FAIL $name"; failed=$((failed + 1)); fi
  cat "$OUT/$name.txt" 2>/dev/null || true
done
[ "$failed" = 0 ] || die "$failed workload(s) outside +-$TOL (details in ${OUT#"$ROOT"/}/)"
echo "costs check: ${#files[@]} workloads within +-$TOL of the live broker"
