//! Faults that lose or delay close messages, and the compensation scan.

mod orders_common;

use delaylab_engine::report;
use orders_common::*;
use serde_json::json;

#[test]
fn lost_node_without_compensation_leaves_orders_unclosed_and_the_scan_closes_them() {
    let lose = json!([{"kind": "lose_node", "at": "20m"}]);
    let without = outcome(&scenario(
        Via::Plugin,
        "conditional_update",
        lose.clone(),
        json!({}),
        1,
    ));
    assert!(n(&without, "never_closed") > 0, "{without}");
    assert_eq!(n(&without, "rows_scanned"), 0);
    let with = outcome(&scenario(
        Via::Plugin,
        "conditional_update",
        lose,
        json!({"compensation": {"every": "5m"}}),
        1,
    ));
    assert_eq!(n(&with, "never_closed"), 0, "{with}");
    assert_eq!(
        n(&with, "closed_by_scan"),
        n(&without, "never_closed"),
        "{without} {with}"
    );
    assert!(n(&with, "rows_scanned") > 0);
    let max = with["close_lateness_ms"]["max"].as_u64().unwrap();
    assert!(
        max > 0 && max <= 300_000,
        "the scan closes within one period: {with}"
    );
}

#[test]
fn a_classic_wait_queue_is_lost_with_the_node_too() {
    // Not only the plugin's store: a classic DLX wait queue's contents go with the node.
    let lose = json!([{"kind": "lose_node", "at": "20m"}]);
    let o = outcome(&scenario(
        Via::QueueTtl,
        "conditional_update",
        lose,
        json!({}),
        2,
    ));
    assert!(n(&o, "never_closed") > 0, "{o}");
}

#[test]
fn lost_in_store_is_confirmed_yet_never_delivered() {
    let v = scenario(
        Via::Plugin,
        "conditional_update",
        json!([{"kind": "lost_in_store", "share": 1.0}]),
        json!({}),
        3,
    );
    let r = report::run(&load(&v));
    assert_eq!(r["deliveries"].as_array().unwrap().len(), 0);
    let o = &r["orders"];
    assert!(n(o, "never_closed") > 0, "{o}");
    assert_eq!(n(o, "faults_injected"), 30);
}

#[test]
fn early_messages_republished_close_on_time_ignored_need_the_scan() {
    let early = json!([{"kind": "early_arrival", "share": 1.0, "by": "10m"}]);
    let rep = outcome(&scenario(
        Via::Expiration,
        "check_state",
        early.clone(),
        json!({"early": "republish"}),
        4,
    ));
    assert_eq!(n(&rep, "closed_early"), 0, "{rep}");
    assert_eq!(n(&rep, "never_closed"), 0, "{rep}");
    assert_eq!(
        rep["close_lateness_ms"]["max"], 400,
        "republished, handled again: {rep}"
    );
    let ign = outcome(&scenario(
        Via::Expiration,
        "check_state",
        early.clone(),
        json!({"early": "ignore"}),
        4,
    ));
    assert!(n(&ign, "never_closed") > 0, "{ign}");
    let scanned = outcome(&scenario(
        Via::Expiration,
        "check_state",
        early.clone(),
        json!({"early": "ignore", "compensation": {"every": "1m"}}),
        4,
    ));
    assert_eq!(n(&scanned, "never_closed"), 0, "{scanned}");
    let naive = outcome(&scenario(Via::Expiration, "naive", early, json!({}), 4));
    assert!(n(&naive, "closed_early") > 0, "naive closes early: {naive}");
}

#[test]
fn consumer_outage_makes_closes_late() {
    let o = outcome(&scenario(
        Via::Plugin,
        "conditional_update",
        json!([{"kind": "consumer_outage", "at": "29m", "for": "15m"}]),
        json!({}),
        5,
    ));
    let max = o["close_lateness_ms"]["max"].as_u64().unwrap();
    assert!(
        max >= 10 * 60_000,
        "closes wait for the consumer to come back at 44:00: {o}"
    );
    assert_eq!(n(&o, "never_closed"), 0);
}

#[test]
fn reminders_skip_orders_no_longer_waiting_unless_naive() {
    let reminder = json!({"reminder": {"publish": {"exchange": "dx", "routing_key": "c", "properties": {"headers": {"x-delay": 600_000}}}}});
    let checked = outcome(&scenario(
        Via::Plugin,
        "check_state",
        json!([]),
        reminder.clone(),
        6,
    ));
    assert!(n(&checked, "reminders_sent") > 0);
    assert_eq!(n(&checked, "reminders_to_paid"), 0, "{checked}");
    let naive = outcome(&scenario(Via::Plugin, "naive", json!([]), reminder, 6));
    assert_eq!(n(&naive, "reminders_sent"), 30);
    assert!(n(&naive, "reminders_to_paid") > 0, "{naive}");
}
