//! `topology`: exchanges, queues and bindings, as this format writes them or as a
//! whole RabbitMQ `definitions.json` export (its extra sections and per-object keys are
//! accepted, and what the simulation does not model becomes a line of
//! [`Topology::not_simulated`]). The same exchange, queue and binding objects, checked
//! strictly, are what a `declare` or `delete` action holds.

use std::collections::HashMap;

use serde_json::Value;

use super::errors::{expected, fail, index, short_quote, R};
use super::json::{as_obj, Obj};
use super::limits::{MAX_BINDINGS, MAX_EXCHANGES, MAX_QUEUES};
use crate::scenario::model::*;

pub(super) const TOPOLOGY_LISTS: &[&str] = &["exchanges", "queues", "bindings"];
/// The other top-level sections of a RabbitMQ `definitions.json`.
pub(super) const DEFINITIONS_KEYS: &[&str] = &[
    "rabbit_version",
    "rabbitmq_version",
    "product_name",
    "product_version",
    "users",
    "vhosts",
    "permissions",
    "topic_permissions",
    "parameters",
    "global_parameters",
    "policies",
];
const EXCHANGE_KEYS: &[&str] = &[
    "name",
    "vhost",
    "type",
    "durable",
    "auto_delete",
    "internal",
    "arguments",
];
const QUEUE_KEYS: &[&str] = &[
    "name",
    "vhost",
    "type",
    "durable",
    "auto_delete",
    "exclusive",
    "arguments",
];
const BINDING_KEYS: &[&str] = &[
    "source",
    "vhost",
    "destination",
    "destination_type",
    "routing_key",
    "arguments",
];
/// Keys some exports carry on objects, accepted without a note inside `topology`.
const EXPORT_ONLY_KEYS: &[&str] = &["owner"];

