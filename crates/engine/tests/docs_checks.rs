//! Every example check in docs/checks.md loads (inside a scenario that has the queues,
//! exchanges and consumers it names), so the documentation cannot drift from the loader.

use serde_json::{json, Value};

#[test]
fn every_documented_example_loads() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/checks.md"))
        .expect("docs/checks.md");
    let examples: Vec<Value> = doc
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("{\"label\"") || l.starts_with("{\"name\""))
        .map(|l| {
            serde_json::from_str(l.trim_end_matches(',')).unwrap_or_else(|e| panic!("{l}: {e}"))
        })
        .collect();
    assert!(examples.len() >= 20, "{} examples", examples.len());
    let orders = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scenarios/orders-naive-closes-paid.json"
    ))
    .unwrap();
    let base: Value = serde_json::from_str(&orders).unwrap();
    for ex in examples {
        let kind = ex
            .as_object()
            .unwrap()
            .keys()
            .find(|k| *k != "label" && *k != "name")
            .unwrap()
            .clone();
        let body = &ex[&kind];
        let mut s = base.clone();
        s.as_object_mut().unwrap().remove("checks");
        s["until"] = json!("2h");
        if let Some(q) = body["queue"].as_str() {
            s["topology"]["queues"]
                .as_array_mut()
                .unwrap()
                .push(json!({"name": q}));
        }
        if let Some(x) = body["exchange"].as_str() {
            s["topology"]["exchanges"]
                .as_array_mut()
                .unwrap()
                .push(json!({"name": x, "type": "direct"}));
        }
        if let Some(c) = body["consumer"].as_str().filter(|c| *c != "closer") {
            s["consumers"]
                .as_array_mut()
                .unwrap()
                .push(json!({"name": c, "queue": "order.close.queue", "ack": "auto"}));
        }
        s["checks"] = json!([ex]);
        if let Err(e) = delaylab_engine::scenario::load_value(&s) {
            panic!("{ex}: {e}");
        }
    }
}
