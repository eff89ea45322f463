//! One test per version difference (rabbitmq-versions.md D1..D33), each at its boundary:
//! the last version without it and the first with it, named after its row. A scenario
//! without `broker` runs as 3.10 (the goldens hold that).

mod common;

use common::*;
use delaylab_engine::version::{notes, BrokerVersion, BrokerVersion::*};
use serde_json::{json, Value};

/// Runs `scenario` with `broker` set to `v`.
fn on(v: BrokerVersion, mut scenario: Value) -> Value {
    scenario["broker"] = json!(v.as_str());
    run(scenario)
}

fn quorum_work(extra: Value) -> Value {
    let mut args = json!({"x-queue-type": "quorum", "x-dead-letter-exchange": "dlx"});
    for (k, v) in extra.as_object().unwrap() {
        args[k] = v.clone();
    }
    json!({
        "exchanges": [{"name": "dlx", "type": "fanout"}],
        "queues": [{"name": "work", "arguments": args}, {"name": "parked"}],
        "bindings": [{"source": "dlx", "destination": "parked", "destination_type": "queue", "routing_key": ""}]
    })
}

/// One message to `work`, returned by a consumer that takes 1 s each time.
fn returns_forever(outcome: &str, extra: Value) -> Value {
    json!({
        "until": "40s",
        "topology": quorum_work(extra),
        "consumers": [{"name": "w", "queue": "work", "ack": "manual", "prefetch": 1, "handle": "1s", "outcome": outcome},
                      acker("p", "parked")],
        "actions": [publish("0s", "", "work", "m", json!({}))]
    })
}

fn count_in(out: &Value, queue: &str) -> usize {
    deliveries(out).iter().filter(|d| d.2 == queue).count()
}

#[test]
fn d8_default_delivery_limit_3_13_none_4_0_twenty() {
    let out = on(V3_13, returns_forever("requeue", json!({})));
    assert_eq!(
        count_in(&out, "work"),
        41,
        "3.13: no limit, redelivered every second"
    );
    assert_eq!(count_in(&out, "parked"), 0);
    let out = on(V4_0, returns_forever("requeue", json!({})));
    assert_eq!(
        count_in(&out, "work"),
        21,
        "4.0: limit 20 allows 21 deliveries"
    );
    let parked = delivery(&out, "m");
    let last = out["deliveries"].as_array().unwrap().last().unwrap();
    assert_eq!(last["queue"], "parked");
    assert_eq!(last["headers"]["x-death"][0]["reason"], "delivery_limit");
    assert_eq!(parked["redelivered"], false);
}

#[test]
fn d9_4_2_counts_nack_4_3_counts_only_failures() {
    let out = on(V4_2, returns_forever("requeue", json!({})));
    assert_eq!(count_in(&out, "parked"), 1, "4.2: 21st nack dead-letters");
    let out = on(V4_3, returns_forever("requeue", json!({})));
    assert_eq!(count_in(&out, "parked"), 0, "4.3: nack is not a failure");
    assert_eq!(count_in(&out, "work"), 41);
    let out = on(V4_3, returns_forever("reject_requeue", json!({})));
    assert_eq!(
        count_in(&out, "work"),
        21,
        "4.3: the 21st reject dead-letters"
    );
    assert_eq!(count_in(&out, "parked"), 1);
}

#[test]
fn d10_minus_one_3_13_dead_letters_at_once_4_0_unlimited() {
    let out = on(
        V3_13,
        returns_forever("requeue", json!({"x-delivery-limit": -1})),
    );
    assert_eq!(count_in(&out, "work"), 1);
    assert_eq!(count_in(&out, "parked"), 1);
    let out = on(
        V4_0,
        returns_forever("requeue", json!({"x-delivery-limit": -1})),
    );
    assert_eq!(count_in(&out, "work"), 41);
    assert_eq!(count_in(&out, "parked"), 0);
}

