//! RabbitMQ 4.4's `x-opt-delivery-time` on quorum queues (rabbitmq-versions.md §5.4,
//! rows D34-D43 of the version notes): one test per rule, each with its timeline, at the
//! boundary (4.3 ignores the header; 4.4 holds).

mod common;

use common::*;
use delaylab_engine::cause::{HeldBy, Hold, LateCause};
use delaylab_engine::event::EventKind;
use delaylab_engine::scenario::load_value;
use delaylab_engine::snapshot::Snapshot;
use delaylab_engine::{Progress, Sim};
use serde_json::{json, Value};

const HEADER: &str = "x-opt-delivery-time";
/// Beyond the runs' `until` (40 min): still held at the end.
const HOUR_MS: u64 = 3_600_000;

fn at(ms: u64) -> Value {
    json!({"headers": {HEADER: ms}})
}

/// One queue `q` (quorum unless `classic`), a consumer acking at once, and publishes.
fn one_queue(broker: &str, args: Value, actions: Vec<Value>, consumer: bool) -> Value {
    let consumers = if consumer {
        vec![acker("c", "q")]
    } else {
        vec![]
    };
    json!({
        "broker": broker,
        "until": "40m",
        "topology": {"queues": [{"name": "q", "arguments": args}]},
        "consumers": consumers,
        "actions": actions,
    })
}

fn quorum() -> Value {
    json!({"x-queue-type": "quorum"})
}

/// The scenario of issue 27's "Done when": three messages held 30 min, 5 min and 10 s.
fn three_holds(broker: &str, args: Value) -> Value {
    one_queue(
        broker,
        args,
        vec![
            publish("0s", "", "q", "30m", at(1_800_000)),
            publish("0s", "", "q", "5m", at(300_000)),
            publish("0s", "", "q", "10s", at(10_000)),
        ],
        true,
    )
}

fn times(out: &Value) -> Vec<(String, u64)> {
    deliveries(out)
        .into_iter()
        .map(|(b, t, _)| (b, t))
        .collect()
}

/// Every event of a run, in order (the run stops at the scenario's `until`).
fn events(scenario: Value) -> Vec<delaylab_engine::Event> {
    let s = load_value(&scenario).expect("loads");
    let mut out = Vec::new();
    delaylab_engine::report::run_with(&s, delaylab_engine::limits::Limits::default(), |e, _| {
        out.push(e.clone())
    });
    out
}

#[test]
fn d34_three_held_messages_go_at_their_own_times_on_4_4_and_at_once_on_4_3() {
    // 4.4: 0:00 enqueued a, b, c held until 30:00, 5:00, 0:10; each released and
    // delivered at its own time, the shortest first: no head-of-line blocking.
    let out = run(three_holds("4.4", quorum()));
    assert_eq!(
        times(&out),
        [
            ("10s".to_string(), 10_000),
            ("5m".to_string(), 300_000),
            ("30m".to_string(), 1_800_000)
        ]
    );
    // 4.3: an ordinary header, delivered at once in publish order, unchanged.
    let out = run(three_holds("4.3", quorum()));
    assert_eq!(
        times(&out),
        [
            ("30m".to_string(), 0),
            ("5m".to_string(), 0),
            ("10s".to_string(), 0)
        ]
    );
    assert_eq!(delivery(&out, "30m")["headers"][HEADER], 1_800_000);
    // 4.4, classic queue: classic queues never read it.
    let out = run(three_holds("4.4", json!({})));
    assert!(times(&out).iter().all(|(_, t)| *t == 0), "{out:#}");
    assert_eq!(delivery(&out, "5m")["headers"][HEADER], 300_000);
}

