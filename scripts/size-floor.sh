#!/usr/bin/env bash
# What the playground's first load downloads (issue 13: a working playground in 3.0 s at
# 1.6 Mbps) and what the engine package would weigh at its smallest (issue 15: at most 150
# KB gzipped): builds, in a temporary git worktree of HEAD, the playground's split wasm and
# the engine package with every crate at opt-level "z", and prints each one's size (raw,
# zlib -9, zopfli = what dist/ serves). A measurement, not a test and not in CI (about 7
# minutes the first time, 5 after; its own target dir, target/size-floor/, so the app's
# build outputs are untouched):
#   bash scripts/size-floor.sh
# The variants:
#   app            HEAD as dist/ has it (scripts/build-app.sh: split, wasm-bindgen, wasm-opt
#                  -O1 --shrink-level=2): the start-up module a first load waits for, and its chunks summed
#   package-z      crates/engine-js as build-js.sh's main module, every crate at "z"
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
# The build's npm packages (terser for scripts/minify-js.mjs) are found from the tree.
ln -s "$ROOT/node_modules" "$TREE/node_modules"

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

app() {   # app NAME: builds the worktree's app as dist/ has it and prints its sizes
  bash "$TREE/scripts/build-app.sh" "$WORK/$1" release >"$WORK/build.log" 2>&1 \
    || { cat "$WORK/build.log" >&2; exit 1; }
  sizes "$1" "$WORK/$1/app_bg.wasm"
  cat "$WORK/$1"/split_*.wasm "$WORK/$1"/chunk_*.wasm > "$WORK/$1-chunks.bin"
  echo "$1 chunks: $(ls "$WORK/$1"/split_*.wasm "$WORK/$1"/chunk_*.wasm | wc -l) files (sizes of all of them as one file):"
  sizes "$1-chunks" "$WORK/$1-chunks.bin"
}

app app

(cd "$TREE" && cargo build --offline --lib -p delaylab-engine-js --profile wasm-release \
  --target wasm32-unknown-unknown --no-default-features --quiet)
wasm-bindgen --target web --out-dir "$WORK/pkgz" --out-name e \
  "${CARGO_TARGET_DIR:-$TREE/target}/wasm32-unknown-unknown/wasm-release/delaylab_engine_js.wasm"
wasm-opt -Oz "$WORK/pkgz/e_bg.wasm" -o "$WORK/pkgz/e.wasm"
sizes package-z "$WORK/pkgz/e.wasm"
js=$(gzip -9c "$WORK/pkgz/e.js" | wc -c)
echo "package-z JS glue: $js B zlib -9"
