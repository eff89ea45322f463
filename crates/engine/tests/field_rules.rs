//! The rules the field's reports need (issue 28), each at its version boundary with its
//! timeline: `basic.nack multiple=true` against the delivery limit, a republishing
//! client and x-death, ETA holds and reconnects against the consumer timeout, the
//! timeout's arguments and 4.3.7's response, at-least-once dead-lettering, untracked
//! dead letters into a full quorum queue, cycle detection with a client's x-death, and
//! what renews an `x-expires` lease. Rules: `sim/client.rs`, `sim/ack_timeout.rs`,
//! `sim/dead_letter_retry.rs`, `sim/enqueue.rs`, `death.rs`, `sim/topology.rs`.

mod common;

use common::*;
use delaylab_engine::version::{BrokerVersion, BrokerVersion::*};
use serde_json::{json, Value};

fn on(v: BrokerVersion, mut scenario: Value) -> Value {
    scenario["broker"] = json!(v.as_str());
    run(scenario)
}

fn times(out: &Value, body: &str, queue: &str) -> Vec<u64> {
    deliveries(out)
        .into_iter()
        .filter(|d| d.0 == body && d.2 == queue)
        .map(|d| d.1)
        .collect()
}

fn ready(out: &Value, queue: &str) -> u64 {
    out["final"]["queues"][queue]["ready"].as_u64().unwrap_or(0)
}

// ---------------------------------------------------------------------------------
// basic.nack multiple=true against the delivery limit (D9)

/// spring-amqp #3435/#3507: x-delivery-limit 4, a DLX, a listener that always fails.
fn failing_listener(outcome: &str) -> Value {
    json!({
        "until": "30s",
        "topology": {
            "exchanges": [{"name": "dlx", "type": "fanout"}],
            "queues": [{"name": "work", "arguments": {"x-queue-type": "quorum", "x-delivery-limit": 4, "x-dead-letter-exchange": "dlx"}},
                       {"name": "dlq"}],
            "bindings": [{"source": "dlx", "destination": "dlq", "destination_type": "queue", "routing_key": ""}]
        },
        "consumers": [{"name": "listener", "queue": "work", "prefetch": 1, "handle": "1s", "outcome": outcome},
                      acker("dlq-reader", "dlq")],
        "actions": [publish("0s", "", "work", "m", json!({}))]
    })
}

#[test]
fn nack_multiple_is_counted_up_to_4_2_and_not_on_4_3() {
    // 4.2: every return counts: 5 deliveries (limit 4), the 5th nack dead-letters it.
    let out = on(V4_2, failing_listener("nack_multiple"));
    assert_eq!(times(&out, "m", "work"), [0, 1000, 2000, 3000, 4000]);
    assert_eq!(times(&out, "m", "dlq"), [5000]);
    // 4.3: a nack (multiple or not) is no failed delivery: it loops to the end.
    let out = on(V4_3, failing_listener("nack_multiple"));
    assert_eq!(times(&out, "m", "work").len(), 31);
    assert!(times(&out, "m", "dlq").is_empty());
    // The fix: basic.reject requeue=true is a failure on 4.3: 5 deliveries again.
    let out = on(V4_3, failing_listener("reject_requeue"));
    assert_eq!(times(&out, "m", "work"), [0, 1000, 2000, 3000, 4000]);
    assert_eq!(times(&out, "m", "dlq"), [5000]);
}

#[test]
fn nack_multiple_returns_every_held_delivery_up_to_its_tag() {
    // m1 is held until 0:05 (its eta), m2 and m3 1 s; m2's answer, basic.nack
    // multiple=true for tag 2 at 0:01, returns m1 (tag 1) and m2; m3 (tag 3) stays held.
    let s = json!({
        "until": "3s",
        "topology": {"queues": [{"name": "q"}]},
        "consumers": [{"name": "c", "queue": "q", "prefetch": 3, "handle": "1s", "eta_header": "eta",
                       "outcome": ["ack", "nack_multiple", "ack"]}],
        "actions": [publish("0s", "", "q", "m1", json!({"headers": {"eta": 5000}})),
                    publish("0s", "", "q", "m2", json!({})),
                    publish("0s", "", "q", "m3", json!({}))]
    });
    let out = run(s);
    assert_eq!(times(&out, "m1", "q"), [0, 1000]);
    assert_eq!(times(&out, "m2", "q"), [0, 1000]);
    assert_eq!(times(&out, "m3", "q"), [0]);
}