/// Unknown keys met inside `topology`, reported once per (list, key).
#[derive(Default)]
pub(super) struct Unknowns {
    seen: Vec<(String, usize)>, // (first path, count)
    by_key: HashMap<(&'static str, String), usize>,
}

impl Unknowns {
    fn record(&mut self, list: &'static str, key: &str, path: String) {
        match self.by_key.get(&(list, key.to_string())) {
            Some(&i) => self.seen[i].1 += 1,
            None => {
                self.by_key.insert((list, key.to_string()), self.seen.len());
                self.seen.push((path, 1));
            }
        }
    }
}

pub(super) fn topology(o: &Obj) -> R<Topology> {
    let mut t = Topology::default();
    let mut unknown = Unknowns::default();
    if let Some(v) = o.get("not_simulated") {
        let p = o.p("not_simulated");
        let Value::Array(items) = v else {
            return fail(p, expected("a list of strings", v));
        };
        for (i, item) in items.iter().enumerate() {
            match item {
                Value::String(s) => t.not_simulated.push(s.clone()),
                other => return fail(index(&p, i), expected("a string", other)),
            }
        }
    }
    let mut skipped: Vec<String> = Vec::new();
    let lists = [
        ("exchanges", MAX_EXCHANGES, "MAX_EXCHANGES"),
        ("queues", MAX_QUEUES, "MAX_QUEUES"),
        ("bindings", MAX_BINDINGS, "MAX_BINDINGS"),
    ];
    for (list, max, max_name) in lists {
        let items = o.array(list)?;
        if items.len() > max {
            return fail(
                o.p(list),
                format!("{} {list}; the limit is {max} ({max_name})", items.len()),
            );
        }
        let mut other_vhosts = 0usize;
        for (i, item) in items.iter().enumerate() {
            let io = as_obj(item, index(&o.p(list), i))?;
            if !vhost_is_default(&io)? {
                other_vhosts += 1;
                continue;
            }
            match list {
                "exchanges" => t.exchanges.push(exchange_def(&io, Some(&mut unknown))?),
                "queues" => t.queues.push(queue_def(&io, Some(&mut unknown))?),
                _ => t.bindings.push(binding_def(&io, Some(&mut unknown))?),
            }
        }
        if other_vhosts > 0 {
            skipped.push(format!(
                "{list}: {other_vhosts} {} in vhosts other than \"/\" {} not simulated (only the default vhost is)",
                plural(other_vhosts, &list[..list.len() - 1], list),
                if other_vhosts == 1 { "is" } else { "are" },
            ));
        }
    }
    for key in DEFINITIONS_KEYS {
        if let Some(v) = o.get(key) {
            if let Some(line) = definitions_note(key, v) {
                t.not_simulated.push(line);
            }
        }
    }
    t.not_simulated.extend(skipped);
    for key in o.m.keys() {
        let k = key.as_str();
        if !TOPOLOGY_LISTS.contains(&k) && !DEFINITIONS_KEYS.contains(&k) && k != "not_simulated" {
            unknown.record("topology", k, o.p(k));
        }
    }
    for (path, count) in unknown.seen {
        t.not_simulated.push(if count == 1 {
            format!("{path}: unknown key ignored")
        } else {
            format!(
                "{path}: unknown key ignored (here and in {} more objects)",
                count - 1
            )
        });
    }
    Ok(t)
}

/// The note for one non-simulated section of a definitions export, if it says anything.
fn definitions_note(key: &str, v: &Value) -> Option<String> {
    let n = match v {
        Value::Array(items) => items.len(),
        Value::Null => 0,
        Value::Object(m) => m.len(),
        _ => return None, // rabbit_version and the like: metadata, nothing to report
    };
    let count =
        |one: &str, many: &str| format!("{key}: {n} {} {}", plural(n, one, many), is_are(n));
    match key {
        "users" if n > 0 => Some(format!(
            "{} not simulated (no authentication or authorization)",
            count("user", "users")
        )),
        "permissions" if n > 0 => Some(format!(
            "{} not simulated",
            count("permission", "permissions")
        )),
        "topic_permissions" if n > 0 => Some(format!(
            "{} not simulated",
            count("topic permission", "topic permissions")
        )),
        "parameters" if n > 0 => Some(format!(
            "{} not simulated (shovels, federation and other runtime parameters)",
            count("parameter", "parameters")
        )),
        "global_parameters" if n > 0 => Some(format!(
            "{} not simulated",
            count("global parameter", "global parameters")
        )),
        "policies" if n > 0 => Some(format!(
            "{} not simulated (DLX/TTL set by policy is not applied)",
            count("policy", "policies")
        )),
        "vhosts" => {
            let Value::Array(items) = v else { return None };
            let others: Vec<String> = items
                .iter()
                .filter(|vh| vh.get("name").and_then(Value::as_str) != Some("/"))
                .map(|vh| match vh.get("name").and_then(Value::as_str) {
                    Some(name) => short_quote(name),
                    None => "(unnamed)".into(),
                })
                .collect();
            if others.is_empty() {
                return None;
            }
            const SHOWN: usize = 5;
            let mut names = others
                .iter()
                .take(SHOWN)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            if others.len() > SHOWN {
                names.push_str(", ...");
            }
            Some(format!(
                "vhosts: {} other than \"/\" {} not simulated: {names}",
                plural_n(others.len(), "vhost", "vhosts"),
                is_are(others.len())
            ))
        }
        _ => None,
    }
}

fn vhost_is_default(o: &Obj) -> R<bool> {
    match o.get("vhost") {
        None => Ok(true),
        Some(Value::String(s)) => Ok(s == "/"),
        Some(other) => fail(o.p("vhost"), expected("a string", other)),
    }
}

/// Checks an object's keys: strictly (an error) outside `topology`, with a note inside.
fn check_object_keys(
    o: &Obj,
    allowed: &[&str],
    list: &'static str,
    unknown: Option<&mut Unknowns>,
) -> R<()> {
    match unknown {
        None => o.check_keys(allowed),
        Some(u) => {
            for k in o.m.keys() {
                if !allowed.contains(&k.as_str()) && !EXPORT_ONLY_KEYS.contains(&k.as_str()) {
                    u.record(list, k, o.p(k));
                }
            }
            Ok(())
        }
    }
}

/// Outside `topology` only the default vhost may be named.
pub(super) fn strict_vhost(o: &Obj, unknown: &Option<&mut Unknowns>) -> R<()> {
    if unknown.is_none() && !vhost_is_default(o)? {
        return fail(o.p("vhost"), "only the default vhost \"/\" is simulated");
    }
    Ok(())
}

pub(super) fn exchange_def(o: &Obj, unknown: Option<&mut Unknowns>) -> R<ExchangeDef> {
    strict_vhost(o, &unknown)?;
    check_object_keys(o, EXCHANGE_KEYS, "exchanges", unknown)?;
    Ok(ExchangeDef {
        name: o.name_req("name")?,
        kind: o.str_req("type")?,
        durable: o.bool_or("durable", true)?,
        auto_delete: o.bool_or("auto_delete", false)?,
        internal: o.bool_or("internal", false)?,
        arguments: o.table_or_empty("arguments")?,
    })
}

pub(super) fn queue_def(o: &Obj, unknown: Option<&mut Unknowns>) -> R<QueueDef> {
    strict_vhost(o, &unknown)?;
    check_object_keys(o, QUEUE_KEYS, "queues", unknown)?;
    let mut arguments = o.table_or_empty("arguments")?;
    // Newer definitions exports carry the queue type beside the arguments.
    if let Some(kind) = o.str_opt("type")? {
        if !arguments.contains_key("x-queue-type") {
            arguments.insert("x-queue-type", crate::value::FieldValue::str(&kind));
        }
    }
    Ok(QueueDef {
        name: o.name_req("name")?,
        durable: o.bool_or("durable", true)?,
        auto_delete: o.bool_or("auto_delete", false)?,
        exclusive: o.bool_or("exclusive", false)?,
        arguments,
    })
}

pub(super) fn binding_def(o: &Obj, unknown: Option<&mut Unknowns>) -> R<BindingDef> {
    strict_vhost(o, &unknown)?;
    check_object_keys(o, BINDING_KEYS, "bindings", unknown)?;
    let destination_type = match o.get("destination_type") {
        None => DestinationKind::Queue,
        Some(Value::String(s)) if s == "queue" => DestinationKind::Queue,
        Some(Value::String(s)) if s == "exchange" => DestinationKind::Exchange,
        Some(other) => {
            return fail(
                o.p("destination_type"),
                expected("\"queue\" or \"exchange\"", other),
            )
        }
    };
    Ok(BindingDef {
        source: o.name_req("source")?,
        destination: o.name_req("destination")?,
        destination_type,
        routing_key: o.name_or("routing_key")?,
        arguments: o.table_or_empty("arguments")?,
    })
}

fn plural<'s>(n: usize, one: &'s str, many: &'s str) -> &'s str {
    if n == 1 {
        one
    } else {
        many
    }
}

fn plural_n(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", plural(n, one, many))
}

fn is_are(n: usize) -> &'static str {
    if n == 1 {
        "is"
    } else {
        "are"
    }
}

