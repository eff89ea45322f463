//! D21 of rabbitmq-versions.md, the consumer acknowledgement timeout, at its version
//! boundary (the last version with the channel-wide rule, 4.2, and the first without,
//! 4.3), plus 3.10's own timeline (a scenario without `broker`) and the
//! `consumer_timeout` setting. Rule and timeline: `sim/ack_timeout.rs`.

mod common;

use common::*;
use delaylab_engine::limits::Limits;
use delaylab_engine::scenario::load_value;
use delaylab_engine::version::{BrokerVersion, BrokerVersion::*};
use delaylab_engine::{report, EventKind};
use serde_json::{json, Value};

const CLOSE_TEXT: &str = "PRECONDITION_FAILED - delivery acknowledgement on channel 1 timed out. \
                          Timeout value used: 1800000 ms. This timeout value can be configured, \
                          see consumers doc guide to learn more";
const THIRTY_MIN_MS: u64 = 1_800_000;
const ONE_TICK_MS: u64 = 60_000;

/// `slow` holds each delivery 40 minutes (prefetch 1); `spare` subscribes at 35:00 and
/// acks at once. One message `m` at 0.
fn slow_consumer(queue_args: Value) -> Value {
    json!({
        "topology": {"queues": [{"name": "q", "arguments": queue_args}]},
        "consumers": [
            {"name": "slow", "queue": "q", "ack": "manual", "prefetch": 1, "handle": "40m", "outcome": "ack"},
            {"name": "spare", "queue": "q", "ack": "manual", "prefetch": 1, "handle": 0, "outcome": "ack", "from": "35m"}
        ],
        "actions": [publish("0s", "", "q", "m", json!({}))]
    })
}

fn on(v: Option<BrokerVersion>, mut scenario: Value) -> Value {
    if let Some(v) = v {
        scenario["broker"] = json!(v.as_str());
    }
    run(scenario)
}

/// (t_ms, channel_closed, text) of every consumer_timeout event.
fn timeouts(scenario: Value) -> Vec<(u64, bool, String)> {
    let s = load_value(&scenario).unwrap_or_else(|e| panic!("{e}"));
    let mut out = Vec::new();
    report::run_with(&s, Limits::default(), |e, _| {
        if let EventKind::ConsumerTimedOut {
            channel_closed,
            text,
            ..
        } = &e.kind
        {
            out.push((e.t_ms, *channel_closed, text.to_string()));
        }
    });
    out
}

