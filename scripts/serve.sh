#!/usr/bin/env bash
# Set up (once), build and serve the playground:  bash scripts/serve.sh
# Then open the printed URL. PORT=NNNN overrides the port (default 8080); RELEASE=1 serves
# the release build, with its precompressed files, as a host would.
#
# Only what serving needs is installed (scripts/setup.sh --serve: the wasm32 target,
# wasm-bindgen-cli, wasm-split-cli, the npm packages); what the tests need (Chromium,
# RabbitMQ, Trunk, wasm-pack, ...) is scripts/test.sh's. The page is built without Trunk
# (scripts/build-page.mjs: the same page `trunk build` makes, through the same post_build
# hook) into target/serve-dist/, its own folder, so that a running serve and
# scripts/test.sh (dist/) never clobber each other, and served by scripts/static-server.mjs.
# No rebuild on change: run serve.sh again, or, once Trunk is installed,
#   trunk serve --skip-version-check --dist target/serve-dist
# The engine's JS modules (scripts/build-js.sh: pkg/ for the lesson and the quiz in www/,
# pkg-export/ for the Export code menu, pkg-strategies/ for the strategy comparison) need
# wasm-pack and four more builds: when they are missing they are built after the
# playground is up, in the background (log: target/serve-js.log), and copied in; the
# terminal says when (reload then). SERVE_JS=0 skips them.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

t0=$SECONDS
bash scripts/setup.sh --serve
export PATH="$ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

PORT="${PORT:-8080}"
MODE=debug
[ "${RELEASE:-}" = 1 ] && MODE=release
OUT="${CARGO_TARGET_DIR:-$ROOT/target}/serve-dist"
JS_DIRS=(pkg pkg-export pkg-strategies)   # index.html's copy-dir links, scripts/build-js.sh's output
js_ready() {
  [ -s pkg/delaylab_engine.js ] && [ -s pkg-export/delaylab_export.js ] \
    && [ -s pkg-strategies/delaylab_strategies_view.js ]
}

echo
echo "delaylab: building the playground ($MODE) into $OUT"
node scripts/build-page.mjs "$OUT" "$MODE"

if ! js_ready && [ "${SERVE_JS:-1}" = 1 ]; then
  mkdir -p "$(dirname "$OUT")"
  log="$(dirname "$OUT")/serve-js.log"
  echo "delaylab: the lesson and quiz (www/), the Export code menu and the strategy comparison need the"
  echo "          engine's JS modules: building them in the background (wasm-pack; several minutes, log $log)"
  (
    if { bash scripts/setup.sh --js && bash scripts/build-js.sh; } >"$log" 2>&1; then
      for d in "${JS_DIRS[@]}"; do rm -rf "${OUT:?}/$d"; cp -r "$d" "$OUT/$d"; done
      echo "delaylab: JS modules ready after $((SECONDS - t0)) s (lesson, quiz, Export code, strategies): reload the page"
    else
      echo "delaylab: building the JS modules failed (see $log); the playground itself works" >&2
    fi
  ) &
fi

echo
echo "delaylab: serving after $((SECONDS - t0)) s at  http://127.0.0.1:${PORT}/   (Ctrl-C stops)"
echo
exec node scripts/static-server.mjs "$OUT" "$PORT"
