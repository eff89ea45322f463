#!/usr/bin/env bash
# The page scripts/serve.sh builds without Trunk (scripts/build-page.mjs) boots and works:
# built as serve.sh builds it (Cargo.toml's [profile.serve], with debug assertions, so
# Leptos warns of a signal read outside a reactive context, which the browser tests fail
# on) into target/serve-check/, served by scripts/static-server.mjs, and checked in
# headless Chromium by the smoke tests and the page-infra tests (the timeline, the panels
# whose module is still being built, the check editor, the embed's size: what a newcomer
# meets first). It compiles a profile of its own: about 10 min of CPU (5 on two cores).
#   bash scripts/serve-check.sh        (scripts/test.sh runs it after the release page)
# Closing line: the browser runner's "N passed, M failed".
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

OUT="${CARGO_TARGET_DIR:-$ROOT/target}/serve-check"
node scripts/build-page.mjs "$OUT" serve

log="$(mktemp)"
node scripts/static-server.mjs "$OUT" 0 >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
url=""
for _ in $(seq 1 100); do
  url="$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$log" || true)"
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "serve-check: the static server did not start: $(cat "$log")" >&2; exit 1; }
echo "serve-check: serving $OUT at $url"
BASE_URL="$url" node tests/browser/run.mjs 'smoke.test.mjs|page-infra.test.mjs'
