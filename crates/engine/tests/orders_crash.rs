//! `crash_before_ack` as a real crash (the consumer's connection closes: every unacked
//! delivery is requeued, no basic.reject, the consumer subscribes again after its
//! restart time) and `lost_in_store` as a real loss (stored, confirmed, then lost).

mod orders_common;

use delaylab_engine::limits::Limits;
use delaylab_engine::report::{self, trace};
use delaylab_engine::scenario::{load_value, save};
use orders_common::*;
use serde_json::{json, Value};

const DUE_MS: u64 = 1_800_000;
const HANDLE_MS: u64 = 200;

/// 4 orders created at 0, nobody pays: four close messages due together at 30:00 to a
/// consumer with prefetch 3 (m4 waits in the queue). Crashes on every delivery.
fn crashing(via: Via, restart: Option<&str>) -> Value {
    let mut crash = json!({"kind": "crash_before_ack", "share": 1.0});
    if let Some(r) = restart {
        crash["for"] = json!(r);
    }
    let mut v = scenario(
        via,
        "conditional_update",
        json!([crash]),
        json!({"count": 4, "over": 0, "pay": []}),
        1,
    );
    v["orders"].as_object_mut().unwrap().remove("cancel");
    v["consumers"][0]["prefetch"] = json!(3);
    v["until"] = json!("31m");
    v
}

fn events(v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    report::run_with(&load(v), Limits::default(), |e, sim| {
        out.push(trace::event_json(e, sim))
    });
    out
}

fn named<'a>(evs: &'a [Value], name: &str) -> Vec<&'a Value> {
    evs.iter().filter(|e| e["event"] == name).collect()
}

fn at(e: &Value) -> u64 {
    e["t_ms"].as_u64().unwrap()
}

fn msgs(evs: &[&Value]) -> Vec<u64> {
    evs.iter().map(|e| e["msg"].as_u64().unwrap()).collect()
}

/// (msg, tag, redelivered) of the deliveries at `t_ms`.
fn deliveries_at(evs: &[Value], t_ms: u64) -> Vec<(u64, u64, bool)> {
    named(evs, "delivered")
        .into_iter()
        .filter(|e| at(e) == t_ms)
        .map(|e| {
            (
                e["msg"].as_u64().unwrap(),
                e["delivery_tag"].as_u64().unwrap(),
                e["redelivered"] == true,
            )
        })
        .collect()
}

#[test]
fn a_crash_requeues_every_unacked_delivery_in_place_without_a_reject_and_resubscribes_later() {
    let evs = events(&crashing(Via::Plugin, Some("10s")));
    let crash_ms = DUE_MS + HANDLE_MS;
    let back_ms = crash_ms + 10_000;
    assert_eq!(
        deliveries_at(&evs, DUE_MS),
        [(1, 1, false), (2, 2, false), (3, 3, false)]
    );
    assert!(
        named(&evs, "rejected").is_empty(),
        "no client sent a basic.reject"
    );
    // m1's handling ends first: the write, the crash, the channel closes with m1 m2 m3.
    let requeued: Vec<&Value> = named(&evs, "requeued")
        .into_iter()
        .filter(|e| at(e) == crash_ms)
        .collect();
    assert_eq!(msgs(&requeued), [1, 2, 3]);
    let detached = named(&evs, "consumer_detached");
    assert_eq!(detached.iter().map(|e| at(e)).next(), Some(crash_ms));
    assert_eq!(
        named(&evs, "acked").len(),
        0,
        "the handled copy is requeued too, not acked"
    );
    // Only m1's write happened: m2's and m3's reads died with the process.
    assert_eq!(
        named(&evs, "order_closed")
            .iter()
            .filter(|e| at(e) == crash_ms)
            .count(),
        1
    );
    // Gone until the restart, then a new channel: back in original order, tags from 1.
    assert!(named(&evs, "delivered")
        .iter()
        .all(|e| at(e) <= DUE_MS || at(e) >= back_ms));
    let attached: Vec<u64> = named(&evs, "consumer_attached")
        .iter()
        .map(|e| at(e))
        .collect();
    assert_eq!(attached[..2], [0, back_ms]);
    assert_eq!(
        deliveries_at(&evs, back_ms),
        [(1, 1, true), (2, 2, true), (3, 3, true)]
    );
}

#[test]
fn the_restart_time_defaults_to_5_seconds() {
    let evs = events(&crashing(Via::Plugin, None));
    let attached: Vec<u64> = named(&evs, "consumer_attached")
        .iter()
        .map(|e| at(e))
        .collect();
    assert_eq!(attached[1], DUE_MS + HANDLE_MS + 5_000);
}

