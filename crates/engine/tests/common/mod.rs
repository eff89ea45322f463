//! Helpers shared by the rule tests: run a scenario written as JSON, pick out results.
#![allow(dead_code)]

use delaylab_engine::report;
use delaylab_engine::scenario::load_value;
use serde_json::Value;

/// Loads (panicking with the loader's message on a bad scenario) and runs.
pub fn run(scenario: Value) -> Value {
    let s = load_value(&scenario).unwrap_or_else(|e| panic!("test scenario does not load: {e}"));
    report::run(&s)
}

/// (body, delivered_at_ms, queue) of every delivery, in order.
pub fn deliveries(out: &Value) -> Vec<(String, u64, String)> {
    out["deliveries"]
        .as_array()
        .expect("deliveries")
        .iter()
        .map(|d| {
            (
                d["body"].as_str().unwrap().to_string(),
                d["delivered_at_ms"].as_u64().unwrap(),
                d["queue"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// (body, at_ms, reason) of every drop.
pub fn dropped(out: &Value) -> Vec<(String, u64, String)> {
    out["dropped"]
        .as_array()
        .expect("dropped")
        .iter()
        .map(|d| {
            (
                d["body"].as_str().unwrap().to_string(),
                d["at_ms"].as_u64().unwrap(),
                d["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The first delivery of `body`.
pub fn delivery<'a>(out: &'a Value, body: &str) -> &'a Value {
    out["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["body"] == body)
        .unwrap_or_else(|| panic!("{body} was not delivered: {out:#}"))
}

/// (code, text) of every error.
pub fn errors(out: &Value) -> Vec<(u64, String)> {
    out["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["code"].as_u64().unwrap(),
                e["text"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

pub fn publish(at: &str, exchange: &str, rk: &str, body: &str, props: Value) -> Value {
    serde_json::json!({"at": at, "publish": {"exchange": exchange, "routing_key": rk, "body": body, "properties": props}})
}

/// A consumer that acks everything at once on `queue`.
pub fn acker(name: &str, queue: &str) -> Value {
    serde_json::json!({"name": name, "queue": queue, "ack": "manual", "prefetch": 0, "handle": 0, "outcome": "ack"})
}

/// Wait queue `wait` dead-lettering through direct exchange `dlx` with key `due` to
/// queue `due`, plus extra arguments for `wait`.
pub fn dlx_topology(wait_args: Value) -> Value {
    let mut args =
        serde_json::json!({"x-dead-letter-exchange": "dlx", "x-dead-letter-routing-key": "due"});
    for (k, v) in wait_args.as_object().unwrap() {
        args[k] = v.clone();
    }
    serde_json::json!({
        "exchanges": [{"name": "dlx", "type": "direct"}],
        "queues": [{"name": "wait", "arguments": args}, {"name": "due"}],
        "bindings": [{"source": "dlx", "destination": "due", "destination_type": "queue", "routing_key": "due"}]
    })
}