#[cfg(test)]
mod tests {
    use super::super::limits::*;
    use crate::scenario::load::tests::{assert_err, ok};
    use crate::scenario::model::*;
    use crate::value::FieldValue;
    use serde_json::{json, Value};

    #[test]
    fn exchange_fields_and_defaults() {
        let s = ok(json!({"topology": {"exchanges": [
            {"name": "e", "type": "topic"},
            {"name": "f", "type": "x-delayed-message", "durable": false, "auto_delete": true, "internal": true,
             "arguments": {"x-delayed-type": "direct"}}]}}));
        assert_eq!(s.topology.exchanges[0], ExchangeDef::new("e", "topic"));
        let f = &s.topology.exchanges[1];
        assert!(!f.durable && f.auto_delete && f.internal);
        assert_eq!(
            f.arguments.get("x-delayed-type"),
            Some(&FieldValue::str("direct"))
        );
        assert_err(
            json!({"topology": {"exchanges": [{"name": "e"}]}}),
            "topology.exchanges[0].type",
            "missing",
        );
        assert_err(
            json!({"topology": {"exchanges": [{"name": "e", "type": "direct", "durable": "yes"}]}}),
            "topology.exchanges[0].durable",
            "expected true or false",
        );
        assert_err(
            json!({"topology": {"exchanges": [{"name": "e", "type": "direct", "arguments": []}]}}),
            "topology.exchanges[0].arguments",
            "expected an object (a field table), found a list",
        );
    }

