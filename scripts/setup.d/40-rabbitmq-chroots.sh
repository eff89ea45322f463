#!/usr/bin/env bash
# Live RabbitMQ 4.0 and 4.3 beside the host's 3.10.8 (shared/docs/toolchain.md, "RabbitMQ 4.0.5
# and 4.3.6, live, from Debian's packages"): each in a minimal Debian chroot installed by
# debootstrap from the mirror apt already uses, because their Erlang needs a newer libc.
#
#   profile  suite   debootstrap script  Debian's rabbitmq-server (2026-12)
#   4.0      trixie  trixie              4.0.5 (OTP 27.3)
#   4.3      forky   sid                 4.3.6 (OTP 29.1)    bookworm's debootstrap does not know forky
#
# Installed machine-wide, outside any checkout, so fresh CI clones reuse them:
#   ${DELAYLAB_CHROOTS:-/var/lib/delaylab/chroots}/rabbitmq-4.0, .../rabbitmq-4.3
# A chroot counts as installed only once its stamp file `delaylab-chroot` exists (written last,
# with the version it got); anything else under that name is an interrupted install and is
# redone from scratch. Mounts (proc, dev) are made by scripts/lib/broker.sh when it starts a
# node, never here; any left under a chroot are unmounted before it is removed.
#
#   bash scripts/setup.d/40-rabbitmq-chroots.sh [4.0|4.3 ...]     (default: both)
#   DELAYLAB_WITH_CHROOTS=0 skips this part (e.g. a machine that only serves the app).
#
# Debian's forky/sid move: when a chroot holds another version than the one a profile was
# checked against, scripts/lib/broker.sh says so when it starts it; this script only records it.
set -euo pipefail
trap 'echo "rabbitmq chroots: error: a command failed at line $LINENO" >&2' ERR

[ "${DELAYLAB_WITH_CHROOTS:-1}" = 1 ] || { echo "rabbitmq chroots: skipped (DELAYLAB_WITH_CHROOTS=0)"; exit 0; }
BASE="${DELAYLAB_CHROOTS:-/var/lib/delaylab/chroots}"
STAMP=delaylab-chroot                     # inside the chroot's root directory
# An install takes ~70 s alone; four engineers' setups at once on two cores: allow much more.
DEBOOTSTRAP_TIMEOUT_S=1800
APT_LOCK_TIMEOUT_S=900

die() { echo "rabbitmq chroots: error: $*" >&2; exit 1; }
say() { echo "rabbitmq chroots: $*"; }
[ "$(id -u)" = 0 ] || die "must run as root (debootstrap and chroot need it)"

suite_of() { case "$1" in 4.0) echo trixie ;; 4.3) echo forky ;; *) return 1 ;; esac; }
# bookworm's debootstrap 1.0.128 has no script named forky; sid's serves it.
script_of() { case "$1" in 4.0) echo trixie ;; 4.3) echo sid ;; esac; }

# Every mount point at or under $1, deepest first (so a bind mount is never removed through).
mounts_under() {
  local dir; dir="$(readlink -f "$1")"
  awk -v d="$dir" '{ gsub(/\\040/, " ", $2); if ($2 == d || index($2, d "/") == 1) print $2 }' /proc/self/mounts \
    | awk '{ print length($0) " " $0 }' | sort -rn | cut -d' ' -f2-
}

# Removes a chroot directory safely: nothing of the host is reachable through it once its
# mounts are gone, and `--one-file-system` refuses to cross any that could not be unmounted.
unmount_under() {
  local m
  for m in $(mounts_under "$1"); do umount "$m" 2>/dev/null || umount -l "$m" || die "cannot unmount $m"; done
  [ -z "$(mounts_under "$1")" ] || die "mounts remain under $1: $(mounts_under "$1" | tr '\n' ' ')"
}
remove_tree() {
  [ -e "$1" ] || return 0
  unmount_under "$1"
  rm -rf --one-file-system "$1"
}

# "ok VERSION" when the chroot at $1 is complete and its rabbitmq-server runs, else a reason.
health() {
  local dir="$1" want_pkg
  [ -f "$dir/$STAMP" ] || { echo "no stamp (never finished)"; return; }
  [ -x "$dir/usr/sbin/rabbitmq-server" ] && [ -x "$dir/usr/sbin/rabbitmqctl" ] || { echo "rabbitmq-server missing"; return; }
  want_pkg="$(sed -n 's/^package=//p' "$dir/$STAMP")"
  local got_pkg
  got_pkg="$(chroot "$dir" dpkg-query -W -f='${Version}' rabbitmq-server 2>/dev/null)" || { echo "dpkg cannot run in it"; return; }
  [ "$got_pkg" = "$want_pkg" ] || { echo "package $got_pkg, stamp says $want_pkg"; return; }
  compgen -G "$dir/usr/lib/erlang/erts-*/bin/beam.smp" >/dev/null || { echo "erlang runtime missing"; return; }
  echo "ok $(sed -n 's/^rabbitmq=//p' "$dir/$STAMP")"
}

