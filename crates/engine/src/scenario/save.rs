//! Writing a scenario back as JSON, in the contract's spelling
//! (`shared/docs/scenario-format.md`): durations as their shortest exact string
//! (`"30m"`, `"1500ms"`), defaults mostly omitted, field tables as typed JSON.
//!
//! Loading what this writes gives the same scenario back (`load(save(s)) == s`) for
//! every scenario the loader can produce. `Topology::not_simulated` is written as
//! `topology.not_simulated`, this format's own extension, so the notes survive too.

mod checks;
mod orders;

use serde_json::{json, Map, Value};

use super::duration::format_duration;
use super::model::*;

/// The scenario as canonical JSON.
pub fn to_value(s: &Scenario) -> Value {
    let mut root = Map::new();
    root.insert("version".into(), json!(s.version));
    if let Some(b) = s.broker {
        root.insert("broker".into(), json!(b.as_str()));
    }
    if !s.versions.is_empty() {
        let list: Vec<&str> = s.versions.iter().map(|v| v.as_str()).collect();
        root.insert("versions".into(), json!(list));
    }
    root.insert("name".into(), json!(s.name));
    put_str(&mut root, "description", &s.description);
    put_str(&mut root, "watch", &s.watch);
    root.insert("seed".into(), json!(s.seed));
    if let Some(until) = s.until_ms {
        root.insert("until".into(), dur(until));
    }
    root.insert("topology".into(), topology(&s.topology));
    root.insert(
        "consumers".into(),
        s.consumers.iter().map(consumer).collect(),
    );
    root.insert("actions".into(), s.actions.iter().map(action).collect());
    if let Some(o) = &s.orders {
        root.insert("orders".into(), orders::orders(o));
    }
    if !s.faults.is_empty() {
        root.insert(
            "faults".into(),
            s.faults.iter().map(orders::fault).collect(),
        );
    }
    match &s.costs {
        crate::costs::CostMode::Ideal => {}
        crate::costs::CostMode::Measured => {
            root.insert("costs".into(), json!("measured"));
        }
        crate::costs::CostMode::Profile(p) => {
            root.insert("costs".into(), p.to_json());
        }
    }
    match s.consumer_timeout {
        ConsumerTimeoutSetting::Default => {}
        ConsumerTimeoutSetting::Off => {
            root.insert("consumer_timeout".into(), json!(false));
        }
        ConsumerTimeoutSetting::After { timeout_ms } => {
            root.insert("consumer_timeout".into(), dur(timeout_ms));
        }
    }
    if s.consumer_timeout_response != crate::version::TimeoutResponse::NotifyConsumer {
        root.insert(
            "consumer_timeout_response".into(),
            json!(s.consumer_timeout_response.as_str()),
        );
    }
    if let Some(ms) = s.dead_letter_retry_ms {
        root.insert(
            "dead_letter_worker_publisher_confirm_timeout".into(),
            dur(ms),
        );
    }
    if let Some(r) = &s.report {
        root.insert("report".into(), report(r));
    }
    if !s.checks.is_empty() {
        // Last, as in the presets: what the run must show, after what it is.
        root.insert(
            "checks".into(),
            s.checks.iter().map(checks::check).collect(),
        );
    }
    Value::Object(root)
}

fn report(r: &FieldReport) -> Value {
    match r {
        FieldReport::Fix { fixes } => json!({ "fixes": fixes }),
        FieldReport::Failure(f) => json!({
            "project": f.project,
            "date": f.date,
            "links": f.links,
            "saw": f.saw,
            "rule": f.rule,
            "fix": f.fix,
        }),
    }
}

/// The canonical JSON, indented, as written to a file.
pub fn to_string_pretty(s: &Scenario) -> String {
    // Serializing a `Value` whose map keys are strings cannot fail.
    serde_json::to_string_pretty(&to_value(s)).unwrap_or_default()
}

fn dur(ms: u64) -> Value {
    Value::String(format_duration(ms))
}

fn put_str(m: &mut Map<String, Value>, key: &str, value: &str) {
    if !value.is_empty() {
        m.insert(key.into(), json!(value));
    }
}

fn put_opt_str(m: &mut Map<String, Value>, key: &str, value: &Option<String>) {
    if let Some(v) = value {
        m.insert(key.into(), json!(v));
    }
}

fn put_flag(m: &mut Map<String, Value>, key: &str, value: bool, default: bool) {
    if value != default {
        m.insert(key.into(), json!(value));
    }
}