    #[test]
    fn queue_fields_defaults_and_type() {
        let s = ok(json!({"topology": {"queues": [
            {"name": "q"},
            {"name": "r", "type": "quorum", "durable": true, "exclusive": true},
            {"name": "s", "type": "quorum", "arguments": {"x-queue-type": "classic"}}]}}));
        assert_eq!(s.topology.queues[0], QueueDef::new("q"));
        assert_eq!(
            s.topology.queues[1].arguments.get("x-queue-type"),
            Some(&FieldValue::str("quorum"))
        );
        assert!(s.topology.queues[1].exclusive);
        assert_eq!(
            s.topology.queues[2].arguments.get("x-queue-type"),
            Some(&FieldValue::str("classic"))
        );
        assert_err(
            json!({"topology": {"queues": [{"durable": true}]}}),
            "topology.queues[0].name",
            "missing",
        );
        assert_err(
            json!({"topology": {"queues": [{"name": "q", "type": 1}]}}),
            "topology.queues[0].type",
            "a string",
        );
    }

    #[test]
    fn arguments_keep_types_and_are_not_judged() {
        let s = ok(json!({"topology": {"queues": [{"name": "q", "arguments":
            {"x-message-ttl": -5, "x-max-length": "10", "x-dead-letter-exchange": 1.5}}]}}));
        let a = &s.topology.queues[0].arguments;
        assert_eq!(a.get("x-message-ttl"), Some(&FieldValue::Int(-5)));
        assert_eq!(a.get("x-max-length"), Some(&FieldValue::str("10")));
        assert_eq!(
            a.get("x-dead-letter-exchange"),
            Some(&FieldValue::Float(1.5))
        );
    }

    #[test]
    fn binding_fields_and_defaults() {
        let s = ok(json!({"topology": {"bindings": [
            {"source": "e", "destination": "q"},
            {"source": "e", "destination": "f", "destination_type": "exchange", "routing_key": "k",
             "arguments": {"x-match": "any"}}]}}));
        assert_eq!(s.topology.bindings[0], BindingDef::queue("e", "q", ""));
        assert_eq!(
            s.topology.bindings[1].destination_type,
            DestinationKind::Exchange
        );
        assert_err(
            json!({"topology": {"bindings": [{"source": "e", "destination": "q", "destination_type": "stream"}]}}),
            "topology.bindings[0].destination_type",
            "expected \"queue\" or \"exchange\"",
        );
        assert_err(
            json!({"topology": {"bindings": [{"source": "e"}]}}),
            "topology.bindings[0].destination",
            "missing",
        );
    }

