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
    preset!("consumer-timeout-4-3-7"),
    preset!("coupon-expiry-24h"),
    preset!("dead-letter-cycle"),
    preset!("expiration-zero"),
    preset!("field-consumer-timeout"),
    preset!("field-consumer-timeout-fix"),
    preset!("field-default-delivery-limit"),
    preset!("field-default-delivery-limit-fix"),
    preset!("field-head-of-line"),
    preset!("field-head-of-line-fix"),
    preset!("field-nack-multiple"),
    preset!("field-nack-multiple-fix"),
    preset!("field-plugin-delay-limit"),
    preset!("field-plugin-delay-limit-fix"),
    preset!("field-plugin-mandatory"),
    preset!("field-plugin-mandatory-fix"),
    preset!("field-plugin-single-node"),
    preset!("field-plugin-single-node-fix"),
    preset!("field-quorum-delay-queue-expires"),
    preset!("field-quorum-delay-queue-expires-fix"),
    preset!("field-quorum-dlq-reject-publish"),
    preset!("field-quorum-dlq-reject-publish-fix"),
    preset!("field-x-death-republish"),
    preset!("field-x-death-republish-fix"),
    preset!("fix-delayed-plugin"),
    preset!("fix-one-queue-per-ttl"),
    preset!("head-of-line-blocking"),
    preset!("max-length-drop-head-dlq"),
    preset!("off-plugin-1-plugin-4-2"),
    preset!("off-plugin-2-wait-queues-4-3"),
    preset!("off-plugin-3-delivery-time-4-4"),
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

/// Gives the page back to the browser until a 0 ms timer fires: chromedriver drops a
/// renderer that answers nothing for 30 s, and the whole list in one call took 18.6-28 s
/// alone, over 30 s on a busy machine (test.sh failed so twice, 2026-12-07 and -08). Now
/// the longest silence is one run of one preset (the 200,000-order ones: about 7 s).
async fn yield_to_browser() {
    let timer = js_sys::Promise::new(&mut |resolve, _| {
        let global = js_sys::global();
        let set_timeout =
            js_sys::Reflect::get(&global, &"setTimeout".into()).expect("the page has setTimeout");
        let set_timeout: &js_sys::Function = wasm_bindgen::JsCast::unchecked_ref(&set_timeout);
        set_timeout
            .call2(&global, &resolve, &0.into())
            .expect("setTimeout takes a function");
    });
    wasm_bindgen_futures::JsFuture::from(timer)
        .await
        .expect("a timer resolves");
}

#[wasm_bindgen_test]
async fn every_preset_gives_the_native_golden_output() {
    let mut failures = Vec::new();
    for (stem, source, result_golden, trace_golden) in PRESETS {
        let started_ms = js_sys::Date::now();
        let scenario = load_str(source).unwrap_or_else(|e| panic!("{stem}: {e}"));
        if golden::result_golden(&report::run(&scenario)) != *result_golden {
            failures.push(format!(
                "{stem}: result differs from the native golden file"
            ));
        }
        // The 200,000-order presets take 13-14 s each here (both runs): one between.
        yield_to_browser().await;
        if golden::trace_golden(&scenario).0 != *trace_golden {
            failures.push(format!("{stem}: trace differs from the native golden file"));
        }
        console_log!("{stem}: {:.0} ms", js_sys::Date::now() - started_ms);
        yield_to_browser().await;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