fn put_table(m: &mut Map<String, Value>, key: &str, t: &crate::value::Table) {
    if !t.is_empty() {
        m.insert(key.into(), t.to_json());
    }
}

fn topology(t: &Topology) -> Value {
    let mut m = Map::new();
    m.insert(
        "exchanges".into(),
        t.exchanges.iter().map(exchange).collect(),
    );
    m.insert("queues".into(), t.queues.iter().map(queue).collect());
    m.insert("bindings".into(), t.bindings.iter().map(binding).collect());
    if !t.not_simulated.is_empty() {
        m.insert("not_simulated".into(), json!(t.not_simulated));
    }
    Value::Object(m)
}

fn exchange(e: &ExchangeDef) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), json!(e.name));
    m.insert("type".into(), json!(e.kind));
    put_flag(&mut m, "durable", e.durable, true);
    put_flag(&mut m, "auto_delete", e.auto_delete, false);
    put_flag(&mut m, "internal", e.internal, false);
    put_table(&mut m, "arguments", &e.arguments);
    Value::Object(m)
}

fn queue(q: &QueueDef) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), json!(q.name));
    put_flag(&mut m, "durable", q.durable, true);
    put_flag(&mut m, "auto_delete", q.auto_delete, false);
    put_flag(&mut m, "exclusive", q.exclusive, false);
    put_table(&mut m, "arguments", &q.arguments);
    Value::Object(m)
}

fn binding(b: &BindingDef) -> Value {
    let mut m = Map::new();
    m.insert("source".into(), json!(b.source));
    m.insert("destination".into(), json!(b.destination));
    let kind = match b.destination_type {
        DestinationKind::Queue => "queue",
        DestinationKind::Exchange => "exchange",
    };
    m.insert("destination_type".into(), json!(kind));
    m.insert("routing_key".into(), json!(b.routing_key));
    put_table(&mut m, "arguments", &b.arguments);
    Value::Object(m)
}

fn outcome_name(o: Outcome) -> &'static str {
    o.name()
}

fn consumer(c: &ConsumerSpec) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), json!(c.name));
    m.insert("queue".into(), json!(c.queue));
    let ack = match c.ack {
        AckMode::Manual => "manual",
        AckMode::Auto => "auto",
    };
    m.insert("ack".into(), json!(ack));
    m.insert("prefetch".into(), json!(c.prefetch));
    if c.global_qos {
        m.insert("global_qos".into(), json!(true));
    }
    m.insert("handle".into(), dur(c.handle_ms));
    let outcome = match &c.outcome {
        OutcomePlan::Fixed(o) => json!(outcome_name(*o)),
        OutcomePlan::Sequence(list) => list.iter().map(|o| json!(outcome_name(*o))).collect(),
        OutcomePlan::Weighted(weights) => {
            let mut w = Map::new();
            for (o, weight) in weights {
                let n = serde_json::Number::from_f64(*weight)
                    .map(Value::Number)
                    .unwrap_or(Value::Null);
                w.insert(outcome_name(*o).into(), n);
            }
            Value::Object(w)
        }
    };
    m.insert("outcome".into(), outcome);
    if c.from_ms != 0 {
        m.insert("from".into(), dur(c.from_ms));
    }
    if let Some(to) = c.to_ms {
        m.insert("to".into(), dur(to));
    }
    client(&mut m, &c.client);
    Value::Object(m)
}

/// A consumer's client program (`scenario::ClientBehaviour`), only what is set.
fn client(m: &mut Map<String, Value>, c: &ClientBehaviour) {
    if let Some(r) = c.reconnect_ms {
        m.insert("reconnect".into(), dur(r));
    }
    if let Some(h) = &c.eta_header {
        m.insert("eta_header".into(), json!(h));
    }
    if let Some(r) = &c.republish {
        let count = match &r.count {
            RetryCount::XDeath => "x-death",
            RetryCount::Header(h) => h.as_str(),
        };
        m.insert(
            "republish".into(),
            json!({"exchange": r.exchange, "routing_key": r.routing_key, "count": count, "give_up_at": r.give_up_at}),
        );
    }
    if let Some(t) = c.consumer_timeout_ms {
        m.insert("arguments".into(), json!({"x-consumer-timeout": t}));
    }
}

