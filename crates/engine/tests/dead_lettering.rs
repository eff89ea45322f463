//! Part A rules 7, 8, 12, 13: x-death, dead-letter routing keys, cycles, missing DLX.
mod common;
use common::*;
use serde_json::json;

#[test]
fn rule7_x_death_one_entry_per_queue_and_reason_newest_first() {
    // Retry loop: work rejects to retry (TTL 100, DLX "" back to work), three rounds.
    let out = run(json!({
        "topology": {"queues": [
            {"name": "work", "arguments": {"x-dead-letter-exchange": "", "x-dead-letter-routing-key": "retry"}},
            {"name": "retry", "arguments": {"x-dead-letter-exchange": "", "x-dead-letter-routing-key": "work", "x-message-ttl": 100}}]},
        "consumers": [{"name": "w", "queue": "work", "outcome": ["reject", "reject", "ack"]}],
        "actions": [publish("0ms", "", "work", "m", json!({"expiration": "60000"}))]
    }));
    let last = out["deliveries"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["delivered_at_ms"], 200);
    let deaths = last["headers"]["x-death"].as_array().unwrap();
    assert_eq!(deaths.len(), 2);
    assert_eq!(deaths[0]["queue"], "retry");
    assert_eq!(deaths[0]["reason"], "expired");
    assert_eq!(deaths[0]["count"], 2);
    assert_eq!(deaths[1]["queue"], "work");
    assert_eq!(deaths[1]["count"], 2);
    assert_eq!(deaths[1]["original-expiration"], "60000");
    assert!(
        deaths[0].get("original-expiration").is_none(),
        "expiration was removed at the first death"
    );
    assert_eq!(last["headers"]["x-first-death-queue"], "work");
    assert_eq!(last["headers"]["x-first-death-reason"], "rejected");
    assert!(last["headers"].get("x-last-death-queue").is_none());
    assert!(last["properties"].get("expiration").is_none());
    assert_eq!(last["redelivered"], false);
}

#[test]
fn rule8_without_dlrk_all_original_keys_route_including_cc() {
    let out = run(json!({
        "topology": {"exchanges": [{"name": "x", "type": "direct"}, {"name": "dlx", "type": "direct"}],
                     "queues": [{"name": "wait", "arguments": {"x-dead-letter-exchange": "dlx", "x-message-ttl": 10}},
                                {"name": "by-key"}, {"name": "by-cc"}],
                     "bindings": [{"source": "x", "destination": "wait", "destination_type": "queue", "routing_key": "k"},
                                  {"source": "dlx", "destination": "by-key", "destination_type": "queue", "routing_key": "k"},
                                  {"source": "dlx", "destination": "by-cc", "destination_type": "queue", "routing_key": "c"}]},
        "consumers": [acker("a", "by-key"), acker("b", "by-cc")],
        "actions": [publish("0ms", "x", "k", "m", json!({"headers": {"CC": ["c"]}}))]
    }));
    let mut qs: Vec<String> = deliveries(&out).into_iter().map(|d| d.2).collect();
    qs.sort();
    assert_eq!(qs, vec!["by-cc", "by-key"]);
    assert_eq!(out["deliveries"][0]["headers"]["CC"], json!(["c"]));
}

#[test]
fn rule8_with_dlrk_only_the_dlrk_routes_and_cc_is_removed() {
    let out = run(json!({
        "topology": {"exchanges": [{"name": "dlx", "type": "direct"}],
                     "queues": [{"name": "wait", "arguments": {"x-dead-letter-exchange": "dlx", "x-dead-letter-routing-key": "due", "x-message-ttl": 10}},
                                {"name": "due"}, {"name": "by-cc"}],
                     "bindings": [{"source": "dlx", "destination": "due", "destination_type": "queue", "routing_key": "due"},
                                  {"source": "dlx", "destination": "by-cc", "destination_type": "queue", "routing_key": "c"}]},
        "consumers": [acker("a", "due"), acker("b", "by-cc")],
        "actions": [publish("0ms", "", "wait", "m", json!({"headers": {"CC": ["c"]}}))]
    }));
    assert_eq!(deliveries(&out), vec![("m".into(), 10, "due".into())]);
    let d = delivery(&out, "m");
    assert!(d["headers"].get("CC").is_none());
    assert_eq!(
        d["headers"]["x-death"][0]["routing-keys"],
        json!(["wait", "c"])
    );
}

#[test]
fn rule12_self_loop_by_ttl_drops_at_the_first_expiry() {
    let out = run(json!({
        "topology": {"queues": [{"name": "q", "arguments": {"x-dead-letter-exchange": "", "x-message-ttl": 100}}]},
        "actions": [publish("0ms", "", "q", "m", json!({}))]
    }));
    assert_eq!(
        dropped(&out),
        vec![("m".into(), 100, "dead_letter_cycle".into())]
    );
    assert_eq!(out["final"]["queues"]["q"]["ready"], 0);
}

#[test]
fn rule12_other_targets_of_a_cyclic_dead_lettering_still_get_their_copy() {
    let out = run(json!({
        "topology": {"exchanges": [{"name": "fan", "type": "fanout"}],
                     "queues": [{"name": "q", "arguments": {"x-dead-letter-exchange": "fan", "x-message-ttl": 100}}, {"name": "other"}],
                     "bindings": [{"source": "fan", "destination": "q", "destination_type": "queue", "routing_key": ""},
                                  {"source": "fan", "destination": "other", "destination_type": "queue", "routing_key": ""}]},
        "actions": [publish("0ms", "", "q", "m", json!({}))]
    }));
    assert_eq!(
        dropped(&out),
        vec![("m".into(), 100, "dead_letter_cycle".into())]
    );
    assert_eq!(out["final"]["queues"]["other"]["ready"], 1);
}

#[test]
fn rule12_a_cycle_containing_a_rejection_is_allowed() {
    let out = run(json!({
        "topology": {"queues": [
            {"name": "work", "arguments": {"x-dead-letter-exchange": "", "x-dead-letter-routing-key": "retry"}},
            {"name": "retry", "arguments": {"x-dead-letter-exchange": "", "x-dead-letter-routing-key": "work", "x-message-ttl": 100}}]},
        "consumers": [{"name": "w", "queue": "work", "outcome": ["reject", "ack"]}],
        "actions": [publish("0ms", "", "work", "m", json!({}))]
    }));
    let got: Vec<u64> = deliveries(&out).into_iter().map(|d| d.1).collect();
    assert_eq!(got, vec![0, 100]);
    assert!(dropped(&out).is_empty());
}

#[test]
fn rule13_missing_dlx_drops_silently_and_is_looked_up_at_dead_letter_time() {
    let out = run(json!({
        "topology": {"queues": [{"name": "wait", "arguments": {"x-dead-letter-exchange": "dlx", "x-dead-letter-routing-key": "due", "x-message-ttl": 100}},
                                {"name": "due"}]},
        "consumers": [acker("c", "due")],
        "actions": [publish("0ms", "", "wait", "early", json!({})),
                    {"at": "150ms", "declare": {"exchange": {"name": "dlx", "type": "direct"}}},
                    {"at": "150ms", "declare": {"binding": {"source": "dlx", "destination": "due", "destination_type": "queue", "routing_key": "due"}}},
                    publish("200ms", "", "wait", "late", json!({}))]
    }));
    assert_eq!(
        dropped(&out),
        vec![("early".into(), 100, "dlx_missing".into())]
    );
    assert_eq!(deliveries(&out), vec![("late".into(), 300, "due".into())]);
    assert!(errors(&out).is_empty());
}
