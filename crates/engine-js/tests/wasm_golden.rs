//! The engine's golden-trace test in headless Chromium (`scripts/test.sh`), through the
//! runner wasm-bindgen-cli installs:
//!
//! ```text
//! CHROMEDRIVER="$(command -v chromedriver)" \
//!   CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
//!   cargo test --target wasm32-unknown-unknown -p delaylab-engine-js --test wasm_golden
//! ```
//!
//! The test is the engine's own `crates/engine/tests/wasm_golden.rs`, as a module read from
//! that file (its `include_str!` paths resolve next to it). It runs from this small crate
//! so that only it is compiled for wasm with its tests, not the engine's twenty test
//! targets, its property tests among them.
#![cfg(target_arch = "wasm32")]

#[path = "../../engine/tests/wasm_golden.rs"]
mod engine_wasm_golden;
