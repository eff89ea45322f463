#!/usr/bin/env bash
# The conformance suite: every scenario in tests/conformance/ runs through the simulation
# (`delaylab run`) and through a real RabbitMQ 3.10.8 (`delaylab replay`), and the two
# results must agree (`delaylab diff`); then a `delaylab export definitions` file is
# imported into the broker and checked object by object.
#
#   bash scripts/conformance.sh [SCENARIO.json...]
#
# Starts its own broker node (delaylab-PORT@localhost, fresh data in a temp dir) on
# 127.0.0.1:PORT (5672, or the next free port, or $DELAYLAB_RABBITMQ_PORT), without
# systemd, as shared/docs/toolchain.md describes; fails loudly when it cannot start
# within 60 s; always stops it (trap).
# Needs root (the Debian package runs the node as user rabbitmq) and rabbitmq-server
# (bash scripts/setup.sh installs it).
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
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# 5672 unless taken (a developer's broker, a concurrent run): then the next free port.
if [ -n "${DELAYLAB_RABBITMQ_PORT:-}" ]; then
  PORT="$DELAYLAB_RABBITMQ_PORT"
else
  PORT=""
  for p in $(seq 5672 5699); do
    if ! port_busy "$p" && ! port_busy $((p + 20000)); then PORT="$p"; break; fi
  done
  [ -n "$PORT" ] || { echo "conformance.sh: FAILED: no free port in 5672-5699 on 127.0.0.1" >&2; exit 1; }
fi
DIST_PORT=$((PORT + 20000))
NODE="delaylab-${PORT}@localhost"
AMQP="amqp://guest:guest@127.0.0.1:${PORT}/%2F"
export DELAYLAB_TOLERANCE_MS="${DELAYLAB_TOLERANCE_MS:-50}"
RETRIES="${DELAYLAB_RETRIES:-2}"
BIN="$ROOT/target/release/delaylab"
OUT="$ROOT/tests/artifacts/conformance"
[ "$PORT" = 5672 ] || OUT="$OUT-$PORT"   # a concurrent run keeps its own outputs
die() { echo "conformance.sh: FAILED: $*" >&2; exit 1; }

command -v rabbitmq-server >/dev/null || die "rabbitmq-server is not installed (bash scripts/setup.sh installs it)"
[ "$(id -u)" = 0 ] || die "must run as root (rabbitmq-server switches to user rabbitmq)"
version="$(dpkg-query -W -f='${Version}' rabbitmq-server 2>/dev/null || echo unknown)"
echo "-- rabbitmq-server $version; building delaylab (release)"
cargo build --release -p delaylab-cli --quiet
echo "-- build: $((SECONDS - START)) s"
SUITE_START=$SECONDS
if port_busy "$PORT" || port_busy "$DIST_PORT"; then
  die "127.0.0.1:$PORT or :$DIST_PORT is already in use (another broker?); set DELAYLAB_RABBITMQ_PORT"
fi

DIR="$(mktemp -d /tmp/delaylab-rabbitmq.XXXXXX)"
started=0
stop_broker() {
  local rc=$?
  if [ "$started" = 1 ]; then
    echo "-- stopping broker $NODE"
    rabbitmqctl -n "$NODE" stop >/dev/null 2>&1 || echo "conformance.sh: warning: rabbitmqctl stop failed" >&2
  fi
  rm -rf "$DIR"
  echo "-- conformance suite took $((SECONDS - ${SUITE_START:-$START})) s (broker start to stop; $((SECONDS - START)) s with the build)"
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
echo "-- starting $NODE on 127.0.0.1:$PORT (data in $DIR)"
t0=$SECONDS
rabbitmq-server -detached
started=1
if ! timeout 70 rabbitmqctl -n "$NODE" wait "$DIR/broker.pid" --timeout 60 >/dev/null 2>&1; then
  echo "---- broker log:" >&2; tail -n 40 "$DIR"/log/*.log 2>/dev/null >&2 || true
  die "the broker did not start within 60 s"
fi
echo "-- broker up in $((SECONDS - t0)) s: $(rabbitmqctl -n "$NODE" eval 'rabbit_misc:version().' 2>/dev/null | tr -d '"')"

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
   && rabbitmqctl -n "$NODE" import_definitions "$defs" >/dev/null \
   && python3 tests/conformance/check_definitions.py "$defs" "$NODE"; then
  passed=$((passed + 1)); echo "ok   definitions export imported and checked"
else
  defs_ok=0; failed=$((failed + 1)); failures+=("definitions-export")
  echo "FAIL definitions export/import"
fi

echo "${passed} passed, ${failed} failed (tolerance ${DELAYLAB_TOLERANCE_MS} ms, ${#flaky[@]} passed on a retry)"
[ "$failed" = 0 ] || die "mismatches: ${failures[*]} (details in ${OUT#"$ROOT"/}/)"
