#!/usr/bin/env bash
# The exported programs against a live RabbitMQ (3.10.8 unless --broker; issue 14): every case below is
# exported in each language (`delaylab export code`), built offline and run on a private
# broker by its own DIR/run.sh, and its run contract JSON is diffed with the simulation
# (`delaylab diff BROKER SIM`); they must agree.
#
#   bash scripts/export-check.sh [--langs python,java,go,node,rust] [--broker 3.10|4.0|4.3] [CASE...]
#
# --broker V (or DELAYLAB_BROKER_VERSION): the live broker is RabbitMQ V (scripts/lib/broker.sh;
# 4.0 and 4.3 in their chroots) and the simulation runs on V's profile (`run --broker V`).
#
# A case is a scenario file, the time scale it runs at and, optionally, its tolerance in
# real ms (FILE:SCALE[:TOL_MS], default 50): presets last minutes of scenario time and are
# scaled to a few seconds, as tests/conformance/run.sh --time-scale does (the tolerance is
# divided by the scale). The two scaled presets get 150 real ms: on a loaded machine the
# live broker and client were 70-122 ms late (quiet: 3-35 ms), and 150 ms at scale 0.002
# is 75 s of scenario time, under the 2 min between any two of their deliveries; the conformance
# cases (tests/conformance, about a second each) run as they are. Presets whose
# publishes come faster than a confirm round trip once scaled (max-length,
# overflow, retry loop: 100 ms apart) are covered by the conformance cases r07a, r09a,
# r09c instead; eleven cases keep the check to a few minutes (pass others as arguments,
# e.g. scenarios/dead-letter-cycle.json:0.07); quorum-vs-classic-requeue is left out (a quorum queue's requeue costs
# the broker tens of ms per round, beyond the tolerance over four rounds). Spring is not
# run (its jars cannot be downloaded here: tests/golden files check it). Plugin
# scenarios are not run (Debian's RabbitMQ has no delayed-message plugin).
# Rust: every export builds into one shared target directory ($DELAYLAB_RUST_TARGET_DIR,
# default $DELAYLAB_EXPORT_CACHE/rust-target) so that lapin and tokio compile once, before
# the first case and outside the per-run timeout; each case's build is timed apart.
# Starts its own broker node on a free port (5672-5699) through scripts/lib/broker.sh, and
# always stops it. Needs root, rabbitmq-server and the toolchains of
# scripts/setup.d/30-export-toolchains.sh. Closing line: "N passed, M failed".
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
START=$SECONDS
LANGS="python,java,go,node,rust"
VERSION="${DELAYLAB_BROKER_VERSION:-3.10}"
cases=()
while [ $# -gt 0 ]; do
  case "$1" in
    --langs) LANGS="$2"; shift 2 ;;
    --broker) VERSION="$2"; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) cases+=("$1"); shift ;;
  esac
done
# scenario:time-scale (real seconds = scenario length x scale).
if [ "${#cases[@]}" = 0 ]; then
  cases=(
    scenarios/head-of-line-blocking.json:0.002:150
    scenarios/order-timeout-queue-ttl.json:0.002:150
    scenarios/expiration-zero.json:0.2
    scenarios/bad-expiration-values.json:0.1
    tests/conformance/r07a-x-death-retry-count.json:1
    tests/conformance/r09c-reject-publish-dlx.json:1
    tests/conformance/r10b-nack-requeue-redelivers.json:1
    tests/conformance/r11c-detach-requeues-expired.json:1
    tests/conformance/x01-mandatory-and-missing-targets.json:1
    tests/conformance/x03-topic-headers-e2e-routing.json:1
    # Keys that name a queue (a DLX binding key, a default-exchange dead-letter without DLRK).
    tests/conformance/x05-queue-name-keys.json:1
    # x-opt-delivery-time (a long: the program's start plus the scenario's time; a
    # timestamp; a string): ignored before 4.4, reported back in scenario time. CI runs it
    # on 4.3.6 too (scripts/test.sh: --broker 4.3).
    tests/conformance/v34-delivery-time-ignored.json:1
    # The order lab (Java, Python): the consumer policy against a table; seconds of margin.
    crates/export/tests/cases/orders-check-state-race.json:0.01
    crates/export/tests/cases/orders-idempotent-safe.json:0.01
  )
