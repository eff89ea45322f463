#!/usr/bin/env bash
# The exported programs against a live RabbitMQ 3.10.8 (issue 14): every case below is
# exported in each language (`delaylab export code`), built offline and run on a private
# broker by its own DIR/run.sh, and its run contract JSON is diffed with the simulation
# (`delaylab diff BROKER SIM`); they must agree.
#
#   bash scripts/export-check.sh [--langs python,java,go,node,rust] [CASE...]
#
# A case is a scenario file and the time scale it runs at: presets last minutes of
# scenario time and are scaled to two or three seconds, as tests/conformance/run.sh
# --time-scale does (the tolerance, 50 real ms, is divided by the scale); the conformance
# cases (tests/conformance, about a second each) run as they are. Presets whose
# publishes come faster than a confirm round trip once scaled (max-length,
# overflow, retry loop: 100 ms apart) are covered by the conformance cases r07a, r09a,
# r09c instead; ten cases keep the check to a few minutes (pass others as arguments,
# e.g. scenarios/dead-letter-cycle.json:0.07); quorum-vs-classic-requeue is left out (a quorum queue's requeue costs
# the broker tens of ms per round, beyond the tolerance over four rounds). Spring is not
# run (its jars cannot be downloaded here: tests/golden files check it). Plugin
# scenarios are not run (Debian's RabbitMQ has no delayed-message plugin).
# Rust: every export builds into one shared target directory ($DELAYLAB_RUST_TARGET_DIR,
# default $DELAYLAB_EXPORT_CACHE/rust-target) so that lapin and tokio compile once, before
# the first case and outside the per-run timeout; each case's build is timed apart.
# Starts its own broker node on a free port (5672-5699), like scripts/conformance.sh, and
# always stops it. Needs root, rabbitmq-server and the toolchains of
# scripts/setup.d/30-export-toolchains.sh. Closing line: "N passed, M failed".
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
START=$SECONDS
LANGS="python,java,go,node,rust"
cases=()
while [ $# -gt 0 ]; do
  case "$1" in
    --langs) LANGS="$2"; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) cases+=("$1"); shift ;;
  esac
done
# scenario:time-scale (real seconds = scenario length x scale).
if [ "${#cases[@]}" = 0 ]; then
  cases=(
    scenarios/head-of-line-blocking.json:0.0008
    scenarios/order-timeout-queue-ttl.json:0.0008
    scenarios/expiration-zero.json:0.2
    scenarios/bad-expiration-values.json:0.1
    tests/conformance/r07a-x-death-retry-count.json:1
    tests/conformance/r09c-reject-publish-dlx.json:1
    tests/conformance/r10b-nack-requeue-redelivers.json:1
    tests/conformance/r11c-detach-requeues-expired.json:1
    tests/conformance/x01-mandatory-and-missing-targets.json:1
    tests/conformance/x03-topic-headers-e2e-routing.json:1
  )
fi
export DELAYLAB_EXPORT_CACHE="${DELAYLAB_EXPORT_CACHE:-$HOME/.cache/delaylab/export}"
TOL="${DELAYLAB_TOLERANCE_MS:-50}"
RETRIES="${DELAYLAB_RETRIES:-1}"
# One exported program's whole run (build included; Java's javac is the slowest, ~10 s).
RUN_TIMEOUT_S="${DELAYLAB_EXPORT_RUN_TIMEOUT_S:-90}"
BIN="$ROOT/target/release/delaylab"
die() { echo "export-check.sh: FAILED: $*" >&2; exit 1; }
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

command -v rabbitmq-server >/dev/null || die "rabbitmq-server is not installed (bash scripts/setup.sh installs it)"
[ "$(id -u)" = 0 ] || die "must run as root (rabbitmq-server switches to user rabbitmq)"
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

PORT=""
for p in $(seq 5672 5699); do
  if ! port_busy "$p" && ! port_busy $((p + 20000)); then PORT="$p"; break; fi
