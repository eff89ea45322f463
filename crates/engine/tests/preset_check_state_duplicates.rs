//! The preset `orders-check-state-duplicates`: `check_state` (read the row, then update it
//! without a condition) is not safe against two copies of a close message delivered
//! together.
//!
//! ```text
//! 30:20.000  close-3 and its duplicate (same message_id) expire together, prefetch 5:
//!            both delivered, both read WAITING_PAY
//! 30:20.200  copy 1: UPDATE SET CLOSED, stock released
//! 30:20.400  copy 2: the stale read says WAITING_PAY: UPDATE again, stock released twice
//! ```
//! With prefetch 1 the second copy is delivered (and read) after the first is acked, and
//! `conditional_update` / `idempotent` refuse the second update at any prefetch.

mod orders_common;

use std::collections::BTreeMap;
use std::path::Path;

use delaylab_engine::report;
use orders_common::{load, n, outcome};
use serde_json::{json, Value};

fn preset() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios/orders-check-state-duplicates.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("the preset is JSON")
}

fn with_prefetch(mut v: Value, prefetch: u64) -> Value {
    v["consumers"][0]["prefetch"] = json!(prefetch);
    v
}

fn with_policy(mut v: Value, policy: &str) -> Value {
    v["orders"]["policy"] = json!(policy);
    v
}

#[test]
fn the_preset_is_check_state_at_prefetch_5_with_duplicates() {
    let v = preset();
    assert_eq!(v["orders"]["policy"], "check_state");
    assert_eq!(v["consumers"][0]["prefetch"], 5);
    assert_eq!(v["faults"][0]["kind"], "duplicate_delivery");
}

#[test]
fn as_is_duplicates_delivered_together_release_stock_twice() {
    let o = outcome(&preset());
    assert_eq!(o["policy"], "check_state");
    assert!(n(&o, "stock_double_released") > 0, "{o}");
    assert_eq!(n(&o, "stock_double_released"), 5, "{o}");
    assert_eq!(n(&o, "paid_closed"), 0, "nobody pays after 29:59: {o}");
    assert_eq!(n(&o, "faults_injected"), 7, "{o}");
    assert_eq!(n(&o, "created"), 36, "{o}");
    assert_eq!(n(&o, "paid"), 17, "{o}");
    assert_eq!(n(&o, "canceled"), 2, "{o}");
    assert_eq!(n(&o, "closed"), 17, "{o}");
    assert_eq!(n(&o, "never_closed"), 0, "{o}");

    // The race: both copies of each duplicated message are delivered at the same instant.
    let r = report::run(&load(&preset()));
    let mut at: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    for d in r["deliveries"].as_array().unwrap() {
        at.entry(d["body"].as_str().unwrap().to_string())
            .or_default()
            .push(d["delivered_at_ms"].as_u64().unwrap());
    }
    let twice: Vec<_> = at.iter().filter(|(_, t)| t.len() == 2).collect();
    assert_eq!(twice.len(), 7, "{at:?}");
    assert!(
        twice.iter().all(|(_, t)| t[0] == t[1]),
        "duplicates delivered together: {twice:?}"
    );
}

#[test]
fn prefetch_1_reads_the_second_copy_after_the_first_update() {
    let o = outcome(&with_prefetch(preset(), 1));
    assert_eq!(n(&o, "faults_injected"), 7, "the same duplicates: {o}");
    assert_eq!(n(&o, "stock_double_released"), 0, "{o}");
    assert_eq!(n(&o, "paid_closed"), 0, "{o}");
    assert_eq!(n(&o, "closed"), 17, "{o}");
}

#[test]
fn conditional_update_and_idempotent_are_safe_at_prefetch_5() {
    for policy in ["conditional_update", "idempotent"] {
        let o = outcome(&with_policy(preset(), policy));
        assert_eq!(o["policy"], policy);
        assert_eq!(
            n(&o, "faults_injected"),
            7,
            "{policy}: the same duplicates: {o}"
        );
        assert_eq!(n(&o, "stock_double_released"), 0, "{policy}: {o}");
        assert_eq!(n(&o, "paid_closed"), 0, "{policy}: {o}");
        assert_eq!(n(&o, "closed"), 17, "{policy}: {o}");
        assert_eq!(n(&o, "never_closed"), 0, "{policy}: {o}");
    }
}
