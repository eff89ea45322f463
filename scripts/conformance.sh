#!/usr/bin/env bash
# The conformance suite: every scenario in tests/conformance/ runs through the simulation
# (`delaylab run --broker V`) and through a live RabbitMQ V (`delaylab replay --broker V`),
# and the two results must agree (`delaylab diff`); then a `delaylab export definitions`
# file is imported into the broker and checked object by object. V is each of the live
# versions this machine runs: 3.10 (the host's 3.10.8), 4.0 (4.0.5) and 4.3 (4.3.6), the
# last two in the chroots of scripts/setup.d/40-rabbitmq-chroots.sh.
#
#   bash scripts/conformance.sh [--versions "3.10 4.0 4.3"] [SCENARIO.json...]
#
# Besides tests/conformance/*.json, the presets tests/conformance/field.txt lists (the "From
# the field" replays, read from scenarios/) run too, each at the time scale given there.
#
# Each version's broker is started once for the whole suite (scripts/lib/broker.sh: a node
# of its own on 127.0.0.1, fresh data, its own ports; fails loudly when it cannot start and
# always stops it). A scenario that is not for a live V is skipped, saying why: its
# `versions` leave V out, or it needs the delayed-message plugin where V's profile runs it
# (Debian's packages do not ship the plugin; on 4.3, which has none, the refusal itself is
# compared). A scenario's `consumer_timeout` is set on the node for its run only.
#
# Timing: the simulation is exact, the broker adds 1-2 ms per hop; on a busy 2-core
# machine the Erlang VM is sometimes descheduled for 100-250 ms. Times must agree within
# DELAYLAB_TOLERANCE_MS (default 50); a scenario that differs is run again on the broker
# up to DELAYLAB_RETRIES times (default 2) before it counts as failed, so a load spike
# does not fail CI while a real mismatch (which repeats) does.
#
# When a broker reports another release than its profile was checked on (Debian's forky
# moves), its differences are printed as a new broker version to check, not as failures.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
START=$SECONDS
export DELAYLAB_TOLERANCE_MS="${DELAYLAB_TOLERANCE_MS:-50}"
RETRIES="${DELAYLAB_RETRIES:-2}"
VERSIONS="${DELAYLAB_BROKER_VERSIONS:-3.10 4.0 4.3}"
# DELAYLAB_BIN: a delaylab already built (e.g. target/debug/delaylab), else the release build.
BIN="${DELAYLAB_BIN:-$ROOT/target/release/delaylab}"
die() { echo "conformance.sh: FAILED: $*" >&2; exit 1; }

files=()
while [ $# -gt 0 ]; do
  case "$1" in
    --versions) VERSIONS="$2"; shift 2 ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) files+=("$1"); shift ;;
  esac
done
# Each entry: a scenario and the time scale it replays at (1: real time).
entries=()
if [ "${#files[@]}" -gt 0 ]; then
  for f in "${files[@]}"; do
    scale=1
    name="$(basename "$f" .json)"
    listed="$(awk -v n="$name" '$1 == n { print $2; exit }' "$ROOT/tests/conformance/field.txt")"
    [ -z "$listed" ] || scale="$listed"
    entries+=("$f $scale")
  done