#[test]
fn d34_the_events_name_the_hold_and_the_release() {
    let evs = events(three_holds("4.4", quorum()));
    let held: Vec<Option<Hold>> = evs
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Enqueued { held, .. } => Some(*held),
            _ => None,
        })
        .collect();
    let hold = |until_ms| {
        Some(Hold {
            until_ms,
            by: HeldBy::DeliveryTime,
        })
    };
    assert_eq!(held, [hold(1_800_000), hold(300_000), hold(10_000)]);
    let released: Vec<(u64, HeldBy, u64)> = evs
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Released { by, late_ms, .. } => Some((e.t_ms, *by, *late_ms)),
            _ => None,
        })
        .collect();
    assert_eq!(
        released,
        [
            (10_000, HeldBy::DeliveryTime, 0),
            (300_000, HeldBy::DeliveryTime, 0),
            (1_800_000, HeldBy::DeliveryTime, 0)
        ]
    );
    // Nothing is delivered before its release.
    let first_delivery = evs
        .iter()
        .find(|e| matches!(e.kind, EventKind::Delivered { .. }))
        .unwrap();
    assert_eq!(first_delivery.t_ms, 10_000);
}

#[test]
fn d34_released_messages_go_ahead_of_the_ready_backlog_in_their_time_order() {
    // The branch's run (rabbitmq-versions.md §5.4): ready r1, r2; held d3000, d2000,
    // d2000b; ready r3; a consumer from 5 s gets d2000, d2000b, d3000, r1, r2, r3.
    let mut s = one_queue(
        "4.4",
        quorum(),
        vec![
            publish("0s", "", "q", "r1", json!({})),
            publish("0s", "", "q", "r2", json!({})),
            publish("0s", "", "q", "d3000", at(3_000)),
            publish("0s", "", "q", "d2000", at(2_000)),
            publish("0s", "", "q", "d2000b", at(2_000)),
            publish("0s", "", "q", "r3", json!({})),
        ],
        false,
    );
    s["consumers"] =
        json!([{"name": "c", "queue": "q", "ack": "auto", "prefetch": 0, "from": "5s"}]);
    let order: Vec<String> = deliveries(&run(s)).into_iter().map(|d| d.0).collect();
    assert_eq!(order, ["d2000", "d2000b", "d3000", "r1", "r2", "r3"]);
}

#[test]
fn d35_integer_ms_timestamp_seconds_other_types_ignored() {
    let one = |headers: Value| {
        let mut s = one_queue(
            "4.4",
            quorum(),
            vec![publish("0s", "", "q", "m", json!({ "headers": headers }))],
            true,
        );
        s["until"] = json!("30d");
        let out = run(s);
        delivery(&out, "m")["delivered_at_ms"].as_u64().unwrap()
    };
    assert_eq!(one(json!({HEADER: 60_000})), 60_000, "integer: ms");
    assert_eq!(
        one(json!({HEADER: 2_200_000_000u64})),
        2_200_000_000,
        "a long (over 32 bits: 25.5 days)"
    );
    assert_eq!(
        one(json!({HEADER: {"$timestamp": 90}})),
        90_000,
        "timestamp: s x 1000"
    );
    for ignored in [
        json!("60000"),
        json!(60000.0),
        json!(true),
        json!(null),
        json!(-5),
        json!(0),
    ] {
        assert_eq!(one(json!({HEADER: ignored})), 0, "{ignored}");
    }
    // The time of the publish itself is not later than now: not held.
    let out = run(one_queue(
        "4.4",
        quorum(),
        vec![publish("10s", "", "q", "m", at(10_000))],
        true,
    ));
    assert_eq!(delivery(&out, "m")["delivered_at_ms"], 10_000);
}

#[test]
fn d36_a_decimal_delivery_time_to_a_quorum_queue_closes_the_connection_on_4_4_only() {
    let decimal = json!({"headers": {HEADER: {"$decimal": "1.5"}}});
    let with = |broker: &str, args: Value| {
        run(one_queue(
            broker,
            args,
            vec![publish("0s", "", "q", "m", decimal.clone())],
            true,
        ))
    };
    let out = with("4.4", quorum());
    assert_eq!(errors(&out), [(541, "INTERNAL_ERROR".to_string())]);
    assert!(deliveries(&out).is_empty());
    assert_eq!(out["errors"][0]["scope"], "connection");
    for (broker, args) in [("4.3", quorum()), ("4.4", json!({}))] {
        let out = with(broker, args);
        assert!(errors(&out).is_empty(), "{broker}");
        assert_eq!(deliveries(&out).len(), 1, "{broker}");
    }
}

