//! `delaylab export definitions SCENARIO [--output FILE]`: the scenario's topology as a
//! RabbitMQ `definitions.json` (the format of `rabbitmqctl export_definitions` and the
//! management UI), which `rabbitmqctl import_definitions FILE` loads into vhost `/`.
//!
//! Exported: the topology's exchanges, queues and bindings with their arguments and
//! `durable` / `auto_delete` / `internal`, keeping RabbitMQ's value types. Left out
//! (with a note on standard error): the built-in exchanges (`""`, `amq.*`), exclusive
//! queues (a definitions file cannot hold them), and the timed actions.

use std::process::ExitCode;

use serde_json::{json, Value};

use delaylab_engine::scenario::{DestinationKind, Scenario};

/// The broker version the file says it came from (the one the suite checks against).
pub const RABBIT_VERSION: &str = "3.10.8";

pub fn definitions(s: &Scenario, notes: &mut Vec<String>) -> Value {
    let t = &s.topology;
    let builtin = |n: &str| n.is_empty() || n.starts_with("amq.");
    let mut exchanges = Vec::new();
    for x in &t.exchanges {
        if builtin(&x.name) {
            notes.push(format!("exchange '{}' is built in: not exported", x.name));
            continue;
        }
        if x.kind == "x-delayed-message" {
            notes.push(format!("exchange '{}' needs the delayed-message plugin on the importing broker", x.name));
        }
        exchanges.push(json!({
            "name": x.name, "vhost": "/", "type": x.kind, "durable": x.durable,
            "auto_delete": x.auto_delete, "internal": x.internal, "arguments": x.arguments.to_json(),
        }));
    }
    let mut queues = Vec::new();
    for q in &t.queues {
        if q.exclusive {
            notes.push(format!("queue '{}' is exclusive: a definitions file cannot hold it, not exported", q.name));
            continue;
        }
        queues.push(json!({
            "name": q.name, "vhost": "/", "durable": q.durable, "auto_delete": q.auto_delete,
            "arguments": q.arguments.to_json(),
        }));
    }
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
    if s.actions.iter().any(|a| matches!(a.kind, delaylab_engine::scenario::ActionKind::Declare(_))) {
        notes.push("objects declared by timed actions are not part of the topology: not exported".into());
    }
    json!({
        "rabbit_version": RABBIT_VERSION,
        "rabbitmq_version": RABBIT_VERSION,
        "product_name": "RabbitMQ",
        "product_version": RABBIT_VERSION,
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

pub fn main(path: &str, output: Option<&str>) -> ExitCode {
    let scenario = match crate::run::load(path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut notes = Vec::new();
    let defs = definitions(&scenario, &mut notes);
    for n in &notes {
        eprintln!("note: {n}");
    }
    let text = serde_json::to_string_pretty(&defs).expect("json") + "\n";
    match output {
        None | Some("-") => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Some(f) => match std::fs::write(f, text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{f}: cannot write: {e}");
                ExitCode::from(1)
            }
        },
    }
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
        let s = delaylab_engine::scenario::load_str(src).expect("loads");
        let mut notes = Vec::new();
        let d = definitions(&s, &mut notes);
        assert_eq!(d["rabbit_version"], "3.10.8");
        assert_eq!(d["exchanges"].as_array().unwrap().len(), 1, "amq.direct is built in");
        assert_eq!(d["exchanges"][0]["internal"], true);
        assert_eq!(d["exchanges"][0]["arguments"]["alternate-exchange"], "ae");
        assert_eq!(d["queues"].as_array().unwrap().len(), 1, "exclusive queues are left out");
        assert_eq!(d["queues"][0]["durable"], false);
        assert_eq!(d["queues"][0]["arguments"]["x-message-ttl"], 500);
        assert_eq!(d["bindings"][0]["routing_key"], "a.#");
        assert_eq!(notes.len(), 2);
        // What it writes loads back as a topology.
        let again = delaylab_engine::scenario::load_value(&serde_json::json!({"version": 1, "name": "t", "topology": d}));
        assert!(again.is_ok());
    }
}