/// (consumer, delivered_at_ms, redelivered) of every delivery.
fn who_got_it(out: &Value) -> Vec<(String, u64, bool)> {
    out["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["consumer"].as_str().unwrap_or("").to_string(),
                d["delivered_at_ms"].as_u64().unwrap(),
                d["redelivered"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[test]
fn d21_3_10_closes_the_channel_at_the_first_tick_after_30_minutes() {
    let out = on(None, slow_consumer(json!({})));
    let closed_at = THIRTY_MIN_MS + ONE_TICK_MS;
    assert_eq!(errors(&out), vec![(406, CLOSE_TEXT.to_string())]);
    assert_eq!(out["errors"][0]["at_ms"], closed_at);
    assert_eq!(out["errors"][0]["scope"], "channel");
    // Requeued at 31:00, nobody consumes until spare comes at 35:00: redelivered.
    assert_eq!(
        who_got_it(&out),
        vec![
            ("slow".into(), 0, false),
            ("spare".into(), 35 * ONE_TICK_MS, true)
        ]
    );
    let t = timeouts(slow_consumer(json!({})));
    assert_eq!(t.len(), 1);
    assert_eq!((t[0].0, t[0].1), (closed_at, true));
    assert!(
        t[0].2.contains("held message #1 from q unacked for 31m"),
        "{}",
        t[0].2
    );
    assert!(t[0].2.contains("closed its channel with 406"), "{}", t[0].2);
}

#[test]
fn d21_classic_4_2_channel_closed_4_3_never_times_out() {
    let out = on(Some(V4_2), slow_consumer(json!({})));
    assert_eq!(errors(&out), vec![(406, CLOSE_TEXT.to_string())]);
    assert_eq!(out["errors"][0]["at_ms"], THIRTY_MIN_MS + ONE_TICK_MS);
    let out = on(Some(V4_3), slow_consumer(json!({})));
    assert!(
        errors(&out).is_empty(),
        "4.3: classic queues never time out"
    );
    assert_eq!(who_got_it(&out), vec![("slow".into(), 0, false)]);
    assert_eq!(out["stats"]["end_ms"], 40 * ONE_TICK_MS, "acked at 40:00");
    let mut s = slow_consumer(json!({}));
    s["broker"] = json!("4.3");
    assert!(timeouts(s).is_empty());
}

#[test]
fn d21_quorum_4_2_channel_closed_at_the_tick_4_3_returned_exactly_and_cancelled() {
    let quorum = json!({"x-queue-type": "quorum"});
    let out = on(Some(V4_2), slow_consumer(quorum.clone()));
    assert_eq!(errors(&out), vec![(406, CLOSE_TEXT.to_string())]);
    assert_eq!(out["errors"][0]["at_ms"], THIRTY_MIN_MS + ONE_TICK_MS);
    let out = on(Some(V4_3), slow_consumer(quorum.clone()));
    assert!(
        errors(&out).is_empty(),
        "4.3: basic.cancel, no channel close"
    );
    assert_eq!(
        who_got_it(&out),
        vec![
            ("slow".into(), 0, false),
            ("spare".into(), 35 * ONE_TICK_MS, true)
        ]
    );
    // A return, not a failed delivery: x-acquired-count 1, no x-delivery-count.
    let again = &out["deliveries"][1]["headers"];
    assert_eq!(again["x-acquired-count"], 1);
    assert!(again.get("x-delivery-count").is_none(), "{again}");
    let mut s = slow_consumer(quorum);
    s["broker"] = json!("4.3");
    let t = timeouts(s);
    assert_eq!(t.len(), 1);
    assert_eq!((t[0].0, t[0].1), (THIRTY_MIN_MS, false));
    assert!(
        t[0].2.contains("cancels the consumer (basic.cancel)"),
        "{}",
        t[0].2
    );
}

#[test]
fn d21_4_3_cancelled_consumer_keeps_what_it_holds_and_gets_nothing_new() {
    // slow (prefetch 2) holds m1 from 0 and m2 from 10:00; m1 times out at 30:00 and
    // goes back; slow is cancelled, so spare (from 35:00) gets m1 and m3; m2 stays
    // with slow until its own deadline at 40:00 (its handle, 40m, ends at 50:00).
    let s = json!({
        "broker": "4.3",
        "topology": {"queues": [{"name": "q", "arguments": {"x-queue-type": "quorum"}}]},
        "consumers": [
            {"name": "slow", "queue": "q", "ack": "manual", "prefetch": 2, "handle": "40m", "outcome": "ack"},
            {"name": "spare", "queue": "q", "ack": "manual", "prefetch": 0, "handle": 0, "outcome": "ack", "from": "35m"}
        ],
        "actions": [publish("0s", "", "q", "m1", json!({})), publish("10m", "", "q", "m2", json!({})),
                    publish("31m", "", "q", "m3", json!({}))]
    });
    let out = run(s.clone());
    let got: Vec<(String, String, u64)> = out["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["body"].as_str().unwrap().into(),
                d["consumer"].as_str().unwrap().into(),
                d["delivered_at_ms"].as_u64().unwrap(),
            )
        })
        .collect();
    let min = ONE_TICK_MS;
    assert_eq!(
        got,
        vec![
            ("m1".into(), "slow".into(), 0),
            ("m2".into(), "slow".into(), 10 * min),
            ("m1".into(), "spare".into(), 35 * min),
            ("m3".into(), "spare".into(), 35 * min),
            ("m2".into(), "spare".into(), 40 * min),
        ]
    );
    let t: Vec<u64> = timeouts(s).iter().map(|t| t.0).collect();
    assert_eq!(t, vec![30 * min, 40 * min]);
}

#[test]
fn d21_3_10_tick_started_by_the_first_delivery_held() {
    // m1 at 0:00 starts the tick (1:00, 2:00, ...); m2 at 0:05 joins it. Each is held
    // 30m58s: m1 is acked at 30:58, before the tick at 31:00; m2 (30 min old at 30:05)
    // is still held at 31:00, so that tick closes the channel.
    let s = json!({
        "topology": {"queues": [{"name": "q"}]},
        "consumers": [{"name": "c", "queue": "q", "ack": "manual", "prefetch": 2, "handle": 1_858_000, "outcome": "ack"}],
        "actions": [publish("0s", "", "q", "m1", json!({})), publish("5s", "", "q", "m2", json!({}))]
    });
    let out = run(s);
    assert_eq!(out["errors"][0]["at_ms"], THIRTY_MIN_MS + ONE_TICK_MS);
    assert_eq!(
        out["final"]["queues"]["q"]["ready"], 1,
        "m2 back in the queue"
    );
}

/// One consumer attached at 0 with a 3 s timeout; `m` published at `at`.
fn short_timeout(at: &str) -> Value {
    json!({
        "consumer_timeout": "3s",
        "topology": {"queues": [{"name": "q"}]},
        "consumers": [{"name": "c", "queue": "q", "ack": "manual", "prefetch": 1, "handle": "100s", "outcome": "ack"}],
        "actions": [publish(at, "", "q", "m", json!({}))]
    })
}

#[test]
fn d21_the_tick_starts_with_the_channel() {
    // Live 3.10.8 and 4.0.5 (tests/conformance/v21-consumer-timeout.json): delivered 200 ms
    // after the channel opened, the message times out on the channel's first tick, 60 s
    // after it opened, not 60 s after the delivery.
    for v in [None, Some(V4_0), Some(V4_2)] {
        let out = on(v, short_timeout("200ms"));
        assert_eq!(out["errors"][0]["at_ms"], ONE_TICK_MS, "{v:?}");
    }
}

#[test]
fn d21_a_channel_idle_past_hibernation_starts_its_tick_again() {
    // Nothing held for 5 s: the channel hibernated and cancelled its tick; the delivery
    // at 5 s wakes it and starts a new one, which closes it at 1:05.
    let out = run(short_timeout("5s"));
    assert_eq!(out["errors"][0]["at_ms"], 5_000 + ONE_TICK_MS);
}

#[test]
fn d21_held_exactly_the_timeout_is_on_time() {
    let s = |v: &str, args: Value| {
        json!({
            "broker": v,
            "topology": {"queues": [{"name": "q", "arguments": args}]},
            "consumers": [{"name": "c", "queue": "q", "ack": "manual", "prefetch": 1, "handle": "30m", "outcome": "ack"}],
            "actions": [publish("0s", "", "q", "m", json!({}))]
        })
    };
    for (v, args) in [
        ("3.10", json!({})),
        ("4.2", json!({})),
        ("4.3", json!({"x-queue-type": "quorum"})),
    ] {
        let out = run(s(v, args));
        assert!(errors(&out).is_empty(), "{v}");
        assert_eq!(out["stats"]["end_ms"], THIRTY_MIN_MS, "{v}: acked at 30:00");
    }
}

#[test]
fn d21_consumer_timeout_setting_shortens_or_turns_it_off() {
    let mut s = slow_consumer(json!({}));
    s["consumer_timeout"] = json!("1m");
    let out = run(s.clone());
    assert_eq!(out["errors"][0]["at_ms"], 2 * ONE_TICK_MS);
    assert!(out["errors"][0]["text"]
        .as_str()
        .unwrap()
        .contains("Timeout value used: 60000 ms."));
    s["consumer_timeout"] = json!(false);
    let out = run(s);
    assert!(errors(&out).is_empty());
    assert_eq!(out["stats"]["end_ms"], 40 * ONE_TICK_MS);
}

#[test]
fn d21_auto_ack_never_times_out() {
    let s = json!({
        "topology": {"queues": [{"name": "q"}]},
        "consumers": [{"name": "c", "queue": "q", "ack": "auto", "handle": "1h"}],
        "actions": [publish("0s", "", "q", "m", json!({}))]
    });
    assert!(errors(&run(s)).is_empty());
}
