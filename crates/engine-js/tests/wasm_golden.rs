//! The engine's golden-trace test in headless Chromium through wasm-pack
//! (`scripts/test.sh`):
//!
//! ```text
//! wasm-pack test --headless --chrome --mode no-install --chromedriver "$(command -v chromedriver)" \
//!   crates/engine-js --test wasm_golden
//! ```
//!
//! The test is the engine's own `crates/engine/tests/wasm_golden.rs`, as a module read from
//! that file (its `include_str!` paths resolve next to it). It runs from this small crate
//! because `wasm-pack test` compiles every test target of the crate it tests for wasm
//! (`cargo build --tests`), and the engine has some twenty, its property tests among them.
#![cfg(target_arch = "wasm32")]

#[path = "../../engine/tests/wasm_golden.rs"]
mod engine_wasm_golden;