#[test]
fn quorum_returns_follow_the_delivery_limit() {
    // Quorum, delivery limit 1: the first crash returns m1 m2 m3 to the front (in
    // delivery order, x-delivery-count 1); the second crash is over the limit.
    let mut v = crashing(Via::Plugin, Some("10s"));
    v["topology"]["queues"][0]["arguments"] =
        json!({"x-queue-type": "quorum", "x-delivery-limit": 1});
    let evs = events(&v);
    let back_ms = DUE_MS + HANDLE_MS + 10_000;
    assert_eq!(
        deliveries_at(&evs, back_ms),
        [(1, 1, true), (2, 2, true), (3, 3, true)]
    );
    let redelivered = named(&evs, "delivered")
        .into_iter()
        .find(|e| at(e) == back_ms)
        .unwrap();
    assert_eq!(
        redelivered["headers"]["x-delivery-count"], 1,
        "{redelivered}"
    );
    let second_crash_ms = back_ms + HANDLE_MS;
    let over: Vec<&Value> = named(&evs, "dropped")
        .into_iter()
        .filter(|e| e["reason"] == "delivery_limit" && at(e) == second_crash_ms)
        .collect();
    assert_eq!(
        msgs(&over),
        [1, 2, 3],
        "second crash: returned twice, over the limit of 1"
    );
    assert!(named(&evs, "rejected").is_empty());
}

#[test]
fn a_consumer_stopped_or_still_away_is_not_brought_back_by_the_restart() {
    let crash_ms = DUE_MS + HANDLE_MS;
    // `to` during the restart wait: it stays stopped.
    let mut v = crashing(Via::Plugin, Some("10s"));
    v["consumers"][0]["to"] = json!(crash_ms + 5_000);
    assert_eq!(
        named(&events(&v), "consumer_attached").len(),
        1,
        "only its first attach at 0"
    );
    // An outage that outlasts the restart: back when the outage ends.
    let mut v = crashing(Via::Plugin, Some("10s"));
    v["until"] = json!("35m");
    v["faults"]
        .as_array_mut()
        .unwrap()
        .push(json!({"kind": "consumer_outage", "at": crash_ms + 5_000, "for": "1m"}));
    let attached: Vec<u64> = named(&events(&v), "consumer_attached")
        .iter()
        .map(|e| at(e))
        .collect();
    assert_eq!(attached[1], crash_ms + 65_000, "{attached:?}");
    // An outage that ends before the restart: back at the restart, not at the outage end.
    let mut v = crashing(Via::Plugin, Some("2m"));
    v["until"] = json!("35m");
    v["faults"]
        .as_array_mut()
        .unwrap()
        .push(json!({"kind": "consumer_outage", "at": crash_ms + 5_000, "for": "30s"}));
    let attached: Vec<u64> = named(&events(&v), "consumer_attached")
        .iter()
        .map(|e| at(e))
        .collect();
    assert_eq!(attached[1], crash_ms + 120_000, "{attached:?}");
}

#[test]
fn node_loss_or_restart_during_the_restart_wait_does_not_bring_it_back_early() {
    let crash_ms = DUE_MS + HANDLE_MS;
    let mut v = crashing(Via::Plugin, Some("10s"));
    v["faults"]
        .as_array_mut()
        .unwrap()
        .push(json!({"kind": "lose_node", "at": crash_ms + 5_000}));
    let attached: Vec<u64> = named(&events(&v), "consumer_attached")
        .iter()
        .map(|e| at(e))
        .collect();
    assert_eq!(
        attached,
        [0, crash_ms + 10_000],
        "the lost node reconnects only who was attached"
    );
    // The restart falls in a node's downtime: the client gets in when the node is back.
    let mut v = crashing(Via::Plugin, Some("10s"));
    v["actions"] = json!([{"at": crash_ms + 5_000, "restart_node": {"downtime": "20s"}}]);
    let attached: Vec<u64> = named(&events(&v), "consumer_attached")
        .iter()
        .map(|e| at(e))
        .collect();
    assert_eq!(attached[..2], [0, crash_ms + 25_000], "{attached:?}");
}

#[test]
fn a_requeued_copy_taken_by_another_consumer_does_not_carry_the_dead_read() {
    // Two consumers share the queue; only "closer" runs the lab's policy. Its crash
    // requeues m1 and m3; "other" handles them: order 3's read (made by closer before
    // the crash) must not be written then.
    let mut v = crashing(Via::Plugin, Some("10m"));
    v["consumers"].as_array_mut().unwrap().push(json!({"name": "other", "queue": "close", "ack": "manual", "prefetch": 10, "handle": "100ms"}));
    let evs = events(&v);
    assert_eq!(
        msgs(&named(&evs, "order_closed")),
        [1],
        "only the write made before the crash"
    );
    let o = outcome(&v);
    assert_eq!(n(&o, "closed"), 1, "{o}");
    assert_eq!(n(&o, "never_closed"), 3, "{o}");
}

