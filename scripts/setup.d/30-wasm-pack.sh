#!/usr/bin/env bash
# wasm-pack 0.15.1 from crates.io, for scripts/build-js.sh (the engine as a JavaScript
# package, crates/engine-js) and `wasm-pack test` of the engine's golden traces.
# Skips the install when that version is already on PATH (~3 min on a bare machine).
#
# wasm-pack itself never downloads here: it is always run with `--mode no-install`,
# which makes it take wasm-bindgen (and wasm-bindgen-test-runner) from PATH (setup.sh
# installs wasm-bindgen-cli at Cargo.lock's version) or fail, and chromedriver from
# PATH (Debian's chromium-driver, from setup.sh). wasm-opt is npm binaryen 132 from
# node_modules/.bin (see scripts/build-js.sh).
set -euo pipefail

WASM_PACK_VERSION="0.15.1"
if command -v wasm-pack >/dev/null && wasm-pack --version 2>/dev/null | grep -qw "$WASM_PACK_VERSION"; then
  echo "-- setup: wasm-pack $WASM_PACK_VERSION present"
else
  echo "-- setup: cargo install wasm-pack $WASM_PACK_VERSION --locked (about 3 minutes on a bare machine)"
  cargo install wasm-pack --version "$WASM_PACK_VERSION" --locked
fi
command -v chromedriver >/dev/null || { echo "30-wasm-pack.sh: chromedriver not on PATH (apt-get install chromium-driver)" >&2; exit 1; }