fi
export DELAYLAB_EXPORT_CACHE="${DELAYLAB_EXPORT_CACHE:-$HOME/.cache/delaylab/export}"
TOL="${DELAYLAB_TOLERANCE_MS:-50}"
# Two retries: a live broker on a loaded CI machine is late by more than the tolerance
# now and then (every failed attempt is printed with its reason).
RETRIES="${DELAYLAB_RETRIES:-2}"
# One exported program's whole run (build included; Java's javac is the slowest, ~10 s).
RUN_TIMEOUT_S="${DELAYLAB_EXPORT_RUN_TIMEOUT_S:-90}"
BIN="$ROOT/target/release/delaylab"
die() { echo "export-check.sh: FAILED: $*" >&2; exit 1; }
# An order-lab case: the program's `orders` counters must equal the simulation's too.
orders_agree() {
  python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)).get("orders") for p in sys.argv[1:3])
if b is None:
    sys.exit(0)
keys = ["created", "paid", "payments_refused", "canceled", "closed", "closed_by_scan",
        "paid_closed", "stock_double_released", "never_closed", "reminders_sent",
        "reminders_to_paid", "db_queries"]
bad = [f"orders.{k}: program {(a or {}).get(k)} != simulation {b.get(k)}" for k in keys if (a or {}).get(k) != b.get(k)]
print("\n".join(bad) if bad else "orders agree: " + ", ".join(f"{k} {b[k]}" for k in keys[:9]))
sys.exit(1 if bad else 0)
PY
}

bash scripts/setup.d/30-export-toolchains.sh >/dev/null || die "toolchains missing (scripts/setup.d/30-export-toolchains.sh)"
echo "-- building delaylab (release)"
cargo build --release -p delaylab-cli --quiet
# Rust: the dependencies (lapin, tokio, serde_json) compile once into the shared target
# directory, from ~/.cargo/registry (there since delaylab itself was built): offline.
export DELAYLAB_RUST_TARGET_DIR="${DELAYLAB_RUST_TARGET_DIR:-$DELAYLAB_EXPORT_CACHE/rust-target}"
RUST_BUILD_TIMEOUT_S="${DELAYLAB_RUST_BUILD_TIMEOUT_S:-1200}"
if [[ ",$LANGS," == *,rust,* ]]; then
  warm="$DELAYLAB_EXPORT_CACHE/rust-warm-up"; rm -rf "$warm"; first="${cases[0]%%:*}"
  "$BIN" export code --lang rust "$first" --out "$warm" 2>/dev/null || die "rust: cannot export $first"
  t0=$SECONDS
  timeout "$RUST_BUILD_TIMEOUT_S" "$warm/run.sh" --build 2> "$warm.build.err" || { tail -n 20 "$warm.build.err" >&2; die "rust: the warm-up build failed"; }
  echo "-- rust: dependencies built in $((SECONDS - t0)) s (target dir ${DELAYLAB_RUST_TARGET_DIR})"
fi

OUT="$ROOT/tests/artifacts/export-check"
rm -rf "$OUT"; mkdir -p "$OUT"
. "$ROOT/scripts/lib/broker.sh"
finish() {
  local rc=$?
  broker_stop
  echo "-- export check took $((SECONDS - START)) s"
  exit "$rc"
}
trap finish EXIT
trap 'exit 130' INT TERM
broker_start delaylab "$VERSION"
AMQP="$BROKER_AMQP"

