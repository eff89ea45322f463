#!/usr/bin/env bash
# Builds the engine as a JavaScript package into pkg/ (npm name `delaylab-engine`), the
# code exporter into pkg-export/ (the playground's Export code menu loads it when opened)
# and the strategy comparison's panel into pkg-strategies/ (loaded when it comes near):
#   bash scripts/build-js.sh [--serve]
# Each module: cargo builds the crate's cdylib for wasm32, wasm-bindgen-cli (Cargo.lock's
# version, on PATH: scripts/setup.sh) writes the JS glue, the wasm and TypeScript types
# (what `wasm-pack build --target web` does, without wasm-pack to install: its release
# took 1 min 41 s to compile on a bare machine, and it ran cargo once per crate, which
# compiled the shared dependencies again for each: scripts/lib/wasm-release.sh), then
# wasm-opt (npm binaryen 132, node_modules/.bin; checked below: Debian's wasm-opt 108
# breaks the module):
#   pkg/          crates/engine-js without compare(), [profile.pkg-release] (LTO), -O3
#   pkg/compare/  crates/engine-js with compare(), release, -O3
#   pkg-export/ and pkg-strategies/: crates/export-js and crates/strategies-view,
#                 [profile.wasm-release] with the app (scripts/lib/wasm-release.sh), -Oz
# and the package's package.json and README.
#
# --serve (scripts/serve.sh, in the background once the playground is up): the same
# files, built for this machine rather than for publishing: Cargo.toml's [profile.serve]
# (the profile the app was just built with, so the dependencies are compiled already),
# no wasm-opt. Measured on a bare machine: README, "Run it".
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
WASM_OPT_VERSION="version_132"   # = scripts/setup.sh
. "$ROOT/scripts/lib/wasm-release.sh"
. "$ROOT/scripts/lib/wasm-opt-ordered.sh"

die() { printf -- 'build-js.sh: %s\n' "$*" >&2; exit 1; }
SERVE=0
case "${1:-}" in
  --serve) SERVE=1 ;;
  "") ;;
  *) die "unknown argument: $1 (usage: build-js.sh [--serve])" ;;
esac
command -v wasm-bindgen >/dev/null || die "wasm-bindgen missing: bash scripts/setup.sh --serve"
if [ "$SERVE" = 0 ]; then
  case "$(wasm-opt --version 2>/dev/null || true)" in
    *"($WASM_OPT_VERSION)"*) ;;
    *) die "the first wasm-opt on PATH is not binaryen $WASM_OPT_VERSION ($(command -v wasm-opt || echo none)): run bash scripts/setup.sh" ;;
  esac
fi
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

# The crate's package name as cargo names its wasm (delaylab-engine-js -> delaylab_engine_js).
lib_name() { awk -F'"' '/^name = / { gsub(/-/, "_", $2); print $2; exit }' "$1/Cargo.toml"; }
# wasm-bindgen --target web of PROFILE's build of CRATE_DIR into OUT_DIR as OUT_NAME, then
# (not --serve) its functions ordered for gzip and wasm-opt with FLAG.
bindgen() {   # bindgen CRATE_DIR PROFILE OUT_DIR OUT_NAME WASM_OPT_FLAG
  local crate="$1" profile="$2" out="$3" name="$4" flag="$5"
  mkdir -p "$ROOT/$out"
  wasm-bindgen --target web --out-dir "$ROOT/$out" --out-name "$name" \
    "$TARGET_DIR/wasm32-unknown-unknown/$profile/$(lib_name "$crate").wasm"
  [ "$SERVE" = 1 ] || wasm_opt_ordered "$out/${name}_bg.wasm" "$flag"
}

# The engine's package (crates/engine-js), once per module: PROFILE, cargo's feature flags.
pkg_build() {   # pkg_build PROFILE OUT_DIR OUT_NAME CARGO_ARGS...
  local profile="$1" out="$2" name="$3"; shift 3
  [ "$SERVE" = 0 ] || profile=serve
  cargo build --offline --lib -p delaylab-engine-js --profile "$profile" --target wasm32-unknown-unknown "$@"
  bindgen crates/engine-js "$profile" "$out" "$name" -O3
  # What wasm-pack wrote beside: the crate's README and a package.json (rewritten below).
  cp crates/engine-js/README.md "$out/README.md"
  printf '{"version": "%s", "license": "MIT", "module": "%s.js", "types": "%s.d.ts", "files": ["%s_bg.wasm", "%s.js", "%s.d.ts"], "sideEffects": ["./snippets/*"]}\n' \
    "$(awk -F'"' '/^version = / { print $2; exit }' crates/engine-js/Cargo.toml)" "$name" "$name" "$name" "$name" "$name" >"$out/package.json"
}
rm -rf pkg
# The main module, what a training page downloads: everything but compare(), with the
# package's size profile (Cargo.toml [profile.pkg-release]: the engine at opt-level 3,
# every other crate at "z").
pkg_build pkg-release pkg delaylab_engine --no-default-features
# compare() (the delay strategies: 46 KB gzipped more) as a second module, pkg/compare/,
# which the main module's compare() imports on its first call (appended below). It runs
# 1,000,000-task workloads, so it is built for speed: all at opt-level 3 (release), the
# build the 1M-message ratios were first measured on.
pkg_build release pkg/compare delaylab_compare --features compare
rm -f pkg/compare/package.json pkg/compare/README.md pkg/compare/delaylab_compare.d.ts \
  pkg/compare/delaylab_compare_bg.wasm.d.ts