// ---------------------------------------------------------------------------------
// A republishing client and x-death (D1)

/// spring-cloud-stream's guide: the binder republishes a failed message to the DLQ with
/// its headers; the DLQ's TTL sends it back; the listener gives up at x-death count 3.
fn republish_loop(count: &str) -> Value {
    json!({
        "until": "60s",
        "topology": {"queues": [
            {"name": "work"},
            {"name": "work.dlq", "arguments": {"x-message-ttl": 5000, "x-dead-letter-exchange": "", "x-dead-letter-routing-key": "work"}}
        ]},
        "consumers": [{"name": "listener", "queue": "work", "prefetch": 1, "outcome": "republish",
                       "republish": {"exchange": "", "routing_key": "work.dlq", "count": count, "give_up_at": 3}}],
        "actions": [publish("0s", "", "work", "m", json!({}))]
    })
}

#[test]
fn republished_x_death_counts_on_3_10_and_3_13_and_restarts_on_4_x() {
    for v in [V3_10, V3_13] {
        let out = on(v, republish_loop("x-death"));
        assert_eq!(
            times(&out, "m", "work"),
            [0, 5000, 10000, 15000],
            "{v}: gives up at count 3"
        );
        let last = out["deliveries"].as_array().unwrap().last().unwrap();
        assert_eq!(last["headers"]["x-death"][0]["count"], 3, "{v}");
    }
    for v in [V4_0, V4_3] {
        let out = on(v, republish_loop("x-death"));
        assert_eq!(
            times(&out, "m", "work").len(),
            13,
            "{v}: every 5 s to the end"
        );
        for d in out["deliveries"].as_array().unwrap().iter().skip(1) {
            assert_eq!(d["headers"]["x-death"][0]["count"], 1, "{v}: frozen at 1");
        }
    }
}

#[test]
fn a_retry_header_of_the_clients_own_counts_on_every_version() {
    for v in [V3_10, V4_0, V4_3] {
        let out = on(v, republish_loop("retry-count"));
        assert_eq!(times(&out, "m", "work"), [0, 5000, 10000, 15000], "{v}");
        let last = out["deliveries"].as_array().unwrap().last().unwrap();
        assert_eq!(last["headers"]["retry-count"], 3, "{v}");
    }
}

// ---------------------------------------------------------------------------------
// ETA holds, reconnects and the consumer timeout (D21)

/// celery/dramatiq: a worker holds an ETA task (due at 1:00:00) unacked; its client
/// subscribes again 1 s after the broker closed or cancelled it.
fn eta_task(queue_args: Value) -> Value {
    json!({
        "until": "2h",
        "topology": {"queues": [{"name": "tasks", "arguments": queue_args}]},
        "consumers": [{"name": "worker", "queue": "tasks", "prefetch": 4, "eta_header": "eta", "reconnect": "1s"}],
        "actions": [publish("0s", "", "tasks", "task", json!({"headers": {"eta": 3600000}}))]
    })
}

#[test]
fn an_eta_task_held_past_the_timeout_is_delivered_twice() {
    // Up to 4.2: the tick at 31:00 closes the channel (406); the worker subscribes again
    // at 31:01 and holds the redelivered task until 1:00:00 (29 min): delivered twice.
    let out = on(V4_2, eta_task(json!({})));
    assert_eq!(times(&out, "task", "tasks"), [0, 1_861_000]);
    assert_eq!(errors(&out).len(), 1);
    assert_eq!(out["errors"][0]["at_ms"], 1_860_000);
    // 4.3, classic queue: never times out; delivered once, acked at 1:00:00.
    let out = on(V4_3, eta_task(json!({})));
    assert_eq!(times(&out, "task", "tasks"), [0]);
    // 4.3, quorum: basic.cancel at exactly 30:00, no error; subscribed again at 30:01.
    let out = on(V4_3, eta_task(json!({"x-queue-type": "quorum"})));
    assert_eq!(times(&out, "task", "tasks"), [0, 1_801_000]);
    assert!(errors(&out).is_empty());
}