#[test]
fn d11_headers_4_2_delivery_count_4_3_acquired_and_failed() {
    let out = on(V4_2, returns_forever("requeue", json!({})));
    let second = &out["deliveries"][1];
    assert_eq!(second["headers"]["x-delivery-count"], 1);
    assert!(second["headers"].get("x-acquired-count").is_none());
    let out = on(V4_3, returns_forever("requeue", json!({})));
    let third = &out["deliveries"][2];
    assert_eq!(third["headers"]["x-acquired-count"], 2);
    assert!(
        third["headers"].get("x-delivery-count").is_none(),
        "no failure yet"
    );
    let out = on(V4_3, returns_forever("reject_requeue", json!({})));
    assert_eq!(out["deliveries"][2]["headers"]["x-delivery-count"], 2);
    assert_eq!(out["deliveries"][2]["headers"]["x-acquired-count"], 2);
}

/// m1..m4 published, prefetch 3, m1 nacked (requeue) first: which comes next.
fn requeue_position(v: BrokerVersion, limit: Option<i64>) -> Vec<String> {
    let mut args = json!({"x-queue-type": "quorum"});
    if let Some(l) = limit {
        args["x-delivery-limit"] = json!(l);
    }
    let s = json!({
        "topology": {"queues": [{"name": "q", "arguments": args}]},
        "consumers": [{"name": "c", "queue": "q", "ack": "manual", "prefetch": 3, "handle": "1s",
                       "outcome": ["requeue", "ack", "ack", "ack", "ack", "ack"]}],
        "actions": [publish("0s", "", "q", "m1", json!({})), publish("0s", "", "q", "m2", json!({})),
                    publish("0s", "", "q", "m3", json!({})), publish("0s", "", "q", "m4", json!({}))]
    });
    deliveries(&on(v, s))
        .into_iter()
        .skip(3)
        .map(|d| d.0)
        .collect()
}

#[test]
fn d12_requeue_position_3_13_back_4_0_front_4_3_front_even_unlimited() {
    assert_eq!(requeue_position(V3_10, None), ["m4", "m1"]);
    assert_eq!(requeue_position(V3_13, None), ["m4", "m1"]);
    assert_eq!(requeue_position(V4_0, None), ["m1", "m4"], "default limit");
    assert_eq!(requeue_position(V4_2, Some(-1)), ["m4", "m1"]);
    assert_eq!(requeue_position(V4_3, Some(-1)), ["m1", "m4"]);
}

#[test]
fn d13_channel_close_returns_to_the_front_in_every_version() {
    // c holds m1 (handle 10 s) and leaves at 1 s; m2 waits. Who is delivered next?
    // No explicit limit on 3.x (-1 dead-letters there, D10); unlimited (-1) on 4.0 so
    // that only the channel-close rule can put m1 in front. 3.x too (`return_all`; live
    // 3.10.8: tests/conformance/v13-quorum-expiry-behind-return.json).
    let s = |limit: Value| {
        json!({
            "topology": {"queues": [{"name": "q", "arguments": {"x-queue-type": "quorum", "x-delivery-limit": limit}}]},
            "consumers": [
                {"name": "c", "queue": "q", "ack": "manual", "prefetch": 1, "handle": "10s", "outcome": "ack", "to": "1s"},
                {"name": "d", "queue": "q", "ack": "manual", "prefetch": 1, "handle": "0s", "outcome": "ack", "from": "2s"}
            ],
            "actions": [publish("0s", "", "q", "m1", json!({})), publish("0s", "", "q", "m2", json!({}))]
        })
    };
    let order = |v, limit| -> Vec<String> {
        deliveries(&on(v, s(limit)))
            .into_iter()
            .skip(1)
            .map(|d| d.0)
            .collect()
    };
    assert_eq!(order(V3_10, Value::Null), ["m1", "m2"]);
    assert_eq!(order(V3_13, Value::Null), ["m1", "m2"]);
    assert_eq!(order(V4_0, json!(-1)), ["m1", "m2"]);
}

