//! Part A rules 9, 10, 11, 14: length limits, reject/nack, unacked TTL, declare errors.
mod common;
use common::*;
use serde_json::json;

fn limited(args: serde_json::Value) -> serde_json::Value {
    let mut a = json!({"x-dead-letter-exchange": "dlx", "x-max-length": 2});
    for (k, v) in args.as_object().unwrap() {
        a[k] = v.clone();
    }
    json!({
        "exchanges": [{"name": "dlx", "type": "fanout"}],
        "queues": [{"name": "q", "arguments": a}, {"name": "dlq"}],
        "bindings": [{"source": "dlx", "destination": "dlq", "destination_type": "queue", "routing_key": ""}]
    })
}

fn four() -> Vec<serde_json::Value> {
    (1..=4)
        .map(|i| publish(&format!("{i}ms"), "", "q", &format!("n{i}"), json!({})))
        .collect()
}

#[test]
fn rule9_drop_head_dead_letters_the_oldest_as_maxlen() {
    let out = run(
        json!({"topology": limited(json!({})), "consumers": [acker("c", "dlq")], "actions": four()}),
    );
    let got: Vec<String> = deliveries(&out).into_iter().map(|d| d.0).collect();
    assert_eq!(got, vec!["n1", "n2"]);
    assert_eq!(
        out["deliveries"][0]["headers"]["x-death"][0]["reason"],
        "maxlen"
    );
    assert_eq!(out["final"]["queues"]["q"]["ready"], 2);
}

#[test]
fn rule9_reject_publish_refuses_new_messages_and_never_dead_letters() {
    let out = run(
        json!({"topology": limited(json!({"x-overflow": "reject-publish"})), "actions": four()}),
    );
    assert_eq!(
        dropped(&out),
        vec![
            ("n3".into(), 3, "reject_publish".into()),
            ("n4".into(), 4, "reject_publish".into())
        ]
    );
    assert_eq!(out["final"]["queues"]["dlq"]["ready"], 0);
}

#[test]
fn rule9_reject_publish_dlx_nacks_and_dead_letters_the_new_message() {
    let out = run(
        json!({"topology": limited(json!({"x-overflow": "reject-publish-dlx"})), "consumers": [acker("c", "dlq")], "actions": four()}),
    );
    let got: Vec<String> = deliveries(&out).into_iter().map(|d| d.0).collect();
    assert_eq!(got, vec!["n3", "n4"]);
    assert_eq!(out["final"]["queues"]["q"]["ready"], 2);
}

#[test]
fn rule9_max_length_zero_with_reject_publish_refuses_even_with_a_consumer() {
    let out = run(
        json!({"topology": {"queues": [{"name": "q", "arguments": {"x-max-length": 0, "x-overflow": "reject-publish"}}]},
                         "consumers": [acker("c", "q")], "actions": [publish("0ms", "", "q", "m", json!({}))]}),
    );
    assert_eq!(
        dropped(&out),
        vec![("m".into(), 0, "reject_publish".into())]
    );
}

#[test]
fn rule9_max_length_zero_drop_head_still_feeds_a_waiting_consumer() {
    let out = run(
        json!({"topology": {"queues": [{"name": "q", "arguments": {"x-max-length": 0}}]},
                         "consumers": [acker("c", "q")], "actions": [publish("0ms", "", "q", "m", json!({}))]}),
    );
    assert_eq!(deliveries(&out), vec![("m".into(), 0, "q".into())]);
}

#[test]
fn rule10_reject_dead_letters_as_rejected_and_nack_requeue_redelivers() {
    let out = run(json!({"topology": limited(json!({"x-max-length": 100})),
        "consumers": [{"name": "c", "queue": "q", "outcome": ["requeue", "reject"], "handle": "10ms"}, acker("d", "dlq")],
        "actions": [publish("0ms", "", "q", "m", json!({}))]}));
    let d = out["deliveries"].as_array().unwrap();
    assert_eq!(d[0]["redelivered"], false);
    assert_eq!(d[1]["redelivered"], true);
    assert_eq!(d[1]["delivered_at_ms"], 10);
    assert!(d[1]["headers"].get("x-death").is_none());
    assert_eq!(d[2]["queue"], "dlq");
    assert_eq!(d[2]["delivered_at_ms"], 20);
    assert_eq!(d[2]["headers"]["x-death"][0]["reason"], "rejected");
}

