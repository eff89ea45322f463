#!/usr/bin/env bash
# Build the web app and serve it with live reload:  bash scripts/serve.sh [trunk serve args]
# Then open the printed URL. PORT=NNNN overrides the port (default 8080, Trunk.toml).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash scripts/setup.sh
export PATH="$ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
# Trunk must use the wasm-bindgen that matches Cargo.lock (it cannot download another).
TRUNK_TOOLS_WASM_BINDGEN="$(awk '/^name = "wasm-bindgen"$/ {f=1; next} f && /^version = / {gsub(/"/, "", $3); print $3; exit}' Cargo.lock)"
export TRUNK_TOOLS_WASM_BINDGEN

# dist/pkg/ is the engine as a JavaScript package (index.html copy-dir), for www/ training pages.
[ -s pkg/delaylab_engine.js ] || bash scripts/build-js.sh
PORT="${PORT:-8080}"
echo
echo "delaylab: building, then serving at  http://127.0.0.1:${PORT}/   (Ctrl-C stops)"
echo
# Its own dist folder, so that a running serve and scripts/test.sh (dist/) never clobber each other.
exec trunk serve --skip-version-check --address 127.0.0.1 --port "$PORT" --dist target/serve-dist "$@"
