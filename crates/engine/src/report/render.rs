//! A message as a consumer sees it: AMQP basic properties and headers, including the
//! headers the broker adds (`x-death`, `x-first-death-*`, quorum `x-delivery-count`).
//!
//! Shapes follow RabbitMQ 3.10 as a client decodes them: `x-death` is an array of
//! tables, newest first; `time` is an AMQP timestamp in seconds (here: virtual seconds
//! since the scenario start); `original-expiration` only when the message had a
//! per-message TTL.

use serde_json::{json, Map, Value};

use crate::death::Deaths;
use crate::message::Message;
use crate::sym::Symbols;

pub fn properties(msg: &Message, syms: &Symbols) -> Value {
    let mut p = Map::new();
    if let Some(e) = msg.expiration {
        p.insert("expiration".into(), json!(e.text(syms)));
    }
    if msg.delivery_mode != 0 {
        p.insert("delivery_mode".into(), json!(msg.delivery_mode));
    }
    if let Some(r) = &msg.rare {
        let mut put = |k: &str, v: Option<Value>| {
            if let Some(v) = v {
                p.insert(k.into(), v);
            }
        };
        put("priority", r.priority.map(|x| json!(x)));
        put("message_id", r.message_id.as_ref().map(|x| json!(x)));
        put(
            "correlation_id",
            r.correlation_id.as_ref().map(|x| json!(x)),
        );
        put("content_type", r.content_type.as_ref().map(|x| json!(x)));
        put(
            "content_encoding",
            r.content_encoding.as_ref().map(|x| json!(x)),
        );
        put("reply_to", r.reply_to.as_ref().map(|x| json!(x)));
        put("timestamp", r.timestamp.map(|x| json!(x)));
        put("type", r.kind.as_ref().map(|x| json!(x)));
        put("user_id", r.user_id.as_ref().map(|x| json!(x)));
        put("app_id", r.app_id.as_ref().map(|x| json!(x)));
    }
    Value::Object(p)
}

/// Headers as delivered; `returns` > 0 adds a quorum queue's `x-delivery-count`.
pub fn headers(msg: &Message, syms: &Symbols, returns: u32) -> Value {
    headers_counted(msg, syms, returns, 0)
}

/// Headers as delivered: `returns` > 0 adds `x-delivery-count`, `acquired` > 0 4.3's
/// `x-acquired-count` (the `Delivered` event's two counts); a history recorded with
/// `x-last-death-*` (3.13+) shows them.
pub fn headers_counted(msg: &Message, syms: &Symbols, returns: u32, acquired: u32) -> Value {
    let mut h = match msg.headers.to_json() {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    if let Some(d) = &msg.deaths {
        // `PREFIX-exchange`, `PREFIX-queue`, `PREFIX-reason` of one death.
        let mut mark = |prefix: &str, m: &crate::death::DeathMark| {
            h.insert(format!("{prefix}-exchange"), json!(syms.str(m.exchange)));
            h.insert(format!("{prefix}-queue"), json!(syms.str(m.queue)));
            h.insert(format!("{prefix}-reason"), json!(m.reason.as_str()));
        };
        if let Some(first) = &d.first {
            mark("x-first-death", first);
        }
        if let Some(last) = &d.last {
            mark("x-last-death", last);
        }
        h.insert("x-death".into(), x_death(d, syms));
    }
    if returns > 0 {
        h.insert("x-delivery-count".into(), json!(returns));
    }
    if acquired > 0 {
        h.insert("x-acquired-count".into(), json!(acquired));
    }
    Value::Object(h)
}

pub fn x_death(d: &Deaths, syms: &Symbols) -> Value {
    let entries = d.entries.iter().map(|e| {
        let mut m = Map::new();
        m.insert("count".into(), json!(e.count));
        m.insert("reason".into(), json!(e.reason.as_str()));
        m.insert("queue".into(), json!(syms.str(e.queue)));
        m.insert("time".into(), json!(e.time_ms / 1000));
        m.insert("exchange".into(), json!(syms.str(e.exchange)));
        m.insert(
            "routing-keys".into(),
            Value::Array(e.routing_keys.iter().map(|k| json!(syms.str(*k))).collect()),
        );
        if let Some(x) = e.original_expiration {
            m.insert("original-expiration".into(), json!(x.text(syms)));
        }
        Value::Object(m)
    });
    Value::Array(entries.collect())
}
