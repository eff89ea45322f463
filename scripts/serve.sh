#!/usr/bin/env bash
# Build the web app and serve it with live reload:  bash scripts/serve.sh [trunk serve args]
# Then open the printed URL. PORT=NNNN overrides the port (default 8080, Trunk.toml);
# RELEASE=1 serves the release build from dist/ with its precompressed files instead.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

bash scripts/setup.sh
export PATH="$ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
# Trunk must use the wasm-bindgen that matches Cargo.lock (it cannot download another).

# dist/pkg/ is the engine as a JavaScript package (index.html copy-dir), for www/ training pages.
[ -s pkg/delaylab_engine.js ] || bash scripts/build-js.sh
PORT="${PORT:-8080}"
if [ "${RELEASE:-}" = 1 ]; then
  # RELEASE=1: the release build (dist/, with its .br/.gz copies) served as a host would
  # serve it (scripts/static-server.mjs: precompressed files by Accept-Encoding), to look
  # at the first load; no live reload.
  echo
  echo "delaylab: release build, then serving dist/ at  http://127.0.0.1:${PORT}/   (Ctrl-C stops)"
  echo
  TRUNK_SKIP_VERSION_CHECK=true trunk build --release --skip-version-check
  exec node scripts/static-server.mjs dist "$PORT"
fi
echo
echo "delaylab: building, then serving at  http://127.0.0.1:${PORT}/   (Ctrl-C stops)"
echo
# Its own dist folder, so that a running serve and scripts/test.sh (dist/) never clobber each other.
exec trunk serve --skip-version-check --address 127.0.0.1 --port "$PORT" --dist target/serve-dist "$@"
