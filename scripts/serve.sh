#!/usr/bin/env bash
# Set up (once), build and serve the playground:  bash scripts/serve.sh
# Then open the printed URL. PORT=NNNN overrides the port (default 8080); RELEASE=1 serves
# the release build, with its precompressed files, as a host would.
#
# Only what serving needs is installed (scripts/setup.sh --serve: the wasm32 target,
# wasm-bindgen-cli, wasm-split-cli, the npm packages); what the tests need (Chromium,
# RabbitMQ, the exported programs' toolchains, ...) is scripts/test.sh's. The page is built without Trunk
# (scripts/build-page.mjs: the same page `trunk build` makes, through the same post_build
# hook) into target/serve-dist/, its own folder, so that a running serve and
# scripts/test.sh (dist/) never clobber each other, and served by scripts/static-server.mjs.
# It is Cargo.toml's [profile.serve]: optimised (the 200,000-order preset plays at 1000x
# as in a release) without LTO, so it compiles in about a debug build's time.
# No rebuild on change: run serve.sh again, or, once Trunk is installed,
#   trunk serve --skip-version-check --dist target/serve-dist
# The engine's JS modules (scripts/build-js.sh --serve: pkg/ for the quiz and the exercise
# in www/, pkg-export/ for the Export code menu, pkg-strategies/ for the strategy
# comparison) are built after the playground is up, in the background, in the same
# profile and folder as the app (its dependencies are compiled already), with
# wasm-bindgen-cli, no wasm-pack (log: target/serve-js.log). Until they are there, the page
# has placeholders (scripts/lib/js-modules.mjs) and serve-status.js says how the build
# goes: each panel that needs one says it is being built, since when and about how long
# it takes, and loads it by itself when it is ready. SERVE_JS=0 skips them.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

t0=$SECONDS
bash scripts/setup.sh --serve
export PATH="$ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

PORT="${PORT:-8080}"
MODE=serve
[ "${RELEASE:-}" = 1 ] && MODE=release
# About how long the JS modules take after the playground is up, on two idle cores
# (measured: README, "Run it"); what a panel waiting for one says.
JS_EXPECTED_S=150
OUT="${CARGO_TARGET_DIR:-$ROOT/target}/serve-dist"
JS_DIRS=(pkg pkg-export pkg-strategies)   # index.html's copy-dir links, scripts/build-js.sh's output
js_ready() {
  [ -s pkg/delaylab_engine.js ] && [ -s pkg-export/delaylab_export.js ] \
    && [ -s pkg-strategies/delaylab_strategies_view.js ]
}

echo
echo "delaylab: building the playground ($MODE) into $OUT"
node scripts/build-page.mjs "$OUT" "$MODE"

# What the pages read of the JS modules' build (scripts/lib/js-modules.mjs).
status() {   # status STATE [more JSON fields]
  printf 'export default {"state": "%s"%s};\n' "$1" "${2:-}" >"$OUT/serve-status.js.tmp"
  mv "$OUT/serve-status.js.tmp" "$OUT/serve-status.js"
}
if ! js_ready && [ "${SERVE_JS:-1}" = 1 ]; then
  log="$(dirname "$OUT")/serve-js.log"
  shown_log="${log#"$ROOT"/}"
  echo "delaylab: the quiz and exercise (www/), the Export code menu and the strategy comparison need the"
  echo "          engine's JS modules: building them in the background (about $((JS_EXPECTED_S / 60 + 1)) min; log $shown_log);"
  echo "          each of those panels says so meanwhile and loads its module when it is there"
  status building ", \"started_ms\": $(date +%s%3N), \"expected_s\": $JS_EXPECTED_S, \"log\": \"$shown_log\""
  (
    if bash scripts/build-js.sh --serve >"$log" 2>&1; then
      for d in "${JS_DIRS[@]}"; do rm -rf "${OUT:?}/$d"; cp -r "$d" "$OUT/$d"; done
      status ready
      echo "delaylab: JS modules ready after $((SECONDS - t0)) s (quiz, exercise, Export code, strategies): open panels load them by themselves"
    else
      status failed ", \"log\": \"$shown_log\""
      echo "delaylab: building the JS modules failed (see $shown_log); the playground itself works" >&2
    fi
  ) &
fi

echo
echo "delaylab: serving after $((SECONDS - t0)) s at  http://127.0.0.1:${PORT}/   (Ctrl-C stops)"
echo
exec node scripts/static-server.mjs "$OUT" "$PORT"
