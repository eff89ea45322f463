//! Figures read by running the model: the one whose effect the model's other mechanisms
//! share is found by running the step it comes from in the engine and searching for the
//! value that gives the live result.
//!
//! The round trip (`round_trip_us`): a prefetch-1 consumer fed by a burst waits a round
//! trip per delivery, but while the burst arrives its queue's process also takes each
//! arrival on the consumer's clock (`costs::arrival`); how much of that falls in the
//! round trips' idle time depends on both. So step 6 is run in the model with the other
//! calibrated figures, and the round trip bisected until the model's drain lasts what
//! the live one did (the drain grows with the round trip).

use delaylab_engine::costs::CostProfile;
use delaylab_engine::report;
use delaylab_engine::scenario::load_value;
use delaylab_engine::version::BrokerVersion;
use serde_json::json;

use super::runs::QueueType;

/// Bisection steps: the round trip to within 2 ms / 2^12, under a microsecond.
const STEPS: u32 = 12;
/// The largest round trip searched, us (a quorum queue on a busy machine: 3.4 ms).
const MAX_ROUND_TRIP_US: u32 = 20_000;

/// How long (us) the first `got` deliveries took, from the first, when `burst` messages
/// are released behind a head into a prefetch-1 consumer acking each, in the model with
/// profile `p` (step 6 may stop before the burst is drained: `got` is what it received).
pub fn prefetch1_drain_us(
    p: &CostProfile,
    qt: QueueType,
    broker: BrokerVersion,
    burst: u64,
    got: usize,
) -> f64 {
    let mut args = json!({"x-dead-letter-exchange": "dlx"});
    let mut due = json!({});
    if qt == QueueType::Quorum {
        args["x-queue-type"] = json!("quorum");
        due["x-queue-type"] = json!("quorum");
    }
    let durable = qt == QueueType::Quorum;
    let v = json!({"name": "calibrate step 6", "until": "3600s", "broker": broker.as_str(),
        "costs": p.to_json(),
        "topology": {
            "exchanges": [{"name": "dlx", "type": "fanout"}],
            "queues": [{"name": "wait", "durable": durable, "arguments": args},
                       {"name": "due", "durable": durable, "arguments": due}],
            "bindings": [{"source": "dlx", "destination": "due", "destination_type": "queue"}]},
        "consumers": [{"name": "app", "queue": "due", "ack": "manual", "prefetch": 1}],
        "actions": [
            {"at": "0s", "publish": {"exchange": "", "routing_key": "wait", "body": "head",
                                     "properties": {"expiration": "60000"}}},
            {"at": "1ms", "publish": {"exchange": "", "routing_key": "wait", "body": "m{n}",
                                      "properties": {"expiration": "1"}},
             "repeat": {"count": burst.max(1), "every": "0ms"}}]});
    let s = load_value(&v).expect("calibrate's own scenario loads");
    let out = report::run(&s);
    let times: Vec<f64> = out["deliveries"]
        .as_array()
        .map(|d| {
            d.iter()
                .filter_map(|d| d["delivered_at_ms"].as_f64())
                .collect()
        })
        .unwrap_or_default();
    match (
        times.first(),
        times.get(got.clamp(1, times.len().max(1)) - 1),
    ) {
        (Some(a), Some(b)) => (b - a) * 1e3,
        _ => 0.0,
    }
}

/// The round trip that makes the model's first `got` deliveries of a prefetch-1 drain of
/// `burst` behind a head last `span_us`, with `p`'s other figures.
pub fn round_trip_us(
    p: &CostProfile,
    qt: QueueType,
    broker: BrokerVersion,
    burst: u64,
    got: usize,
    span_us: f64,
) -> u32 {
    let drain = |rt: u32| {
        let mut q = p.clone();
        q.round_trip_us = rt;
        prefetch1_drain_us(&q, qt, broker, burst, got)
    };
    let (mut lo, mut hi) = (0u32, MAX_ROUND_TRIP_US);
    for _ in 0..STEPS {
        let mid = lo + (hi - lo) / 2;
        if drain(mid) < span_us {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo + (hi - lo) / 2
}