    #[test]
    fn real_definitions_export_loads_with_notes() {
        let defs = json!({
            "rabbit_version": "3.13.7", "rabbitmq_version": "3.13.7",
            "product_name": "RabbitMQ", "product_version": "3.13.7",
            "users": [{"name": "guest", "password_hash": "x", "hashing_algorithm": "rabbit_password_hashing_sha256",
                       "tags": ["administrator"], "limits": {}}],
            "vhosts": [{"name": "/"}, {"name": "staging"}],
            "permissions": [{"user": "guest", "vhost": "/", "configure": ".*", "write": ".*", "read": ".*"}],
            "topic_permissions": [],
            "parameters": [],
            "global_parameters": [{"name": "cluster_name", "value": "rabbit@host"}],
            "policies": [{"vhost": "/", "name": "dlx", "pattern": ".*", "apply-to": "queues",
                          "definition": {"dead-letter-exchange": "dlx"}, "priority": 0},
                         {"vhost": "/", "name": "ttl", "pattern": "^t", "apply-to": "queues",
                          "definition": {"message-ttl": 1000}, "priority": 1}],
            "queues": [{"name": "q", "vhost": "/", "durable": true, "auto_delete": false,
                        "arguments": {"x-queue-type": "classic"}},
                       {"name": "qq", "vhost": "/", "durable": true, "auto_delete": false, "type": "quorum",
                        "arguments": {}},
                       {"name": "s", "vhost": "staging", "durable": true, "auto_delete": false, "arguments": {}}],
            "exchanges": [{"name": "e", "vhost": "/", "type": "direct", "durable": true, "auto_delete": false,
                           "internal": false, "arguments": {}}],
            "bindings": [{"source": "e", "vhost": "/", "destination": "q", "destination_type": "queue",
                          "routing_key": "k", "arguments": {}}]
        });
        let s = ok(json!({"topology": defs}));
        assert_eq!(s.topology.exchanges, vec![ExchangeDef::new("e", "direct")]);
        assert_eq!(s.topology.queues.len(), 2);
        assert_eq!(
            s.topology.queues[1].arguments.get("x-queue-type"),
            Some(&FieldValue::str("quorum"))
        );
        assert_eq!(s.topology.bindings, vec![BindingDef::queue("e", "q", "k")]);
        assert_eq!(
            s.topology.not_simulated,
            vec![
                "users: 1 user is not simulated (no authentication or authorization)",
                "vhosts: 1 vhost other than \"/\" is not simulated: \"staging\"",
                "permissions: 1 permission is not simulated",
                "global_parameters: 1 global parameter is not simulated",
                "policies: 2 policies are not simulated (DLX/TTL set by policy is not applied)",
                "queues: 1 queue in vhosts other than \"/\" is not simulated (only the default vhost is)",
            ]
        );
    }

    #[test]
    fn unknown_keys_inside_topology_are_noted_not_errors() {
        let s = ok(json!({"topology": {
            "bindigns": [],
            "queues": [{"name": "a", "argumnets": {}}, {"name": "b", "argumnets": {}}, {"name": "c", "owner": "x"}]}}));
        assert_eq!(
            s.topology.not_simulated,
            vec![
                "topology.queues[0].argumnets: unknown key ignored (here and in 1 more objects)",
                "topology.bindigns: unknown key ignored",
            ]
        );
    }

    #[test]
    fn topology_shape_errors() {
        assert_err(
            json!({"topology": []}),
            "topology",
            "expected an object, found a list",
        );
        assert_err(
            json!({"topology": {"queues": {}}}),
            "topology.queues",
            "expected a list, found an object",
        );
        assert_err(
            json!({"topology": {"queues": ["q"]}}),
            "topology.queues[0]",
            "expected an object",
        );
        assert_err(
            json!({"topology": {"queues": [{"name": "q", "vhost": 1}]}}),
            "topology.queues[0].vhost",
            "a string",
        );
        assert_err(
            json!({"topology": {"not_simulated": [1]}}),
            "topology.not_simulated[0]",
            "expected a string",
        );
    }

    #[test]
    fn not_simulated_extension_is_read_back_first() {
        let s = ok(json!({"topology": {"not_simulated": ["saved note"], "policies": [{}]}}));
        assert_eq!(s.topology.not_simulated[0], "saved note");
        assert_eq!(s.topology.not_simulated.len(), 2);
    }

    #[test]
    fn topology_count_limits() {
        let queues: Vec<Value> = (0..=MAX_QUEUES)
            .map(|i| json!({"name": format!("q{i}")}))
            .collect();
        assert_err(
            json!({"topology": {"queues": queues}}),
            "topology.queues",
            "10001 queues; the limit is 10000 (MAX_QUEUES)",
        );
        let exchanges: Vec<Value> = (0..=MAX_EXCHANGES).map(|_| json!({})).collect();
        assert_err(
            json!({"topology": {"exchanges": exchanges}}),
            "topology.exchanges",
            "MAX_EXCHANGES",
        );
        let bindings: Vec<Value> = (0..=MAX_BINDINGS).map(|_| json!({})).collect();
        assert_err(
            json!({"topology": {"bindings": bindings}}),
            "topology.bindings",
            "MAX_BINDINGS",
        );
    }
}