#[test]
fn d37_ttl_runs_from_publish_and_a_held_message_past_it_expires_at_release() {
    // 0:00 published, expiration 10 s, held until 0:30 -> 0:30 released, expires at
    // once (20 s late, held), dead-lettered to `dead`; m2 (TTL 60 s) is delivered.
    let s = json!({
        "broker": "4.4",
        "until": "2m",
        "topology": {
            "queues": [{"name": "q", "arguments": {"x-queue-type": "quorum", "x-dead-letter-exchange": "",
                                                  "x-dead-letter-routing-key": "dead"}},
                       {"name": "dead"}]},
        "consumers": [acker("d", "dead"), {"name": "c", "queue": "q", "ack": "manual", "prefetch": 1, "handle": 0, "outcome": "ack", "from": "25s"}],
        "actions": [
            publish("0s", "", "q", "m1", json!({"expiration": "10000", "headers": {HEADER: 30_000}})),
            publish("0s", "", "q", "m2", json!({"expiration": "60000", "headers": {HEADER: 30_000}}))
        ]
    });
    let out = run(s.clone());
    assert_eq!(
        times(&out),
        [("m1".to_string(), 30_000), ("m2".to_string(), 30_000)]
    );
    assert_eq!(delivery(&out, "m1")["queue"], "dead");
    assert_eq!(delivery(&out, "m2")["queue"], "q");
    let evs = events(s);
    let expired = evs
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::Expired {
                late_ms,
                late_cause,
                ..
            } => Some((e.t_ms, *late_ms, *late_cause)),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        expired,
        (30_000, 20_000, LateCause::Held(HeldBy::DeliveryTime))
    );
}

#[test]
fn d38_held_messages_count_toward_the_length_limits() {
    // x-max-length 2, reject-publish: held h1, h2, h3 (h3 goes over: a quorum queue
    // rejects from the next publish), h4 refused (nack).
    let args = json!({"x-queue-type": "quorum", "x-max-length": 2, "x-overflow": "reject-publish"});
    let pubs: Vec<Value> = (1..=4)
        .map(|i| publish("0s", "", "q", &format!("h{i}"), at(HOUR_MS)))
        .collect();
    let out = run(one_queue("4.4", args, pubs, false));
    assert_eq!(out["final"]["queues"]["q"]["held"], 3);
    assert_eq!(out["final"]["queues"]["q"]["ready"], 0);
    assert_eq!(
        dropped(&out),
        [("h4".to_string(), 0, "reject_publish".to_string())]
    );
    // drop-head: ready r1, then held h1, h2 over x-max-length 2: the ready one is
    // dropped, the held ones stay.
    let args = json!({"x-queue-type": "quorum", "x-max-length": 2});
    let pubs = vec![
        publish("0s", "", "q", "r1", json!({})),
        publish("0s", "", "q", "h1", at(HOUR_MS)),
        publish("0s", "", "q", "h2", at(HOUR_MS)),
    ];
    let out = run(one_queue("4.4", args, pubs.clone(), false));
    assert_eq!(dropped(&out), [("r1".to_string(), 0, "maxlen".to_string())]);
    assert_eq!(out["final"]["queues"]["q"]["held"], 2);
    // On 4.3 nothing is held: the three are ready and r1 is dropped too, h1 h2 stay ready.
    let out = run(one_queue(
        "4.3",
        json!({"x-queue-type": "quorum", "x-max-length": 2}),
        pubs,
        false,
    ));
    assert_eq!(out["final"]["queues"]["q"]["ready"], 2);
    assert!(out["final"]["queues"]["q"].get("held").is_none());
    // Bytes: x-max-length-bytes 10, two held bodies of 6 bytes, then a ready one: the
    // ready one is dropped at once (6 + 6 + 6 > 10, the head is the only ready one).
    let args = json!({"x-queue-type": "quorum", "x-max-length-bytes": 12});
    let pubs = vec![
        publish("0s", "", "q", "held-1", at(HOUR_MS)),
        publish("0s", "", "q", "held-2", at(HOUR_MS)),
        publish("0s", "", "q", "ready1", json!({})),
    ];
    let out = run(one_queue("4.4", args, pubs, false));
    assert_eq!(
        dropped(&out),
        [("ready1".to_string(), 0, "maxlen".to_string())]
    );
}