install_one() {
  local v="$1" suite script dir tmp mirror t0 pkg rabbit otp
  suite="$(suite_of "$v")" || die "unknown version '$v' (4.0 or 4.3)"
  script="/usr/share/debootstrap/scripts/$(script_of "$v")"
  dir="$BASE/rabbitmq-$v"
  local state; state="$(health "$dir")"
  if [ "${state%% *}" = ok ]; then say "$v present in $dir (RabbitMQ ${state#ok })"; return 0; fi
  [ ! -e "$dir" ] || say "$v in $dir is not usable ($state): installing it again"
  remove_tree "$dir"

  mirror="$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)"
  [ -n "$mirror" ] || mirror="$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)"
  [ -n "$mirror" ] || die "no Debian mirror in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list"
  [ -f "$script" ] || die "debootstrap has no script $script"

  # Built beside its final place, then renamed: a half-built tree never has the final name.
  tmp="$dir.partial"
  remove_tree "$tmp"
  say "$v: debootstrap --variant=minbase --include=rabbitmq-server $suite $tmp $mirror (about 70 s, 390 MB)"
  t0=$SECONDS
  if ! timeout "$DEBOOTSTRAP_TIMEOUT_S" debootstrap --variant=minbase --include=rabbitmq-server \
      "$suite" "$tmp" "$mirror" "$script" > "$BASE/rabbitmq-$v.debootstrap.log" 2>&1; then
    tail -n 20 "$BASE/rabbitmq-$v.debootstrap.log" >&2
    remove_tree "$tmp"
    die "debootstrap of $suite failed (log: $BASE/rabbitmq-$v.debootstrap.log)"
  fi
  unmount_under "$tmp"                    # debootstrap's own proc/sys, if it left them
  cp /etc/hosts "$tmp/etc/hosts"          # `localhost` in node names must resolve inside
  mkdir -p "$tmp/proc" "$tmp/dev"
  pkg="$(chroot "$tmp" dpkg-query -W -f='${Version}' rabbitmq-server)" || die "rabbitmq-server not installed in $tmp"
  # The RabbitMQ release the package carries (what the node will report as rabbit_misc:version()).
  rabbit="$(cat "$tmp"/usr/lib/rabbitmq/lib/rabbitmq_server-*/plugins/rabbit-*/ebin/rabbit.app 2>/dev/null \
    | sed -n 's/.*{vsn, *"\([^"]*\)".*/\1/p' | head -n 1 || true)"
  [ -n "$rabbit" ] || rabbit="${pkg%%-*}"
  otp="$(cat "$tmp"/usr/lib/erlang/releases/*/OTP_VERSION 2>/dev/null | head -n 1 || true)"
  {
    echo "profile=$v"
    echo "suite=$suite"
    echo "package=$pkg"
    echo "rabbitmq=$rabbit"
    echo "otp=$otp"
    echo "installed=$(date -u +%Y-%m-%dT%H:%M:%SZ) in $((SECONDS - t0)) s from $mirror"
  } > "$tmp/$STAMP"
  mv "$tmp" "$dir"
  say "$v installed in $dir in $((SECONDS - t0)) s: RabbitMQ $rabbit (package $pkg), Erlang/OTP $otp"
}

versions=("$@")
[ "${#versions[@]}" -gt 0 ] || versions=(4.0 4.3)

if ! command -v debootstrap >/dev/null; then
  say "apt-get install debootstrap"
  apt-get -o DPkg::Lock::Timeout="$APT_LOCK_TIMEOUT_S" update -qq
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout="$APT_LOCK_TIMEOUT_S" install -y -qq --no-install-recommends debootstrap >/dev/null
fi

mkdir -p "$BASE"
# One install at a time machine-wide: another checkout's setup may be running this same script.
exec 9> "$BASE/.install.lock"
if ! flock -n 9; then
  say "another setup is installing chroots; waiting for it"
  flock -w "$DEBOOTSTRAP_TIMEOUT_S" 9 || die "waited ${DEBOOTSTRAP_TIMEOUT_S} s for $BASE/.install.lock"
fi
for v in "${versions[@]}"; do install_one "$v"; done
