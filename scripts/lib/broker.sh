# A private RabbitMQ node for one script's run, without systemd (shared/docs/toolchain.md):
# sourced by scripts/conformance.sh, scripts/export-check.sh and scripts/costs-check.sh.
#
#   . scripts/lib/broker.sh
#   broker_start delaylab        # node delaylab-PORT@localhost; sets BROKER_* below
#   trap 'broker_stop' EXIT      # (the caller's own trap may call it among other things)
#
# The port is $DELAYLAB_RABBITMQ_PORT, else the first of 5672-5699 whose AMQP port and
# distribution port (PORT + 20000) are both free, so several runs (or a developer's broker)
# can live side by side. Data, config and logs go to a fresh temp dir, removed on stop.
# Needs root (the Debian package runs the node as user rabbitmq) and rabbitmq-server (bash
# scripts/setup.sh installs it). Fails loudly when the node is not up within
# BROKER_START_TIMEOUT_S; a started node is always stopped by broker_stop.
#
# Sets: BROKER_NODE (for rabbitmqctl -n), BROKER_PORT, BROKER_AMQP (the URL for delaylab
# replay/calibrate and the exported programs), BROKER_DIR (its data; the caller may write
# files there that the broker must read, e.g. a definitions file).

# The Erlang VM needs 5-15 s here alone, 45 s seen with two cores busy compiling.
BROKER_START_TIMEOUT_S=120
# The range scripts and developers share (and its distribution ports, + 20000).
BROKER_PORT_FIRST=5672
BROKER_PORT_LAST=5699
BROKER_DIST_OFFSET=20000

BROKER_NODE=""; BROKER_PORT=""; BROKER_AMQP=""; BROKER_DIR=""; broker_started=0

broker_fail() { echo "broker: FAILED: $*" >&2; exit 1; }
broker_port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

broker_start() {
  local prefix="$1"
  command -v rabbitmq-server >/dev/null || broker_fail "rabbitmq-server is not installed (bash scripts/setup.sh installs it)"
  [ "$(id -u)" = 0 ] || broker_fail "must run as root (rabbitmq-server switches to user rabbitmq)"
  if [ -n "${DELAYLAB_RABBITMQ_PORT:-}" ]; then
    BROKER_PORT="$DELAYLAB_RABBITMQ_PORT"
  else
    local p
    for p in $(seq "$BROKER_PORT_FIRST" "$BROKER_PORT_LAST"); do
      if ! broker_port_busy "$p" && ! broker_port_busy $((p + BROKER_DIST_OFFSET)); then BROKER_PORT="$p"; break; fi
    done
    [ -n "$BROKER_PORT" ] || broker_fail "no free port in $BROKER_PORT_FIRST-$BROKER_PORT_LAST on 127.0.0.1"
  fi
  local dist_port=$((BROKER_PORT + BROKER_DIST_OFFSET))
  if broker_port_busy "$BROKER_PORT" || broker_port_busy "$dist_port"; then
    broker_fail "127.0.0.1:$BROKER_PORT or :$dist_port is already in use (another broker?); set DELAYLAB_RABBITMQ_PORT"
  fi
  BROKER_NODE="${prefix}-${BROKER_PORT}@localhost"
  BROKER_AMQP="amqp://guest:guest@127.0.0.1:${BROKER_PORT}/%2F"
  BROKER_DIR="$(mktemp -d /tmp/delaylab-rabbitmq.XXXXXX)"
  cat > "$BROKER_DIR/rabbitmq.conf" <<CONF
listeners.tcp.default = 127.0.0.1:$BROKER_PORT
loopback_users.guest = true
log.console = false
log.file.level = warning
CONF
  mkdir -p "$BROKER_DIR/mnesia" "$BROKER_DIR/log"
  echo "[]." > "$BROKER_DIR/enabled_plugins"
  chown -R rabbitmq:rabbitmq "$BROKER_DIR"
  chmod -R a+rX "$BROKER_DIR"
  echo "-- starting $BROKER_NODE on 127.0.0.1:$BROKER_PORT (data in $BROKER_DIR)"
  local t0=$SECONDS
  # Exported, as rabbitmqctl (wait, stop, import_definitions) must find the same node.
  export RABBITMQ_NODENAME="$BROKER_NODE" RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 RABBITMQ_NODE_PORT="$BROKER_PORT" \
    RABBITMQ_CONFIG_FILE="$BROKER_DIR/rabbitmq.conf" RABBITMQ_MNESIA_BASE="$BROKER_DIR/mnesia" \
    RABBITMQ_LOG_BASE="$BROKER_DIR/log" RABBITMQ_PID_FILE="$BROKER_DIR/broker.pid" \
    RABBITMQ_ENABLED_PLUGINS_FILE="$BROKER_DIR/enabled_plugins" \
    ERL_EPMD_ADDRESS=127.0.0.1 RABBITMQ_DIST_PORT="$dist_port" \
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-kernel inet_dist_use_interface {127,0,0,1}"
  rabbitmq-server -detached
  broker_started=1
  if ! timeout $((BROKER_START_TIMEOUT_S + 10)) rabbitmqctl -n "$BROKER_NODE" wait "$BROKER_DIR/broker.pid" \
      --timeout "$BROKER_START_TIMEOUT_S" >/dev/null 2>&1; then
    echo "---- broker log:" >&2; tail -n 40 "$BROKER_DIR"/log/*.log 2>/dev/null >&2 || true
    broker_fail "the broker did not start within $BROKER_START_TIMEOUT_S s"
  fi
  echo "-- broker up in $((SECONDS - t0)) s: $(rabbitmqctl -n "$BROKER_NODE" eval 'rabbit_misc:version().' 2>/dev/null | tr -d '"')"
}

# Stops the node if this script started it and removes its data; safe to call twice.
broker_stop() {
  if [ "$broker_started" = 1 ]; then
    echo "-- stopping broker $BROKER_NODE"
    rabbitmqctl -n "$BROKER_NODE" stop >/dev/null 2>&1 || echo "broker: warning: rabbitmqctl stop failed" >&2
    broker_started=0
  fi
  [ -z "$BROKER_DIR" ] || rm -rf "$BROKER_DIR"
  BROKER_DIR=""
}