#[test]
fn d38_a_quorum_queue_rejecting_publishes_accepts_again_below_80_percent() {
    // 4.4, x-max-length 2, reject-publish: three held until 0:10 (the third goes over),
    // the fourth refused at 0:01; at 0:10 the consumer takes all three; the fifth, at
    // 0:20, is accepted again. (Before: a quorum queue once rejecting never stopped.)
    let args = json!({"x-queue-type": "quorum", "x-max-length": 2, "x-overflow": "reject-publish"});
    let mut pubs: Vec<Value> = (1..=3)
        .map(|i| publish("0s", "", "q", &format!("h{i}"), at(10_000)))
        .collect();
    pubs.push(publish("1s", "", "q", "refused", json!({})));
    pubs.push(publish("20s", "", "q", "later", json!({})));
    let out = run(one_queue("4.4", args, pubs, true));
    assert_eq!(
        dropped(&out),
        [("refused".to_string(), 1_000, "reject_publish".to_string())]
    );
    assert_eq!(delivery(&out, "later")["delivered_at_ms"], 20_000);
}

#[test]
fn d39_held_messages_alone_over_a_drop_head_limit_stop_the_run_in_words() {
    // x-max-length 1, drop-head: h1 held, h2 held -> 2 > 1 with nothing ready: the
    // broker's queue loops forever; the run stops at 0:00 and says why.
    let args = json!({"x-queue-type": "quorum", "x-max-length": 1});
    let pubs = vec![
        publish("0s", "", "q", "h1", at(60_000)),
        publish("0s", "", "q", "h2", at(60_000)),
        publish("5s", "", "q", "never", json!({})),
    ];
    let s = load_value(&one_queue("4.4", args, pubs, true)).unwrap();
    let mut sim = Sim::new(&s);
    while sim.advance(120_000) == Progress::More {}
    let stopped = sim.stopped().expect("stopped");
    assert_eq!(stopped.limit.as_str(), "queue_hang");
    assert_eq!(stopped.at_ms, 0);
    assert!(
        stopped
            .text
            .contains("quorum queue 'q' is over its x-max-length of 1"),
        "{}",
        stopped.text
    );
    assert!(stopped.text.contains("evaluate_limit0"), "{}", stopped.text);
    assert!(
        sim.next_timer_ms().is_none(),
        "nothing happens after the stop"
    );
    // The run contract reports it.
    let out = run(one_queue(
        "4.4",
        json!({"x-queue-type": "quorum", "x-max-length": 1}),
        vec![
            publish("0s", "", "q", "h1", at(60_000)),
            publish("0s", "", "q", "h2", at(60_000)),
        ],
        false,
    ));
    assert!(out["limit_reached"]
        .as_str()
        .unwrap()
        .starts_with("queue hang"));
}

#[test]
fn d39_on_4_3_delayed_retry_alone_over_the_limit_hangs_too() {
    // 4.3, x-max-length 1, delayed retry all 60 s: a and b delivered and rejected with
    // requeue at 0:00.010 -> both held; c published at 0:01 is the only ready one and
    // is dropped, then 2 held > 1 with nothing ready: the queue hangs.
    let args = json!({"x-queue-type": "quorum", "x-max-length": 3, "x-delayed-retry-type": "all",
                      "x-delayed-retry-min": 60000});
    let s = json!({
        "broker": "4.3",
        "until": "2m",
        "topology": {"queues": [{"name": "q", "arguments": args}]},
        "consumers": [{"name": "c", "queue": "q", "ack": "manual", "prefetch": 2, "handle": "10ms", "outcome": "reject_requeue", "to": "500ms"}],
        "actions": [
            publish("0s", "", "q", "a", json!({})),
            publish("0s", "", "q", "b", json!({})),
            {"at": "1s", "declare": {"queue": {"name": "unused"}}},
            publish("2s", "", "q", "c", json!({})),
            publish("2s", "", "q", "d", json!({})),
        ]
    });
    // 3 max: a, b held; c, d ready -> 4 > 3: c dropped; fine. Lower the limit through
    // a fresh scenario instead: x-max-length 1 with two held and one ready.
    let out = run(s);
    assert!(out.get("limit_reached").is_none(), "{out:#}");
    let args = json!({"x-queue-type": "quorum", "x-max-length": 1, "x-delayed-retry-type": "all",
                      "x-delayed-retry-min": 60000});
    let s = json!({
        "broker": "4.3",
        "until": "2m",
        "topology": {"queues": [{"name": "q", "arguments": args}]},
        "consumers": [{"name": "c", "queue": "q", "ack": "manual", "prefetch": 1, "handle": "10ms", "outcome": "reject_requeue", "to": "500ms"}],
        "actions": [
            publish("0s", "", "q", "a", json!({})),
            publish("100ms", "", "q", "b", json!({})),
            publish("2s", "", "q", "c", json!({})),
        ]
    });
    let out = run(s);
    let text = out["limit_reached"].as_str().expect("stopped");
    assert!(text.starts_with("queue hang: quorum queue 'q'"), "{text}");
}