#[test]
fn close_channel_closes_the_channel_exactly_on_4_3_and_means_nothing_before() {
    let mut s = eta_task(json!({"x-queue-type": "quorum"}));
    s["consumer_timeout_response"] = json!("close_channel");
    let out = on(V4_3, s.clone());
    assert_eq!(out["errors"][0]["at_ms"], 1_800_000, "exact, quorum, 406");
    assert_eq!(out["errors"][0]["code"], 406);
    assert_eq!(times(&out, "task", "tasks"), [0, 1_801_000]);
    let out = on(V4_2, s);
    assert_eq!(
        out["errors"][0]["at_ms"], 1_860_000,
        "4.2: the channel's tick"
    );
}

/// A consumer holding a message 5 minutes.
fn held_five_minutes(queue_args: Value, consumer_args: Value) -> Value {
    json!({
        "until": "10m",
        "topology": {"queues": [{"name": "q", "arguments": queue_args}]},
        "consumers": [{"name": "c", "queue": "q", "prefetch": 1, "handle": "5m", "arguments": consumer_args}],
        "actions": [publish("0s", "", "q", "m", json!({}))]
    })
}

#[test]
fn the_queue_argument_from_3_13_and_the_consumer_argument_on_4_3() {
    let one_minute = json!({"x-consumer-timeout": 60000});
    // 3.10 ignores the queue's argument (30 minutes: no timeout within 5).
    assert!(errors(&on(V3_10, held_five_minutes(one_minute.clone(), json!({})))).is_empty());
    // 3.13: it is the timeout for that queue: the tick at 2:00 closes the channel.
    let out = on(V3_13, held_five_minutes(one_minute.clone(), json!({})));
    assert_eq!(out["errors"][0]["at_ms"], 120_000);
    assert!(errors(&out)[0].1.contains("Timeout value used: 60000 ms"));
    // 4.3 quorum: the consumer's argument wins over the queue's: 10 s, exactly.
    let qq = json!({"x-queue-type": "quorum", "x-consumer-timeout": 60000});
    let out = on(
        V4_3,
        held_five_minutes(qq.clone(), json!({"x-consumer-timeout": 10000})),
    );
    assert_eq!(times(&out, "m", "q"), [0], "cancelled at 0:10, never again");
    assert_eq!(ready(&out, "q"), 1);
    // 4.2 knows no consumer argument: the queue's minute, on the tick.
    let mut s = held_five_minutes(qq, json!({"x-consumer-timeout": 10000}));
    s["broker"] = json!("4.2");
    let out = run(s);
    assert_eq!(out["errors"][0]["at_ms"], 120_000);
}

#[test]
fn consumer_timeout_off_is_24_hours_for_4_3_quorum_queues() {
    let s = |v: BrokerVersion| {
        json!({
            "broker": v.as_str(), "until": "30h", "consumer_timeout": false,
            "topology": {"queues": [{"name": "q", "arguments": {"x-queue-type": "quorum"}}]},
            "consumers": [{"name": "c", "queue": "q", "prefetch": 1, "handle": "25h"}],
            "actions": [publish("0s", "", "q", "m", json!({}))]
        })
    };
    let out = run(s(V4_2));
    assert!(
        errors(&out).is_empty() && ready(&out, "q") == 0,
        "4.2: off is off"
    );
    let out = run(s(V4_3));
    assert_eq!(
        ready(&out, "q"),
        1,
        "4.3: cancelled at 24:00:00, the message back"
    );
}

// ---------------------------------------------------------------------------------
// At-least-once dead-lettering from a quorum queue, and untracked dead letters

fn at_least_once(strategy: &str, dlq: Value) -> Value {
    json!({
        "until": "8m",
        "topology": {
            "exchanges": [{"name": "dlx", "type": "fanout"}],
            "queues": [{"name": "src", "arguments": {"x-queue-type": "quorum", "x-message-ttl": 1000, "x-overflow": "reject-publish",
                                                     "x-dead-letter-exchange": "dlx", "x-dead-letter-strategy": strategy}},
                       dlq],
            "bindings": [{"source": "dlx", "destination": "dlq", "destination_type": "queue", "routing_key": ""}]
        },
        "consumers": [{"name": "reader", "queue": "dlq", "prefetch": 1, "from": "200s"}],
        "actions": [publish("0s", "", "src", "m1", json!({})), publish("100ms", "", "src", "m2", json!({}))]
    })
}

