//! Cost modes (`delaylab_engine::costs`): they move times, never what happens or its
//! order; the requeue loop ends in both modes.

mod common;

use common::{deliveries, run};
use delaylab_engine::limits::LimitKind;
use delaylab_engine::report;
use delaylab_engine::scenario::{load_str, load_value};
use delaylab_engine::Sim;
use serde_json::{json, Value};

fn with_costs(mut v: Value, costs: Value) -> Value {
    v["costs"] = costs;
    v
}

fn requeue_loop() -> Value {
    json!({"name": "requeue loop", "until": "10s",
        "topology": {"queues": [{"name": "q"}]},
        "consumers": [{"name": "looper", "queue": "q", "ack": "manual", "outcome": "requeue"}],
        "actions": [{"at": "0s", "publish": {"exchange": "", "routing_key": "q", "body": "m"}}]})
}

fn sim_to_end(v: Value) -> Sim {
    let s = load_value(&v).expect("loads");
    report::run_with(&s, Default::default(), |_, _| {})
}

#[test]
fn ideal_requeue_loop_stops_with_a_named_limit() {
    let sim = sim_to_end(requeue_loop());
    let stop = sim.stopped().expect("stopped by a limit");
    assert_eq!(stop.limit, LimitKind::RequeueLoop);
    assert_eq!(stop.at_ms, 0);
    assert_eq!(stop.consumer.as_deref(), Some("looper"));
    assert!(stop.text.contains("consumer 'looper'"), "{}", stop.text);
    assert!(stop.text.contains("same instant, forever"), "{}", stop.text);
    assert!(stop.text.contains("real broker"), "{}", stop.text);
    let out = run(requeue_loop());
    assert_eq!(out["stopped"]["limit"], "requeue_loop");
    assert_eq!(
        out["final"]["queues"]["q"]["ready"], 1,
        "the message stays queued"
    );
}

#[test]
fn measured_requeue_loop_runs_at_the_brokers_speed_until_until() {
    let v = with_costs(requeue_loop(), json!("measured"));
    let out = run(v.clone());
    assert!(out.get("stopped").is_none(), "{}", out["limit_reached"]);
    assert_eq!(out["stats"]["end_ms"], 10_000);
    let rounds = out["deliveries"].as_array().unwrap().len() as u64;
    // delivery 87 us + round trip 300 us: one round every 387 us.
    assert!(
        (25_000..27_000).contains(&rounds),
        "{rounds} rounds in 10 s"
    );
    let last = deliveries(&out).last().unwrap().1;
    assert!(last >= 9_990, "rounds go on to the end: last at {last}");
    assert!(sim_to_end(v).stopped().is_none());
}

#[test]
fn a_handle_time_is_not_a_loop() {
    let mut v = requeue_loop();
    v["consumers"][0]["handle"] = json!("1ms");
    v["until"] = json!("2s");
    let out = run(v);
    assert!(out.get("stopped").is_none());
    assert_eq!(out["deliveries"].as_array().unwrap().len(), 2001);
}

/// 40,000 overdue messages behind a long head, dead-lettered to a consumed queue.
fn burst_behind_head(n: u64) -> Value {
    json!({"name": "burst", "until": "60s",
        "topology": {
            "exchanges": [{"name": "dlx", "type": "fanout"}],
            "queues": [{"name": "wait", "arguments": {"x-dead-letter-exchange": "dlx"}},
                       {"name": "due"}],
            "bindings": [{"source": "dlx", "destination": "due", "destination_type": "queue"}]},
        "consumers": [{"name": "app", "queue": "due", "ack": "auto"}],
        "actions": [
            {"at": "0s", "publish": {"exchange": "", "routing_key": "wait", "body": "head",
                                     "properties": {"expiration": "10000"}}},
            {"at": "1ms", "publish": {"exchange": "", "routing_key": "wait", "body": "m{n}",
                                      "properties": {"expiration": "1000"}},
             "repeat": {"count": n, "every": "0ms"}}]})
}

#[test]
fn a_burst_takes_time_to_drain_in_the_same_order() {
    let ideal = deliveries(&run(burst_behind_head(40_000)));
    let measured = deliveries(&run(with_costs(
        burst_behind_head(40_000),
        json!("measured"),
    )));
    let order = |d: &[(String, u64, String)]| d.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
    assert_eq!(order(&ideal), order(&measured), "costs only move times");
    assert!(
        ideal.iter().all(|d| d.1 == 10_000),
        "ideal: all at the head's expiry"
    );
    let head = measured[0].1;
    assert!(
        (10_001..10_010).contains(&head),
        "expiry 1-2 ms late: {head}"
    );
    let drain = measured.last().unwrap().1 - head;
    // 40,000 x max(dead-letter 28 us, delivery 87 us) = 3.5 s
    assert!((3_300..3_700).contains(&drain), "drain {drain} ms");
}