cat >>pkg/delaylab_engine.js <<'JS'

let compareModule;
/**
 * Every selected delay strategy on one workload file (`delaylab compare`'s format):
 * `result` as `delaylab compare --format json` prints it, `wall_ms` each strategy's wall
 * time. Asynchronous: the strategies are a second wasm module (compare/), fetched and
 * started on the first call, so pages that never compare never download them.
 * @param {string} workload_text
 * @param {CompareOptions | undefined} [options]
 * @returns {Promise<Compared>}
 */
export async function compare(workload_text, options) {
  compareModule ??= import('./compare/delaylab_compare.js').then(async (m) => {
    await m.default();
    return m;
  });
  return (await compareModule).compare(workload_text, options);
}
JS
cat >>pkg/delaylab_engine.d.ts <<'TS'

/**
 * Every selected delay strategy on one workload file (`delaylab compare`'s format):
 * `result` as `delaylab compare --format json` prints it, `wall_ms` each strategy's wall
 * time. The strategies are a second wasm module (`compare/`), fetched on the first call.
 */
export function compare(workload_text: string, options?: CompareOptions): Promise<Compared>;
TS

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
  files: [...new Set([...(p.files || []), 'README.md', 'compare/'])],
  sideEffects: p.sideEffects || ['./snippets/*'],
};
fs.writeFileSync(file, JSON.stringify(out, null, 2) + '\n');
JS
[ -s pkg/delaylab_engine_bg.wasm ] && [ -s pkg/delaylab_engine.js ] && [ -s pkg/delaylab_engine.d.ts ] \
  && [ -s pkg/README.md ] && [ -s pkg/compare/delaylab_compare_bg.wasm ] \
  && [ -s pkg/compare/delaylab_compare.js ] || die "pkg/ is incomplete: $(ls pkg pkg/compare)"
# The modules the playground imports when first needed (src/app/lazy_module.rs), each with
# the app's size profile (opt-level "z", Cargo.toml [profile.wasm-release]); trunk copies
# them into dist/ as it does pkg/ (index.html).
lazy_build() {   # lazy_build CRATE_DIR OUT_DIR OUT_NAME
  local crate="$1" out="$2" name="$3"
  rm -rf "$out"
  if [ "$SERVE" = 1 ]; then
    (cd "$crate" && cargo build --offline --lib --profile serve --target wasm32-unknown-unknown)
    bindgen "$crate" serve "$out" "$name" -Oz
  else
    wasm_release_build   # every crate of the list at once; the second call finds them built
    bindgen "$crate" "$WASM_RELEASE_PROFILE" "$out" "$name" -Oz
  fi
  [ -s "$out/${name}_bg.wasm" ] && [ -s "$out/$name.js" ] || die "$out/ is incomplete: $(ls "$out")"
}
# The code exporter (crates/export-js) as pkg-export/, imported when the "Export code" menu
# opens, so the generators stay out of the app's wasm. "z": measured 296 KB gzipped instead
# of 389 KB with --release (opt-level 3); an export takes milliseconds.
lazy_build crates/export-js pkg-export delaylab_export
# The strategy comparison's panel (crates/strategies-view, Leptos) as pkg-strategies/,
# imported when the panel comes near the screen (src/app/strategies.rs), so a first load
# does not wait for it. "z", as when it was part of the app's wasm: the same speed of its
# slices.
lazy_build crates/strategies-view pkg-strategies delaylab_strategies_view
python3 - <<'PY'
import gzip
for f in ("pkg/delaylab_engine_bg.wasm", "pkg/delaylab_engine.js",
          "pkg/compare/delaylab_compare_bg.wasm", "pkg/compare/delaylab_compare.js",
          "pkg-export/delaylab_export_bg.wasm", "pkg-export/delaylab_export.js",
          "pkg-strategies/delaylab_strategies_view_bg.wasm", "pkg-strategies/delaylab_strategies_view.js"):
    data = open(f, "rb").read()
    print(f"  {f}: {len(data)} bytes, {len(gzip.compress(data, 9))} gzipped")
PY