fn action(a: &Action) -> Value {
    let mut m = Map::new();
    m.insert("at".into(), dur(a.at_ms));
    let (key, body) = match &a.kind {
        ActionKind::Publish(p) => ("publish", publish(p)),
        ActionKind::Declare(Declare::Exchange(e)) => ("declare", json!({"exchange": exchange(e)})),
        ActionKind::Declare(Declare::Queue(q)) => ("declare", json!({"queue": queue(q)})),
        ActionKind::Declare(Declare::Binding(b)) => ("declare", json!({"binding": binding(b)})),
        ActionKind::Delete(Delete::Exchange { name }) => ("delete", json!({"exchange": name})),
        ActionKind::Delete(Delete::Queue { name }) => ("delete", json!({"queue": name})),
        ActionKind::Delete(Delete::Binding(b)) => ("delete", json!({"binding": binding(b)})),
        ActionKind::Purge { queue } => ("purge", json!({"queue": queue})),
        ActionKind::Get { queue } => ("get", json!({"queue": queue})),
        ActionKind::RestartNode { downtime_ms } => {
            ("restart_node", json!({"downtime": dur(*downtime_ms)}))
        }
        ActionKind::LoseNode => ("lose_node", json!({})),
        ActionKind::Upgrade { to, downtime_ms } => (
            "upgrade",
            json!({"to": to.as_str(), "downtime": dur(*downtime_ms)}),
        ),
    };
    m.insert(key.into(), body);
    if let Some(r) = &a.repeat {
        m.insert(
            "repeat".into(),
            json!({"count": r.count, "every": dur(r.every_ms)}),
        );
    }
    Value::Object(m)
}

fn publish(p: &PublishSpec) -> Value {
    let mut m = Map::new();
    m.insert("exchange".into(), json!(p.exchange));
    m.insert("routing_key".into(), json!(p.routing_key));
    m.insert("body".into(), json!(p.body));
    if p.properties != Properties::default() {
        m.insert("properties".into(), properties(&p.properties));
    }
    put_flag(&mut m, "mandatory", p.mandatory, false);
    Value::Object(m)
}

