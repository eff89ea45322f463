# A private RabbitMQ node for one script's run, without systemd (shared/docs/toolchain.md), of
# any of the three versions that run on this machine:
#   3.10  the host's Debian package (3.10.8)
#   4.0   Debian trixie's package (4.0.5) in a chroot   } installed by
#   4.3   Debian forky's package (4.3.6) in a chroot    } scripts/setup.d/40-rabbitmq-chroots.sh
# Sourced by scripts/conformance.sh, scripts/export-check.sh and scripts/costs-check.sh.
#
#   . scripts/lib/broker.sh
#   broker_start delaylab 4.3     # node delaylab-PORT@localhost; sets BROKER_* below
#   trap 'broker_stop' EXIT       # (the caller's own trap may call it among other things)
#   broker_ctl list_queues        # rabbitmqctl for that node (inside its chroot if it has one)
#   "$BROKER_CTL" list_queues     # the same, as a program (for python, xargs, ...)
#
# Each node has its own AMQP port ($DELAYLAB_RABBITMQ_PORT, else the first of 5672-5699 that is
# free and not reserved by another live script), its own distribution port (AMQP + 20000) and,
# in a chroot, its own epmd port (AMQP - 1302: 4370-4397), so two Erlang/OTP versions never
# share an epmd. Data, config and logs go to a fresh directory (inside the chroot for 4.x),
# removed on stop. broker_stop stops the node, the chroot's epmd it started, and unmounts the
# chroot's /proc and /dev once no process runs in it, so the next start finds things as they
# were. Needs root and the broker installed (bash scripts/setup.sh). Fails loudly when the node
# is not up within BROKER_START_TIMEOUT_S; a started node is always stopped by broker_stop.
# One node per shell at a time (a subshell may start another).
#
# Sets: BROKER_VERSION (3.10, 4.0, 4.3: the profile to compare with), BROKER_RELEASE (what the
# node reports, `rabbit_misc:version()`), BROKER_NEW_RELEASE (1 when that is not the release the
# profile was checked against), BROKER_NODE, BROKER_PORT, BROKER_AMQP (the URL for delaylab
# replay/calibrate and the exported programs), BROKER_DIR (its data, as this shell sees it; the
# caller may write files there that the broker must read, e.g. a definitions file: broker_ctl
# rewrites such paths for the chroot), BROKER_CTL (an executable running rabbitmqctl -n NODE).

# The Erlang VM needs 5-15 s here alone (4.3: 10-30 s), 45 s seen with two cores busy compiling.
BROKER_START_TIMEOUT_S=120
# The range scripts and developers share (and its distribution ports, + 20000; chroot epmd ports,
# - 1302, just above the host's epmd on 4369).
BROKER_PORT_FIRST=5672
BROKER_PORT_LAST=5699
BROKER_DIST_OFFSET=20000
BROKER_EPMD_OFFSET=-1302
# Where the chroots are (scripts/setup.d/40-rabbitmq-chroots.sh) and where live scripts reserve ports.
BROKER_CHROOTS="${DELAYLAB_CHROOTS:-/var/lib/delaylab/chroots}"
BROKER_RESERVATIONS=/tmp/delaylab-brokers

BROKER_VERSION=""; BROKER_RELEASE=""; BROKER_NEW_RELEASE=0; BROKER_NODE=""; BROKER_PORT=""
BROKER_AMQP=""; BROKER_DIR=""; BROKER_CTL=""
broker_started=0; broker_root=""; broker_epmd_port=""; broker_inner_dir=""

# The RabbitMQ release each live-checked profile was checked against (the engine's
# BrokerVersion::patch_release; a cli test keeps the two equal).
broker_checked_release() {
  case "$1" in 3.10) echo 3.10.8 ;; 4.0) echo 4.0.5 ;; 4.3) echo 4.3.6 ;; *) return 1 ;; esac
}