else
  for f in "$ROOT"/tests/conformance/*.json; do entries+=("$f 1"); done
  # The field's replays, read from scenarios/ with their scale (tests/conformance/field.txt).
  while read -r name scale _; do
    case "$name" in ''|'#'*) continue ;; esac
    [ -f "$ROOT/scenarios/$name.json" ] || die "tests/conformance/field.txt names $name: no scenarios/$name.json"
    entries+=("$ROOT/scenarios/$name.json $scale")
  done < "$ROOT/tests/conformance/field.txt"
fi

if [ -z "${DELAYLAB_BIN:-}" ]; then
  echo "-- building delaylab (release)"
  cargo build --release -p delaylab-cli --quiet
  echo "-- build: $((SECONDS - START)) s"
fi
export DELAYLAB_BIN="$BIN"
. "$ROOT/scripts/lib/broker.sh"
trap 'broker_stop' EXIT
trap 'exit 130' INT TERM

# One version: start its broker, run every scenario (with retries), check the definitions
# export, stop it. Sets `summary` (one line) and returns 1 when something failed.
suite() {
  local v="$1" t0=$SECONDS out="$ROOT/tests/artifacts/conformance/$1"
  broker_start delaylab "$v"
  local started_in=$((SECONDS - t0))
  [ "$BROKER_PORT" = 5672 ] || [ -n "${DELAYLAB_RABBITMQ_PORT:-}" ] || out="$out-$BROKER_PORT"   # a concurrent run keeps its own outputs
  mkdir -p "$out"
  local passed=0 failed=0 skipped=0 failures=() flaky=() f name ok attempt rc entry scale
  local field_s=0 t1
  for entry in "${entries[@]}"; do
    f="${entry% *}"; scale="${entry##* }"
    name="$(basename "$f" .json)"
    ok=0
    t1=$SECONDS
    for attempt in $(seq 0 "$RETRIES"); do
      set +e
      bash tests/conformance/run.sh --amqp "$BROKER_AMQP" --broker "$v" --ctl "$BROKER_CTL" --out "$out" --time-scale "$scale" "$f" > "$out/$name.log" 2>&1
      rc=$?
      set -e
      [ "$rc" = 1 ] || break          # 0 passed, 3 skipped: nothing to retry
    done
    case "$rc" in
      0)
        passed=$((passed + 1))
        if [ "$attempt" = 0 ]; then echo "ok   $v $(grep -m1 '^ok' "$out/$name.log" | cut -c6-)"
        else echo "ok   $v $name (on attempt $((attempt + 1)); earlier timing differences were load spikes)"; flaky+=("$name"); fi ;;
      3)
        skipped=$((skipped + 1)); echo "skip $v $(grep -m1 '^skip' "$out/$name.log" | cut -c6-)" ;;
      *)
        failed=$((failed + 1)); failures+=("$name")
        grep -v -e '^[0-9]* passed' -e '^failed:' "$out/$name.log" | sed "1s/^FAIL /FAIL $v /; 1!s/^/  /" || true ;;
    esac
    case "$f" in *scenarios/*) field_s=$((field_s + SECONDS - t1)) ;; esac
  done

  # The definitions export: rabbitmqctl import_definitions, then every object checked.
  local export_src="$ROOT/tests/conformance/export/topology.json" defs="$BROKER_DIR/definitions.json"
  if "$BIN" export definitions "$export_src" --output "$defs" && chmod a+r "$defs" \
     && broker_ctl import_definitions "$defs" > "$out/definitions.log" 2>&1 \
     && python3 tests/conformance/check_definitions.py "$defs" "$BROKER_CTL" >> "$out/definitions.log" 2>&1; then
    passed=$((passed + 1)); echo "ok   $v definitions export imported and checked"
  else
    failed=$((failed + 1)); failures+=("definitions-export")
    echo "FAIL $v definitions export/import:"; sed 's/^/  /' "$out/definitions.log" | tail -n 20 || true
  fi
  local release="$BROKER_RELEASE" new="$BROKER_NEW_RELEASE"
  broker_stop
  summary="RabbitMQ $v ($release): ${passed} passed, ${failed} failed, ${skipped} skipped (${#flaky[@]} passed on a retry; broker up in ${started_in} s, suite $((SECONDS - t0)) s, of which the field's replays ${field_s} s)"
  if [ "$failed" -gt 0 ]; then
    if [ "$new" = 1 ]; then
      summary="$summary; broker $v is $release, the profile was checked on $(broker_checked_release "$v"): a new broker version to check (${failures[*]}; details in ${out#"$ROOT"/}/)"
      return 0
    fi
    summary="$summary; mismatches: ${failures[*]} (details in ${out#"$ROOT"/}/)"
    return 1
  fi
}

summaries=(); bad=0
# The versions run side by side (DELAYLAB_CONFORMANCE_SERIAL=1: one after the other): each
# suite waits on its broker's real time (TTLs, a consumer timeout of a minute) far more than
# it computes (load 0.2-1 on two cores), so three at once take about as long as the slowest
# alone. Each runs in a subshell with a node of its own (scripts/lib/broker.sh picks free
# ports; its outputs go to tests/artifacts/conformance/V-PORT/), its printout kept in a
# file and shown whole, in the versions' order, once all are done.
if [ "${DELAYLAB_CONFORMANCE_SERIAL:-0}" = 1 ] || [ "$(wc -w <<<"$VERSIONS")" -le 1 ]; then
  for v in $VERSIONS; do
    echo "== RabbitMQ $v"
    if suite "$v"; then summaries+=("ok   $summary"); else summaries+=("FAIL $summary"); bad=1; fi
  done
else
  logs="$(mktemp -d)"
  pids=()
  for v in $VERSIONS; do
    (
      trap 'broker_stop' EXIT
      trap 'exit 130' INT TERM
      if suite "$v"; then echo "ok   $summary" > "$logs/$v.summary"
      else echo "FAIL $summary" > "$logs/$v.summary"; fi
    ) > "$logs/$v.log" 2>&1 &
    pids+=("$!")
  done
  echo "-- the suites of RabbitMQ ${VERSIONS// /, } run side by side (pids ${pids[*]}); each prints when all are done"
  show_logs() {
    for v in $VERSIONS; do echo "== RabbitMQ $v"; cat "$logs/$v.log"; done
  }
  # Stopped from outside (scripts/test.sh's bound, Ctrl-C): what each suite got to is shown.
  # (Printed first: the suites may take a while to stop their brokers.)
  trap 'echo "conformance.sh: stopped after $((SECONDS - START)) s; each suite so far:"; show_logs; kill "${pids[@]}" 2>/dev/null; wait; exit 130' INT TERM
  # Meanwhile, a line a minute: how far each suite is (what a caller printing this log while
  # it waits can show).
  while :; do
    alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 1 ] || break
    sleep 5
    if [ $(( (SECONDS - START) % 60 )) -lt 5 ]; then
      line="-- $((SECONDS - START)) s:"
      for v in $VERSIONS; do
        line="$line $v $(grep -c -E '^(ok|skip|FAIL) ' "$logs/$v.log" 2>/dev/null || true) done ($(grep -E '^(ok|skip|FAIL) ' "$logs/$v.log" 2>/dev/null | tail -n 1 | cut -d' ' -f1-5 | cut -c1-60 || true));"
      done
      echo "$line"
    fi
  done
  for pid in "${pids[@]}"; do wait "$pid" || true; done
  for v in $VERSIONS; do
    echo "== RabbitMQ $v"
    cat "$logs/$v.log"
    if [ -s "$logs/$v.summary" ]; then
      summaries+=("$(cat "$logs/$v.summary")")
      case "$(cat "$logs/$v.summary")" in FAIL*) bad=1 ;; esac
    else
      summaries+=("FAIL RabbitMQ $v: the suite stopped before its summary (its printout above)"); bad=1
    fi
  done
  rm -rf "$logs"
fi
echo "== conformance (tolerance ${DELAYLAB_TOLERANCE_MS} ms), $((SECONDS - START)) s with the build:"
printf '%s\n' "${summaries[@]}"
[ "$bad" = 0 ] || die "the simulation and a live broker disagree (see above)"
