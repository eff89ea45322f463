#!/usr/bin/env bash
# Idempotent installer for everything delaylab needs to build, serve and test.
# Works on a bare Debian 12 machine that has only Rust (rustup), Node 20 and Python 3;
# skips whatever is already installed at the right version.
# Only the package registries are reachable (crates.io, npm, PyPI, apt): see
# shared/docs/toolchain.md for why each version is what it is.
#
#   bash scripts/setup.sh [--serve] [--without-rabbitmq]
#
# --serve (scripts/serve.sh): only what building and serving the playground needs: the
#   wasm32 target, wasm-bindgen-cli (Cargo.lock's version), wasm-split-cli, the crates
#   (cargo fetch) and the npm packages (wasm-opt from binaryen). That is also all that
#   scripts/build-js.sh needs (--js, accepted, means the same).
# Without it (scripts/test.sh): that, and what the tests need: Chromium, rabbitmq-server
#   from apt (not started; scripts/conformance.sh starts its own node), then every
#   scripts/setup.d/*.sh part (test-only: the exported programs' toolchains, the 4.x
#   brokers' chroots, ...). Those come from apt and the registries, not from compiling:
#   they are installed in the background while the Rust tools compile, and waited for at
#   the end (a bare machine, 2026-12-04: 13.5 min one after the other, of which 7 min
#   compiling Trunk and 1 min 41 s wasm-pack, neither needed any more).
# Trunk is not installed: scripts/build-page.mjs builds the page Trunk.toml describes.
# For a page that rebuilds on change, install it yourself (`cargo install trunk --version
# 0.21.14 --locked`, about 7 minutes) and run `trunk serve --skip-version-check`.
# --without-rabbitmq (or DELAYLAB_WITH_RABBITMQ=0) skips rabbitmq-server; --with-rabbitmq is
# accepted (the default).
# Afterwards, put the tools on PATH the way scripts/serve.sh and scripts/test.sh do:
#   export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

SPLIT_VERSION="0.2.4"                   # wasm_split_cli_support: wasm-split-cli
WASM_OPT_VERSION="version_132"          # npm binaryen@132.0.0, pinned in package.json
WITH_RABBITMQ="${DELAYLAB_WITH_RABBITMQ:-1}"
PART=all                                # all | serve
for arg in "$@"; do
  case "$arg" in
    --serve) PART=serve ;;
    --js) PART=serve ;;
    --with-rabbitmq) WITH_RABBITMQ=1 ;;
    --without-rabbitmq) WITH_RABBITMQ=0 ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
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

# ============ what the tests need besides (all but --serve), in the background ============
# apt (Chromium, RabbitMQ) and then every scripts/setup.d/*.sh part (a toolchain for
# exported code, the brokers' chroots, ...), one after the other (they share apt's lock),
# while the foreground compiles the Rust tools; its printout is shown when it is done.
test_parts() {
  # fonts-wqy-microhei: CJK glyphs, so the Chinese UI renders in headless screenshots.
  # valgrind: the engine's instructions per message (scripts/bench-instructions.sh).
  local apt_pkgs=(chromium chromium-driver fonts-wqy-microhei valgrind) missing=() p part
  [ "$WITH_RABBITMQ" = 1 ] && apt_pkgs+=(rabbitmq-server)
  for p in "${apt_pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    command -v apt-get >/dev/null || die "apt-get not found; install ${missing[*]} by hand"
    local SUDO=""
    if [ "$(id -u)" != 0 ]; then
      command -v sudo >/dev/null || die "need root (or sudo) to apt-get install ${missing[*]}"
      SUDO="sudo"
    fi
    say "apt-get install ${missing[*]}"
    $SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    say "apt packages present: ${apt_pkgs[*]}"
  fi
  [ -x /usr/bin/chromium ] || die "/usr/bin/chromium missing after install"
  command -v chromedriver >/dev/null || die "chromedriver not on PATH after install (the wasm golden test needs it)"
  say "chromium $(dpkg-query -W -f='${Version}' chromium)"
  # Each scripts/setup.d/*.sh installs (idempotently) what one part of the tests needs beyond
  # the above; one that fails fails setup.
  for part in "$ROOT"/scripts/setup.d/*.sh; do
    [ -e "$part" ] || continue
    say "$(basename "$part")"
    bash "$part" || die "$(basename "$part") failed"
  done
}
test_pid=""
if [ "$PART" = all ]; then
  test_log="$(mktemp)"
  ( t0=$SECONDS; test_parts; say "test parts done in $((SECONDS - t0)) s" ) > "$test_log" 2>&1 &
  test_pid=$!
  trap '[ -z "$test_pid" ] || kill "$test_pid" 2>/dev/null; rm -f "$test_log"' EXIT
  say "apt, Chromium, RabbitMQ and scripts/setup.d/ in the background (pid $test_pid)"
fi

# ============ what serving the playground needs (--serve) ==================================
# --- Rust: wasm32 target, wasm-bindgen-cli, wasm-split-cli ---------------------------------
command -v cargo >/dev/null || die "cargo not found (install Rust with rustup first)"
if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "rust target wasm32-unknown-unknown present"
else
  say "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

WB_VERSION="$(lock_version wasm-bindgen)"
[ -n "$WB_VERSION" ] || die "no wasm-bindgen in Cargo.lock (run cargo generate-lockfile?)"
if command -v wasm-bindgen >/dev/null && [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" = "$WB_VERSION" ]; then
  say "wasm-bindgen $WB_VERSION present"
else
  say "cargo install wasm-bindgen-cli $WB_VERSION (1 min 45 s on a bare machine)"
  # No --locked: one of its locked dependencies is no longer on the registry.
  # --no-default-features: no TLS stack (rustls, ring); its only HTTP client is the test
  # runner's, which talks to a chromedriver on this machine over plain HTTP.
  cargo install wasm-bindgen-cli --version "$WB_VERSION" --no-default-features --force
fi

# The splitter of the app's wasm (scripts/build-app.sh): the crate Leptos's own build tool
# uses for #[lazy], at the version whose loader matches leptos's wasm_split_helpers 0.2.
if cargo install --list 2>/dev/null | grep -q "^wasm_split_cli_support v$SPLIT_VERSION:" && command -v wasm-split-cli >/dev/null; then
  say "wasm-split-cli $SPLIT_VERSION present"
else
  say "cargo install wasm_split_cli_support $SPLIT_VERSION (wasm-split-cli, about 1 minute)"
  cargo install wasm_split_cli_support --version "$SPLIT_VERSION" --features build-binary --locked --force
fi

# The page builds with `cargo --offline` (scripts/build-app.sh, build-js.sh), and the native builds never
# download the wasm32-only crates (leptos, ...): fetch every platform's dependencies now.
say "cargo fetch"
cargo fetch --quiet

# --- npm: wasm-opt (binaryen 132.0.0), playwright-core, zopfli, terser, axe-core ------------
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

if [ "$PART" = serve ]; then
  say "ok (serving): wasm-bindgen $WB_VERSION, wasm-split-cli $SPLIT_VERSION, wasm-opt $WASM_OPT_VERSION, $(node --version | sed 's/^/node /')"
  exit 0
fi

say "waiting for the background part (apt, scripts/setup.d/)"
rc=0; wait "$test_pid" || rc=$?
test_pid=""
sed 's/^/  /' "$test_log"
[ "$rc" = 0 ] || die "the background part failed (exit $rc; its printout is above)"
say "ok: wasm-bindgen $WB_VERSION, wasm-split-cli $SPLIT_VERSION, wasm-opt $WASM_OPT_VERSION, $(node --version | sed 's/^/node /')"