#[test]
fn a_refused_dead_letter_waits_in_its_source_and_is_retried_every_180_s() {
    let full_after_one =
        json!({"name": "dlq", "arguments": {"x-max-length": 1, "x-overflow": "reject-publish"}});
    // at-least-once: m1 is confirmed at 0:01 (the worker's timer, armed while m1 was
    // pending, is cancelled); m2 is refused at 0:01.1, which arms the timer: refused
    // again at 3:01.1; dlq empties at 3:20; m2 goes at 6:01.1.
    let out = run(at_least_once("at-least-once", full_after_one.clone()));
    assert_eq!(times(&out, "m1", "dlq"), [200_000]);
    assert_eq!(times(&out, "m2", "dlq"), [361_100]);
    assert!(dropped(&out).is_empty());
    // at-most-once (the default): the classic dlq drops m2 (reject-publish).
    let out = run(at_least_once("at-most-once", full_after_one));
    assert_eq!(
        dropped(&out)
            .iter()
            .map(|d| d.0.as_str())
            .collect::<Vec<_>>(),
        ["m2"]
    );
}

#[test]
fn an_untracked_dead_letter_enters_a_full_quorum_queue() {
    // rabbitmq-server #8495: a quorum dead-letter queue with reject-publish fills past its
    // limit with at-most-once dead letters; at-least-once keeps them in the source.
    // A quorum queue takes the publish that crosses its limit (m2: 2 > 1) and refuses
    // tracked publishes from then on; m3 shows the difference.
    let qq = json!({"name": "dlq", "arguments": {"x-queue-type": "quorum", "x-max-length": 1, "x-overflow": "reject-publish"}});
    let mut s = at_least_once("at-most-once", qq.clone());
    s["consumers"] = json!([]);
    s["until"] = json!("5s");
    s["actions"]
        .as_array_mut()
        .unwrap()
        .push(publish("200ms", "", "src", "m3", json!({})));
    assert_eq!(
        ready(&run(s.clone()), "dlq"),
        3,
        "at-most-once: over its limit"
    );
    s["topology"]["queues"][0]["arguments"]["x-dead-letter-strategy"] = json!("at-least-once");
    let out = run(s);
    assert_eq!(ready(&out, "dlq"), 2);
    assert_eq!(
        out["final"]["queues"]["src"]["ready"], 0,
        "m3 waits, not ready"
    );
}

#[test]
fn a_missing_dead_letter_exchange_keeps_the_letter_until_it_exists() {
    let s = |declare_at: &str| {
        json!({
            "until": "5m",
            "topology": {"queues": [
                {"name": "src", "arguments": {"x-queue-type": "quorum", "x-message-ttl": 1000, "x-overflow": "reject-publish",
                                              "x-dead-letter-exchange": "dlx", "x-dead-letter-strategy": "at-least-once"}},
                {"name": "dlq"}]},
            "consumers": [acker("r", "dlq")],
            "actions": [publish("0s", "", "src", "m", json!({})),
                        {"at": declare_at, "declare": {"exchange": {"name": "dlx", "type": "fanout"}}},
                        {"at": declare_at, "declare": {"binding": {"source": "dlx", "destination": "dlq", "destination_type": "queue", "routing_key": ""}}}]
        })
    };
    // Dead-lettered at 0:01 with nowhere to go; dlx exists from 1:00; the timer at 3:01.
    assert_eq!(times(&run(s("60s")), "m", "dlq"), [181_000]);
}

#[test]
fn purge_removes_waiting_dead_letters_on_4_3_only() {
    let s = json!({
        "until": "5m",
        "topology": {"queues": [{"name": "src", "arguments": {"x-queue-type": "quorum", "x-message-ttl": 1000,
            "x-overflow": "reject-publish", "x-dead-letter-exchange": "dlx", "x-dead-letter-strategy": "at-least-once"}},
            {"name": "dlq"}]},
        "consumers": [acker("r", "dlq")],
        "actions": [publish("0s", "", "src", "m", json!({})),
                    {"at": "10s", "purge": {"queue": "src"}},
                    {"at": "60s", "declare": {"exchange": {"name": "dlx", "type": "fanout"}}},
                    {"at": "60s", "declare": {"binding": {"source": "dlx", "destination": "dlq", "destination_type": "queue", "routing_key": ""}}}]
    });
    assert_eq!(
        times(&on(V4_2, s.clone()), "m", "dlq"),
        [181_000],
        "4.2: kept"
    );
    let out = on(V4_3, s);
    assert!(times(&out, "m", "dlq").is_empty(), "4.3: purged");
    assert_eq!(out["dropped"][0]["reason"], "purged");
}