done
[ -n "$PORT" ] || die "no free port in 5672-5699 on 127.0.0.1"
DIST_PORT=$((PORT + 20000))
NODE="delaylab-${PORT}@localhost"
AMQP="amqp://guest:guest@127.0.0.1:${PORT}/%2F"
OUT="$ROOT/tests/artifacts/export-check"
rm -rf "$OUT"; mkdir -p "$OUT"
DIR="$(mktemp -d /tmp/delaylab-rabbitmq.XXXXXX)"
started=0
stop_broker() {
  local rc=$?
  if [ "$started" = 1 ]; then
    echo "-- stopping broker $NODE"
    rabbitmqctl -n "$NODE" stop >/dev/null 2>&1 || echo "export-check.sh: warning: rabbitmqctl stop failed" >&2
  fi
  rm -rf "$DIR"
  echo "-- export check took $((SECONDS - START)) s"
  exit "$rc"
}
trap stop_broker EXIT
trap 'exit 130' INT TERM
cat > "$DIR/rabbitmq.conf" <<CONF
listeners.tcp.default = 127.0.0.1:$PORT
loopback_users.guest = true
log.console = false
log.file.level = warning
CONF
mkdir -p "$DIR/mnesia" "$DIR/log"
chown -R rabbitmq:rabbitmq "$DIR"
chmod -R a+rX "$DIR"
export RABBITMQ_NODENAME="$NODE" RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 RABBITMQ_NODE_PORT="$PORT" \
  RABBITMQ_CONFIG_FILE="$DIR/rabbitmq.conf" RABBITMQ_MNESIA_BASE="$DIR/mnesia" RABBITMQ_LOG_BASE="$DIR/log" \
  RABBITMQ_PID_FILE="$DIR/broker.pid" RABBITMQ_ENABLED_PLUGINS_FILE="$DIR/enabled_plugins" \
  ERL_EPMD_ADDRESS=127.0.0.1 RABBITMQ_DIST_PORT="$DIST_PORT" \
  RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"
echo "[]." > "$DIR/enabled_plugins"; chown rabbitmq "$DIR/enabled_plugins"
echo "-- starting $NODE on 127.0.0.1:$PORT"
rabbitmq-server -detached
started=1
if ! timeout 70 rabbitmqctl -n "$NODE" wait "$DIR/broker.pid" --timeout 60 >/dev/null 2>&1; then
  tail -n 40 "$DIR"/log/*.log 2>/dev/null >&2 || true
  die "the broker did not start within 60 s"
fi
echo "-- broker up: $(rabbitmqctl -n "$NODE" eval 'rabbit_misc:version().' 2>/dev/null | tr -d '"')"

passed=0; failed=0; failures=()
IFS=, read -r -a langs <<< "$LANGS"
for c in "${cases[@]}"; do
  f="${c%%:*}"; scale="${c##*:}"; [ "$scale" != "$c" ] || scale=1
  name="$(basename "$f" .json)"
  sim="$OUT/$name.sim.json"
  "$BIN" run "$f" --format json > "$sim" || { echo "FAIL $name: delaylab run failed"; failed=$((failed + 1)); continue; }
  tol="$(python3 -c "import sys; print(round(float(sys.argv[1]) / float(sys.argv[2])))" "$TOL" "$scale")"
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
    for attempt in $(seq 0 "$RETRIES"); do
      t0=$(date +%s%N)
      # Bounded: a program that hangs (seen once: a Go run that got every delivery and
      # never exited) is ended and counts as a failed attempt, never a CI that never ends.
      if timeout -k 5 "$RUN_TIMEOUT_S" "$dir/run.sh" "$AMQP" "$scale" > "$dir.broker.json" 2> "$dir.run.err" \
         && "$BIN" diff "$dir.broker.json" "$sim" --tolerance-ms "$tol" > "$dir.diff.txt" 2>&1; then
        ok=1; break
      fi
    done
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    if [ "$ok" = 1 ]; then
      passed=$((passed + 1)); echo "ok   $lang $name (${built}${ms} ms$([ "$attempt" = 0 ] || echo ", attempt $((attempt + 1))")): $(cat "$dir.diff.txt")"
    else
      failed=$((failed + 1)); failures+=("$lang/$name")
      echo "FAIL $lang $name (${ms} ms):"
      if [ -s "$dir.diff.txt" ]; then sed 's/^/       /' "$dir.diff.txt" | head -20; else tail -n 15 "$dir.run.err" | sed 's/^/       /'; fi
    fi
  done
done
echo "${passed} passed, ${failed} failed (tolerance ${TOL} real ms; outputs in ${OUT#"$ROOT"/}/)"
[ "$failed" = 0 ] || die "mismatches: ${failures[*]}"
