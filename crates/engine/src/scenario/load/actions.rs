//! `actions`: what happens at a time (publish, declare, delete, purge, get, a node
//! restart or loss, an upgrade), a publish's repeat, and a message's properties.

use serde_json::Value;

use super::errors::{expected, fail, index, R};
use super::json::{as_obj, check_name, uint, Obj};
use super::limits::{MAX_ACTIONS, MAX_BODY_BYTES, MAX_DURATION_MS, MAX_PUBLISHES_TOTAL};
use super::topology::{binding_def, exchange_def, queue_def, strict_vhost};
use super::version_value;
use crate::scenario::duration::format_duration;
use crate::scenario::model::*;

const ACTION_KINDS: &[&str] = &[
    "publish",
    "declare",
    "delete",
    "purge",
    "get",
    "restart_node",
    "lose_node",
    "upgrade",
];

pub(super) fn actions(items: &[Value]) -> R<Vec<Action>> {
    if items.len() > MAX_ACTIONS {
        return fail(
            "actions",
            format!(
                "{} actions; the limit is {MAX_ACTIONS} (MAX_ACTIONS)",
                items.len()
            ),
        );
    }
    let mut publishes: u64 = 0;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let o = as_obj(item, index("actions", i))?;
        let action = action(&o)?;
        if let ActionKind::Publish(_) = action.kind {
            publishes = publishes.saturating_add(action.repeat.map_or(1, |r| u64::from(r.count)));
            if publishes > MAX_PUBLISHES_TOTAL {
                let path = if action.repeat.is_some() {
                    o.p("repeat") + ".count"
                } else {
                    o.path.clone()
                };
                return fail(
                    path,
                    format!(
                        "the scenario publishes more than {MAX_PUBLISHES_TOTAL} messages in total, repeat counts \
                         included (MAX_PUBLISHES_TOTAL)"
                    ),
                );
            }
        }
        out.push(action);
    }
    Ok(out)
}