#[test]
fn d15_expired_head_behind_a_live_return_4_2_waits_4_3_expires() {
    // m1 (no TTL) is returned at 1 s and stays at the head of the returns (nobody takes
    // it: the consumer leaves); m2 (TTL 2 s) behind it expires at 2 s only on 4.3.
    let s = json!({
        "until": "10s",
        "topology": quorum_work(json!({})),
        "consumers": [{"name": "c", "queue": "work", "ack": "manual", "prefetch": 1, "handle": "1s", "outcome": "requeue", "to": "1500ms"},
                      acker("p", "parked")],
        "actions": [publish("0s", "", "work", "m1", json!({})), publish("0s", "", "work", "m2", json!({"expiration": "2000"}))]
    });
    let out = on(V4_2, s.clone());
    assert!(dropped(&out).is_empty() && count_in(&out, "parked") == 0);
    let out = on(V4_3, s);
    let parked = delivery(&out, "m2");
    assert_eq!(parked["queue"], "parked");
    assert_eq!(parked["delivered_at_ms"], 2000);
}

#[test]
fn d16_delayed_retry_4_2_ignored_4_3_backs_off() {
    let retry = json!({"x-delayed-retry-type": "failed", "x-delayed-retry-min": 1000, "x-delayed-retry-max": 5000});
    let mut s = returns_forever("reject_requeue", retry);
    s["consumers"][0]["handle"] = json!("10ms");
    s["until"] = json!("12s");
    let times = |v| -> Vec<u64> {
        deliveries(&on(v, s.clone()))
            .into_iter()
            .map(|d| d.1)
            .take(5)
            .collect()
    };
    assert_eq!(times(V4_2), [0, 10, 20, 30, 40]);
    // t10 reject (failed 1): ready 1010; t1020 (2): 3020; t3030 (3): 6030; t6040 (4): 10040.
    assert_eq!(times(V4_3), [0, 1010, 3020, 6030, 10040]);
}

#[test]
fn d16_delayed_retry_failed_does_not_delay_a_nack() {
    let retry = json!({"x-delayed-retry-type": "failed", "x-delayed-retry-min": 1000});
    let mut s = returns_forever("requeue", retry);
    s["consumers"][0]["handle"] = json!("10ms");
    s["until"] = json!("100ms");
    assert_eq!(deliveries(&on(V4_3, s))[1].1, 10);
}

fn dead_letter_once(dlrk: bool) -> Value {
    let mut args = json!({"x-message-ttl": 100, "x-dead-letter-exchange": "dlx"});
    if dlrk {
        args["x-dead-letter-routing-key"] = json!("dead");
    }
    json!({
        "topology": {
            "exchanges": [{"name": "dlx", "type": "fanout"}],
            "queues": [{"name": "Q", "arguments": args}, {"name": "b"}, {"name": "c"}, {"name": "out"}],
            "bindings": [{"source": "dlx", "destination": "out", "destination_type": "queue", "routing_key": ""}]
        },
        "consumers": [acker("o", "out")],
        "actions": [publish("0s", "", "Q", "m", json!({"headers": {"CC": ["b"], "BCC": ["c"]}}))]
    })
}