broker_fail() { echo "broker: FAILED: $*" >&2; exit 1; }
broker_port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Whether port $1 is reserved by a script that still runs (reservations of dead ones are stale).
broker_port_reserved() {
  local f="$BROKER_RESERVATIONS/port-$1" pid
  [ -f "$f" ] || return 1
  pid="$(cat "$f" 2>/dev/null)"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

# Every process whose root directory is $1 (the chroot), by pid.
broker_procs_in() {
  local p
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/root" 2>/dev/null)" = "$1" ] && echo "${p#/proc/}"
  done
  return 0
}

# The chroot's /proc and /dev, mounted once whoever starts first (under the chroot's lock).
broker_mount() {
  local r="$1"
  mountpoint -q "$r/proc" || mount -t proc proc "$r/proc" || broker_fail "cannot mount proc on $r/proc"
  mountpoint -q "$r/dev" || mount --bind /dev "$r/dev" || broker_fail "cannot bind-mount /dev on $r/dev"
  cmp -s /etc/hosts "$r/etc/hosts" || cp /etc/hosts "$r/etc/hosts"
}

# Unmounts them once nothing runs in the chroot any more (another script's node may).
broker_unmount_if_idle() {
  local r="$1"
  [ -z "$(broker_procs_in "$r")" ] || return 0
  ! mountpoint -q "$r/dev" || umount "$r/dev" || umount -l "$r/dev" || echo "broker: warning: cannot unmount $r/dev" >&2
  ! mountpoint -q "$r/proc" || umount "$r/proc" || umount -l "$r/proc" || echo "broker: warning: cannot unmount $r/proc" >&2
}

