//! Each consumer policy under each share fault: what it gets wrong and what it does not.

mod orders_common;

use orders_common::*;
use serde_json::json;

fn run(via: Via, policy: &str, faults: serde_json::Value, seed: u64) -> serde_json::Value {
    outcome(&scenario(via, policy, faults, json!({}), seed))
}

#[test]
fn safe_policies_never_close_a_paid_order_nor_release_stock_twice() {
    let all = json!([{"kind": "duplicate_delivery", "share": 0.5}, {"kind": "pay_race", "share": 0.5},
                     {"kind": "crash_before_ack", "share": 0.3}, {"kind": "early_arrival", "share": 0.3, "by": "5m"}]);
    for via in [Via::Expiration, Via::Plugin] {
        for policy in ["conditional_update", "idempotent"] {
            for seed in 1..6 {
                let o = run(via, policy, all.clone(), seed);
                assert_eq!(n(&o, "paid_closed"), 0, "{via:?} {policy} seed {seed}: {o}");
                assert_eq!(
                    n(&o, "stock_double_released"),
                    0,
                    "{via:?} {policy} seed {seed}: {o}"
                );
                assert_eq!(
                    n(&o, "never_closed"),
                    0,
                    "{via:?} {policy} seed {seed}: {o}"
                );
                assert_eq!(
                    n(&o, "closed_early"),
                    0,
                    "{via:?} {policy} seed {seed}: {o}"
                );
            }
        }
    }
}

#[test]
fn naive_closes_paid_orders_without_any_fault() {
    let o = run(Via::QueueTtl, "naive", json!([]), 3);
    assert!(n(&o, "paid_closed") > 0, "{o}");
    // Every accepted payment's order got its close message later: all of them closed.
    assert_eq!(n(&o, "paid_closed"), n(&o, "paid"), "{o}");
    // Canceled orders were released on cancel, then again on close.
    assert_eq!(n(&o, "stock_double_released"), n(&o, "canceled"), "{o}");
}

#[test]
fn naive_releases_stock_twice_under_duplicates() {
    let clean = run(Via::Plugin, "naive", json!([]), 4);
    let dup = run(
        Via::Plugin,
        "naive",
        json!([{"kind": "duplicate_delivery", "share": 1.0}]),
        4,
    );
    assert!(
        n(&dup, "stock_double_released") >= 30,
        "every order closed twice: {dup}"
    );
    assert!(
        n(&dup, "stock_double_released") > n(&clean, "stock_double_released"),
        "{clean} vs {dup}"
    );
}

#[test]
fn check_state_is_fooled_by_the_pay_race_and_by_concurrent_duplicates() {
    let dup = json!([{"kind": "duplicate_delivery", "share": 1.0}]);
    // Both copies are delivered together (prefetch 5): both reads say WAITING_PAY.
    let together = run(Via::Plugin, "check_state", dup.clone(), 5);
    assert!(n(&together, "stock_double_released") > 0, "{together}");
    // One at a time (prefetch 1): the second read sees CLOSED.
    let mut v = scenario(Via::Plugin, "check_state", dup, json!({}), 5);
    v["consumers"][0]["prefetch"] = json!(1);
    let one_by_one = outcome(&v);
    assert_eq!(n(&one_by_one, "stock_double_released"), 0, "{one_by_one}");
    let raced = run(
        Via::Plugin,
        "check_state",
        json!([{"kind": "pay_race", "share": 1.0}]),
        5,
    );
    assert!(
        n(&raced, "paid_closed") > 0,
        "a payment between read and update: {raced}"
    );
    let safe = run(
        Via::Plugin,
        "conditional_update",
        json!([{"kind": "pay_race", "share": 1.0}]),
        5,
    );
    assert_eq!(n(&safe, "paid_closed"), 0, "{safe}");
}

#[test]
fn naive_is_fooled_by_the_pay_race() {
    let o = run(
        Via::Expiration,
        "naive",
        json!([{"kind": "pay_race", "share": 1.0}]),
        6,
    );
    assert!(n(&o, "paid_closed") >= 20, "{o}");
}

#[test]
fn crash_before_ack_redelivers_and_naive_releases_twice() {
    let naive = run(
        Via::Plugin,
        "naive",
        json!([{"kind": "crash_before_ack", "share": 0.5}]),
        7,
    );
    assert!(
        n(&naive, "stock_double_released") > n(&naive, "canceled"),
        "{naive}"
    );
    let safe = run(
        Via::Plugin,
        "conditional_update",
        json!([{"kind": "crash_before_ack", "share": 0.5}]),
        7,
    );
    assert_eq!(n(&safe, "stock_double_released"), 0, "{safe}");
}

#[test]
fn idempotent_costs_more_queries_than_conditional_update() {
    let dup = json!([{"kind": "duplicate_delivery", "share": 0.5}]);
    let c = run(Via::Plugin, "conditional_update", dup.clone(), 8);
    let i = run(Via::Plugin, "idempotent", dup, 8);
    assert!(n(&i, "db_queries") > n(&c, "db_queries"), "{c} vs {i}");
    assert_eq!(n(&c, "rows_scanned"), 0);
}

#[test]
fn the_result_names_the_policy_and_its_lateness() {
    for policy in POLICIES {
        let o = run(Via::Plugin, policy, json!([]), 9);
        assert_eq!(o["policy"], policy);
        // Closes happen at the deadline plus the 200 ms handling time.
        assert_eq!(o["close_lateness_ms"]["max"], 200, "{policy}: {o}");
    }
}