#[test]
fn safe_policies_stay_safe_when_crashes_close_channels_with_many_deliveries_in_flight() {
    let faults = json!([{"kind": "crash_before_ack", "share": 0.4, "for": "20s"}, {"kind": "duplicate_delivery", "share": 0.5},
                        {"kind": "pay_race", "share": 0.3}]);
    for via in VIAS {
        for policy in ["conditional_update", "idempotent"] {
            for seed in 1..5 {
                let mut v = scenario(via, policy, faults.clone(), json!({}), seed);
                v["consumers"][0]["prefetch"] = json!(20);
                let o = outcome(&v);
                assert_eq!(n(&o, "paid_closed"), 0, "{via:?} {policy} {seed}: {o}");
                assert_eq!(
                    n(&o, "stock_double_released"),
                    0,
                    "{via:?} {policy} {seed}: {o}"
                );
                assert_eq!(n(&o, "never_closed"), 0, "{via:?} {policy} {seed}: {o}");
            }
        }
    }
}

#[test]
fn crash_restart_time_loads_saves_and_refuses_nonsense() {
    let mut v = crashing(Via::Plugin, Some("30s"));
    let s = load(&v);
    assert_eq!(s.faults[0].duration_ms, 30_000);
    assert_eq!(load_value(&save::to_value(&s)).unwrap(), s);
    let plain = load(&crashing(Via::Plugin, None));
    assert_eq!(plain.faults[0].duration_ms, 5_000);
    assert!(
        save::to_value(&plain)["faults"][0].get("for").is_none(),
        "the default is not written"
    );
    v["faults"][0]["for"] = json!(0);
    let e = load_value(&v).unwrap_err().to_string();
    assert!(
        e.starts_with("faults[0].for: the crashed consumer's restart time must be more than 0"),
        "{e}"
    );
    v["faults"][0]["for"] = json!("soon");
    let e = load_value(&v).unwrap_err().to_string();
    assert!(e.starts_with("faults[0].for: "), "{e}");
}

#[test]
fn lost_in_store_is_stored_and_confirmed_then_dropped_from_where_it_was() {
    for (via, queue) in [
        (Via::Plugin, Value::Null),
        (Via::Expiration, json!("wait")),
        (Via::QueueTtl, json!("wait")),
    ] {
        let v = scenario(
            via,
            "conditional_update",
            json!([{"kind": "lost_in_store", "share": 1.0}]),
            json!({}),
            3,
        );
        let evs = events(&v);
        let lost = named(&evs, "dropped");
        assert_eq!(lost.len(), 30, "{via:?}");
        for d in &lost {
            assert_eq!(d["reason"], "lost_in_store", "{via:?}: {d}");
            assert_eq!(
                d.get("queue").cloned().unwrap_or(Value::Null),
                queue,
                "{via:?}: {d}"
            );
            // Its story in order, at one millisecond: published, stored, confirmed,
            // the fault, the loss of the very copy that was stored.
            let story: Vec<&Value> = evs.iter().filter(|e| e["msg"] == d["msg"]).collect();
            let names: Vec<&str> = story.iter().map(|e| e["event"].as_str().unwrap()).collect();
            let stored = if queue.is_null() {
                "delayed"
            } else {
                "enqueued"
            };
            assert_eq!(
                names,
                [
                    "published",
                    stored,
                    "confirmed",
                    "fault_injected",
                    "dropped"
                ],
                "{via:?}"
            );
            assert_eq!(story[1]["copy"], d["copy"]);
            assert!(story.iter().all(|e| e["t_ms"] == story[0]["t_ms"]));
        }
        let r = report::run(&load(&v));
        assert_eq!(r["deliveries"].as_array().unwrap().len(), 0);
    }
}

#[test]
fn lost_in_store_takes_only_the_struck_copies_and_the_rest_still_arrive_on_time() {
    let v = scenario(
        Via::Expiration,
        "conditional_update",
        json!([{"kind": "lost_in_store", "share": 0.5}]),
        json!({}),
        4,
    );
    let evs = events(&v);
    let lost = named(&evs, "dropped").len() as u64;
    assert!(lost > 0 && lost < 30, "{lost}");
    let r = report::run(&load(&v));
    assert_eq!(r["deliveries"].as_array().unwrap().len() as u64, 30 - lost);
    let o = &r["orders"];
    assert_eq!(
        o["close_lateness_ms"]["max"], 200,
        "the wait queue's head timers still fire on time: {o}"
    );
}
