#!/usr/bin/env bash
# What the size goals of issue 13 (a working playground in 3.0 s at 1.6 Mbps) and issue 15
# (the package at most 150 KB gzipped) would need: builds, in a temporary git worktree of
# HEAD, the playground's wasm with parts of its page left out, and the engine package with
# every crate at opt-level "z", and prints each one's size (raw, zlib -9, zopfli = what
# dist/ serves). A measurement, not a test and not in CI (about 7 minutes the first time,
# 5 after; its own target dir, target/size-floor/, so the app's build outputs are untouched):
#   bash scripts/size-floor.sh
# The variants, each cut out of the page's markup only (the code the cut views alone use
# goes with them; the engine, the runner and Leptos stay):
#   app            HEAD as it is (the same pipeline as trunk's: wasm-bindgen, wasm-opt -Oz)
#   no-tools       without the JSON editor, the topology editor, the version comparison,
#                  the scenario tools (check, versions, definitions and code export), the
#                  share and embed buttons and embed mode
#   first-screen   also without the queues, orders, lateness, publish, consumers, inspector,
#                  strategy and log panels and the link notice: the header, the controls,
#                  the gallery, the scenario's description and the topology drawing
#   package-z      crates/engine-js as build-js.sh's main module, every crate at "z"
# A markup line that is no longer there stops the script with its name (edit the lists).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export CARGO_TARGET_DIR="$ROOT/target/size-floor"
WORK="$(mktemp -d)"
TREE="$WORK/tree"
cleanup() { git worktree remove --force "$TREE" >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT
git worktree add -q --detach "$TREE" HEAD

# cut FILE TEXT...: removes each TEXT (a view's markup) from FILE, failing if one is missing.
cut() {
  python3 - "$TREE/$1" "${@:2}" <<'PY'
import sys
path, cuts = sys.argv[1], sys.argv[2:]
text = open(path, encoding="utf-8").read()
for c in cuts:
    if c not in text:
        sys.exit(f"size-floor.sh: {path}: no {c!r} (the markup changed: update the cut list)")
    text = text.replace(c, "")
open(path, "w", encoding="utf-8").write(text)
PY
}

sizes() {   # sizes NAME FILE
  node - "$1" "$2" <<'JS'
const fs = require('fs');
const zlib = require('zlib');
const [name, file] = process.argv.slice(2);
const data = fs.readFileSync(file);
const z9 = zlib.gzipSync(data, { level: 9 }).length;
(async () => {
  let zop = 'n/a';
  try {
    const { gzipAsync } = await import('@gfx/zopfli');
    zop = (await gzipAsync(data, { numiterations: 5 })).length;
  } catch {}
  console.log(`${name.padEnd(13)} ${String(data.length).padStart(9)} B raw ${String(z9).padStart(8)} B zlib -9 ${String(zop).padStart(8)} B zopfli`);
})();
JS
}

app() {   # app NAME: builds the worktree's app as trunk does and prints its size
  (cd "$TREE" && cargo build -q --profile wasm-release --target wasm32-unknown-unknown --bin delaylab-app \
    2>"$WORK/build.log") || { cat "$WORK/build.log" >&2; exit 1; }
  wasm-bindgen --target web --out-dir "$WORK/$1" --out-name app \
    "$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm-release/delaylab-app.wasm"
  wasm-opt -Oz "$WORK/$1/app_bg.wasm" -o "$WORK/$1/app.wasm"
  sizes "$1" "$WORK/$1/app.wasm"
}

app app
cut src/app/mod.rs '<panels::ScenarioJson />' '<edit::EditTopology />' '<compare::Compare />' \
  'return view! { <embed::Embed /> }.into_any();'
cut src/app/panels/watch.rs '<crate::app::checked::ScenarioTools open=checked_open />' \
  '<crate::app::share::ShareTools />' '<crate::app::embed::EmbedButton />' \
  '<crate::app::checked::CheckedPanel open=checked_open />'
app no-tools
cut src/app/mod.rs '<panels::Queues />' '<orders::Orders />' '<panels::Lateness />' \
  '<panels::Publish />' '<panels::Consumers />' '<panels::Inspector />' \
  '<strategies::StrategyCompare />' '<panels::Log />' '<share::LinkNotice />'
app first-screen

(cd "$TREE" && wasm-pack --quiet build crates/engine-js --target web --profile wasm-release --no-opt \
  --mode no-install --out-dir "$WORK/pkgz" --out-name e -- --no-default-features)
wasm-opt -Oz "$WORK/pkgz/e_bg.wasm" -o "$WORK/pkgz/e.wasm"
sizes package-z "$WORK/pkgz/e.wasm"
js=$(gzip -9c "$WORK/pkgz/e.js" | wc -c)
echo "package-z JS glue: $js B zlib -9"
