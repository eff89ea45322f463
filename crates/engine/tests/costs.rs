//! Cost modes (`delaylab_engine::costs`): they move times, never what happens or its
//! order; the requeue loop ends in both modes.

mod common;

use common::{deliveries, run};
use delaylab_engine::costs::CostProfile;
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
    // delivery 87 us + its nack 23 us + round trip 300 us: one round every 410 us.
    assert!(
        (23_500..25_000).contains(&rounds),
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
    // The timer 1-2 ms late, then the wait queue collects the 40,001 expired before
    // the first goes (`costs::collect`).
    let collect_ms = 40_001 * u64::from(CostProfile::measured().collect_us) / 1_000;
    let head = measured[0].1 - collect_ms;
    assert!(
        (10_001..10_010).contains(&head),
        "expiry 1-2 ms late, then {collect_ms} ms collecting: {}",
        measured[0].1
    );
    let drain = measured.last().unwrap().1 - head;
    // 40,000 x max(dead-letter 28 us, delivery 87 us) = 3.5 s
    assert!((3_300..3_700).contains(&drain), "drain {drain} ms");
}

/// The millisecond the last publish of scenario `v` was confirmed.
fn last_confirm_ms(v: &Value) -> u64 {
    let s = load_value(v).unwrap();
    let mut last = 0;
    report::run_with(&s, Default::default(), |e, _| {
        if let delaylab_engine::EventKind::Confirmed { .. } = e.kind {
            last = e.t_ms;
        }
    });
    last
}

#[test]
fn publishes_are_taken_at_the_channels_speed_and_confirmed_then() {
    let v = with_costs(burst_behind_head(10_000), json!({"publish_us": 100}));
    let last_confirm = last_confirm_ms(&v);
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
        last_confirm_ms(&v)
    };
    let (to_queue, to_plugin) = (last_confirm(false), last_confirm(true));
    assert!((295..=305).contains(&to_queue), "{to_queue}");
    assert!((95..=105).contains(&to_plugin), "{to_plugin}");
}

/// `n` overdue messages behind a head, drained by one consumer on `due` (`queue_type`
/// for both queues) with `consumer` settings; returns the drain (first to last delivery).
fn drain_ms(n: u64, queue_type: &str, consumer: Value, costs: Value) -> u64 {
    let mut v = burst_behind_head(n);
    for q in v["topology"]["queues"].as_array_mut().unwrap() {
        q["durable"] = json!(true);
        if q.get("arguments").is_none() {
            q["arguments"] = json!({});
        }
        q["arguments"]["x-queue-type"] = json!(queue_type);
    }
    let mut c = json!({"name": "app", "queue": "due"});
    for (k, val) in consumer.as_object().unwrap() {
        c[k] = val.clone();
    }
    v["consumers"] = json!([c]);
    let d = deliveries(&run(with_costs(v, costs)));
    assert_eq!(d.len() as u64, n + 1);
    d.last().unwrap().1 - d[0].1
}

#[test]
fn a_consumer_acking_each_delivery_drains_slower_and_prefetch_1_waits_a_round_trip() {
    let costs = json!({"delivery_us": 50, "ack_us": 25, "round_trip_us": 200,
                       "dead_letter_us": 10});
    let drain = |consumer: Value| drain_ms(10_000, "classic", consumer, costs.clone());
    let auto = drain(json!({"ack": "auto"}));
    let each = drain(json!({"ack": "manual", "prefetch": 1000}));
    let one = drain(json!({"ack": "manual", "prefetch": 1}));
    // 10,000 x 50 us, x 75 us, x (75 + 200) us.
    assert!((490..=510).contains(&auto), "auto-ack {auto} ms");
    assert!((740..=760).contains(&each), "acking each {each} ms");
    assert!((2_700..=2_800).contains(&one), "prefetch 1 {one} ms");
}

#[test]
fn a_quorum_queue_has_its_own_figures() {
    let costs = json!({"delivery_us": 50, "quorum_delivery_us": 100, "dead_letter_us": 10,
                       "quorum_dead_letter_us": 20, "ack_us": 0, "quorum_ack_us": 30});
    let drain = |qt: &str, consumer: Value| drain_ms(10_000, qt, consumer, costs.clone());
    let classic = drain("classic", json!({"ack": "auto"}));
    let quorum = drain("quorum", json!({"ack": "auto"}));
    let quorum_each = drain("quorum", json!({"ack": "manual", "prefetch": 1000}));
    assert!((490..=510).contains(&classic), "classic {classic} ms");
    assert!((990..=1_010).contains(&quorum), "quorum {quorum} ms");
    assert!(
        (1_290..=1_310).contains(&quorum_each),
        "quorum acking each {quorum_each} ms"
    );

    // A publish a quorum queue takes costs quorum_publish_us.
    let v = with_costs(
        burst_behind_head(10_000),
        json!({"publish_us": 50, "quorum_publish_us": 200}),
    );
    let mut q = v.clone();
    for queue in q["topology"]["queues"].as_array_mut().unwrap() {
        queue["durable"] = json!(true);
        queue["arguments"]["x-queue-type"] = json!("quorum");
    }
    assert!((495..=510).contains(&last_confirm_ms(&v)));
    assert!((1_990..=2_010).contains(&last_confirm_ms(&q)));
}

#[test]
fn measured_on_a_4_3_scenario_is_4_3s_profile() {
    use delaylab_engine::costs::CostMode;
    use delaylab_engine::version::BrokerVersion;
    let p = CostMode::Measured.profile(BrokerVersion::V4_3).unwrap();
    assert_eq!(p, CostProfile::measured_4_3());
    assert!(p.source.contains("4.3.6"), "{}", p.source);
    let p = CostMode::Measured.profile(BrokerVersion::V3_10).unwrap();
    assert_eq!(p, CostProfile::measured());
    assert!(p.source.contains("3.10.8"), "{}", p.source);
}
