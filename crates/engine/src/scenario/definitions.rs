//! A scenario's topology as a RabbitMQ `definitions.json` (the format of
//! `rabbitmqctl export_definitions` and the management UI), which
//! `rabbitmqctl import_definitions FILE` loads into vhost `/`. Used by
//! `delaylab export definitions` and by the playground's "Export definitions" button.
//!
//! Exported: the topology's exchanges, queues and bindings with their arguments and
//! `durable` / `auto_delete` / `internal`, keeping RabbitMQ's value types. Left out
//! (listed by [`export_notes`]): the built-in exchanges (`""`, `amq.*`), exclusive
//! queues (a definitions file cannot hold them), and the timed actions.

use serde_json::{json, Value};

use super::{ActionKind, DestinationKind, Scenario};

/// The broker version the conformance suite's rules 1-14 were first checked on (the
/// badge's panel names it). A file says the scenario's own version's patch release.
pub const RABBIT_VERSION: &str = "3.10.8";

fn builtin(name: &str) -> bool {
    name.is_empty() || name.starts_with("amq.")
}

/// The scenario's topology as a `definitions.json` value (pure: no I/O).
pub fn export_definitions(s: &Scenario) -> Value {
    let t = &s.topology;
    let exchanges: Vec<Value> = t
        .exchanges
        .iter()
        .filter(|x| !builtin(&x.name))
        .map(|x| {
            json!({
                "name": x.name, "vhost": "/", "type": x.kind, "durable": x.durable,
                "auto_delete": x.auto_delete, "internal": x.internal, "arguments": x.arguments.to_json(),
            })
        })
        .collect();
    let queues: Vec<Value> = t
        .queues
        .iter()
        .filter(|q| !q.exclusive)
        .map(|q| {
            json!({
                "name": q.name, "vhost": "/", "durable": q.durable, "auto_delete": q.auto_delete,
                "arguments": q.arguments.to_json(),
            })
        })
        .collect();
    let bindings: Vec<Value> = t
        .bindings
        .iter()
        .map(|b| {
            json!({
                "source": b.source, "vhost": "/", "destination": b.destination,
                "destination_type": match b.destination_type { DestinationKind::Queue => "queue", DestinationKind::Exchange => "exchange" },
                "routing_key": b.routing_key, "arguments": b.arguments.to_json(),
            })
        })
        .collect();
    // The release the scenario runs on (3.10.8, ..., 4.3.6): a file exported from 4.3
    // says 4.3.6, as the broker's own export would.
    let release = s.broker_version().patch_release();
    json!({
        "rabbit_version": release,
        "rabbitmq_version": release,
        "product_name": "RabbitMQ",
        "product_version": release,
        "users": [],
        "vhosts": [{"name": "/"}],
        "permissions": [],
        "topic_permissions": [],
        "parameters": [],
        "global_parameters": [],
        "policies": [],
        "queues": queues,
        "exchanges": exchanges,
        "bindings": bindings,
    })
}

/// What [`export_definitions`] leaves out or what the importing broker needs, in words.
pub fn export_notes(s: &Scenario) -> Vec<String> {
    let t = &s.topology;
    let mut notes = Vec::new();
    for x in &t.exchanges {
        if builtin(&x.name) {
            notes.push(format!("exchange '{}' is built in: not exported", x.name));
        } else if x.kind == "x-delayed-message" {
            notes.push(format!(
                "exchange '{}' needs the delayed-message plugin on the importing broker",
                x.name
            ));
        }
    }
    for q in t.queues.iter().filter(|q| q.exclusive) {
        notes.push(format!(
            "queue '{}' is exclusive: a definitions file cannot hold it, not exported",
            q.name
        ));
    }
    if s.actions
        .iter()
        .any(|a| matches!(a.kind, ActionKind::Declare(_)))
    {
        notes.push(
            "objects declared by timed actions are not part of the topology: not exported".into(),
        );
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exports_topology_with_types_and_flags() {
        let src = r#"{"version": 1, "name": "t", "topology": {
            "exchanges": [{"name": "x", "type": "topic", "internal": true, "arguments": {"alternate-exchange": "ae"}},
                          {"name": "amq.direct", "type": "direct"}],
            "queues": [{"name": "q", "durable": false, "arguments": {"x-message-ttl": 500}},
                       {"name": "mine", "exclusive": true}],
            "bindings": [{"source": "x", "destination": "q", "destination_type": "queue", "routing_key": "a.#"}]}}"#;
        let s = crate::scenario::load_str(src).expect("loads");
        let d = export_definitions(&s);
        assert_eq!(d["rabbit_version"], "3.10.8");
        assert_eq!(
            d["exchanges"].as_array().unwrap().len(),
            1,
            "amq.direct is built in"
        );
        assert_eq!(d["exchanges"][0]["internal"], true);
        assert_eq!(d["exchanges"][0]["arguments"]["alternate-exchange"], "ae");
        assert_eq!(
            d["queues"].as_array().unwrap().len(),
            1,
            "exclusive queues are left out"
        );
        assert_eq!(d["queues"][0]["durable"], false);
        assert_eq!(d["queues"][0]["arguments"]["x-message-ttl"], 500);
        assert_eq!(d["bindings"][0]["routing_key"], "a.#");
        assert_eq!(d["bindings"][0]["destination_type"], "queue");
        assert_eq!(export_notes(&s).len(), 2);
        // Another version: its own patch release (it said 3.10.8 for every version).
        let mut on_4_3 = s.clone();
        on_4_3.broker = Some(crate::version::BrokerVersion::V4_3);
        let d43 = export_definitions(&on_4_3);
        assert_eq!(
            (
                &d43["rabbit_version"],
                &d43["rabbitmq_version"],
                &d43["product_version"]
            ),
            (&json!("4.3.6"), &json!("4.3.6"), &json!("4.3.6"))
        );
        // Pure: the same scenario gives the same file.
        assert_eq!(d, export_definitions(&s));
        // What it writes loads back as a topology.
        let again = crate::scenario::load_value(&json!({"version": 1, "name": "t", "topology": d}));
        assert!(again.is_ok());
    }
}
