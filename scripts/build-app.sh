#!/usr/bin/env bash
# Builds the playground's wasm (the delaylab-app binary) split into a start-up module and
# chunks loaded when needed (issue 13 item 5), into OUT_DIR:
#   bash scripts/build-app.sh OUT_DIR [release|serve|debug]
# (serve: Cargo.toml's [profile.serve], what scripts/serve.sh serves: optimised, no LTO,
# no wasm-opt)
# scripts/dist-post.mjs (Trunk's post_build hook) runs it on every trunk build, so
# `trunk build` and `trunk serve` give the split app; it is not Trunk's own Rust pipeline,
# which cannot split: the splitter needs the linker's output, before wasm-bindgen.
#
#   cargo build (wasm32, linked with --emit-relocs: build.rs)
#     -> wasm-split-cli: app.wasm (start-up) + split_NAME.wasm (one per #[wasm_split(NAME)]
#        function, src/app/chunks.rs) + chunk_N.wasm (code two splits share)
#        + __wasm_split.js (fetches and instantiates a chunk on its first call)
#     -> wasm-bindgen --target web: app.js + app_bg.wasm (+ snippets/)
#     -> release: each module's functions ordered for gzip (scripts/wasm-order.mjs), then
#        wasm-opt -O1 --shrink-level=2 on the start-up module and every chunk (see below)
#
# OUT_DIR then holds every file the page loads for the app; all its references are
# relative, so dist-post.mjs can move it to a content-named folder. Tools (scripts/setup.sh
# installs them): node, cargo with the wasm32 target, wasm-split-cli (wasm_split_cli_support
# 0.2.4), wasm-bindgen at Cargo.lock's version, wasm-opt (npm binaryen 132).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:?usage: build-app.sh OUT_DIR [release|serve|debug]}"
MODE="${2:-release}"
export PATH="$ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

case "$MODE" in
  release) PROFILE=wasm-release ;;
  serve) PROFILE=serve ;;
  debug) PROFILE=dev ;;
  *) echo "build-app.sh: mode must be release, serve or debug, not '$MODE'" >&2; exit 2 ;;
esac
for tool in node cargo wasm-split-cli wasm-bindgen wasm-opt; do
  command -v "$tool" >/dev/null || { echo "build-app.sh: $tool not found (run scripts/setup.sh)" >&2; exit 1; }
done

TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
PROFILE_DIR="$PROFILE"
[ "$PROFILE" = dev ] && PROFILE_DIR=debug
LINKED="$TARGET_DIR/wasm32-unknown-unknown/$PROFILE_DIR/delaylab-app.wasm"

if [ "$PROFILE" = wasm-release ]; then
  # With the lazy modules' crates, as scripts/build-js.sh builds them (one invocation: the
  # dependencies compile once; scripts/lib/wasm-release.sh). After build-js.sh, nothing to do.
  . "$ROOT/scripts/lib/wasm-release.sh"
  wasm_release_build
else
  (cd "$ROOT" && cargo build --offline --profile "$PROFILE" --target wasm32-unknown-unknown --bin delaylab-app)
fi

rm -rf "$OUT"
mkdir -p "$OUT"
SPLIT="$(mktemp -d)"
trap 'rm -rf "$SPLIT"' EXIT
# --out-name app: the chunks' loader imports initSync from ./app.js (wasm-bindgen's output).
wasm-split-cli --target web --out-name app "$LINKED" "$SPLIT"
[ -s "$SPLIT/app.wasm" ] || { echo "build-app.sh: the splitter wrote no app.wasm" >&2; exit 1; }
# --keep-lld-exports: the start-up module's exports the chunks import stay.
wasm-bindgen --target web --no-typescript --keep-lld-exports --out-name app --out-dir "$OUT" "$SPLIT/app.wasm"
for f in "$SPLIT"/*.wasm; do
  [ "$(basename "$f")" = app.wasm ] || cp "$f" "$OUT/"
done
cp "$SPLIT/__wasm_split.js" "$OUT/"

if [ "$MODE" = release ]; then
  # The glue, the chunks' loader and the snippets, minified (scripts/minify-js.mjs).
  mapfile -t js < <(find "$OUT" -name '*.js' | sort)
  node "$ROOT/scripts/minify-js.mjs" "${js[@]}"
  . "$ROOT/scripts/lib/wasm-opt-ordered.sh"
  # -O1 --shrink-level=2, not -Oz: rustc has optimized the code for size already (opt-level
  # "z", LTO), and -Oz's further rewriting makes it smaller raw but less alike for gzip.
  # The start-up module (2026-12-07, before the topology's chunk), gzip -9: -Oz 472,510 B
  # (1,244,505 raw), -Os 469,969, -O3 471,642, -O2 468,596, -O1 465,372, -O0 468,676,
  # -O1 --shrink-level=2 463,926 (1,333,910 raw); as dist/ serves it (zopfli) -Oz 452,418,
  # -O1 --shrink-level=2 444,008. The chunks together: 394,194 -> 390,319.
  for f in "$OUT"/*.wasm; do
    wasm_opt_ordered "$f" -O1 --shrink-level=2
  done
fi
for f in "$OUT"/*.wasm; do
  printf 'build-app: %s %s bytes\n' "$(basename "$f")" "$(wc -c < "$f")"
done
