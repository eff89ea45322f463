//! Scenarios for the order-timeout lab tests: one topology per delay mechanism, a
//! policy, a payment mix and a list of faults.
#![allow(dead_code)]

use delaylab_engine::report;
use delaylab_engine::scenario::{load_value, Scenario};
use serde_json::{json, Value};

/// The delay mechanism the close message goes through.
#[derive(Clone, Copy, Debug)]
pub enum Via {
    /// DLX wait queue with per-message `expiration`.
    Expiration,
    /// DLX wait queue with a queue TTL (no per-message delay).
    QueueTtl,
    /// The delayed-message exchange (`x-delay`).
    Plugin,
}

pub const VIAS: [Via; 3] = [Via::Expiration, Via::QueueTtl, Via::Plugin];
pub const POLICIES: [&str; 4] = ["naive", "check_state", "conditional_update", "idempotent"];

pub fn scenario(via: Via, policy: &str, faults: Value, extra: Value, seed: u64) -> Value {
    let (topology, publish) = match via {
        Via::Plugin => (
            json!({"exchanges": [{"name": "dx", "type": "x-delayed-message", "arguments": {"x-delayed-type": "direct"}}],
                   "queues": [{"name": "close"}],
                   "bindings": [{"source": "dx", "destination": "close", "destination_type": "queue", "routing_key": "c"}]}),
            json!({"exchange": "dx", "routing_key": "c", "properties": {"delivery_mode": 2, "headers": {"x-delay": 1_800_000}}}),
        ),
        Via::Expiration | Via::QueueTtl => {
            let mut args =
                json!({"x-dead-letter-exchange": "dlx", "x-dead-letter-routing-key": "c"});
            let mut props = json!({"delivery_mode": 2});
            match via {
                Via::QueueTtl => args["x-message-ttl"] = json!(1_800_000),
                _ => props["expiration"] = json!("1800000"),
            }
            (
                json!({"exchanges": [{"name": "ox", "type": "direct"}, {"name": "dlx", "type": "direct"}],
                       "queues": [{"name": "wait", "arguments": args}, {"name": "close"}],
                       "bindings": [{"source": "ox", "destination": "wait", "destination_type": "queue", "routing_key": "o"},
                                    {"source": "dlx", "destination": "close", "destination_type": "queue", "routing_key": "c"}]}),
                json!({"exchange": "ox", "routing_key": "o", "properties": props}),
            )
        }
    };
    let mut orders = json!({
        "count": 30, "over": "10m", "timeout": "30m", "publish": publish, "consumer": "closer", "policy": policy,
        "pay": [{"share": 0.3, "after": ["1m", "25m"]}, {"share": 0.2, "after": ["1799s", "1801s"]}],
        "cancel": {"share": 0.1, "after": ["1m", "20m"]},
        "items": 3
    });
    if let Value::Object(m) = extra {
        for (k, v) in m {
            orders[k] = v;
        }
    }
    json!({
        "seed": seed, "until": "2h", "topology": topology,
        "consumers": [{"name": "closer", "queue": "close", "ack": "manual", "prefetch": 5, "handle": "200ms"}],
        "orders": orders, "faults": faults
    })
}

pub fn load(v: &Value) -> Scenario {
    load_value(v).unwrap_or_else(|e| panic!("test scenario does not load: {e}"))
}

/// The `"orders"` object of the run's JSON result.
pub fn outcome(v: &Value) -> Value {
    let r = report::run(&load(v));
    assert!(
        r.get("limit_reached").is_none(),
        "limit: {}",
        r["limit_reached"]
    );
    r["orders"].clone()
}

pub fn n(o: &Value, k: &str) -> u64 {
    o[k].as_u64()
        .unwrap_or_else(|| panic!("{k} missing in {o}"))
}
