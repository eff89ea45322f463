#!/usr/bin/env bash
# The live check of the cost model (issue 16): for each burst workload (tests/costs/*.json)
# calibrate a real RabbitMQ 3.10.8, then run the workload in the simulation with that cost
# file and on the broker (`delaylab replay`); drain time and lateness p50/p99 must agree within
# DELAYLAB_COSTS_TOLERANCE (default 0.35, i.e. +-35 %). A workload that differs is
# replayed again up to DELAYLAB_RETRIES times (default 1) before it counts as failed.
#
#   bash scripts/costs-check.sh [--amqp URL] [WORKLOAD.json...]
#
# With --amqp it uses that broker (e.g. the one scripts/conformance.sh started); without,
# it starts its own node on a free port as scripts/conformance.sh does, and stops it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BIN="$ROOT/target/release/delaylab"
TOL="${DELAYLAB_COSTS_TOLERANCE:-0.35}"
RETRIES="${DELAYLAB_RETRIES:-1}"
die() { echo "costs-check.sh: FAILED: $*" >&2; exit 1; }
AMQP=""
if [ "${1:-}" = "--amqp" ]; then AMQP="$2"; shift 2; fi
files=("$@")
[ "${#files[@]}" -gt 0 ] || files=("$ROOT"/tests/costs/*.json)
cargo build --release -p delaylab-cli --quiet
OUT="$ROOT/tests/artifacts/costs"
mkdir -p "$OUT"

started=0; DIR=""; NODE=""
stop_broker() {
  local rc=$?
  if [ "$started" = 1 ]; then
    echo "-- stopping broker $NODE"
    rabbitmqctl -n "$NODE" stop >/dev/null 2>&1 || echo "costs-check.sh: warning: rabbitmqctl stop failed" >&2
  fi
  [ -z "$DIR" ] || rm -rf "$DIR"
  exit "$rc"
}
trap stop_broker EXIT
trap 'exit 130' INT TERM

if [ -z "$AMQP" ]; then
  command -v rabbitmq-server >/dev/null || die "rabbitmq-server is not installed (bash scripts/setup.sh installs it)"
  [ "$(id -u)" = 0 ] || die "must run as root (rabbitmq-server switches to user rabbitmq)"
  port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
  PORT=""
  for p in $(seq 5672 5699); do
    if ! port_busy "$p" && ! port_busy $((p + 20000)); then PORT="$p"; break; fi
  done
  [ -n "$PORT" ] || die "no free port in 5672-5699 on 127.0.0.1"
  DIST_PORT=$((PORT + 20000)); NODE="delaylab-costs-${PORT}@localhost"
  AMQP="amqp://guest:guest@127.0.0.1:${PORT}/%2F"
  DIR="$(mktemp -d /tmp/delaylab-costs.XXXXXX)"
  printf 'listeners.tcp.default = 127.0.0.1:%s\nloopback_users.guest = true\nlog.console = false\nlog.file.level = warning\n' "$PORT" > "$DIR/rabbitmq.conf"
  mkdir -p "$DIR/mnesia" "$DIR/log"; echo "[]." > "$DIR/enabled_plugins"
  chown -R rabbitmq:rabbitmq "$DIR"; chmod -R a+rX "$DIR"
  export RABBITMQ_NODENAME="$NODE" RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 RABBITMQ_NODE_PORT="$PORT" \
    RABBITMQ_CONFIG_FILE="$DIR/rabbitmq.conf" RABBITMQ_MNESIA_BASE="$DIR/mnesia" RABBITMQ_LOG_BASE="$DIR/log" \
    RABBITMQ_PID_FILE="$DIR/broker.pid" RABBITMQ_ENABLED_PLUGINS_FILE="$DIR/enabled_plugins" \
    ERL_EPMD_ADDRESS=127.0.0.1 RABBITMQ_DIST_PORT="$DIST_PORT" \
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"
  echo "-- starting $NODE on 127.0.0.1:$PORT"
  rabbitmq-server -detached
  started=1
  timeout 70 rabbitmqctl -n "$NODE" wait "$DIR/broker.pid" --timeout 60 >/dev/null 2>&1 \
    || { tail -n 40 "$DIR"/log/*.log >&2 || true; die "the broker did not start within 60 s"; }
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
