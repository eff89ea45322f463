#!/usr/bin/env bash
# Runs every conformance scenario (tests/conformance/*.json) through the simulation and
# through a live broker, and diffs the two:
#   delaylab run S > S.sim.json;  delaylab replay S --amqp URL > S.broker.json
#   delaylab diff S.broker.json S.sim.json --tolerance-ms TOL
# The broker must already be running (scripts/conformance.sh starts one).
#
#   bash tests/conformance/run.sh [--amqp URL] [--broker V] [--ctl PROGRAM] [--tolerance-ms N]
#                                 [--time-scale F] [--out DIR] [SCENARIO...]
#
# --broker V: the broker is RabbitMQ V (3.10, 4.0, 4.3): both sides run on that profile
# (`--broker V`), and a scenario that is not for a live V (`versions` without V; the plugin
# where V's profile runs it) is skipped, saying why (`delaylab replay --check`).
# --ctl PROGRAM: runs rabbitmqctl for the broker's node ($BROKER_CTL of scripts/lib/broker.sh),
# to set what a scenario needs of the node (its `consumer_timeout`) for its run only.
# --time-scale F replays F times faster or slower (for the presets in scenarios/); the
# tolerance, real milliseconds, is then divided by F (it compares scenario times).
# Prints one line per scenario, then "N passed, M failed, K skipped"; exits 1 if any failed,
# 3 if every scenario was skipped.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
AMQP="${DELAYLAB_AMQP:-amqp://guest:guest@127.0.0.1:5672/%2F}"
TOL="${DELAYLAB_TOLERANCE_MS:-50}"
OUT="$ROOT/tests/artifacts/conformance"
BIN="${DELAYLAB_BIN:-$ROOT/target/release/delaylab}"
SCALE=1
# The longest replay takes about 62 s (v21, a minute's consumer timeout): a replay still
# running after this bound is stuck (a broker that stopped answering), not slow.
REPLAY_TIMEOUT_S="${DELAYLAB_REPLAY_TIMEOUT_S:-300}"
BROKER=""
CTL=""
files=()
while [ $# -gt 0 ]; do
  case "$1" in
    --amqp) AMQP="$2"; shift 2 ;;
    --broker) BROKER="$2"; shift 2 ;;
    --ctl) CTL="$2"; shift 2 ;;
    --tolerance-ms) TOL="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --time-scale) SCALE="$2"; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) files+=("$1"); shift ;;
  esac
