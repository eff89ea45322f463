//! Part A rules 15-21: the delayed-message exchange plugin (3.10.2).
mod common;
use common::*;
use serde_json::{json, Value};

fn plugin_topology() -> Value {
    json!({
        "exchanges": [{"name": "delayed", "type": "x-delayed-message", "arguments": {"x-delayed-type": "direct"}}],
        "queues": [{"name": "q"}],
        "bindings": [{"source": "delayed", "destination": "q", "destination_type": "queue", "routing_key": "k"}]
    })
}

fn delayed(at: &str, body: &str, delay: Value) -> Value {
    publish(
        at,
        "delayed",
        "k",
        body,
        json!({"headers": {"x-delay": delay}}),
    )
}

#[test]
fn rule15_due_time_order_and_publish_order_ties() {
    let out = run(json!({
        "topology": plugin_topology(),
        "consumers": [acker("c", "q")],
        "actions": [delayed("0ms", "A", json!(3000)), delayed("100ms", "B", json!(500)),
                    delayed("200ms", "C", json!(400)), delayed("601ms", "D", json!(0))]
    }));
    let got: Vec<(String, u64)> = deliveries(&out)
        .into_iter()
        .map(|(b, t, _)| (b, t))
        .collect();
    assert_eq!(
        got,
        vec![
            ("B".into(), 600),
            ("C".into(), 600),
            ("D".into(), 601),
            ("A".into(), 3000)
        ]
    );
}

#[test]
fn rule16_no_delay_for_missing_nonpositive_huge_boolean_or_other_case() {
    let mut actions = vec![publish("0ms", "delayed", "k", "missing", json!({}))];
    actions.push(delayed("0ms", "zero", json!(0)));
    actions.push(delayed("0ms", "negative", json!(-5)));
    actions.push(delayed("0ms", "huge", json!(4294967296u64)));
    actions.push(delayed("0ms", "bool", json!(true)));
    actions.push(publish(
        "0ms",
        "delayed",
        "k",
        "upper",
        json!({"headers": {"X-Delay": 5000}}),
    ));
    actions.push(delayed("0ms", "string", json!("700")));
    let out = run(
        json!({"topology": plugin_topology(), "consumers": [acker("c", "q")], "actions": actions}),
    );
    let at = |b: &str| delivery(&out, b)["delivered_at_ms"].as_u64().unwrap();
    for b in ["missing", "zero", "negative", "huge", "bool", "upper"] {
        assert_eq!(at(b), 0, "{b}");
    }
    assert_eq!(at("string"), 700);
}

#[test]
fn rule16_non_numeric_string_closes_the_connection_with_541() {
    let out = run(
        json!({"topology": plugin_topology(), "consumers": [acker("c", "q")],
                         "actions": [delayed("0ms", "bad", json!("abc")), delayed("1ms", "next", json!(10))]}),
    );
    let errs = errors(&out);
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].0, 541);
    assert_eq!(out["errors"][0]["scope"], "connection");
    assert_eq!(deliveries(&out), vec![("next".into(), 11, "q".into())]);
}

#[test]
fn rule17_mandatory_delayed_publish_is_returned_at_once_and_delivered_later() {
    let out = run(
        json!({"topology": plugin_topology(), "consumers": [acker("c", "q")],
        "actions": [{"at": "0ms", "publish": {"exchange": "delayed", "routing_key": "k", "body": "M", "mandatory": true,
                     "properties": {"headers": {"x-delay": 1000}}}}]}),
    );
    assert_eq!(out["returned"][0]["at_ms"], 0);
    assert_eq!(out["returned"][0]["code"], 312);
    assert_eq!(deliveries(&out), vec![("M".into(), 1000, "q".into())]);
}

#[test]
fn rule17_routing_uses_the_bindings_at_the_due_time() {
    let out = run(json!({
        "topology": {"exchanges": [{"name": "delayed", "type": "x-delayed-message", "arguments": {"x-delayed-type": "direct"}}],
                     "queues": [{"name": "q"}]},
        "consumers": [acker("c", "q")],
        "actions": [delayed("0ms", "late-bound", json!(1000)), delayed("0ms", "lost", json!(3000)),
                    {"at": "500ms", "declare": {"binding": {"source": "delayed", "destination": "q", "destination_type": "queue", "routing_key": "k"}}},
                    {"at": "2s", "delete": {"binding": {"source": "delayed", "destination": "q", "destination_type": "queue", "routing_key": "k"}}}]
    }));
    assert_eq!(
        deliveries(&out),
        vec![("late-bound".into(), 1000, "q".into())]
    );
    assert_eq!(
        dropped(&out),
        vec![("lost".into(), 3000, "unroutable".into())]
    );
}

