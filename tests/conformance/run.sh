#!/usr/bin/env bash
# Runs every conformance scenario (tests/conformance/*.json) through the simulation and
# through a live broker, and diffs the two:
#   delaylab run S > S.sim.json;  delaylab replay S --amqp URL > S.broker.json
#   delaylab diff S.broker.json S.sim.json --tolerance-ms TOL
# The broker must already be running (scripts/conformance.sh starts one).
#
#   bash tests/conformance/run.sh [--amqp URL] [--tolerance-ms N] [--time-scale F] [--out DIR] [SCENARIO...]
#
# --time-scale F replays F times faster or slower (for the presets in scenarios/); the
# tolerance, real milliseconds, is then divided by F (it compares scenario times).
# Prints one line per scenario, then "N passed, M failed"; exits 1 if any failed.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
AMQP="${DELAYLAB_AMQP:-amqp://guest:guest@127.0.0.1:5672/%2F}"
TOL="${DELAYLAB_TOLERANCE_MS:-50}"
OUT="$ROOT/tests/artifacts/conformance"
BIN="${DELAYLAB_BIN:-$ROOT/target/release/delaylab}"
SCALE=1
files=()
while [ $# -gt 0 ]; do
  case "$1" in
    --amqp) AMQP="$2"; shift 2 ;;
    --tolerance-ms) TOL="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --time-scale) SCALE="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) files+=("$1"); shift ;;
  esac
done
[ "${#files[@]}" -gt 0 ] || files=("$HERE"/*.json)
[ -x "$BIN" ] || { echo "run.sh: $BIN not built (cargo build --release -p delaylab-cli)" >&2; exit 2; }
mkdir -p "$OUT"
TOL_SCENARIO="$(python3 -c "import sys; print(round(float(sys.argv[1]) / float(sys.argv[2])))" "$TOL" "$SCALE")"
passed=0; failed=0; failures=()
for f in "${files[@]}"; do
  name="$(basename "$f" .json)"
  t0=$(date +%s%N)
  sim="$OUT/$name.sim.json"; live="$OUT/$name.broker.json"; diffout="$OUT/$name.diff.txt"
  if ! "$BIN" run "$f" --format json > "$sim" 2> "$OUT/$name.sim.err"; then
    echo "FAIL $name: delaylab run failed: $(head -c 300 "$OUT/$name.sim.err")"; failed=$((failed + 1)); failures+=("$name"); continue
  fi
  if ! "$BIN" replay "$f" --amqp "$AMQP" --time-scale "$SCALE" > "$live" 2> "$OUT/$name.broker.err"; then
    echo "FAIL $name: delaylab replay failed: $(head -c 300 "$OUT/$name.broker.err")"; failed=$((failed + 1)); failures+=("$name"); continue
  fi
  # A = the broker (the reference), B = the simulation.
  "$BIN" diff "$live" "$sim" --tolerance-ms "$TOL_SCENARIO" > "$diffout" 2>&1
  rc=$?
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  if [ "$rc" = 0 ]; then
    echo "ok   $name (${ms} ms)"; passed=$((passed + 1))
  else
    echo "FAIL $name (${ms} ms): broker (A) and simulation (B) differ:"; sed 's/^/       /' "$diffout"
    failed=$((failed + 1)); failures+=("$name")
  fi
done
echo "${passed} passed, ${failed} failed"
[ "$failed" = 0 ] || { echo "failed: ${failures[*]}" >&2; exit 1; }