/// Classic `a` (TTL 1 s) -> at-most-once into quorum `b` (TTL 1 s, at-least-once) ->
/// quorum `c`, one message with x-opt-delivery-time 60 s.
fn dead_letter_chain(broker: &str) -> Value {
    json!({
        "broker": broker,
        "until": "2m",
        "topology": {
            "queues": [
                {"name": "a", "arguments": {"x-message-ttl": 1000, "x-dead-letter-exchange": "", "x-dead-letter-routing-key": "b"}},
                {"name": "b", "arguments": {"x-queue-type": "quorum", "x-message-ttl": 1000, "x-dead-letter-exchange": "",
                                            "x-dead-letter-routing-key": "c", "x-dead-letter-strategy": "at-least-once",
                                            "x-overflow": "reject-publish"}},
                {"name": "c", "arguments": {"x-queue-type": "quorum"}}
            ]
        },
        "consumers": [acker("cc", "c")],
        "actions": [publish("0s", "", "a", "m", at(60_000))]
    })
}

#[test]
fn d40_at_most_once_dead_lettering_skips_the_hold_at_least_once_holds_again() {
    // 0:00 into classic a (not held); 0:01 expired, at-most-once into quorum b: an
    // untracked enqueue, ready at once (not held); 0:02 expired from b, at-least-once
    // into quorum c: tracked, held until 1:00; 1:00 delivered from c.
    let evs = events(dead_letter_chain("4.4"));
    let enq: Vec<(u64, Option<u64>)> = evs
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Enqueued { held, .. } => Some((e.t_ms, held.map(|h| h.until_ms))),
            _ => None,
        })
        .collect();
    assert_eq!(enq, [(0, None), (1_000, None), (2_000, Some(60_000))]);
    let out = run(dead_letter_chain("4.4"));
    assert_eq!(times(&out), [("m".to_string(), 60_000)]);
    // 4.3: delivered from c at 0:02.
    let out = run(dead_letter_chain("4.3"));
    assert_eq!(times(&out), [("m".to_string(), 2_000)]);
}

#[test]
fn d41_a_message_returned_after_its_release_is_not_held_again() {
    // Held until 0:10; delivered at 0:10, nacked with requeue after 100 ms, delivered
    // again at once (0:10.100), acked.
    let s = json!({
        "broker": "4.4",
        "until": "1m",
        "topology": {"queues": [{"name": "q", "arguments": {"x-queue-type": "quorum"}}]},
        "consumers": [{"name": "c", "queue": "q", "ack": "manual", "prefetch": 1, "handle": "100ms", "outcome": ["requeue", "ack"]}],
        "actions": [publish("0s", "", "q", "m", at(10_000))]
    });
    let out = run(s);
    assert_eq!(
        times(&out),
        [("m".to_string(), 10_000), ("m".to_string(), 10_100)]
    );
}