#[test]
fn rule18_consumer_sees_positive_x_delay_and_dead_lettered_copy_reads_negative() {
    let out = run(json!({
        "topology": {"exchanges": [{"name": "delayed", "type": "x-delayed-message", "arguments": {"x-delayed-type": "direct"}},
                                   {"name": "dlx", "type": "fanout"}],
                     "queues": [{"name": "q", "arguments": {"x-dead-letter-exchange": "dlx"}}, {"name": "dlq"}],
                     "bindings": [{"source": "delayed", "destination": "q", "destination_type": "queue", "routing_key": "k"},
                                  {"source": "dlx", "destination": "dlq", "destination_type": "queue", "routing_key": ""}]},
        "consumers": [{"name": "rejecter", "queue": "q", "outcome": "reject"}, acker("c", "dlq")],
        "actions": [delayed("0ms", "A", json!(500))]
    }));
    let d = out["deliveries"].as_array().unwrap();
    assert_eq!(d[0]["headers"]["x-delay"], 500);
    assert_eq!(d[1]["queue"], "dlq");
    assert_eq!(d[1]["headers"]["x-delay"], -500);
    assert_eq!(d[1]["headers"]["x-death"][0]["exchange"], "delayed");
}

#[test]
fn rule19_ttl_starts_after_the_delay() {
    let out = run(json!({
        "topology": {"exchanges": [{"name": "delayed", "type": "x-delayed-message", "arguments": {"x-delayed-type": "direct"}},
                                   {"name": "dlx", "type": "fanout"}],
                     "queues": [{"name": "q", "arguments": {"x-dead-letter-exchange": "dlx"}}, {"name": "dlq"}],
                     "bindings": [{"source": "delayed", "destination": "q", "destination_type": "queue", "routing_key": "k"},
                                  {"source": "dlx", "destination": "dlq", "destination_type": "queue", "routing_key": ""}]},
        "consumers": [acker("c", "dlq")],
        "actions": [publish("0ms", "delayed", "k", "A", json!({"expiration": "300", "headers": {"x-delay": 500}}))]
    }));
    assert_eq!(deliveries(&out), vec![("A".into(), 800, "dlq".into())]);
}

#[test]
fn rule20_declare_errors() {
    let out = run(json!({"actions": [
        {"at": "0ms", "declare": {"exchange": {"name": "a", "type": "x-delayed-message"}}},
        {"at": "0ms", "declare": {"exchange": {"name": "b", "type": "x-delayed-message", "arguments": {"x-delayed-type": "x-delayed-message"}}}},
        {"at": "0ms", "declare": {"exchange": {"name": "c", "type": "bogus"}}}
    ]}));
    let errs = errors(&out);
    assert_eq!(errs[0].0, 406);
    assert!(
        errs[0]
            .1
            .contains("Invalid argument, 'x-delayed-type' must be an existing exchange type"),
        "{}",
        errs[0].1
    );
    assert_eq!(errs[1].0, 406);
    assert_eq!(errs[2].0, 503);
    assert_eq!(out["errors"][2]["scope"], "connection");
}

#[test]
fn rule21_restart_releases_overdue_messages_at_once_and_loss_drops_the_store() {
    let out = run(
        json!({"topology": plugin_topology(), "consumers": [acker("c", "q")],
        "actions": [delayed("0ms", "A", json!(1000)), delayed("0ms", "B", json!(2000)), delayed("0ms", "C", json!(60000)),
                    {"at": "500ms", "restart_node": {"downtime": "5s"}},
                    {"at": "30s", "lose_node": {}}]}),
    );
    assert_eq!(
        deliveries(&out),
        vec![
            ("A".into(), 5500, "q".into()),
            ("B".into(), 5500, "q".into())
        ]
    );
    assert_eq!(dropped(&out), vec![("C".into(), 30000, "node_lost".into())]);
}

#[test]
fn messages_delayed_counts_the_store() {
    let out = run(json!({"topology": plugin_topology(), "until": "1s",
        "actions": [delayed("0ms", "A", json!(5000)), delayed("0ms", "B", json!(6000))]}));
    assert_eq!(out["final"]["delayed"]["delayed"], 2);
}