#[test]
fn publishes_are_taken_at_the_channels_speed_and_confirmed_then() {
    let v = with_costs(burst_behind_head(10_000), json!({"publish_us": 100}));
    let s = load_value(&v).unwrap();
    let mut last_confirm = 0;
    report::run_with(&s, Default::default(), |e, _| {
        if let delaylab_engine::EventKind::Confirmed { .. } = e.kind {
            last_confirm = e.t_ms;
        }
    });
    // 10,001 publishes at 100 us: the last taken at about 1.0 s.
    assert!((990..1_010).contains(&last_confirm), "{last_confirm}");
}

#[test]
fn quorum_expiry_is_later_than_classic() {
    let late = |kind: &str| {
        let v = json!({"costs": "measured",
            "topology": {"exchanges": [{"name": "dlx", "type": "fanout"}],
                "queues": [{"name": "w", "durable": true, "arguments": {"x-queue-type": kind,
                    "x-dead-letter-exchange": "dlx", "x-message-ttl": 700}}, {"name": "d"}],
                "bindings": [{"source": "dlx", "destination": "d", "destination_type": "queue"}]},
            "consumers": [{"name": "c", "queue": "d", "ack": "auto"}],
            "actions": [{"at": 0, "publish": {"exchange": "", "routing_key": "w", "body": "x"}}]});
        deliveries(&run(v))[0].1 - 700
    };
    assert!(
        (1..=3).contains(&late("classic")),
        "classic {}",
        late("classic")
    );
    assert!(
        (3..=10).contains(&late("quorum")),
        "quorum {}",
        late("quorum")
    );
}

#[test]
fn the_costs_field_loads_saves_and_names_its_errors() {
    let s = load_str(r#"{"costs": "measured"}"#).unwrap();
    assert_eq!(s.costs, delaylab_engine::costs::CostMode::Measured);
    let again = load_value(&delaylab_engine::scenario::save::to_value(&s)).unwrap();
    assert_eq!(again, s);
    let s = load_str(r#"{"costs": {"delivery_us": 50, "source": "calibrated"}}"#).unwrap();
    let again = load_value(&delaylab_engine::scenario::save::to_value(&s)).unwrap();
    assert_eq!(again, s);
    let e = load_str(r#"{"costs": "fast"}"#).unwrap_err();
    assert_eq!(e.path, "costs");
    let e = load_str(r#"{"costs": {"delivery_us": "fast"}}"#).unwrap_err();
    assert_eq!(e.path, "costs.delivery_us");
    let ideal = load_str("{}").unwrap();
    assert!(delaylab_engine::scenario::save::to_value(&ideal)
        .get("costs")
        .is_none());
}

#[test]
fn a_persistent_publish_the_plugin_keeps_costs_the_channel_a_transient_ones_time() {
    // 1,000 persistent publishes, transient 100 us, persistent 300 us, no plugin insert
    // cost: to a queue they take 0.3 s; to the delayed exchange (stored, not written to
    // the message store) 0.1 s.
    let last_confirm = |to_plugin: bool| {
        let (exchange, headers) = if to_plugin {
            ("delayed", json!({"x-delay": 60_000}))
        } else {
            ("", json!({}))
        };
        let v = json!({"name": "persistent", "until": "2s",
            "costs": {"publish_us": 100, "persistent_publish_us": 300,
                      "plugin_insert_us": 0, "plugin_insert_us_per_1k_stored": 0},
            "topology": {
                "exchanges": [{"name": "delayed", "type": "x-delayed-message",
                               "arguments": {"x-delayed-type": "direct"}}],
                "queues": [{"name": "q", "durable": true}],
                "bindings": [{"source": "delayed", "destination": "q",
                              "destination_type": "queue", "routing_key": "q"}]},
            "actions": [{"at": "0ms", "publish": {"exchange": exchange, "routing_key": "q",
                "body": "m{n}", "properties": {"delivery_mode": 2, "headers": headers}},
                "repeat": {"count": 1_000, "every": "0ms"}}]});
        let s = load_value(&v).unwrap();
        let mut last = 0;
        report::run_with(&s, Default::default(), |e, _| {
            if let delaylab_engine::EventKind::Confirmed { .. } = e.kind {
                last = e.t_ms;
            }
        });
        last
    };
    assert!(
        (295..=305).contains(&last_confirm(false)),
        "{}",
        last_confirm(false)
    );
    assert!(
        (95..=105).contains(&last_confirm(true)),
        "{}",
        last_confirm(true)
    );
}
