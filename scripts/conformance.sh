#!/usr/bin/env bash
# The conformance suite: every scenario in tests/conformance/ runs through the simulation
# (`delaylab run`) and through a real RabbitMQ 3.10.8 (`delaylab replay`), and the two
# results must agree (`delaylab diff`); then a `delaylab export definitions` file is
# imported into the broker and checked object by object.
#
#   bash scripts/conformance.sh [SCENARIO.json...]
#
# Starts its own broker node (delaylab-PORT@localhost, fresh data in a temp dir) on
# 127.0.0.1:PORT (5672, or the next free port, or $DELAYLAB_RABBITMQ_PORT) through
# scripts/lib/broker.sh, which fails loudly when it cannot start and always stops it.
#
# Timing: the simulation is exact, the broker adds 1-2 ms per hop; on a busy 2-core
# machine the Erlang VM is sometimes descheduled for 100-250 ms. Times must agree within
# DELAYLAB_TOLERANCE_MS (default 50); a scenario that differs is run again on the broker
# up to DELAYLAB_RETRIES times (default 2) before it counts as failed, so a load spike
# does not fail CI while a real mismatch (which repeats) does.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
START=$SECONDS
export DELAYLAB_TOLERANCE_MS="${DELAYLAB_TOLERANCE_MS:-50}"
RETRIES="${DELAYLAB_RETRIES:-2}"
BIN="$ROOT/target/release/delaylab"
OUT="$ROOT/tests/artifacts/conformance"
die() { echo "conformance.sh: FAILED: $*" >&2; exit 1; }

version="$(dpkg-query -W -f='${Version}' rabbitmq-server 2>/dev/null || echo unknown)"
echo "-- rabbitmq-server $version; building delaylab (release)"
cargo build --release -p delaylab-cli --quiet
echo "-- build: $((SECONDS - START)) s"
SUITE_START=$SECONDS
. "$ROOT/scripts/lib/broker.sh"
finish() {
  local rc=$?
  broker_stop
  echo "-- conformance suite took $((SECONDS - ${SUITE_START:-$START})) s (broker start to stop; $((SECONDS - START)) s with the build)"
  exit "$rc"
}
trap finish EXIT
trap 'exit 130' INT TERM
broker_start delaylab
NODE="$BROKER_NODE"; AMQP="$BROKER_AMQP"; DIR="$BROKER_DIR"
[ "$BROKER_PORT" = 5672 ] || OUT="$OUT-$BROKER_PORT"   # a concurrent run keeps its own outputs

# --- 1. scenarios: simulation vs broker ---------------------------------------------------
mkdir -p "$OUT"
files=("$@")
[ "${#files[@]}" -gt 0 ] || files=("$ROOT"/tests/conformance/*.json)
passed=0; failed=0; failures=(); flaky=()
for f in "${files[@]}"; do
  name="$(basename "$f" .json)"
  ok=0
  for attempt in $(seq 0 "$RETRIES"); do
    if bash tests/conformance/run.sh --amqp "$AMQP" --out "$OUT" "$f" > "$OUT/$name.log" 2>&1; then
      ok=1; break
    fi
  done
  if [ "$ok" = 1 ]; then
    passed=$((passed + 1))
    if [ "$attempt" = 0 ]; then echo "ok   $(grep -m1 '^ok' "$OUT/$name.log" | cut -c6-)"
    else echo "ok   $name (on attempt $((attempt + 1)); earlier timing differences were load spikes)"; flaky+=("$name"); fi
  else
    failed=$((failed + 1)); failures+=("$name")
    grep -v -e '^[0-9]* passed' -e '^failed:' "$OUT/$name.log" | sed '1!s/^/  /'
  fi
done

# --- 2. definitions export -> rabbitmqctl import_definitions -> check ---------------------
defs_ok=1
export_src="$ROOT/tests/conformance/export/topology.json"
defs="$DIR/definitions.json"
echo "-- export definitions: $(basename "$export_src")"
if "$BIN" export definitions "$export_src" --output "$defs" && chmod a+r "$defs" \
   && broker_ctl import_definitions "$defs" >/dev/null \
   && python3 tests/conformance/check_definitions.py "$defs" "$BROKER_CTL"; then
  passed=$((passed + 1)); echo "ok   definitions export imported and checked"
else
  defs_ok=0; failed=$((failed + 1)); failures+=("definitions-export")
  echo "FAIL definitions export/import"
fi

echo "${passed} passed, ${failed} failed (tolerance ${DELAYLAB_TOLERANCE_MS} ms, ${#flaky[@]} passed on a retry)"
[ "$failed" = 0 ] || die "mismatches: ${failures[*]} (details in ${OUT#"$ROOT"/}/)"