fn out_copy(out: &Value) -> Value {
    out["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["queue"] == "out")
        .expect("dead-lettered copy")
        .clone()
}

#[test]
fn d2_x_last_death_3_10_absent_3_13_present() {
    let d = out_copy(&on(V3_10, dead_letter_once(false)));
    assert!(d["headers"].get("x-last-death-reason").is_none());
    let d = out_copy(&on(V3_13, dead_letter_once(false)));
    assert_eq!(d["headers"]["x-last-death-reason"], "expired");
    assert_eq!(d["headers"]["x-last-death-queue"], "Q");
    assert_eq!(d["headers"]["x-last-death-exchange"], "");
}

#[test]
fn d4_routing_keys_3_13_leave_out_bcc() {
    let d = out_copy(&on(V3_13, dead_letter_once(false)));
    assert_eq!(
        d["headers"]["x-death"][0]["routing-keys"],
        json!(["Q", "b"])
    );
}

#[test]
fn d5_cc_with_dlrk_3_10_removed_3_13_kept() {
    let d = out_copy(&on(V3_10, dead_letter_once(true)));
    assert!(d["headers"].get("CC").is_none());
    let d = out_copy(&on(V3_13, dead_letter_once(true)));
    assert_eq!(d["headers"]["CC"], json!(["b"]));
    assert!(d["headers"].get("BCC").is_none());
}

#[test]
fn d6_expiration_3_10_verbatim_3_13_integer() {
    let s = json!({
        "topology": {"queues": [{"name": "q"}]},
        "consumers": [acker("c", "q")],
        "actions": [publish("0s", "", "q", "m", json!({"expiration": "+5000"}))]
    });
    assert_eq!(
        delivery(&on(V3_10, s.clone()), "m")["properties"]["expiration"],
        "+5000"
    );
    assert_eq!(
        delivery(&on(V3_13, s), "m")["properties"]["expiration"],
        "5000"
    );
}

fn declare_exchange(kind: &str) -> Value {
    json!({"actions": [{"at": "0s", "declare": {"exchange": {"name": "x", "type": kind, "arguments": {"x-delayed-type": "direct"}}}}]})
}

#[test]
fn d7_unknown_exchange_type_3_10_503_connection_3_13_406_channel() {
    let out = on(V3_10, declare_exchange("bogus"));
    assert_eq!(out["errors"][0]["code"], 503);
    assert_eq!(out["errors"][0]["scope"], "connection");
    let out = on(V3_13, declare_exchange("bogus"));
    assert_eq!(
        errors(&out),
        [(
            406,
            "PRECONDITION_FAILED - unknown exchange type 'bogus'".into()
        )]
    );
    assert_eq!(out["errors"][0]["scope"], "channel");
}

#[test]
fn d27_plugin_4_2_declares_4_3_unknown_type() {
    assert!(errors(&on(V4_2, declare_exchange("x-delayed-message"))).is_empty());
    assert_eq!(
        errors(&on(V4_3, declare_exchange("x-delayed-message"))),
        [(
            406,
            "PRECONDITION_FAILED - unknown exchange type 'x-delayed-message'".into()
        )]
    );
}

fn declare_queue(q: Value) -> Value {
    json!({"actions": [{"at": "0s", "declare": {"queue": q}}]})
}

#[test]
fn d22_transient_non_exclusive_accepted_on_every_version() {
    // 4.3.0-4.3.5's source refuses it (541); live 4.3.6 accepts it with a log warning.
    let q = json!({"name": "t", "durable": false});
    for v in BrokerVersion::ALL {
        assert!(errors(&on(v, declare_queue(q.clone()))).is_empty(), "{v}");
    }
}

#[test]
fn d23_queue_version_1_4_2_accepted_4_3_406() {
    let q = json!({"name": "q", "arguments": {"x-queue-version": 1}});
    assert!(errors(&on(V4_2, declare_queue(q.clone()))).is_empty());
    assert_eq!(
        errors(&on(V4_3, declare_queue(q))),
        [(406, "PRECONDITION_FAILED - invalid arg 'x-queue-version' for queue 'q' in vhost '/': \"unsupported queue version '1'\"".into())]
    );
}

#[test]
fn d24_queue_mode_4_3_still_accepted_seen_live() {
    // The 4.3.0 release notes say it errors out; live 4.3.6 accepts it (v23).
    let q = json!({"name": "q", "arguments": {"x-queue-mode": "lazy"}});
    assert!(errors(&on(V4_3, declare_queue(q))).is_empty());
    let n = notes(V4_3);
    let d24 = n.iter().find(|n| n.row == "D24").unwrap();
    assert_eq!(d24.confidence.as_str(), "live-checked");
    assert!(d24.checked_by.contains("v23"));
}

#[test]
fn d31_classic_with_delayed_retry_args_4_2_accepted_4_3_406() {
    let q = json!({"name": "q", "arguments": {"x-delayed-retry-min": 1000}});
    assert!(errors(&on(V4_2, declare_queue(q.clone()))).is_empty());
    assert_eq!(
        errors(&on(V4_3, declare_queue(q))),
        [(406, "PRECONDITION_FAILED - invalid arg 'x-delayed-retry-min' for queue 'q' in vhost '/' of queue type rabbit_classic_queue".into())]
    );
}

#[test]
fn d26_topic_hash_cap_4_2_allowed_4_3_406() {
    let s = json!({
        "topology": {"exchanges": [{"name": "t", "type": "topic"}], "queues": [{"name": "q"}]},
        "actions": [{"at": "0s", "declare": {"binding": {"source": "t", "destination": "q", "destination_type": "queue", "routing_key": "#.a.#.b.#"}}}]
    });
    assert!(errors(&on(V4_2, s.clone())).is_empty());
    assert_eq!(errors(&on(V4_3, s))[0].0, 406);
}

#[test]
fn d28_void_x_delay_3_10_no_delay_3_13_541() {
    let s = json!({
        "topology": {
            "exchanges": [{"name": "d", "type": "x-delayed-message", "arguments": {"x-delayed-type": "direct"}}],
            "queues": [{"name": "q"}],
            "bindings": [{"source": "d", "destination": "q", "destination_type": "queue", "routing_key": "k"}]
        },
        "consumers": [acker("c", "q")],
        "actions": [publish("0s", "d", "k", "m", json!({"headers": {"x-delay": null}}))]
    });
    assert_eq!(delivery(&on(V3_10, s.clone()), "m")["delivered_at_ms"], 0);
    assert_eq!(errors(&on(V3_13, s))[0].0, 541);
}

#[test]
fn d32_headers_exchange_3_10_one_equals_one_point_zero_3_13_not() {
    let s = json!({
        "topology": {
            "exchanges": [{"name": "h", "type": "headers"}],
            "queues": [{"name": "q"}],
            "bindings": [{"source": "h", "destination": "q", "destination_type": "queue", "routing_key": "", "arguments": {"n": 1}}]
        },
        "consumers": [acker("c", "q")],
        "actions": [publish("0s", "h", "", "m", json!({"headers": {"n": 1.0}}))]
    });
    assert_eq!(count_in(&on(V3_10, s.clone()), "q"), 1);
    assert_eq!(count_in(&on(V3_13, s), "q"), 0);
}

/// 4.2 with a delayed exchange holding two orders, upgraded to 4.3 at 1 min.
fn upgrade_with_orders_waiting() -> Value {
    json!({
        "broker": "4.2",
        "until": "40m",
        "topology": {
            "exchanges": [{"name": "delayed", "type": "x-delayed-message", "arguments": {"x-delayed-type": "direct"}}],
            "queues": [{"name": "close", "arguments": {"x-queue-type": "quorum"}}],
            "bindings": [{"source": "delayed", "destination": "close", "destination_type": "queue", "routing_key": "k"}]
        },
        "consumers": [acker("closer", "close")],
        "actions": [
            publish("0s", "delayed", "k", "A", json!({"delivery_mode": 2, "headers": {"x-delay": 1800000}})),
            publish("10s", "delayed", "k", "B", json!({"delivery_mode": 2, "headers": {"x-delay": 1800000}})),
            {"at": "1m", "upgrade": {"to": "4.3", "downtime": "30s"}},
            publish("2m", "delayed", "k", "C", json!({"delivery_mode": 2, "headers": {"x-delay": 60000}})),
            {"at": "3m", "declare": {"exchange": {"name": "delayed", "type": "x-delayed-message", "arguments": {"x-delayed-type": "direct"}}}}
        ]
    })
}

#[test]
fn d27_upgrade_to_4_3_loses_held_messages_and_refuses_publishes() {
    let out = run(upgrade_with_orders_waiting());
    assert!(out["deliveries"].as_array().unwrap().is_empty());
    assert_eq!(
        dropped(&out),
        [
            ("A".into(), 90_000, "plugin_removed".into()),
            ("B".into(), 90_000, "plugin_removed".into())
        ]
    );
    assert_eq!(
        errors(&out),
        [
            (406, "PRECONDITION_FAILED - Cannot route message through exchange 'delayed' in vhost '/': exchange type x-delayed-message not found".into()),
            (406, "PRECONDITION_FAILED - invalid exchange type 'x-delayed-message'".into()),
        ]
    );
}

#[test]
fn upgrade_keeps_durable_queues_and_applies_the_new_limit() {
    // 3.13: quorum queue without a limit; upgraded to 4.0, the poison message now
    // dead-letters after 20 returns.
    let mut s = returns_forever("requeue", json!({}));
    s["until"] = json!("60s");
    s["actions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"at": "5500ms", "upgrade": {"to": "4.0", "downtime": "1s"}}));
    let out = on(V3_13, s);
    assert_eq!(count_in(&out, "parked"), 1, "{out:#}");
}

#[test]
fn trace_tells_the_upgrade_in_words() {
    use delaylab_engine::report::{run_with, trace};
    let s = delaylab_engine::scenario::load_value(&upgrade_with_orders_waiting()).unwrap();
    let mut lines = Vec::new();
    run_with(&s, Default::default(), |e, sim| {
        lines.push(trace::event_json(e, sim).to_string())
    });
    let up = lines
        .iter()
        .find(|l| l.contains("broker_upgraded"))
        .expect("an upgrade event");
    assert!(up.contains("cannot run the delayed-message plugin"), "{up}");
    assert!(
        up.contains("the 2 message(s) it was holding are lost"),
        "{up}"
    );
}

#[test]
fn downgrade_is_refused_in_words() {
    let s = json!({"broker": "4.3", "actions": [{"at": "0s", "upgrade": {"to": "4.0"}}]});
    let sc = delaylab_engine::scenario::load_value(&s).unwrap();
    let mut texts = Vec::new();
    delaylab_engine::report::run_with(&sc, Default::default(), |e, _| {
        if let delaylab_engine::EventKind::BrokerUpgraded { to, text, .. } = &e.kind {
            texts.push((*to, text.to_string()));
        }
    });
    assert_eq!(texts.len(), 1);
    assert_eq!(texts[0].0, V4_3);
    assert!(texts[0].1.contains("cannot be downgraded"));
}

/// Issue 29 item 3: the upgrade preset loaded on 4.3 upgrades 4.3 to 4.3: a restart,
/// said as one (the log read "upgraded RabbitMQ 4.3 -> 4.3").
#[test]
fn an_upgrade_to_the_running_version_is_a_restart_in_words() {
    let s = json!({"broker": "4.3", "actions": [{"at": "0s", "upgrade": {"to": "4.3"}}]});
    let sc = delaylab_engine::scenario::load_value(&s).unwrap();
    let mut texts = Vec::new();
    delaylab_engine::report::run_with(&sc, Default::default(), |e, _| {
        if let delaylab_engine::EventKind::BrokerUpgraded { from, to, text } = &e.kind {
            texts.push((*from, *to, text.to_string()));
        }
    });
    assert_eq!(texts.len(), 1);
    assert_eq!((texts[0].0, texts[0].1), (V4_3, V4_3));
    assert!(
        texts[0]
            .2
            .starts_with("The node restarted on RabbitMQ 4.3.6, the version it already runs"),
        "{}",
        texts[0].2
    );
    assert!(!texts[0].2.contains("came back as"));
}

#[test]
fn absent_broker_is_3_10_and_saved_absent() {
    let s = delaylab_engine::scenario::load_value(&json!({"name": "n"})).unwrap();
    let saved = delaylab_engine::scenario::save::to_value(&s);
    assert!(saved.get("broker").is_none());
    let s = delaylab_engine::scenario::load_value(&json!({"name": "n", "broker": "4.1"})).unwrap();
    assert_eq!(
        delaylab_engine::scenario::save::to_value(&s)["broker"],
        "4.1"
    );
    assert!(run(json!({})).get("broker").is_none());
}

#[test]
fn every_version_has_notes_and_labels() {
    for v in BrokerVersion::ALL {
        assert!(!notes(v).is_empty(), "{v}");
        assert!(v.label().contains(v.as_str()));
    }
}

#[test]
fn d1_client_x_death_3_13_merged_4_0_replaced() {
    let mut s: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scenarios/x-death-3-13-republished.json"
        ))
        .unwrap(),
    )
    .unwrap();
    // The preset is written for 4.x (`versions`); here it runs on each version.
    s.as_object_mut().unwrap().remove("versions");
    let count = |v: BrokerVersion, s: &mut Value| {
        s["broker"] = json!(v.as_str());
        delivery(&run(s.clone()), "order-1-again")["headers"]["x-death"][0]["count"].clone()
    };
    assert_eq!(count(V3_10, &mut s), 2, "3.10 merges");
    assert_eq!(count(V3_13, &mut s), 2, "3.13.3+ merges again");
    assert_eq!(count(V4_0, &mut s), 1, "4.0 replaces");
}