fn action(o: &Obj) -> R<Action> {
    let mut allowed = vec!["at", "repeat"];
    allowed.extend_from_slice(ACTION_KINDS);
    o.check_keys(&allowed)?;
    let present: Vec<&str> = ACTION_KINDS
        .iter()
        .copied()
        .filter(|k| o.m.contains_key(*k))
        .collect();
    let kind_key = match present.as_slice() {
        [one] => *one,
        [] => {
            return fail(
                o.path.clone(),
                format!("an action needs one of {}", ACTION_KINDS.join(", ")),
            )
        }
        [a, b, ..] => {
            return fail(
                o.path.clone(),
                format!(
                    "an action has exactly one of {}; found {a} and {b}",
                    ACTION_KINDS.join(", ")
                ),
            )
        }
    };
    let at_ms = o.dur_req("at")?;
    let kp = o.p(kind_key);
    let kv = o.get(kind_key).unwrap_or(&Value::Null);
    let kind = match kind_key {
        "publish" => ActionKind::Publish(publish(&as_obj(kv, kp)?)?),
        "declare" => {
            let d = as_obj(kv, kp)?;
            match one_of(&d, &["queue", "exchange", "binding"])? {
                "queue" => ActionKind::Declare(Declare::Queue(queue_def(&d.obj("queue")?, None)?)),
                "exchange" => {
                    ActionKind::Declare(Declare::Exchange(exchange_def(&d.obj("exchange")?, None)?))
                }
                _ => ActionKind::Declare(Declare::Binding(binding_def(&d.obj("binding")?, None)?)),
            }
        }
        "delete" => {
            let d = as_obj(kv, kp)?;
            match one_of(&d, &["queue", "exchange", "binding"])? {
                "queue" => ActionKind::Delete(Delete::Queue {
                    name: name_ref(&d, "queue")?,
                }),
                "exchange" => ActionKind::Delete(Delete::Exchange {
                    name: name_ref(&d, "exchange")?,
                }),
                _ => ActionKind::Delete(Delete::Binding(binding_def(&d.obj("binding")?, None)?)),
            }
        }
        "purge" | "get" => {
            let d = as_obj(kv, kp)?;
            d.check_keys(&["queue"])?;
            if d.get("queue").is_none() {
                return fail(d.p("queue"), "missing (required)");
            }
            let queue = name_ref(&d, "queue")?;
            if kind_key == "purge" {
                ActionKind::Purge { queue }
            } else {
                ActionKind::Get { queue }
            }
        }
        "restart_node" => {
            let d = as_obj(kv, kp)?;
            d.check_keys(&["downtime"])?;
            ActionKind::RestartNode {
                downtime_ms: d.dur_opt("downtime")?.unwrap_or(0),
            }
        }
        "upgrade" => {
            let d = as_obj(kv, kp)?;
            d.check_keys(&["to", "downtime"])?;
            ActionKind::Upgrade {
                to: version_value(d.get("to"), &d.p("to"))?
                    .ok_or_else(|| super::errors::error(d.p("to"), "missing (required)"))?,
                downtime_ms: d.dur_opt("downtime")?.unwrap_or(0),
            }
        }
        _ => {
            let d = as_obj(kv, kp)?;
            d.check_keys(&[])?;
            ActionKind::LoseNode
        }
    };
    let repeat = match o.get("repeat") {
        None => None,
        Some(v) => {
            let rp = o.p("repeat");
            if kind_key != "publish" {
                return fail(rp, "repeat is only allowed with publish");
            }
            let r = as_obj(v, rp)?;
            r.check_keys(&["count", "every"])?;
            let count = match r.get("count") {
                None => return fail(r.p("count"), "missing (required)"),
                Some(c) => uint(c, &r.p("count"), u64::from(u32::MAX))?,
            };
            if count == 0 {
                return fail(
                    r.p("count"),
                    "count must be at least 1 (it includes the first run)",
                );
            }
            let every_ms = r.dur_req("every")?;
            let last = u128::from(at_ms) + u128::from(count - 1) * u128::from(every_ms);
            if last > u128::from(MAX_DURATION_MS) {
                return fail(
                    r.path.clone(),
                    format!(
                        "the last run would be at {}ms, after the limit of {} (MAX_DURATION_MS)",
                        last,
                        format_duration(MAX_DURATION_MS)
                    ),
                );
            }
            Some(Repeat {
                count: count as u32,
                every_ms,
            })
        }
    };
    Ok(Action {
        at_ms,
        kind,
        repeat,
    })
}

