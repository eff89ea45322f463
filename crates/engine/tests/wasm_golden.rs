//! The golden-trace test compiled to wasm and run in headless Chromium: every preset's
//! result and trace must be byte-identical to the golden files the native test checks.
//!
//! ```text
//! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
//!   cargo test -p delaylab-engine --target wasm32-unknown-unknown --release --test wasm_golden
//! ```
//! (chromedriver on PATH; `scripts/test.sh` runs it). The preset list is checked against
//! `scenarios/` by the native test `wasm_golden_lists_every_preset` in `presets.rs`.
#![cfg(target_arch = "wasm32")]

use delaylab_engine::report::{self, golden};
use delaylab_engine::scenario::load_str;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

macro_rules! preset {
    ($stem:literal) => {
        (
            $stem,
            include_str!(concat!("../../../scenarios/", $stem, ".json")),
            include_str!(concat!("golden/", $stem, ".result.json")),
            include_str!(concat!("golden/", $stem, ".trace.jsonl")),
        )
    };
}

const PRESETS: &[(&str, &str, &str, &str)] = &[
    preset!("after-plugin-delays-on-4-3"),
    preset!("bad-expiration-values"),
    preset!("coupon-expiry-24h"),
    preset!("dead-letter-cycle"),
    preset!("expiration-zero"),
    preset!("fix-delayed-plugin"),
    preset!("fix-one-queue-per-ttl"),
    preset!("head-of-line-blocking"),
    preset!("max-length-drop-head-dlq"),
    preset!("order-timeout-queue-ttl"),
    preset!("orders-check-state-duplicates"),
    preset!("orders-naive-closes-paid"),
    preset!("orders-plugin-node-lost"),
    preset!("orders-plugin-node-lost-compensated"),
    preset!("orders-reminder-then-close"),
    preset!("orders-safe-consumer-faults"),
    preset!("overflow-reject-publish-vs-drop-head"),
    preset!("plugin-mandatory-late-binding"),
    preset!("plugin-node-lost"),
    preset!("plugin-node-restart"),
    preset!("poison-message-3-10-vs-4-0"),
    preset!("promotion-burst-200k"),
    preset!("promotion-burst-200k-measured"),
    preset!("qq-delivery-time-4-4"),
    preset!("quorum-vs-classic-requeue"),
    preset!("reminder-ladder"),
    preset!("retry-backoff-4-3"),
    preset!("retry-loop-x-death"),
    preset!("upgrade-to-4-3-delayed-orders"),
    preset!("x-death-3-13-republished"),
];

#[wasm_bindgen_test]
fn every_preset_gives_the_native_golden_output() {
    let mut failures = Vec::new();
    for (stem, source, result_golden, trace_golden) in PRESETS {
        let scenario = load_str(source).unwrap_or_else(|e| panic!("{stem}: {e}"));
        if golden::result_golden(&report::run(&scenario)) != *result_golden {
            failures.push(format!(
                "{stem}: result differs from the native golden file"
            ));
        }
        if golden::trace_golden(&scenario).0 != *trace_golden {
            failures.push(format!("{stem}: trace differs from the native golden file"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