#[test]
fn d16_a_retry_that_falls_due_during_a_restart_comes_back_after_it() {
    let retry = json!({"x-delayed-retry-type": "failed", "x-delayed-retry-min": 1000});
    let mut s = returns_forever("reject_requeue", retry);
    s["consumers"][0]["handle"] = json!("10ms");
    s["consumers"][0]["outcome"] = json!(["reject_requeue", "ack"]);
    s["actions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"at": "500ms", "restart_node": {"downtime": "2s"}}));
    // Set aside at 10 ms until 1010; the node is down 500..2500: delivered at 2500.
    let times: Vec<u64> = deliveries(&on(V4_3, s)).into_iter().map(|d| d.1).collect();
    assert_eq!(times, [0, 2500]);
}

#[test]
fn d25_global_qos_quorum_refused_to_4_2_accepted_4_3() {
    let scenario = |queue_type: &str| {
        json!({
            "topology": {"queues": [{"name": "q", "arguments": {"x-queue-type": queue_type}}]},
            "consumers": [{"name": "c", "queue": "q", "prefetch": 5, "global_qos": true}],
            "actions": [publish("100ms", "", "q", "m", json!({}))]
        })
    };
    let out = on(V4_2, scenario("quorum"));
    assert_eq!(
        errors(&out),
        [(
            540,
            "NOT_IMPLEMENTED - queue 'q' in vhost '/' does not support global qos".into()
        )]
    );
    assert_eq!(out["errors"][0]["scope"], "connection");
    assert!(deliveries(&out).is_empty());
    let out = on(V4_3, scenario("quorum"));
    assert!(errors(&out).is_empty());
    assert_eq!(deliveries(&out).len(), 1);
    // A classic queue takes a channel-wide limit on every version.
    for v in BrokerVersion::ALL {
        assert_eq!(deliveries(&on(v, scenario("classic"))).len(), 1, "{v}");
    }
}

#[test]
fn d1_client_x_death_3_10_merged_without_first_death_4_0_replaced() {
    // Live 3.10.8 and 4.0.5 (tests/conformance/v01-client-x-death.json).
    let entry = json!({"count": 5, "reason": "expired", "queue": "wait", "exchange": "", "routing-keys": ["wait"]});
    let s = json!({
        "topology": {"queues": [
            {"name": "wait", "arguments": {"x-message-ttl": 100, "x-dead-letter-exchange": "", "x-dead-letter-routing-key": "done"}},
            {"name": "done"}]},
        "consumers": [acker("d", "done")],
        "actions": [publish("0s", "", "wait", "m", json!({"headers": {"x-death": [entry]}}))]
    });
    let out = on(V3_10, s.clone());
    let h = &delivery(&out, "m")["headers"];
    assert_eq!(h["x-death"][0]["count"], 6, "3.10 continues the count");
    assert!(
        h.get("x-first-death-queue").is_none(),
        "3.10 adds x-first-death-* only to a message without x-death"
    );
    let out = on(V4_0, s);
    let h = &delivery(&out, "m")["headers"];
    assert_eq!(h["x-death"][0]["count"], 1, "4.0 replaces it");
    assert_eq!(h["x-first-death-queue"], "wait");
}