/// The single key among `keys` an object has (`{"queue": ...}` in declare and delete).
fn one_of(o: &Obj, keys: &[&'static str]) -> R<&'static str> {
    o.check_keys(keys)?;
    let present: Vec<&'static str> = keys
        .iter()
        .copied()
        .filter(|k| o.m.contains_key(*k))
        .collect();
    match present.as_slice() {
        [one] => Ok(one),
        [] => fail(
            o.path.clone(),
            format!("expected one of {}", keys.join(", ")),
        ),
        [a, b, ..] => fail(
            o.path.clone(),
            format!(
                "expected exactly one of {}; found {a} and {b}",
                keys.join(", ")
            ),
        ),
    }
}

/// A queue or exchange named as `"name"` or `{"name": "name"}`.
fn name_ref(o: &Obj, key: &str) -> R<String> {
    let p = o.p(key);
    match o.get(key) {
        Some(Value::String(s)) => check_name(s, &p),
        Some(Value::Object(m)) => {
            let inner = Obj { m, path: p };
            inner.check_keys(&["name", "vhost"])?;
            strict_vhost(&inner, &None)?;
            inner.name_req("name")
        }
        Some(other) => fail(p, expected("a name or an object {\"name\": ...}", other)),
        None => fail(p, "missing (required)"),
    }
}

pub(super) fn publish(o: &Obj) -> R<PublishSpec> {
    o.check_keys(&["exchange", "routing_key", "body", "properties", "mandatory"])?;
    let body = o.str_or("body", "")?;
    if body.len() > MAX_BODY_BYTES {
        return fail(
            o.p("body"),
            format!(
                "the body is {} bytes; the limit is {MAX_BODY_BYTES} bytes (MAX_BODY_BYTES)",
                body.len()
            ),
        );
    }
    Ok(PublishSpec {
        exchange: o.name_or("exchange")?,
        routing_key: o.name_or("routing_key")?,
        body,
        properties: match o.get("properties") {
            None => Properties::default(),
            Some(v) => properties(&as_obj(v, o.p("properties"))?)?,
        },
        mandatory: o.bool_or("mandatory", false)?,
    })
}

fn properties(o: &Obj) -> R<Properties> {
    o.check_keys(&[
        "expiration",
        "delivery_mode",
        "priority",
        "message_id",
        "correlation_id",
        "content_type",
        "content_encoding",
        "reply_to",
        "timestamp",
        "type",
        "user_id",
        "app_id",
        "headers",
    ])?;
    let expiration = match o.get("expiration") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => {
            return fail(
                o.p("expiration"),
                format!(
                    "expiration must be a JSON string, found the number {n}: AMQP's expiration is a string of \
                     milliseconds, e.g. \"60000\""
                ),
            )
        }
        Some(other) => return fail(o.p("expiration"), expected("a string of milliseconds, e.g. \"60000\"", other)),
    };
    let delivery_mode = match o.get("delivery_mode") {
        None => None,
        Some(v) => match v.as_u64() {
            Some(m @ (1 | 2)) => Some(m as u8),
            _ => {
                return fail(
                    o.p("delivery_mode"),
                    expected("1 (transient) or 2 (persistent)", v),
                )
            }
        },
    };
    Ok(Properties {
        expiration,
        delivery_mode,
        priority: o.uint_opt("priority", 255)?.map(|p| p as u8),
        message_id: o.str_opt("message_id")?,
        correlation_id: o.str_opt("correlation_id")?,
        content_type: o.str_opt("content_type")?,
        content_encoding: o.str_opt("content_encoding")?,
        reply_to: o.str_opt("reply_to")?,
        timestamp: o.uint_opt("timestamp", u64::MAX)?,
        kind: o.str_opt("type")?,
        user_id: o.str_opt("user_id")?,
        app_id: o.str_opt("app_id")?,
        headers: o.table_or_empty("headers")?,
    })
}

#[cfg(test)]
mod tests {
    use super::super::limits::*;
    use crate::scenario::load::tests::{assert_err, ok, publish_with};
    use crate::scenario::model::*;
    use crate::value::FieldValue;
    use serde_json::{json, Value};

    #[test]
    fn action_needs_at_and_exactly_one_kind() {
        assert_err(
            json!({"actions": [{"publish": {}}]}),
            "actions[0].at",
            "missing (required)",
        );
        assert_err(
            json!({"actions": [{"at": 0}]}),
            "actions[0]",
            "an action needs one of publish, declare",
        );
        assert_err(
            json!({"actions": [{"at": 0, "purge": {"queue": "q"}, "get": {"queue": "q"}}]}),
            "actions[0]",
            "found purge and get",
        );
        assert_err(
            json!({"actions": [{"at": 0, "sleep": {}}]}),
            "actions[0].sleep",
            "unknown field; expected one of: at, repeat, publish",
        );
        assert_err(
            json!({"actions": [{"at": "soon", "lose_node": {}}]}),
            "actions[0].at",
            "invalid duration \"soon\"",
        );
        assert_err(json!({"actions": {}}), "actions", "expected a list");
        assert_err(json!({"actions": [3]}), "actions[0]", "expected an object");
    }

    #[test]
    fn publish_fields_and_defaults() {
        let s = ok(json!({"actions": [{"at": "1s", "publish": {}},
            {"at": 0, "publish": {"exchange": "e", "routing_key": "k", "body": "b", "mandatory": true}}]}));
        let ActionKind::Publish(p) = &s.actions[0].kind else {
            panic!()
        };
        assert_eq!(
            (
                p.exchange.as_str(),
                p.routing_key.as_str(),
                p.body.as_str(),
                p.mandatory
            ),
            ("", "", "", false)
        );
        assert_eq!(p.properties, Properties::default());
        let ActionKind::Publish(p) = &s.actions[1].kind else {
            panic!()
        };
        assert_eq!(
            (
                p.exchange.as_str(),
                p.routing_key.as_str(),
                p.body.as_str(),
                p.mandatory
            ),
            ("e", "k", "b", true)
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {"body": 5}}]}),
            "actions[0].publish.body",
            "expected a string",
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {"mandatory": 1}}]}),
            "actions[0].publish.mandatory",
            "true or false",
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {"routingKey": "k"}}]}),
            "actions[0].publish.routingKey",
            "unknown field",
        );
    }

    #[test]
    fn body_limit() {
        let body = "b".repeat(MAX_BODY_BYTES + 1);
        assert_err(
            json!({"actions": [{"at": 0, "publish": {"body": body}}]}),
            "actions[0].publish.body",
            "65537 bytes; the limit is 65536 bytes (MAX_BODY_BYTES)",
        );
    }

    #[test]
    fn all_properties() {
        let s = ok(publish_with(
            json!({"expiration": "60000", "delivery_mode": 2, "priority": 255,
            "message_id": "m", "correlation_id": "c", "content_type": "text/plain", "content_encoding": "gzip",
            "reply_to": "r", "timestamp": 1700000000u64, "type": "t", "user_id": "guest", "app_id": "a",
            "headers": {"x-delay": 5000, "nested": {"a": [1, "b"]}}}),
        ));
        let ActionKind::Publish(p) = &s.actions[0].kind else {
            panic!()
        };
        let pr = &p.properties;
        assert_eq!(pr.expiration.as_deref(), Some("60000"));
        assert_eq!(
            (pr.delivery_mode, pr.priority, pr.timestamp),
            (Some(2), Some(255), Some(1_700_000_000))
        );
        assert_eq!(pr.kind.as_deref(), Some("t"));
        assert_eq!(pr.user_id.as_deref(), Some("guest"));
        assert_eq!(pr.headers.get("x-delay"), Some(&FieldValue::Int(5000)));
        assert_eq!(pr.headers.len(), 2);
    }

    #[test]
    fn expiration_must_be_a_string() {
        assert_err(
            publish_with(json!({"expiration": 60000})),
            "actions[0].publish.properties.expiration",
            "expiration must be a JSON string, found the number 60000: AMQP's expiration is a string of milliseconds, e.g. \"60000\"",
        );
        assert_err(
            publish_with(json!({"expiration": true})),
            "actions[0].publish.properties.expiration",
            "expected a string",
        );
        // The string's content is the broker's business (a 406 at publish).
        let s = ok(publish_with(json!({"expiration": "-5"})));
        let ActionKind::Publish(p) = &s.actions[0].kind else {
            panic!()
        };
        assert_eq!(p.properties.expiration.as_deref(), Some("-5"));
    }

    #[test]
    fn property_types() {
        let path = |k: &str| format!("actions[0].publish.properties.{k}");
        assert_err(
            publish_with(json!({"delivery_mode": 3})),
            &path("delivery_mode"),
            "expected 1 (transient) or 2 (persistent)",
        );
        assert_err(
            publish_with(json!({"priority": 256})),
            &path("priority"),
            "from 0 to 255",
        );
        assert_err(
            publish_with(json!({"timestamp": "now"})),
            &path("timestamp"),
            "expected an integer",
        );
        assert_err(
            publish_with(json!({"message_id": 5})),
            &path("message_id"),
            "expected a string",
        );
        assert_err(
            publish_with(json!({"headers": "x-delay"})),
            &path("headers"),
            "a field table",
        );
        assert_err(
            publish_with(json!({"ttl": "1"})),
            &path("ttl"),
            "unknown field",
        );
        assert_err(
            publish_with(json!({"headers": {"odd key": {"k": 1}, "x": 1}, "priority": -1})),
            &path("priority"),
            "from 0 to 255",
        );
    }

    #[test]
    fn repeat_rules() {
        let s = ok(
            json!({"actions": [{"at": "1m", "publish": {}, "repeat": {"count": 5, "every": "10s"}}]}),
        );
        assert_eq!(
            s.actions[0].repeat,
            Some(Repeat {
                count: 5,
                every_ms: 10_000
            })
        );
        assert_err(
            json!({"actions": [{"at": 0, "purge": {"queue": "q"}, "repeat": {"count": 2, "every": 1}}]}),
            "actions[0].repeat",
            "repeat is only allowed with publish",
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {}, "repeat": {"count": 0, "every": 1}}]}),
            "actions[0].repeat.count",
            "at least 1",
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {}, "repeat": {"every": 1}}]}),
            "actions[0].repeat.count",
            "missing",
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {}, "repeat": {"count": 2}}]}),
            "actions[0].repeat.every",
            "missing",
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {}, "repeat": {"count": 2, "every": 1, "until": 5}}]}),
            "actions[0].repeat.until",
            "unknown field",
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {}, "repeat": {"count": 5000000000u64, "every": 1}}]}),
            "actions[0].repeat.count",
            "from 0 to 4294967295",
        );
        assert_err(
            json!({"actions": [{"at": "366d", "publish": {}, "repeat": {"count": 2, "every": 1}}]}),
            "actions[0].repeat",
            "the last run would be at 31622400001ms, after the limit of 366d (MAX_DURATION_MS)",
        );
    }

    #[test]
    fn publish_total_limit() {
        let s = ok(
            json!({"actions": [{"at": 0, "publish": {}, "repeat": {"count": MAX_PUBLISHES_TOTAL, "every": 0}}]}),
        );
        assert_eq!(s.actions.len(), 1);
        assert_err(
            json!({"actions": [{"at": 0, "publish": {}, "repeat": {"count": MAX_PUBLISHES_TOTAL, "every": 0}},
                               {"at": 0, "lose_node": {}}, {"at": 0, "publish": {}}]}),
            "actions[2]",
            "more than 2000000 messages in total, repeat counts included (MAX_PUBLISHES_TOTAL)",
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {}},
                               {"at": 0, "publish": {}, "repeat": {"count": MAX_PUBLISHES_TOTAL, "every": 0}}]}),
            "actions[1].repeat.count",
            "MAX_PUBLISHES_TOTAL",
        );
    }

    #[test]
    fn action_count_limit() {
        let acts: Vec<Value> = (0..=MAX_ACTIONS)
            .map(|_| json!({"at": 0, "lose_node": {}}))
            .collect();
        assert_err(
            json!({"actions": acts}),
            "actions",
            "10001 actions; the limit is 10000 (MAX_ACTIONS)",
        );
    }

    #[test]
    fn declare_actions() {
        let s = ok(json!({"actions": [
            {"at": 0, "declare": {"queue": {"name": "q", "type": "quorum"}}},
            {"at": 0, "declare": {"exchange": {"name": "e", "type": "fanout", "vhost": "/"}}},
            {"at": 0, "declare": {"binding": {"source": "e", "destination": "q"}}}]}));
        let ActionKind::Declare(Declare::Queue(q)) = &s.actions[0].kind else {
            panic!()
        };
        assert_eq!(
            q.arguments.get("x-queue-type"),
            Some(&FieldValue::str("quorum"))
        );
        assert_eq!(
            s.actions[1].kind,
            ActionKind::Declare(Declare::Exchange(ExchangeDef::new("e", "fanout")))
        );
        assert_eq!(
            s.actions[2].kind,
            ActionKind::Declare(Declare::Binding(BindingDef::queue("e", "q", "")))
        );
        // Outside the topology, unknown keys are errors again, and only vhost "/" exists.
        assert_err(
            json!({"actions": [{"at": 0, "declare": {"queue": {"name": "q", "owner": "x"}}}]}),
            "actions[0].declare.queue.owner",
            "unknown field",
        );
        assert_err(
            json!({"actions": [{"at": 0, "declare": {"queue": {"name": "q", "vhost": "v"}}}]}),
            "actions[0].declare.queue.vhost",
            "only the default vhost",
        );
        assert_err(
            json!({"actions": [{"at": 0, "declare": {}}]}),
            "actions[0].declare",
            "expected one of queue, exchange, binding",
        );
        assert_err(
            json!({"actions": [{"at": 0, "declare": {"queue": {"name": "q"}, "exchange": {}}}]}),
            "actions[0].declare",
            "found queue and exchange",
        );
        assert_err(
            json!({"actions": [{"at": 0, "declare": {"policy": {}}}]}),
            "actions[0].declare.policy",
            "unknown field",
        );
        assert_err(
            json!({"actions": [{"at": 0, "declare": {"exchange": "e"}}]}),
            "actions[0].declare.exchange",
            "expected an object",
        );
    }

    #[test]
    fn delete_actions() {
        let s = ok(json!({"actions": [
            {"at": 0, "delete": {"queue": "q"}},
            {"at": 0, "delete": {"queue": {"name": "q"}}},
            {"at": 0, "delete": {"exchange": "e"}},
            {"at": 0, "delete": {"binding": {"source": "e", "destination": "q", "routing_key": "k"}}}]}));
        assert_eq!(
            s.actions[0].kind,
            ActionKind::Delete(Delete::Queue { name: "q".into() })
        );
        assert_eq!(s.actions[1].kind, s.actions[0].kind);
        assert_eq!(
            s.actions[2].kind,
            ActionKind::Delete(Delete::Exchange { name: "e".into() })
        );
        assert_eq!(
            s.actions[3].kind,
            ActionKind::Delete(Delete::Binding(BindingDef::queue("e", "q", "k")))
        );
        assert_err(
            json!({"actions": [{"at": 0, "delete": {"queue": {}}}]}),
            "actions[0].delete.queue.name",
            "missing",
        );
        assert_err(
            json!({"actions": [{"at": 0, "delete": {"queue": {"name": "q", "if_empty": true}}}]}),
            "actions[0].delete.queue.if_empty",
            "unknown field",
        );
        assert_err(
            json!({"actions": [{"at": 0, "delete": {"queue": 1}}]}),
            "actions[0].delete.queue",
            "expected a name or an object",
        );
    }

    #[test]
    fn purge_and_get_actions() {
        let s = ok(
            json!({"actions": [{"at": 0, "purge": {"queue": "q"}}, {"at": 0, "get": {"queue": "q"}}]}),
        );
        assert_eq!(s.actions[0].kind, ActionKind::Purge { queue: "q".into() });
        assert_eq!(s.actions[1].kind, ActionKind::Get { queue: "q".into() });
        assert_err(
            json!({"actions": [{"at": 0, "purge": {}}]}),
            "actions[0].purge.queue",
            "missing (required)",
        );
        assert_err(
            json!({"actions": [{"at": 0, "get": {"queue": "q", "ack": true}}]}),
            "actions[0].get.ack",
            "unknown field",
        );
        assert_err(
            json!({"actions": [{"at": 0, "get": "q"}]}),
            "actions[0].get",
            "expected an object, found the string \"q\"",
        );
    }

    #[test]
    fn node_actions() {
        let s = ok(
            json!({"actions": [{"at": 0, "restart_node": {}}, {"at": 0, "restart_node": {"downtime": "30s"}},
            {"at": 0, "lose_node": {}}]}),
        );
        assert_eq!(
            s.actions[0].kind,
            ActionKind::RestartNode { downtime_ms: 0 }
        );
        assert_eq!(
            s.actions[1].kind,
            ActionKind::RestartNode {
                downtime_ms: 30_000
            }
        );
        assert_eq!(s.actions[2].kind, ActionKind::LoseNode);
        assert_err(
            json!({"actions": [{"at": 0, "lose_node": {"node": "a"}}]}),
            "actions[0].lose_node.node",
            "this object takes no fields",
        );
        assert_err(
            json!({"actions": [{"at": 0, "restart_node": {"downtime": -1}}]}),
            "actions[0].restart_node.downtime",
            "cannot be negative",
        );
        assert_err(
            json!({"actions": [{"at": 0, "lose_node": null}]}),
            "actions[0].lose_node",
            "expected an object, found null",
        );
    }
}