#[test]
fn waiting_dead_letters_count_toward_the_source_limit() {
    // Two letters wait (no route) in a source with x-max-length 1 (b crossed it, as a
    // quorum queue lets the crossing publish in): c, at 0:05, is refused.
    let s = json!({
        "until": "10s",
        "topology": {"exchanges": [{"name": "dlx", "type": "fanout"}],
            "queues": [{"name": "src", "arguments": {"x-queue-type": "quorum", "x-message-ttl": 1000, "x-max-length": 1,
            "x-overflow": "reject-publish", "x-dead-letter-exchange": "dlx", "x-dead-letter-strategy": "at-least-once"}}]},
        "actions": [publish("0s", "", "src", "a", json!({})), publish("0s", "", "src", "b", json!({})),
                    publish("5s", "", "src", "c", json!({}))]
    });
    let out = run(s);
    let refused: Vec<&str> = out["dropped"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["reason"] == "reject_publish")
        .map(|d| d["body"].as_str().unwrap())
        .collect();
    assert_eq!(refused, ["c"]);
}

// ---------------------------------------------------------------------------------
// Cycle detection with a client's x-death (D1, D3)

#[test]
fn a_client_x_death_can_close_a_cycle_on_3_x_but_not_on_4_x() {
    // A message published to b carrying x-death [{a, expired}]; b's TTL dead-letters it
    // to a. 3.10 and 3.13.3+ merge the client's history: [{b, expired}, {a, expired}]
    // names a with no rejection in between: a cycle, dropped. 4.x ignores it: delivered.
    let s = json!({
        "until": "2s",
        "topology": {"queues": [{"name": "a"},
            {"name": "b", "arguments": {"x-message-ttl": 100, "x-dead-letter-exchange": "", "x-dead-letter-routing-key": "a"}}]},
        "consumers": [acker("r", "a")],
        "actions": [publish("0s", "", "b", "m", json!({"headers": {"x-death": [
            {"count": 1, "reason": "expired", "queue": "a", "time": 0, "exchange": "", "routing-keys": ["a"]}]}}))]
    });
    for v in [V3_10, V3_13] {
        let out = on(v, s.clone());
        assert!(times(&out, "m", "a").is_empty(), "{v}");
        assert_eq!(out["dropped"][0]["reason"], "dead_letter_cycle", "{v}");
    }
    for v in [V4_0, V4_3] {
        assert_eq!(times(&on(v, s.clone()), "m", "a"), [100], "{v}");
    }
}

// ---------------------------------------------------------------------------------
// What renews an x-expires lease (classic: consumers, basic.get, a redeclare; quorum:
// consumers and basic.get, not a redeclare nor a publish; 5 s tick)

fn lease(queue_type: &str, renew: Value) -> Value {
    let args = json!({"x-queue-type": queue_type, "x-expires": 10000});
    json!({
        "until": "40s",
        "topology": {"queues": [{"name": "delay", "arguments": args}]},
        "actions": [publish("0s", "", "delay", "m1", json!({})),
                    publish("6s", "", "delay", "m2", json!({})),
                    renew]
    })
}

fn deleted_at(out: &Value) -> Option<u64> {
    out["dropped"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["reason"] == "queue_deleted")
        .and_then(|d| d["at_ms"].as_u64())
}

