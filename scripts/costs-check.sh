#!/usr/bin/env bash
# The live check of the cost model (issues 16, 23 and 28): on each broker version, calibrate
# a real RabbitMQ, then run each workload in the simulation with that cost file and on the
# broker (`delaylab replay`); drain time, lateness p50/p99 and the p50/p99 of each
# delivery's time beyond the rules' (the workload run with `--costs ideal`: what the broker's
# work added) must agree within DELAYLAB_COSTS_TOLERANCE (default 0.35, i.e. +-35 %).
# scripts/costs_compare.py prints each drain's shape beside the live one's.
#
#   3.10  classic queues, tests/costs/*.json: a burst released behind a head, mixed TTLs,
#         and the same burst to a consumer acking each delivery (prefetch 1,000 and 1);
#         calibrated with `calibrate --broker 3.10`
#   4.3   quorum queues, tests/costs/quorum/*.json: the burst, mixed TTLs and prefetch 1,000
#         (not prefetch 1: a quorum queue's round trip swings 0.6-5 ms with the load);
#         calibrated with `calibrate --broker 4.3 --queue-type quorum`
#
# Calibrated once per version, at its start. A workload that differs is calibrated again
# and replayed again, up to DELAYLAB_RETRIES times (default 2, as conformance.sh), before it
# counts as failed: a live timing on a shared machine can catch a load spike (CI runs on an
# idle machine). Prints the time each version took.
#
#   bash scripts/costs-check.sh [--version 3.10|4.3] [--amqp URL] [WORKLOAD.json...]
#
# Without --version both versions run, each on its own node (scripts/lib/broker.sh), one
# after the other. With --amqp it uses that broker (one version: --version, default 3.10).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BIN="$ROOT/target/release/delaylab"
TOL="${DELAYLAB_COSTS_TOLERANCE:-0.35}"
RETRIES="${DELAYLAB_RETRIES:-2}"
die() { echo "costs-check.sh: FAILED: $*" >&2; exit 1; }
AMQP=""; VERSIONS=""
while [ $# -gt 0 ]; do
  case "$1" in
    --amqp) AMQP="$2"; shift 2 ;;
    --version) VERSIONS="$2"; shift 2 ;;
    *) break ;;
  esac
done
files=("$@")
if [ -z "$VERSIONS" ]; then
  if [ -n "$AMQP" ]; then VERSIONS="3.10"; else VERSIONS="3.10 4.3"; fi
fi
for v in $VERSIONS; do
  case "$v" in 3.10|4.3) ;; *) die "--version $v: expected 3.10 or 4.3" ;; esac
done
cargo build --release -p delaylab-cli --quiet
OUT="$ROOT/tests/artifacts/costs"
mkdir -p "$OUT"

. "$ROOT/scripts/lib/broker.sh"
trap broker_stop EXIT
trap 'exit 130' INT TERM

failed=0; total=0; summary=()
for version in $VERSIONS; do
  t0=$SECONDS
  case "$version" in
    3.10) qt=classic; workloads=("$ROOT"/tests/costs/*.json) ;;
    4.3) qt=quorum; workloads=("$ROOT"/tests/costs/quorum/*.json) ;;
  esac
  [ "${#files[@]}" -eq 0 ] || workloads=("${files[@]}")
  echo "== RabbitMQ $version, $qt queues: ${#workloads[@]} workloads"
  amqp="$AMQP"
  if [ -z "$amqp" ]; then
    broker_start delaylab-costs "$version"
    amqp="$BROKER_AMQP"
  fi
  costs="$OUT/$version.costs.json"
  calibrate() {
    echo "-- calibrate (RabbitMQ $version, $qt queues)"
    "$BIN" calibrate --amqp "$amqp" --broker "$version" --queue-type "$qt" --out "$costs" \
      | tee "$OUT/$version.calibrate.txt"
  }
  set +e
  calibrate; calibrated=$?
  for f in "${workloads[@]}"; do
    name="$version-$(basename "$f" .json)"
    # The rules' own times (every step free): what each delivery's time beyond the rules
    # is measured from (costs_compare.py --ideal).
    "$BIN" run "$f" --broker "$version" --costs ideal > "$OUT/$name.ideal.json" \
      || die "$f: the ideal run failed"
    # Figures printed but not checked for this workload, with the reason (tests/costs/advisory.txt).
    advisory=()
    line="$(awk -v n="$name" '$1 == n { $1 = ""; print; exit }' "$ROOT/tests/costs/advisory.txt")"
    if [ -n "$line" ]; then
      read -r keys why <<< "$line"
      advisory=(--advisory "$keys" --why "$why")
    fi
    ok=0
    for attempt in $(seq 0 "$RETRIES"); do
      if [ "$attempt" -gt 0 ] || [ "$calibrated" != 0 ]; then
        # The broker's speed drifts on a shared machine: its figures of the moment.
        calibrate; calibrated=$?
      fi
      [ "$calibrated" = 0 ] || continue
      echo "-- $name (attempt $((attempt + 1)))"
      "$BIN" run "$f" --broker "$version" --costs "$costs" > "$OUT/$name.sim.json" || continue
      "$BIN" replay "$f" --broker "$version" --amqp "$amqp" > "$OUT/$name.live.json" || continue
      if python3 scripts/costs_compare.py "$OUT/$name.sim.json" "$OUT/$name.live.json" \
        --ideal "$OUT/$name.ideal.json" --tolerance "$TOL" "${advisory[@]}" > "$OUT/$name.txt"; then
        ok=1; break
      fi
      cat "$OUT/$name.txt"
    done
    total=$((total + 1))
    if [ "$ok" = 1 ]; then echo "ok   $name"; else echo "FAIL $name"; failed=$((failed + 1)); fi
    cat "$OUT/$name.txt" 2>/dev/null || true
  done
  set -e
  [ -n "$AMQP" ] || broker_stop
  summary+=("RabbitMQ $version ($qt queues): $((SECONDS - t0)) s")
done
printf '%s\n' "${summary[@]}"
[ "$failed" = 0 ] || die "$failed of $total workload(s) outside +-$TOL (details in ${OUT#"$ROOT"/}/)"
echo "costs check: $total workloads within +-$TOL of the live broker"
