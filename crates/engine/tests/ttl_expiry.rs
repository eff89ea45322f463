//! Part A rules 1-5: queue TTL, head-of-line blocking, min of TTLs, TTL 0, the head timer.
mod common;
use common::*;
use serde_json::json;

#[test]
fn rule1_queue_ttl_dead_letters_each_message_ttl_after_its_publish() {
    let out = run(json!({
        "topology": dlx_topology(json!({"x-message-ttl": 1000})),
        "consumers": [acker("c", "due")],
        "actions": [publish("0ms", "", "wait", "A", json!({})), publish("300ms", "", "wait", "B", json!({}))]
    }));
    assert_eq!(
        deliveries(&out),
        vec![
            ("A".into(), 1000, "due".into()),
            ("B".into(), 1300, "due".into())
        ]
    );
}

#[test]
fn rule2_head_of_line_blocking_short_ttl_waits_for_the_head() {
    let out = run(json!({
        "topology": dlx_topology(json!({})),
        "consumers": [acker("c", "due")],
        "actions": [publish("0ms", "", "wait", "A", json!({"expiration": "3000"})),
                    publish("100ms", "", "wait", "B", json!({"expiration": "500"}))]
    }));
    assert_eq!(
        deliveries(&out),
        vec![
            ("A".into(), 3000, "due".into()),
            ("B".into(), 3000, "due".into())
        ]
    );
    assert_eq!(delivery(&out, "B")["late_ms"], 2400);
}

#[test]
fn rule2_expired_message_behind_the_head_still_counts_in_the_queue() {
    let out = run(json!({
        "until": "2s",
        "topology": dlx_topology(json!({})),
        "actions": [publish("0ms", "", "wait", "A", json!({"expiration": "3000"})),
                    publish("100ms", "", "wait", "B", json!({"expiration": "500"}))]
    }));
    assert_eq!(out["final"]["queues"]["wait"]["ready"], 2);
}

#[test]
fn rule2_basic_get_of_the_head_releases_the_expired_message_behind_it() {
    let out = run(json!({
        "topology": dlx_topology(json!({})),
        "consumers": [acker("c", "due")],
        "actions": [publish("0ms", "", "wait", "A", json!({"expiration": "3000"})),
                    publish("100ms", "", "wait", "B", json!({"expiration": "500"})),
                    {"at": "1000ms", "get": {"queue": "wait"}}]
    }));
    assert_eq!(
        deliveries(&out),
        vec![
            ("A".into(), 1000, "wait".into()),
            ("B".into(), 1000, "due".into())
        ]
    );
}

#[test]
fn rule3_effective_ttl_is_the_minimum_fixed_at_enqueue() {
    let out = run(json!({
        "topology": dlx_topology(json!({"x-message-ttl": 2000})),
        "consumers": [acker("c", "due")],
        "actions": [publish("0ms", "", "wait", "long", json!({"expiration": "9000"})),
                    publish("0ms", "", "wait", "short", json!({"expiration": "700"}))]
    }));
    // "long" expires at 2000 (queue TTL wins), "short" (700) waits behind it.
    assert_eq!(
        deliveries(&out),
        vec![
            ("long".into(), 2000, "due".into()),
            ("short".into(), 2000, "due".into())
        ]
    );
}

#[test]
fn rule4_expiration_zero_goes_to_a_free_consumer() {
    let out = run(json!({
        "topology": {"queues": [{"name": "q"}]},
        "consumers": [acker("c", "q")],
        "actions": [publish("5ms", "", "q", "Z", json!({"expiration": "0"}))]
    }));
    assert_eq!(deliveries(&out), vec![("Z".into(), 5, "q".into())]);
}

#[test]
fn rule4_expiration_zero_without_a_free_consumer_is_dead_lettered_at_once() {
    let out = run(json!({
        "topology": dlx_topology(json!({})),
        "consumers": [acker("c", "due")],
        "actions": [publish("5ms", "", "wait", "Z", json!({"expiration": "0"}))]
    }));
    assert_eq!(deliveries(&out), vec![("Z".into(), 5, "due".into())]);
    assert_eq!(
        delivery(&out, "Z")["headers"]["x-death"][0]["original-expiration"],
        "0"
    );
}

#[test]
fn rule4_consumer_at_its_prefetch_limit_cannot_take_a_ttl_zero_message() {
    let out = run(json!({
        "topology": {"exchanges": [{"name": "dlx", "type": "fanout"}],
                     "queues": [{"name": "q", "arguments": {"x-dead-letter-exchange": "dlx"}}, {"name": "dlq"}],
                     "bindings": [{"source": "dlx", "destination": "dlq", "destination_type": "queue", "routing_key": ""}]},
        "consumers": [{"name": "busy", "queue": "q", "prefetch": 1, "handle": "1h", "outcome": "ack"}],
        "until": "10s",
        "actions": [publish("0ms", "", "q", "first", json!({})),
                    publish("5ms", "", "q", "Z", json!({"expiration": "0"}))]
    }));
    assert_eq!(out["final"]["queues"]["dlq"]["ready"], 1);
    assert_eq!(out["final"]["queues"]["q"]["unacked"], 1);
}

#[test]
fn rule4_queue_ttl_zero_without_dlx_discards_without_enqueuing() {
    let out = run(json!({
        "topology": {"queues": [{"name": "q", "arguments": {"x-message-ttl": 0}}]},
        "actions": [publish("0ms", "", "q", "Z", json!({}))]
    }));
    assert_eq!(dropped(&out), vec![("Z".into(), 0, "expired".into())]);
}

#[test]
fn rule5_lone_head_expires_on_time_by_its_timer() {
    let out = run(json!({
        "topology": dlx_topology(json!({})),
        "consumers": [acker("c", "due")],
        "actions": [publish("0ms", "", "wait", "A", json!({"expiration": "500"}))]
    }));
    assert_eq!(deliveries(&out), vec![("A".into(), 500, "due".into())]);
}

#[test]
fn rule5_quorum_queue_blocks_at_the_head_too() {
    let out = run(json!({
        "topology": dlx_topology(json!({"x-queue-type": "quorum"})),
        "consumers": [acker("c", "due")],
        "actions": [publish("0ms", "", "wait", "A", json!({"expiration": "3000"})),
                    publish("100ms", "", "wait", "B", json!({"expiration": "500"}))]
    }));
    assert_eq!(
        deliveries(&out),
        vec![
            ("A".into(), 3000, "due".into()),
            ("B".into(), 3000, "due".into())
        ]
    );
}
