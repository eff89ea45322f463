# The browser crates a release build compiles in one cargo invocation (sourced by
# scripts/build-app.sh and scripts/build-js.sh; ROOT must be set): the app, the code
# exporter (pkg-export/) and the strategy comparison's panel (pkg-strategies/), in
# Cargo.toml's [profile.wasm-release]. Cargo unifies the dependencies' features over the
# packages of one invocation: built one by one (wasm-pack per crate, then the app), leptos,
# tachys and web-sys compiled twice and the engine three times, each with another feature
# set (a clean CI build, 2026-12-04); built together, once each. Both scripts must name
# the same packages, or the second build compiles them all again: hence this one list.
WASM_RELEASE_PROFILE=wasm-release
WASM_RELEASE_PACKAGES=(delaylab-app delaylab-export-js delaylab-strategies-view)

wasm_release_build() {
  local args=() p
  for p in "${WASM_RELEASE_PACKAGES[@]}"; do args+=(-p "$p"); done
  (cd "$ROOT" && cargo build --offline --profile "$WASM_RELEASE_PROFILE" --target wasm32-unknown-unknown "${args[@]}")
}
