//! The start of a fed drain (issue 28 item 6): a burst released behind a head reaches its
//! consumer only once the wait queue has collected the whole expired run
//! (`costs::collect`), and while the burst arrives in the consumer's queue, the queue's
//! process takes each arrival before the next delivery (`costs::arrival`). Costs only
//! move times: the order is the ideal run's.

mod common;

use common::{deliveries, run};
use serde_json::{json, Value};

/// `n` overdue messages behind a head expiring at 10 s, dead-lettered to `due`, consumed
/// by one consumer with `consumer` settings, with `costs`.
fn burst(n: u64, consumer: Value, costs: Value) -> Value {
    let mut c = json!({"name": "app", "queue": "due"});
    for (k, v) in consumer.as_object().unwrap() {
        c[k] = v.clone();
    }
    json!({"name": "burst", "until": "60s", "costs": costs,
        "topology": {
            "exchanges": [{"name": "dlx", "type": "fanout"}],
            "queues": [{"name": "wait", "arguments": {"x-dead-letter-exchange": "dlx"}},
                       {"name": "due"}],
            "bindings": [{"source": "dlx", "destination": "due", "destination_type": "queue"}]},
        "consumers": [c],
        "actions": [
            {"at": "0s", "publish": {"exchange": "", "routing_key": "wait", "body": "head",
                                     "properties": {"expiration": "10000"}}},
            {"at": "1ms", "publish": {"exchange": "", "routing_key": "wait", "body": "m{n}",
                                      "properties": {"expiration": "1000"}},
             "repeat": {"count": n, "every": "0ms"}}]})
}

/// A profile with every figure that plays no part here at (nearly) nothing.
fn costs(extra: Value) -> Value {
    let mut c = json!({"publish_us": 0, "dead_letter_us": 1, "delivery_us": 1, "ack_us": 0,
        "collect_us": 0, "enqueue_us": 0, "classic_expiry_late_ms": [0, 0]});
    for (k, v) in extra.as_object().unwrap() {
        c[k] = v.clone();
    }
    c
}

fn auto() -> Value {
    json!({"ack": "auto"})
}

/// Delivery times, in delivery order (the order checked against the ideal run's).
fn times(v: Value) -> Vec<u64> {
    let mut ideal = v.clone();
    ideal["costs"] = json!("ideal");
    let (d, i) = (deliveries(&run(v)), deliveries(&run(ideal)));
    let order = |d: &[(String, u64, String)]| d.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
    assert_eq!(order(&d), order(&i), "costs only move times");
    d.iter().map(|x| x.1).collect()
}

#[test]
fn an_expired_run_is_collected_before_its_first_dead_letter() {
    // 40,001 expired at 10 s (the head and the burst), 2 us each to collect: the head
    // leaves at 10,000 + 80.002 ms.
    let t = times(burst(40_000, auto(), costs(json!({"collect_us": 2}))));
    assert_eq!(t[0], 10_080);
    // Without collecting, at once.
    let t = times(burst(40_000, auto(), costs(json!({}))));
    assert_eq!(t[0], 10_000);
    // A short run costs microseconds: the head and one behind it, 4 us.
    let t = times(burst(1, auto(), costs(json!({"collect_us": 2}))));
    assert_eq!(t, vec![10_000, 10_000]);
}

#[test]
fn a_run_is_collected_once_however_long_it_takes_to_dead_letter() {
    // 10,001 at 50 us each to dead-letter, 1 us each to collect: 10 ms of collection, then
    // 500 ms of dead-lettering; collecting again at each pause would add 10 ms each time.
    let t = times(burst(
        10_000,
        auto(),
        costs(json!({"collect_us": 1, "dead_letter_us": 50})),
    ));
    assert_eq!(t[0], 10_010);
    let last = *t.last().unwrap();
    assert!((10_508..=10_512).contains(&last), "last at {last}");
}

#[test]
fn arrivals_slow_the_consumer_while_the_burst_comes_in() {
    // Dead-lettering 28 us a message, the DLQ takes each arrival at 14 us, the consumer
    // 50 us a delivery: while the burst arrives (40,000 x 28 us = 1.12 s) the consumer
    // gets half its time: 11,200 delivered by then; the other 28,800 at 50 us. The drain:
    // 1.12 + 1.44 = 2.56 s = 40,000 x (14 + 50) us; the 20,000th at 1.12 + 0.44 s.
    let fed = json!({"dead_letter_us": 28, "delivery_us": 50, "enqueue_us": 14});
    let t = times(burst(40_000, auto(), costs(fed.clone())));
    let (drain, half) = (t[40_000] - t[0], t[20_000] - t[0]);
    assert!((2_540..=2_580).contains(&drain), "drain {drain} ms");
    assert!((1_530..=1_590).contains(&half), "the 20,000th at {half} ms");
    // Without the arrivals' cost: 40,000 x 50 us, the 20,000th half way.
    let mut plain = fed;
    plain["enqueue_us"] = json!(0);
    let t = times(burst(40_000, auto(), costs(plain)));
    let (drain, half) = (t[40_000] - t[0], t[20_000] - t[0]);
    assert!((1_990..=2_010).contains(&drain), "drain {drain} ms");
    assert!((990..=1_010).contains(&half), "the 20,000th at {half} ms");
}

#[test]
fn a_consumer_acking_each_waits_for_the_arrivals_too() {
    // The same with a consumer acking each (prefetch 1,000): 50 us + 10 us for its ack.
    let fed = json!({"dead_letter_us": 28, "delivery_us": 50, "ack_us": 10, "enqueue_us": 14});
    let t = times(burst(
        40_000,
        json!({"ack": "manual", "prefetch": 1000}),
        costs(fed),
    ));
    // 1.12 s at (1 - 14/28) / 60 us: 9,333 by then; 30,667 x 60 us = 1.84 s more.
    let drain = t[40_000] - t[0];
    assert!((2_930..=2_990).contains(&drain), "drain {drain} ms");
}

#[test]
fn a_queue_without_consumers_takes_its_arrivals_while_idle() {
    // 1,000 published to a queue nobody consumes yet, 100 us each to take: the consumer
    // that attaches at 5 s does not wait for them.
    let v = json!({"name": "idle", "until": "10s",
        "costs": costs(json!({"enqueue_us": 100})),
        "topology": {"queues": [{"name": "q"}]},
        "consumers": [{"name": "late", "queue": "q", "ack": "auto", "from": "5s"}],
        "actions": [{"at": "0s", "publish": {"exchange": "", "routing_key": "q", "body": "m{n}"},
                     "repeat": {"count": 1000, "every": "0ms"}}]});
    let t = times(v);
    assert_eq!(t.len(), 1000);
    assert!(t.iter().all(|&x| x == 5_000), "{:?}", &t[..3]);
}
