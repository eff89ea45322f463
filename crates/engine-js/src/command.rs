//! `sim.handle(command)`: what a page can do to a running simulation, as JSON in the
//! scenario format's own words (a publish is what an action's `publish` holds, a new
//! consumer what a `consumers` entry holds), checked by the engine's loader:
//!
//! ```text
//! {"publish": {"exchange": "order.delay.exchange", "routing_key": "order.create",
//!              "body": "C", "properties": {"expiration": "60000"}}}
//! {"add_consumer": {"name": "closer-2", "queue": "order.dlx.queue", "ack": "auto"}}
//! {"stop_consumer": "closer"}
//! ```
//!
//! A malformed command is a [`LoadError`] with its path (`publish.properties.expiration`);
//! what RabbitMQ would refuse (a 406 expiration, a 404 exchange) is the broker's to say,
//! at `handle` time.

use delaylab_engine::scenario::load::{consumer_value, publish_value};
use delaylab_engine::scenario::{ActionKind, LoadError};
use delaylab_engine::Command;
use serde_json::Value;

/// The command kinds, each the single key of a command object.
pub const COMMAND_KINDS: &[&str] = &["publish", "add_consumer", "stop_consumer"];

pub fn parse(v: &Value) -> Result<Command, LoadError> {
    let Value::Object(m) = v else {
        return Err(LoadError::new(
            "$",
            format!(
                "a command is an object with one of {}",
                COMMAND_KINDS.join(", ")
            ),
        ));
    };
    let mut keys = m.keys();
    let (Some(kind), None) = (keys.next(), keys.next()) else {
        return Err(LoadError::new(
            "$",
            format!(
                "a command has exactly one key, one of {}; found {}",
                COMMAND_KINDS.join(", "),
                m.len()
            ),
        ));
    };
    let body = &m[kind];
    match kind.as_str() {
        "publish" => Ok(Command::Run(ActionKind::Publish(publish_value(
            body, kind,
        )?))),
        "add_consumer" => Ok(Command::AddConsumer(consumer_value(body, kind)?)),
        "stop_consumer" => match body {
            Value::String(name) => Ok(Command::StopConsumer(name.clone())),
            _ => Err(LoadError::new(
                kind.as_str(),
                "expected a consumer name (a string)",
            )),
        },
        other => Err(LoadError::new(
            other,
            format!("unknown command; one of {}", COMMAND_KINDS.join(", ")),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn publish_add_and_stop_parse() {
        let p = parse(&json!({"publish": {"exchange": "x", "routing_key": "k", "body": "A"}}));
        assert!(matches!(p, Ok(Command::Run(ActionKind::Publish(ref s))) if s.body == "A"));
        let a = parse(&json!({"add_consumer": {"name": "c", "queue": "q", "ack": "auto"}}));
        assert!(matches!(a, Ok(Command::AddConsumer(ref c)) if c.name == "c" && c.queue == "q"));
        let s = parse(&json!({"stop_consumer": "c"}));
        assert!(matches!(s, Ok(Command::StopConsumer(ref n)) if n == "c"));
    }

    #[test]
    fn bad_commands_name_their_path() {
        let e = parse(&json!({"publish": {"properties": {"expiration": 5}}})).unwrap_err();
        assert_eq!(e.path, "publish.properties.expiration");
        let e = parse(&json!({"add_consumer": {"name": "c", "queue": "q", "ack": "sometimes"}}))
            .unwrap_err();
        assert_eq!(e.path, "add_consumer.ack");
        let e = parse(&json!({"stop_consumer": 3})).unwrap_err();
        assert_eq!(e.path, "stop_consumer");
        let e = parse(&json!({"publish": {}, "stop_consumer": "c"})).unwrap_err();
        assert_eq!(e.path, "$");
        let e = parse(&json!({"purge": {}})).unwrap_err();
        assert_eq!(e.path, "purge");
        assert!(parse(&json!([1])).is_err());
    }
}