done
[ "${#files[@]}" -gt 0 ] || files=("$HERE"/*.json)
[ -x "$BIN" ] || { echo "run.sh: $BIN not built (cargo build --release -p delaylab-cli)" >&2; exit 2; }
mkdir -p "$OUT"
TOL_SCENARIO="$(python3 -c "import sys; print(round(float(sys.argv[1]) / float(sys.argv[2])))" "$TOL" "$SCALE")"
ver=(); [ -z "$BROKER" ] || ver=(--broker "$BROKER")

# `application:set_env(rabbit, KEY, TERM)` on the node for one scenario; `restore` puts back
# what was there (RabbitMQ's default) afterwards.
restore=()
set_node_env() {
  local key="$1" term="$2" old
  [ -n "$CTL" ] || { echo "needs the node setting $key = $term: give --ctl PROGRAM" >&2; return 1; }
  old="$(timeout 60 "$CTL" eval "application:get_env(rabbit, $key)." 2>/dev/null | tr -d '\n')" || return 1
  timeout 60 "$CTL" eval "application:set_env(rabbit, $key, $term)." >/dev/null || return 1
  restore+=("case $old of {ok, V} -> application:set_env(rabbit, $key, V); undefined -> application:unset_env(rabbit, $key) end.")
}
restore_node_env() {
  local r
  for r in "${restore[@]}"; do timeout 60 "$CTL" eval "$r" >/dev/null || echo "run.sh: warning: could not restore the node: $r" >&2; done
  restore=()
}

passed=0; failed=0; skipped=0; failures=()
for f in "${files[@]}"; do
  name="$(basename "$f" .json)"
  t0=$(date +%s%N)
  sim="$OUT/$name.sim.json"; live="$OUT/$name.broker.json"; diffout="$OUT/$name.diff.txt"
  rm -f "$OUT/$name.broker.err"
  settings="$("$BIN" replay "$f" "${ver[@]}" --time-scale "$SCALE" --check 2> "$OUT/$name.check.err")"
  rc=$?
  if [ "$rc" = 3 ]; then
    echo "skip $name: $(sed 's/^[^:]*: //' "$OUT/$name.check.err" | head -c 300)"; skipped=$((skipped + 1)); continue
  elif [ "$rc" != 0 ]; then
    echo "FAIL $name: $(head -c 300 "$OUT/$name.check.err")"; failed=$((failed + 1)); failures+=("$name"); continue
  fi
  if ! "$BIN" run "$f" "${ver[@]}" --format json > "$sim" 2> "$OUT/$name.sim.err"; then
    echo "FAIL $name: delaylab run failed: $(head -c 300 "$OUT/$name.sim.err")"; failed=$((failed + 1)); failures+=("$name"); continue
  fi
  set_ok=1
  while read -r word key term; do
    [ "$word" = set_env ] || continue
    # rabbitmqctl must not read the settings still to come from this loop's stdin.
    set_node_env "$key" "$term" < /dev/null 2>> "$OUT/$name.broker.err" || set_ok=0
  done <<< "$settings"
  if [ "$set_ok" = 0 ]; then
    restore_node_env
    echo "FAIL $name: cannot set the node up: $(head -c 300 "$OUT/$name.broker.err")"; failed=$((failed + 1)); failures+=("$name"); continue
  fi
  timeout -k 5 "$REPLAY_TIMEOUT_S" "$BIN" replay "$f" "${ver[@]}" --amqp "$AMQP" --time-scale "$SCALE" > "$live" 2>> "$OUT/$name.broker.err"
  rc=$?
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    # Stopped by the bound: say what the node says of itself (a memory or disk alarm blocks
    # every publisher without an error).
    alarms="(no --ctl)"
    [ -z "$CTL" ] || alarms="$(timeout 30 "$CTL" eval 'rabbit_alarm:get_alarms().' 2>&1 < /dev/null | tr -d '\n' | head -c 300)"
    echo "the replay did not end within ${REPLAY_TIMEOUT_S} s (DELAYLAB_REPLAY_TIMEOUT_S) and was stopped; the node's alarms: $alarms" >> "$OUT/$name.broker.err"
  fi
  restore_node_env
  if [ "$rc" != 0 ]; then
    echo "FAIL $name: delaylab replay failed: $(head -c 300 "$OUT/$name.broker.err")"; failed=$((failed + 1)); failures+=("$name"); continue
  fi
  # A = the broker (the reference), B = the simulation. A scenario listed in tolerances.txt
  # gets its own tolerance (never a smaller one), for the reason given there.
  tol="$(awk -v n="$name" '$1 == n { print $2; exit }' "$HERE/tolerances.txt" 2>/dev/null)"
  if [ -n "$tol" ]; then
    tol="$(python3 -c "import sys; print(max(int(sys.argv[3]), round(float(sys.argv[1]) / float(sys.argv[2]))))" "$tol" "$SCALE" "$TOL_SCENARIO")"
  else
    tol="$TOL_SCENARIO"
  fi
  # A queue listed in unordered.txt keeps its deliveries compared, not their order.
  unordered=()
  while read -r q; do unordered+=(--unordered "$q"); done < <(awk -v n="$name" '$1 == n { print $2 }' "$HERE/unordered.txt" 2>/dev/null)
  "$BIN" diff "$live" "$sim" --tolerance-ms "$tol" "${unordered[@]}" > "$diffout" 2>&1
  rc=$?
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  if [ "$rc" = 0 ]; then
    echo "ok   $name (${ms} ms)"; passed=$((passed + 1))
  else
    echo "FAIL $name (${ms} ms): broker (A) and simulation (B) differ:"; sed 's/^/       /' "$diffout"
    failed=$((failed + 1)); failures+=("$name")
  fi
done
echo "${passed} passed, ${failed} failed, ${skipped} skipped"
[ "$failed" = 0 ] || { echo "failed: ${failures[*]}" >&2; exit 1; }
[ "$passed" -gt 0 ] || [ "$skipped" = 0 ] || exit 3