#[test]
fn rule10_classic_requeue_returns_to_the_original_position_quorum_to_the_back() {
    // m1..m3 delivered (prefetch 3), m1 nacked with requeue first: a classic queue puts
    // it back before m4, a 3.10 quorum queue behind it.
    for (kind, expect) in [
        ("classic", ["m1", "m2", "m3", "m1", "m4"]),
        ("quorum", ["m1", "m2", "m3", "m4", "m1"]),
    ] {
        let out = run(json!({
            "topology": {"queues": [{"name": "q", "arguments": {"x-queue-type": kind}}]},
            "consumers": [{"name": "c", "queue": "q", "prefetch": 3, "handle": "10ms", "outcome": ["requeue", "ack"]}],
            "actions": four_at_once()
        }));
        let got: Vec<String> = deliveries(&out).into_iter().map(|d| d.0).collect();
        assert_eq!(got, expect, "{kind}");
    }
}

#[test]
fn rule11_unacked_messages_do_not_expire_but_requeued_after_ttl_are_expired() {
    let out = run(
        json!({"topology": limited(json!({"x-max-length": 100, "x-message-ttl": 100})),
        "consumers": [{"name": "c", "queue": "q", "handle": "500ms", "outcome": "requeue", "to": "1s"}, acker("d", "dlq")],
        "actions": [publish("0ms", "", "q", "m", json!({}))]}),
    );
    let d = out["deliveries"].as_array().unwrap();
    assert_eq!(d[0]["queue"], "q");
    assert_eq!(d[1]["queue"], "dlq");
    assert_eq!(d[1]["delivered_at_ms"], 500);
    assert_eq!(d[1]["headers"]["x-death"][0]["reason"], "expired");
}

#[test]
fn rule14_queue_declare_errors_are_406() {
    let decl = |name: &str, args: serde_json::Value| json!({"at": "0ms", "declare": {"queue": {"name": name, "arguments": args}}});
    let out = run(json!({"actions": [
        decl("a", json!({"x-message-ttl": -1})),
        decl("b", json!({"x-message-ttl": "60000"})),
        decl("c", json!({"x-dead-letter-routing-key": "k"})),
        decl("d", json!({"x-expires": 0})),
        decl("e", json!({"x-overflow": "bogus"}))
    ]}));
    let errs = errors(&out);
    assert_eq!(errs.len(), 5);
    assert!(errs.iter().all(|e| e.0 == 406));
    assert!(errs[0].1.contains("{value_negative,-1}"), "{}", errs[0].1);
    assert!(
        errs[2].1.contains("routing_key_but_no_dlx_defined"),
        "{}",
        errs[2].1
    );
    assert!(errs[3].1.contains("{value_zero,0}"), "{}", errs[3].1);
    assert!(errs[4].1.contains("invalid_overflow"), "{}", errs[4].1);
    assert!(out["final"]["queues"].as_object().unwrap().is_empty());
}

#[test]
fn rule6_expiration_parsing() {
    let actions: Vec<serde_json::Value> = [
        "+500",
        "0500",
        "",
        " 500",
        "abc",
        "1.5",
        "-1",
        "315360000001",
    ]
    .iter()
    .map(|e| publish("0ms", "", "q", e, json!({"expiration": e})))
    .collect();
    let out =
        run(json!({"until": "100ms", "topology": {"queues": [{"name": "q"}]}, "actions": actions}));
    let errs = errors(&out);
    assert_eq!(out["final"]["queues"]["q"]["ready"], 2);
    assert_eq!(errs.len(), 6);
    assert_eq!(
        errs[2].1,
        "PRECONDITION_FAILED - invalid expiration 'abc': no_integer"
    );
    assert_eq!(
        errs[3].1,
        "PRECONDITION_FAILED - invalid expiration '1.5': {leftover_string,\".5\"}"
    );
    assert_eq!(
        errs[4].1,
        "PRECONDITION_FAILED - invalid expiration '-1': {value_negative,-1}"
    );
    assert_eq!(
        errs[5].1,
        "PRECONDITION_FAILED - invalid expiration '315360000001': {value_too_large,315360000001}"
    );
    assert_eq!(out["errors"][0]["scope"], "channel");
}

fn four_at_once() -> Vec<serde_json::Value> {
    (1..=4)
        .map(|i| publish("0ms", "", "q", &format!("m{i}"), json!({})))
        .collect()
}

#[test]
fn auto_delete_queue_goes_with_its_last_consumer() {
    let out = run(
        json!({"topology": {"queues": [{"name": "q", "auto_delete": true}]},
        "consumers": [{"name": "c", "queue": "q", "prefetch": 1, "handle": "1h", "to": "1s"}],
        "actions": [publish("0ms", "", "q", "a", json!({})), publish("0ms", "", "q", "b", json!({}))]}),
    );
    assert_eq!(
        dropped(&out),
        vec![
            ("a".into(), 1000, "queue_deleted".into()),
            ("b".into(), 1000, "queue_deleted".into())
        ]
    );
    assert!(out["final"]["queues"].as_object().unwrap().is_empty());
}