#[test]
fn a_redeclare_renews_a_classic_lease_not_a_quorum_one() {
    let redeclare = json!({"at": "8s", "declare": {"queue": {"name": "delay", "arguments": {"x-expires": 10000}}}});
    let mut r = redeclare.clone();
    assert_eq!(
        deleted_at(&run(lease("classic", r.clone()))),
        Some(18_000),
        "classic: 8 s + 10 s"
    );
    r["declare"]["queue"]["arguments"]["x-queue-type"] = json!("quorum");
    // Quorum: a publish or a redeclare leaves last_active at creation: its tick at 10 s
    // (a tick lands just after its 5 s, so on the boundary it already sees 10 s passed;
    // live 3.10.8 and 4.3.6, field-quorum-delay-queue-expires) deletes it, m2
    // (published at 6 s) with it (symfony #57867).
    assert_eq!(deleted_at(&run(lease("quorum", r))), Some(10_000));
    // basic.get renews both (`#checkout{spec = {dequeue, _}}` sets last_active).
    let get = json!({"at": "8s", "get": {"queue": "delay"}});
    assert_eq!(
        deleted_at(&run(lease("quorum", get))),
        Some(20_000),
        "8 s + 10 s, next tick"
    );
}

#[test]
fn a_quorum_queue_refusing_publishes_accepts_again_once_drained() {
    // x-max-length 2, reject-publish: a, b, c are taken (c crosses the limit), d at 0:01
    // is refused. A consumer from 0:02 drains it; at 80 % (1 or fewer ready) the queue
    // tells its publishers `go` (`rabbit_fifo:evaluate_limit/5` after each checkout):
    // e at 0:05 is taken. Before this rule was modelled e was refused too.
    let s = json!({
        "until": "10s",
        "topology": {"queues": [{"name": "q", "arguments": {"x-queue-type": "quorum", "x-max-length": 2, "x-overflow": "reject-publish"}}]},
        "consumers": [{"name": "c", "queue": "q", "prefetch": 1, "handle": "100ms", "from": "2s"}],
        "actions": [publish("0s", "", "q", "a", json!({})), publish("0s", "", "q", "b", json!({})),
                    publish("0s", "", "q", "c", json!({})), publish("1s", "", "q", "d", json!({})),
                    publish("5s", "", "q", "e", json!({}))]
    });
    let out = run(s);
    let refused: Vec<&str> = out["dropped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["body"].as_str().unwrap())
        .collect();
    assert_eq!(refused, ["d"]);
    assert_eq!(times(&out, "e", "q"), [5000]);
}

// ---------------------------------------------------------------------------------
// D30: a dead letter out of a quorum queue carries its failed-delivery count

fn rejected_into_quorum_dlq(outcomes: Value) -> Value {
    json!({
        "until": "5s",
        "topology": {"exchanges": [{"name": "dlx", "type": "fanout"}],
            "queues": [{"name": "src", "arguments": {"x-queue-type": "quorum", "x-dead-letter-exchange": "dlx"}},
                       {"name": "dlq", "arguments": {"x-queue-type": "quorum"}}],
            "bindings": [{"source": "dlx", "destination": "dlq", "destination_type": "queue", "routing_key": ""}]},
        "consumers": [{"name": "w", "queue": "src", "prefetch": 1, "handle": "100ms", "outcome": outcomes},
                      acker("r", "dlq")],
        "actions": [publish("0s", "", "src", "m", json!({}))]
    })
}

#[test]
fn d30_a_rejected_quorum_message_reaches_a_quorum_dlq_with_its_count_from_4_0() {
    let from_dlq = |v: BrokerVersion, o: Value| {
        let out = on(v, rejected_into_quorum_dlq(o));
        let d = out["deliveries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["queue"] == "dlq")
            .unwrap()
            .clone();
        (
            d["redelivered"].clone(),
            d["headers"]["x-delivery-count"].clone(),
            d["headers"]["x-acquired-count"].clone(),
        )
    };
    let null = Value::Null;
    assert_eq!(
        from_dlq(V3_13, json!("reject")),
        (json!(false), null.clone(), null.clone())
    );
    assert_eq!(
        from_dlq(V4_0, json!("reject")),
        (json!(true), json!(1), null.clone())
    );
    // Live 4.3.6 (tests/conformance/v30-dead-letter-delivery-count.json).
    assert_eq!(
        from_dlq(V4_3, json!("reject")),
        (json!(true), json!(1), json!(1))
    );
    // A basic.reject requeue=true first: a failed delivery on 4.3 only.
    let twice = json!(["reject_requeue", "reject"]);
    assert_eq!(
        from_dlq(V4_2, twice.clone()),
        (json!(true), json!(1), null.clone())
    );
    assert_eq!(from_dlq(V4_3, twice), (json!(true), json!(2), json!(2)));
}