fn properties(p: &Properties) -> Value {
    let mut m = Map::new();
    put_opt_str(&mut m, "expiration", &p.expiration);
    if let Some(mode) = p.delivery_mode {
        m.insert("delivery_mode".into(), json!(mode));
    }
    if let Some(priority) = p.priority {
        m.insert("priority".into(), json!(priority));
    }
    put_opt_str(&mut m, "message_id", &p.message_id);
    put_opt_str(&mut m, "correlation_id", &p.correlation_id);
    put_opt_str(&mut m, "content_type", &p.content_type);
    put_opt_str(&mut m, "content_encoding", &p.content_encoding);
    put_opt_str(&mut m, "reply_to", &p.reply_to);
    if let Some(ts) = p.timestamp {
        m.insert("timestamp".into(), json!(ts));
    }
    put_opt_str(&mut m, "type", &p.kind);
    put_opt_str(&mut m, "user_id", &p.user_id);
    put_opt_str(&mut m, "app_id", &p.app_id);
    put_table(&mut m, "headers", &p.headers);
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::load::{load_str, load_value};
    use crate::value::{FieldValue, Table};

    fn round_trip(s: &Scenario) {
        assert_eq!(
            &load_value(&to_value(s)).unwrap_or_else(|e| panic!("{e}")),
            s
        );
        assert_eq!(
            &load_str(&to_string_pretty(s)).unwrap_or_else(|e| panic!("{e}")),
            s
        );
    }

    #[test]
    fn empty_scenario_is_small_and_round_trips() {
        let s = Scenario::empty("x");
        assert_eq!(
            to_value(&s),
            json!({"version": 1, "name": "x", "seed": 1,
                   "topology": {"exchanges": [], "queues": [], "bindings": []}, "consumers": [], "actions": []})
        );
        round_trip(&s);
    }

    #[test]
    fn contract_example_round_trips_and_uses_short_durations() {
        let s = load_str(crate::scenario::load::tests::CONTRACT_EXAMPLE).unwrap();
        round_trip(&s);
        let v = to_value(&s);
        assert_eq!(v["until"], json!("40m"));
        assert_eq!(v["consumers"][0]["handle"], json!("100ms"));
        assert_eq!(v["actions"][1]["at"], json!("1m"));
        assert_eq!(
            v["actions"][2]["repeat"],
            json!({"count": 3, "every": "10s"})
        );
        assert_eq!(
            v["actions"][0]["publish"]["properties"],
            json!({"expiration": "1800000", "delivery_mode": 2})
        );
        assert_eq!(
            v["topology"]["exchanges"][0],
            json!({"name": "order.delay.exchange", "type": "direct"})
        );
    }

    #[test]
    fn broker_and_versions_round_trip() {
        use crate::version::BrokerVersion::*;
        let mut s = Scenario::empty("v");
        s.broker = Some(V4_3);
        s.versions = vec![V4_0, V4_3];
        let v = to_value(&s);
        assert_eq!(v["broker"], json!("4.3"));
        assert_eq!(v["versions"], json!(["4.0", "4.3"]));
        round_trip(&s);
    }

    #[test]
    fn every_variant_round_trips() {
        let mut headers = Table::new();
        headers.insert("x-delay", FieldValue::Int(-5));
        headers.insert("f", FieldValue::Float(2.0));
        headers.insert("s", FieldValue::str("60000"));
        headers.insert("v", FieldValue::Void);
        headers.insert(
            "nested",
            FieldValue::from_json(&json!({"a": [true, null, 1.5, {"b": "c"}]})),
        );
        let mut s = Scenario::empty("all");
        s.description = "d".into();
        s.watch = "w".into();
        s.seed = u64::MAX;
        s.until_ms = Some(0);
        s.topology.exchanges.push(ExchangeDef {
            durable: false,
            auto_delete: true,
            internal: true,
            ..ExchangeDef::new("e", "x-delayed-message")
        });
        s.topology.queues.push(QueueDef {
            durable: false,
            auto_delete: true,
            exclusive: true,
            ..QueueDef::new("q").with_arg("x-queue-type", FieldValue::str("quorum"))
        });
        let mut to_exchange = BindingDef::queue("e", "f", "k");
        to_exchange.destination_type = DestinationKind::Exchange;
        to_exchange.arguments = headers.clone();
        s.topology.bindings.push(to_exchange.clone());
        s.topology
            .not_simulated
            .push("policies: 1 policy is not simulated".into());
        for (i, outcome) in [
            OutcomePlan::Fixed(Outcome::Reject),
            OutcomePlan::Sequence(vec![Outcome::Requeue]),
            OutcomePlan::Weighted(vec![(Outcome::Requeue, 0.25), (Outcome::Ack, 3.0)]),
        ]
        .into_iter()
        .enumerate()
        {
            s.consumers.push(ConsumerSpec {
                name: format!("c{i}"),
                queue: "q".into(),
                ack: if i == 0 {
                    AckMode::Auto
                } else {
                    AckMode::Manual
                },
                prefetch: u32::MAX,
                global_qos: false,
                handle_ms: 1,
                outcome,
                from_ms: i as u64,
                to_ms: if i == 1 { Some(1_000) } else { None },
                client: Default::default(),
            });
        }
        let props = Properties {
            expiration: Some("junk".into()),
            delivery_mode: Some(1),
            priority: Some(0),
            message_id: Some("m".into()),
            correlation_id: Some(String::new()),
            content_type: Some("ct".into()),
            content_encoding: Some("ce".into()),
            reply_to: Some("r".into()),
            timestamp: Some(u64::MAX),
            kind: Some("t".into()),
            user_id: Some("u".into()),
            app_id: Some("a".into()),
            headers,
        };
        let kinds = vec![
            ActionKind::Publish(PublishSpec {
                exchange: "e".into(),
                routing_key: "k".into(),
                body: "b {n}".into(),
                properties: props,
                mandatory: true,
            }),
            ActionKind::Declare(Declare::Exchange(ExchangeDef::new("x", "topic"))),
            ActionKind::Declare(Declare::Queue(QueueDef::new(""))),
            ActionKind::Declare(Declare::Binding(to_exchange.clone())),
            ActionKind::Delete(Delete::Exchange { name: "x".into() }),
            ActionKind::Delete(Delete::Queue { name: "q".into() }),
            ActionKind::Delete(Delete::Binding(to_exchange)),
            ActionKind::Purge { queue: "q".into() },
            ActionKind::Get { queue: "q".into() },
            ActionKind::RestartNode {
                downtime_ms: 90_000,
            },
            ActionKind::RestartNode { downtime_ms: 0 },
            ActionKind::LoseNode,
        ];
        for (i, kind) in kinds.into_iter().enumerate() {
            let repeat = (i == 0).then_some(Repeat {
                count: 4,
                every_ms: 1500,
            });
            s.actions.push(Action {
                at_ms: i as u64 * 7,
                kind,
                repeat,
            });
        }
        round_trip(&s);
    }

    #[test]
    fn pretty_output_is_indented_json() {
        let text = to_string_pretty(&Scenario::empty("x"));
        assert!(
            text.starts_with("{\n  \"version\": 1,\n  \"name\": \"x\""),
            "{text}"
        );
    }
}