broker_start() {
  local prefix="$1" version="${2:-3.10}"
  [ "$broker_started" = 0 ] || broker_fail "a broker ($BROKER_NODE) is already running in this shell; broker_stop it first"
  broker_checked_release "$version" >/dev/null || broker_fail "unknown broker version '$version' (3.10, 4.0 or 4.3)"
  [ "$(id -u)" = 0 ] || broker_fail "must run as root (rabbitmq-server switches to user rabbitmq)"
  BROKER_VERSION="$version"; broker_root=""
  if [ "$version" = 3.10 ]; then
    command -v rabbitmq-server >/dev/null || broker_fail "rabbitmq-server is not installed (bash scripts/setup.sh installs it)"
  else
    broker_root="$(readlink -f "$BROKER_CHROOTS/rabbitmq-$version")"
    [ -f "$broker_root/delaylab-chroot" ] && [ -x "$broker_root/usr/sbin/rabbitmq-server" ] \
      || broker_fail "no RabbitMQ $version chroot in $BROKER_CHROOTS/rabbitmq-$version (bash scripts/setup.d/40-rabbitmq-chroots.sh $version installs it)"
  fi

  # Ports: chosen and reserved under one machine-wide lock, so two scripts starting at once
  # never pick the same (a node binds its ports only 5-30 s after it is launched).
  mkdir -p "$BROKER_RESERVATIONS"; chmod 1777 "$BROKER_RESERVATIONS" 2>/dev/null || true
  local p port="" lockfd
  exec {lockfd}> "$BROKER_RESERVATIONS/.lock"
  flock -w 60 "$lockfd" || broker_fail "cannot lock $BROKER_RESERVATIONS/.lock"
  local candidates
  if [ -n "${DELAYLAB_RABBITMQ_PORT:-}" ]; then candidates="$DELAYLAB_RABBITMQ_PORT"
  else candidates="$(seq "$BROKER_PORT_FIRST" "$BROKER_PORT_LAST")"; fi
  for p in $candidates; do
    broker_port_reserved "$p" && continue
    broker_port_busy "$p" && continue
    broker_port_busy $((p + BROKER_DIST_OFFSET)) && continue
    [ -z "$broker_root" ] || ! broker_port_busy $((p + BROKER_EPMD_OFFSET)) || continue
    port="$p"; break
  done
  if [ -z "$port" ]; then
    exec {lockfd}>&-
    if [ -n "${DELAYLAB_RABBITMQ_PORT:-}" ]; then
      broker_fail "127.0.0.1:$DELAYLAB_RABBITMQ_PORT (or its distribution/epmd port) is in use or reserved (another broker?)"
    fi
    broker_fail "no free port in $BROKER_PORT_FIRST-$BROKER_PORT_LAST on 127.0.0.1"
  fi
  echo "$$" > "$BROKER_RESERVATIONS/port-$port"
  exec {lockfd}>&-
  BROKER_PORT="$port"
  local dist_port=$((port + BROKER_DIST_OFFSET))
  broker_epmd_port=""; [ -z "$broker_root" ] || broker_epmd_port=$((port + BROKER_EPMD_OFFSET))

  local tag="${version/./}"                                    # 3.10 -> 310
  BROKER_NODE="${prefix}-${port}@localhost"
  [ "$version" = 3.10 ] || BROKER_NODE="${prefix}${tag}-${port}@localhost"
  BROKER_AMQP="amqp://guest:guest@127.0.0.1:${port}/%2F"
  BROKER_DIR="$(mktemp -d "$broker_root/tmp/delaylab-rabbitmq.XXXXXX")"
  broker_inner_dir="${BROKER_DIR#"$broker_root"}"              # the same dir as the node sees it
  cat > "$BROKER_DIR/rabbitmq.conf" <<CONF
listeners.tcp.default = 127.0.0.1:$port
loopback_users.guest = true
log.console = false
log.file.level = warning
CONF
  mkdir -p "$BROKER_DIR/mnesia" "$BROKER_DIR/log"
  echo "[]." > "$BROKER_DIR/enabled_plugins"
  chmod -R a+rX "$BROKER_DIR"
  local d="$broker_inner_dir"
  local env=(PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/var/lib/rabbitmq
    RABBITMQ_NODENAME="$BROKER_NODE" RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 RABBITMQ_NODE_PORT="$port"
    RABBITMQ_CONFIG_FILE="$d/rabbitmq.conf" RABBITMQ_MNESIA_BASE="$d/mnesia" RABBITMQ_LOG_BASE="$d/log"
    RABBITMQ_PID_FILE="$d/broker.pid" RABBITMQ_ENABLED_PLUGINS_FILE="$d/enabled_plugins"
    ERL_EPMD_ADDRESS=127.0.0.1 RABBITMQ_DIST_PORT="$dist_port"
    "RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS=-kernel inet_dist_use_interface {127,0,0,1}")
  [ -z "$broker_epmd_port" ] || env+=(ERL_EPMD_PORT="$broker_epmd_port")

  # rabbitmqctl for this node, as a program: the chroot, the environment, -n NODE; arguments
  # naming a file under $BROKER_DIR are given as the node sees them.
  BROKER_CTL="$BROKER_DIR/rabbitmqctl"
  {
    echo '#!/usr/bin/env bash'
    echo "# rabbitmqctl for $BROKER_NODE (RabbitMQ $version), written by scripts/lib/broker.sh"
    printf 'outer=%q inner=%q\n' "$BROKER_DIR" "$broker_inner_dir"
    echo 'args=(); for a in "$@"; do case "$a" in "$outer"/*) a="$inner${a#"$outer"}" ;; esac; args+=("$a"); done'
    if [ -n "$broker_root" ]; then printf 'exec chroot %q ' "$broker_root"; else printf 'exec '; fi
    printf 'env -i'; printf ' %q' "${env[@]}"; printf ' rabbitmqctl -n %q "${args[@]}"\n' "$BROKER_NODE"
  } > "$BROKER_CTL"
  chmod 755 "$BROKER_CTL"

  echo "-- starting RabbitMQ $version: $BROKER_NODE on 127.0.0.1:$port (data in $BROKER_DIR)"
  local t0=$SECONDS
  if [ -n "$broker_root" ]; then
    local mfd
    exec {mfd}> "$broker_root.mounts.lock"
    flock -w 60 "$mfd" || broker_fail "cannot lock $broker_root.mounts.lock"
    broker_mount "$broker_root"
    chroot "$broker_root" chown -R rabbitmq:rabbitmq "$broker_inner_dir"
    broker_started=1
    # Launched under the lock: once it returns, the node runs in the chroot and keeps its
    # mounts from being taken away by another script's broker_stop.
    chroot "$broker_root" env -i "${env[@]}" rabbitmq-server -detached
    exec {mfd}>&-
  else
    chown -R rabbitmq:rabbitmq "$BROKER_DIR"
    broker_started=1
    env -i "${env[@]}" rabbitmq-server -detached
  fi
  if ! timeout $((BROKER_START_TIMEOUT_S + 10)) "$BROKER_CTL" wait "$d/broker.pid" \
      --timeout "$BROKER_START_TIMEOUT_S" >/dev/null 2>&1; then
    echo "---- broker log:" >&2; tail -n 40 "$BROKER_DIR"/log/*.log 2>/dev/null >&2 || true
    broker_fail "RabbitMQ $version did not start within $BROKER_START_TIMEOUT_S s"
  fi
  BROKER_RELEASE="$("$BROKER_CTL" eval 'rabbit_misc:version().' 2>/dev/null | tr -d '"\r\n')"
  local otp; otp="$("$BROKER_CTL" eval 'erlang:system_info(otp_release).' 2>/dev/null | tr -d '"\r\n')"
  echo "-- broker up in $((SECONDS - t0)) s: RabbitMQ $BROKER_RELEASE (Erlang/OTP $otp)"
  local want; want="$(broker_checked_release "$version")"
  BROKER_NEW_RELEASE=0
  if [ "$BROKER_RELEASE" != "$want" ]; then
    BROKER_NEW_RELEASE=1
    echo "-- broker $version is ${BROKER_RELEASE:-unknown}, the profile was checked on $want: a new broker version to check"
  fi
}

# rabbitmqctl for the running node (see BROKER_CTL).
broker_ctl() {
  [ -n "$BROKER_CTL" ] || broker_fail "broker_ctl: no broker started"
  "$BROKER_CTL" "$@"
}

# Stops the node if this shell started it, the epmd its chroot node started, unmounts the
# chroot once idle, and removes the node's data; safe to call twice.
broker_stop() {
  if [ "$broker_started" = 1 ]; then
    echo "-- stopping broker $BROKER_NODE"
    timeout 60 "$BROKER_CTL" stop "$broker_inner_dir/broker.pid" >/dev/null 2>&1 \
      || echo "broker: warning: rabbitmqctl stop failed" >&2
    broker_started=0
    if [ -n "$broker_root" ]; then
      # What is left of ours in the chroot (the node if it would not stop, the epmd it started
      # on its own port, their helpers) carries the node's name in its environment; another
      # script's node in the same chroot does not.
      local pid i sig=TERM
      for i in $(seq 1 100); do
        local ours=()
        for pid in $(broker_procs_in "$broker_root"); do
          tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qxF "RABBITMQ_NODENAME=$BROKER_NODE" && ours+=("$pid")
        done
        [ "${#ours[@]}" -gt 0 ] || break
        [ "$i" -lt 50 ] || sig=KILL                     # 5 s after asking politely
        kill -s "$sig" "${ours[@]}" 2>/dev/null || true
        sleep 0.1
      done
      local mfd
      exec {mfd}> "$broker_root.mounts.lock"
      flock -w 60 "$mfd" && broker_unmount_if_idle "$broker_root"
      exec {mfd}>&-
    fi
  fi
  [ -z "$BROKER_DIR" ] || rm -rf --one-file-system "$BROKER_DIR"
  [ -z "$BROKER_PORT" ] || [ "$(cat "$BROKER_RESERVATIONS/port-$BROKER_PORT" 2>/dev/null)" != "$$" ] \
    || rm -f "$BROKER_RESERVATIONS/port-$BROKER_PORT"
  BROKER_DIR=""; BROKER_CTL=""; BROKER_PORT=""
}