#[test]
fn d42_purge_counts_held_messages_and_basic_get_leaves_them_out() {
    // 0:00 held h (until 1:00) and ready r; 0:01 basic.get takes r; 0:02 basic.get
    // finds nothing (only h, held); 0:03 purge removes h and counts 1.
    let s = one_queue(
        "4.4",
        quorum(),
        vec![
            publish("0s", "", "q", "h", at(60_000)),
            publish("0s", "", "q", "r", json!({})),
            json!({"at": "1s", "get": {"queue": "q"}}),
            json!({"at": "2s", "get": {"queue": "q"}}),
            json!({"at": "3s", "purge": {"queue": "q"}}),
        ],
        false,
    );
    let out = run(s.clone());
    assert_eq!(times(&out), [("r".to_string(), 1_000)]);
    assert_eq!(
        dropped(&out),
        [("h".to_string(), 3_000, "purged".to_string())]
    );
    let purged = events(s)
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::Purged { count, .. } => Some(*count),
            _ => None,
        })
        .unwrap();
    assert_eq!(purged, 1);
}

#[test]
fn d43_held_messages_survive_a_restart_and_a_lost_node() {
    // Held until 0:30; node down 0:20-0:40: released at 0:40, 10 s late, the node was
    // down; a second held until 1:00 survives the loss of a node at 0:50.
    let s = one_queue(
        "4.4",
        json!({"x-queue-type": "quorum"}),
        vec![
            publish("0s", "", "q", "a", at(30_000)),
            publish("0s", "", "q", "b", at(60_000)),
            json!({"at": "20s", "restart_node": {"downtime": "20s"}}),
            json!({"at": "50s", "lose_node": {}}),
        ],
        true,
    );
    let out = run(s.clone());
    assert_eq!(
        times(&out),
        [("a".to_string(), 40_000), ("b".to_string(), 60_000)]
    );
    let late = events(s)
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::Released {
                late_ms,
                late_cause,
                ..
            } => Some((*late_ms, *late_cause)),
            _ => None,
        })
        .unwrap();
    assert_eq!(late, (10_000, LateCause::NodeDown));
}

#[test]
fn held_messages_show_in_the_snapshot_with_their_countdown() {
    let s = load_value(&three_holds("4.4", quorum())).unwrap();
    let mut sim = Sim::new(&s);
    while sim.advance(60_000) == Progress::More {}
    let snap = Snapshot::of(&sim);
    let q = snap.queue("q").unwrap();
    assert_eq!((q.ready, q.unacked, q.held_total), (0, 0, 2));
    let h: Vec<(&str, HeldBy, u64, u64)> = q
        .held
        .iter()
        .map(|h| (h.body.as_str(), h.by, h.ready_at_ms, h.remaining_ms))
        .collect();
    assert_eq!(
        h,
        [
            ("5m", HeldBy::DeliveryTime, 300_000, 240_000),
            ("30m", HeldBy::DeliveryTime, 1_800_000, 1_740_000)
        ]
    );
}

#[test]
fn a_depth_check_reads_held_messages_as_delayed() {
    let mut s = three_holds("4.4", quorum());
    s["checks"] = json!([
        {"label": "two held at 1:00", "depth": {"queue": "q", "of": "delayed", "at": "1m", "equals": 2}},
        {"label": "none ready at 1:00", "depth": {"queue": "q", "of": "ready", "at": "1m", "equals": 0}}
    ]);
    let s = load_value(&s).unwrap();
    let (_, ev) = delaylab_engine::checks::run::run(
        &s,
        delaylab_engine::limits::Limits::default(),
        |_, _| {},
    );
    for c in ev.states() {
        assert_eq!(
            (c.status, c.at_ms),
            (delaylab_engine::checks::Status::Passed, Some(60_000)),
            "{c:?}"
        );
    }
}

#[test]
fn the_text_timeline_says_held_and_released() {
    let s = load_value(&three_holds("4.4", quorum())).unwrap();
    let mut text = String::new();
    delaylab_engine::report::run_with(&s, delaylab_engine::limits::Limits::default(), |e, sim| {
        if let Some(l) = delaylab_engine::report::text::line(e, sim) {
            text.push_str(&l);
            text.push('\n');
        }
    });
    assert!(
        text.contains("enqueue     #1 in q, held by x-opt-delivery-time until 0:30:00.000"),
        "{text}"
    );
    assert!(
        text.contains("0:00:10.000  release     #3 in q (held by x-opt-delivery-time)"),
        "{text}"
    );
}