passed=0; failed=0; failures=()
IFS=, read -r -a langs <<< "$LANGS"
for c in "${cases[@]}"; do
  IFS=: read -r f scale case_tol <<< "$c"
  scale="${scale:-1}"; case_tol="${case_tol:-$TOL}"
  name="$(basename "$f" .json)"
  sim="$OUT/$name.sim.json"
  "$BIN" run "$f" --broker "$VERSION" --format json > "$sim" || { echo "FAIL $name: delaylab run failed"; failed=$((failed + 1)); continue; }
  tol="$(python3 -c "import sys; print(round(float(sys.argv[1]) / float(sys.argv[2])))" "$case_tol" "$scale")"
  for lang in "${langs[@]}"; do
    dir="$OUT/$lang/$name"; mkdir -p "$OUT/$lang"
    "$BIN" export code --lang "$lang" "$f" --out "$dir" 2> "$dir.export.err" || { echo "FAIL $lang $name: export failed: $(head -c 300 "$dir.export.err")"; failed=$((failed + 1)); failures+=("$lang/$name"); continue; }
    if grep -q '^left out:' "$dir.export.err"; then
      echo "skip $lang $name: the export leaves something out ($(grep -m1 '^left out:' "$dir.export.err" | cut -c11-120)...)"
      continue
    fi
    built=""
    if [ "$lang" = rust ]; then
      # The build timed apart from the run (the run's own build is then a no-op).
      b0=$(date +%s%N)
      if ! timeout -k 5 "$RUN_TIMEOUT_S" "$dir/run.sh" --build 2> "$dir.build.err"; then
        echo "FAIL $lang $name: build failed:"; tail -n 15 "$dir.build.err" | sed 's/^/       /'
        failed=$((failed + 1)); failures+=("$lang/$name"); continue
      fi
      built="build $(( ($(date +%s%N) - b0) / 1000000 )) ms, "
    fi
    ok=0
    rm -f "$dir".attempt*.txt
    for attempt in $(seq 0 "$RETRIES"); do
      t0=$(date +%s%N)
      rm -f "$dir.diff.txt"
      # Bounded: a program that hangs (seen once: a Go run that got every delivery and
      # never exited) is ended and counts as a failed attempt, never a CI that never ends.
      rc=0
      timeout -k 5 "$RUN_TIMEOUT_S" "$dir/run.sh" "$AMQP" "$scale" > "$dir.broker.json" 2> "$dir.run.err" || rc=$?
      if [ "$rc" = 0 ] \
         && "$BIN" diff "$dir.broker.json" "$sim" --tolerance-ms "$tol" > "$dir.diff.txt" 2>&1 \
         && orders_agree "$dir.broker.json" "$sim" >> "$dir.diff.txt" 2>&1; then
        ok=1; break
      fi
      # Each failed attempt's reason is kept (a retried pass prints it too: a timing
      # difference that comes back is a finding, not noise to hide).
      why="$dir.attempt$((attempt + 1)).txt"
      if [ "$rc" != 0 ]; then
        { echo "the program exited with $rc$([ "$rc" = 124 ] && echo " (timed out after ${RUN_TIMEOUT_S} s)"):"; tail -n 15 "$dir.run.err"; } > "$why"
      else
        head -n 20 "$dir.diff.txt" > "$why"
      fi
    done
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    if [ "$ok" = 1 ]; then
      passed=$((passed + 1)); echo "ok   $lang $name (${built}${ms} ms$([ "$attempt" = 0 ] || echo ", attempt $((attempt + 1))")): $(cat "$dir.diff.txt")"
    else
      failed=$((failed + 1)); failures+=("$lang/$name")
      echo "FAIL $lang $name (${ms} ms, $((RETRIES + 1)) attempts):"
    fi
    for why in "$dir".attempt*.txt; do
      [ -e "$why" ] || continue
      n="${why##*.attempt}"; echo "     attempt ${n%.txt} failed:"; sed 's/^/       /' "$why"
    done
  done
done
echo "${passed} passed, ${failed} failed (tolerance ${TOL} real ms unless a case says; outputs in ${OUT#"$ROOT"/}/)"
[ "$failed" = 0 ] || die "mismatches: ${failures[*]}"
