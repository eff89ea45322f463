#!/usr/bin/env bash
# Builds the engine as a JavaScript package into pkg/ (npm name `delaylab-engine`), and the
# code exporter into pkg-export/ (the playground's Export code menu loads it when opened):
#   bash scripts/build-js.sh
# = wasm-pack build --target web of crates/engine-js (release: opt-level 3, LTO), then
# wasm-opt (npm binaryen 132, node_modules/.bin), TypeScript types, the crate's README.
# Offline: `--mode no-install` makes wasm-pack use the wasm-bindgen on PATH (it must be
# Cargo.lock's version, which setup.sh installs) or fail, never download one; and
# wasm-pack runs the first wasm-opt on PATH, which is checked below to be binaryen 132
# (Debian's wasm-opt 108 breaks the module). Tools: scripts/setup.sh (+ setup.d/30-wasm-pack.sh).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
WASM_OPT_VERSION="version_132"   # = scripts/setup.sh

die() { printf -- 'build-js.sh: %s\n' "$*" >&2; exit 1; }
command -v wasm-pack >/dev/null || die "wasm-pack missing: bash scripts/setup.sh (setup.d/30-wasm-pack.sh)"
case "$(wasm-opt --version 2>/dev/null || true)" in
  *"($WASM_OPT_VERSION)"*) ;;
  *) die "the first wasm-opt on PATH is not binaryen $WASM_OPT_VERSION ($(command -v wasm-opt || echo none)): run bash scripts/setup.sh" ;;
esac

rm -rf pkg
wasm-pack --quiet build crates/engine-js --target web --release --mode no-install \
  --out-dir "$ROOT/pkg" --out-name delaylab_engine
rm -f pkg/.gitignore   # wasm-pack writes `*`; the root .gitignore keeps pkg/ out of git

# The npm name is the package's, not the crate's (delaylab-engine is the engine crate);
# `module` names the JS entry (wasm-pack --target web writes `main` and `types`).
node - <<'JS'
const fs = require('fs');
const file = 'pkg/package.json';
const p = JSON.parse(fs.readFileSync(file, 'utf8'));
const entry = p.module || p.main || 'delaylab_engine.js';
const out = {
  name: 'delaylab-engine',
  version: p.version,
  description: "delaylab's RabbitMQ delayed-messaging simulator (DLX + TTL, the delayed-message exchange) for the browser",
  license: p.license,
  type: 'module',
  module: entry,
  main: entry,
  types: p.types || 'delaylab_engine.d.ts',
  files: [...new Set([...(p.files || []), 'README.md'])],
  sideEffects: p.sideEffects || ['./snippets/*'],
};
fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
JS
[ -s pkg/delaylab_engine_bg.wasm ] && [ -s pkg/delaylab_engine.js ] && [ -s pkg/delaylab_engine.d.ts ] \
  && [ -s pkg/README.md ] || die "pkg/ is incomplete: $(ls pkg)"
# The code exporter (crates/export-js) as pkg-export/: the playground imports it when its
# "Export code" menu opens, so the generators stay out of the app's wasm (trunk copies it
# into dist/ as it does pkg/: index.html).
rm -rf pkg-export
# The app's size profile (opt-level "z", Cargo.toml [profile.wasm-release]): measured 296 KB
# gzipped instead of 389 KB with --release (opt-level 3); an export takes milliseconds.
wasm-pack --quiet build crates/export-js --target web --profile wasm-release --mode no-install \
  --out-dir "$ROOT/pkg-export" --out-name delaylab_export
rm -f pkg-export/.gitignore pkg-export/package.json pkg-export/README.md
[ -s pkg-export/delaylab_export_bg.wasm ] && [ -s pkg-export/delaylab_export.js ] \
  || die "pkg-export/ is incomplete: $(ls pkg-export)"
python3 - <<'PY'
import gzip
for f in ("pkg/delaylab_engine_bg.wasm", "pkg/delaylab_engine.js",
          "pkg-export/delaylab_export_bg.wasm", "pkg-export/delaylab_export.js"):
    data = open(f, "rb").read()
    print(f"  {f}: {len(data)} bytes, {len(gzip.compress(data, 9))} gzipped")
PY
