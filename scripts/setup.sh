#!/usr/bin/env bash
# Idempotent installer for everything delaylab needs to build, serve and test.
# Works on a bare Debian 12 machine that has only Rust (rustup), Node 20 and Python 3;
# skips whatever is already installed at the right version.
# Only the package registries are reachable (crates.io, npm, PyPI, apt): see
# shared/docs/toolchain.md for why each version is what it is.
#
#   bash scripts/setup.sh [--without-rabbitmq]
#
# Also installs rabbitmq-server from apt (not started; the conformance suite,
# scripts/conformance.sh, starts its own node). --without-rabbitmq (or
# DELAYLAB_WITH_RABBITMQ=0) skips it; --with-rabbitmq is accepted (the default).
# Afterwards, put the tools on PATH the way scripts/serve.sh and scripts/test.sh do:
#   export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

TRUNK_VERSION="0.21.14"
SPLIT_VERSION="0.2.4"                   # wasm_split_cli_support: wasm-split-cli
WASM_OPT_VERSION="version_132"          # npm binaryen@132.0.0, pinned in package.json
WITH_RABBITMQ="${DELAYLAB_WITH_RABBITMQ:-1}"
for arg in "$@"; do
  case "$arg" in
    --with-rabbitmq) WITH_RABBITMQ=1 ;;
    --without-rabbitmq) WITH_RABBITMQ=0 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown argument: $arg" >&2; exit 2 ;;
  esac
done

export PATH="$ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
say() { printf -- '-- setup: %s\n' "$*"; }
die() { printf -- 'setup.sh: error: %s\n' "$*" >&2; exit 1; }

# The wasm-bindgen version that Cargo.lock resolved; wasm-bindgen-cli must match it exactly.
lock_version() {
  awk -v want="$1" '
    /^\[\[package\]\]/ { name = "" }
    /^name = /        { gsub(/"/, "", $3); name = $3 }
    /^version = / && name == want { gsub(/"/, "", $3); print $3; exit }
  ' Cargo.lock
}

# --- apt: Chromium (+ chromedriver) for the browser tests, optionally RabbitMQ -------------
# fonts-wqy-microhei: CJK glyphs, so the Chinese UI renders in headless screenshots.
apt_pkgs=(chromium chromium-driver fonts-wqy-microhei)
[ "$WITH_RABBITMQ" = 1 ] && apt_pkgs+=(rabbitmq-server)
missing=()
for p in "${apt_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  command -v apt-get >/dev/null || die "apt-get not found; install ${missing[*]} by hand"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "need root (or sudo) to apt-get install ${missing[*]}"
    SUDO="sudo"
  fi
  say "apt-get install ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  say "apt packages present: ${apt_pkgs[*]}"
fi
[ -x /usr/bin/chromium ] || die "/usr/bin/chromium missing after install"

# --- Rust: wasm32 target, Trunk, wasm-bindgen-cli ------------------------------------------
command -v cargo >/dev/null || die "cargo not found (install Rust with rustup first)"
if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "rust target wasm32-unknown-unknown present"
else
  say "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

if command -v trunk >/dev/null && trunk --version 2>/dev/null | grep -qw "$TRUNK_VERSION"; then
  say "trunk $TRUNK_VERSION present"
else
  say "cargo install trunk $TRUNK_VERSION (about 10 minutes on a bare machine)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

WB_VERSION="$(lock_version wasm-bindgen)"
[ -n "$WB_VERSION" ] || die "no wasm-bindgen in Cargo.lock (run cargo generate-lockfile?)"
if command -v wasm-bindgen >/dev/null && [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" = "$WB_VERSION" ]; then
  say "wasm-bindgen $WB_VERSION present"
else
  say "cargo install wasm-bindgen-cli $WB_VERSION (about 4 minutes on a bare machine)"
  # No --locked: one of its locked dependencies is no longer on the registry.
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --force
fi

# The splitter of the app's wasm (scripts/build-app.sh): the crate Leptos's own build tool
# uses for #[lazy], at the version whose loader matches leptos's wasm_split_helpers 0.2.
if cargo install --list 2>/dev/null | grep -q "^wasm_split_cli_support v$SPLIT_VERSION:" && command -v wasm-split-cli >/dev/null; then
  say "wasm-split-cli $SPLIT_VERSION present"
else
  say "cargo install wasm_split_cli_support $SPLIT_VERSION (wasm-split-cli, about 2 minutes)"
  cargo install wasm_split_cli_support --version "$SPLIT_VERSION" --features build-binary --locked --force
fi

# Trunk builds with `cargo --offline` (Trunk.toml: offline = true), and the native builds never
# download the wasm32-only crates (leptos, ...): fetch every platform's dependencies now.
say "cargo fetch"
cargo fetch --quiet

# --- npm: wasm-opt (binaryen 132.0.0) and playwright-core ----------------------------------
command -v node >/dev/null || die "node not found (Node 20 expected)"
lock_sum="$(sha256sum package-lock.json | awk '{print $1}')"
stamp="node_modules/.delaylab-lock.sha256"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$lock_sum" ] && [ -x node_modules/.bin/wasm-opt ] \
   && [ -d node_modules/playwright-core ]; then
  say "node_modules up to date"
else
  say "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_sum" > "$stamp"
fi
got="$(wasm-opt --version 2>/dev/null || true)"
case "$got" in
  *"($WASM_OPT_VERSION)"*) ;;
  *) die "wasm-opt first on PATH is '$(command -v wasm-opt || echo none)': '$got', want $WASM_OPT_VERSION" ;;
esac

say "ok: trunk $TRUNK_VERSION, wasm-bindgen $WB_VERSION, wasm-opt $WASM_OPT_VERSION, $(node --version | sed 's/^/node /'), chromium $(dpkg-query -W -f='${Version}' chromium)"

# --- optional parts: each scripts/setup.d/*.sh installs (idempotently) what one part of the
# project needs beyond the above (a toolchain for exported code, wasm-pack, ...). Each is run
# with this script's PATH; one that fails fails setup.
for part in "$ROOT"/scripts/setup.d/*.sh; do
  [ -e "$part" ] || continue
  say "$(basename "$part")"
  bash "$part" || die "$(basename "$part") failed"
done
