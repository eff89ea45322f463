//! One engine event as one JSON object (`delaylab run --trace`, one per line).
//!
//! `{"t_ms": 1800000, "event": "dead_lettered", "msg": 1, "copy": 1, "queue": "q", ...}`:
//! names are written out, message ids are the publish order (1-based).

use serde_json::{json, Map, Value};

use crate::event::{Event, EventKind};
use crate::sim::Sim;

pub fn event_json(e: &Event, sim: &Sim) -> Value {
    let syms = sim.symbols();
    let consumer_name = |c: crate::ids::ConsumerId| json!(sim.consumers()[c.0 as usize].spec.name);
    let mut m = Map::new();
    m.insert("t_ms".into(), json!(e.t_ms));
    m.insert("event".into(), json!(e.kind.name()));
    if let Some(id) = e.kind.msg_id() {
        m.insert("msg".into(), json!(id.0));
    }
    let s = |x| json!(syms.str(x));
    let mut put = |k: &str, v: Value| {
        m.insert(k.into(), v);
    };
    match &e.kind {
        EventKind::Published { msg, mandatory } => {
            put("exchange", s(msg.exchange));
            put("routing_key", s(msg.routing_key()));
            put("body", json!(&*msg.body));
            put("properties", super::render::properties(msg, syms));
            if !msg.headers.is_empty() {
                put("headers", msg.headers.to_json());
            }
            if *mandatory {
                put("mandatory", json!(true));
            }
        }
        EventKind::Error {
            code, text, scope, ..
        } => {
            put("code", json!(code));
            put("text", json!(&**text));
            put("scope", json!(scope.as_str()));
        }
        EventKind::Delayed {
            copy,
            exchange,
            due_ms,
            ..
        } => {
            put("copy", json!(copy.0));
            put("exchange", s(*exchange));
            put("due_ms", json!(due_ms));
        }
        EventKind::DelayDue {
            copy,
            exchange,
            late_ms,
            ..
        } => {
            put("copy", json!(copy.0));
            put("exchange", s(*exchange));
            put("late_ms", json!(late_ms));
        }
        EventKind::Enqueued {
            copy,
            queue,
            via,
            expires_at_ms,
            held,
            ..
        } => {
            put("copy", json!(copy.0));
            put("queue", s(*queue));
            put("via", s(*via));
            if let Some(t) = expires_at_ms {
                put("expires_at_ms", json!(t));
            }
            if let Some(h) = held {
                put("held_until_ms", json!(h.until_ms));
                put("held_by", json!(h.by.as_str()));
            }
        }
        EventKind::Returned {
            exchange,
            routing_key,
            code,
            text,
            ..
        } => {
            put("exchange", s(*exchange));
            put("routing_key", s(*routing_key));
            put("code", json!(code));
            put("text", json!(text));
        }
        EventKind::Confirmed { ack, .. } => put("ack", json!(ack)),
        EventKind::Expired {
            copy,
            queue,
            late_ms,
            ..
        } => {
            put("copy", json!(copy.0));
            put("queue", s(*queue));
            put("late_ms", json!(late_ms));
        }
        EventKind::DeadLettered {
            copy,
            queue,
            reason,
            dlx,
            routing_keys,
            ..
        } => {
            if let Some(c) = copy {
                put("copy", json!(c.0));
            }
            put("queue", s(*queue));
            put("reason", json!(reason.as_str()));
            put("dlx", s(*dlx));
            put(
                "routing_keys",
                Value::Array(routing_keys.iter().map(|k| s(*k)).collect()),
            );
        }
        EventKind::Dropped {
            copy,
            queue,
            reason,
            ..
        } => {
            if let Some(c) = copy {
                put("copy", json!(c.0));
            }
            if let Some(q) = queue {
                put("queue", s(*q));
            }
            put("reason", json!(reason.as_str()));
        }
        EventKind::Delivered {
            msg,
            copy,
            queue,
            consumer,
            redelivered,
            delivery_tag,
            returns,
            acquired,
        } => {
            put("copy", json!(copy.0));
            put("queue", s(*queue));
            put("consumer", consumer.map_or(Value::Null, consumer_name));
            put("redelivered", json!(redelivered));
            put("delivery_tag", json!(delivery_tag));
            put(
                "headers",
                super::render::headers_counted(msg, syms, *returns, *acquired),
            );
        }
        EventKind::Acked {
            copy,
            queue,
            consumer,
            ..
        } => {
            put("copy", json!(copy.0));
            put("queue", s(*queue));
            put("consumer", consumer.map_or(Value::Null, consumer_name));
        }
        EventKind::Rejected {
            copy,
            queue,
            consumer,
            requeue,
            ..
        } => {
            put("copy", json!(copy.0));
            put("queue", s(*queue));
            put("consumer", consumer_name(*consumer));
            put("requeue", json!(requeue));
        }
        EventKind::Requeued {
            copy, queue, held, ..
        } => {
            put("copy", json!(copy.0));
            put("queue", s(*queue));
            if let Some(h) = held {
                put("held_until_ms", json!(h.until_ms));
                put("held_by", json!(h.by.as_str()));
            }
        }
        EventKind::Released {
            copy,
            queue,
            by,
            late_ms,
            ..
        } => {
            put("copy", json!(copy.0));
            put("queue", s(*queue));
            put("held_by", json!(by.as_str()));
            put("late_ms", json!(late_ms));
        }
        EventKind::ConsumerAttached { consumer, queue }
        | EventKind::ConsumerDetached { consumer, queue } => {
            put("consumer", consumer_name(*consumer));
            put("queue", s(*queue));
        }
        EventKind::ExchangeDeclared { exchange } | EventKind::ExchangeDeleted { exchange } => {
            put("exchange", s(*exchange))
        }
        EventKind::QueueDeclared { queue } => put("queue", s(*queue)),
        EventKind::QueueDeleted { queue, expired } => {
            put("queue", s(*queue));
            put("expired", json!(expired));
        }
        EventKind::Bound {
            source,
            destination,
            to_exchange,
            routing_key,
        }
        | EventKind::Unbound {
            source,
            destination,
            to_exchange,
            routing_key,
        } => {
            put("source", s(*source));
            put("destination", s(*destination));
            put(
                "destination_type",
                json!(if *to_exchange { "exchange" } else { "queue" }),
            );
            put("routing_key", s(*routing_key));
        }
        EventKind::Purged { queue, count } => {
            put("queue", s(*queue));
            put("count", json!(count));
        }
        EventKind::NodeDown { lost } => put("lost", json!(lost)),
        EventKind::NodeUp => {}
        EventKind::BrokerUpgraded { from, to, text } => {
            put("from", json!(from.as_str()));
            put("to", json!(to.as_str()));
            put("text", json!(&**text));
        }
        EventKind::ConsumerTimedOut {
            consumer,
            queue,
            copy,
            held_ms,
            timeout_ms,
            channel_closed,
            text,
            ..
        } => {
            put("consumer", consumer_name(*consumer));
            put("queue", s(*queue));
            put("copy", json!(copy.0));
            put("held_ms", json!(held_ms));
            put("timeout_ms", json!(timeout_ms));
            put("channel_closed", json!(channel_closed));
            put("text", json!(&**text));
        }
        EventKind::LimitReached { text } => put("text", json!(&**text)),
        EventKind::Order(o) => o.json_fields(&mut m),
    }
    Value::Object(m)
}
