//! What the run saw: deliveries, returns, errors and nacks as the run contract JSON
//! writes them (times in scenario ms, names without the prefix, scaled expiration strings
//! back as the scenario wrote them).

use std::sync::{Mutex, MutexGuard, OnceLock};

use lapin::types::{AMQPValue, FieldTable, ShortString};
use lapin::BasicProperties;
use serde_json::{json, Map, Value};
use tokio::time::Instant;

use super::{lock, real, start_ms, unmap, DELIVERY_TIME, ID_HEADER, SCALE, TTL_WRITTEN};

#[derive(Default)]
pub(super) struct Rec {
    pub(super) deliveries: Vec<Value>,
    pub(super) returned: Vec<Value>,
    pub(super) errors: Vec<Value>,
    pub(super) nacked: Vec<Value>,
    pub(super) published_at: Vec<u64>,
    /// Per consumer: deliveries so far (outcome plans), held unacked, closed.
    pub(super) delivered: Vec<usize>,
    pub(super) held: Vec<i64>,
    pub(super) closed: Vec<bool>,
    pub(super) rng: u64,
}

pub(super) struct Shared {
    pub(super) t0: OnceLock<Instant>,
    pub(super) rec: Mutex<Rec>,
}

impl Shared {
    pub(super) fn now_ms(&self) -> u64 {
        self.t0.get().map_or(0, |t0| {
            (t0.elapsed().as_secs_f64() * 1000.0 / *SCALE).round() as u64
        })
    }

    pub(super) fn at(&self, at_ms: u64) -> Instant {
        *self.t0.get().expect("the run has started") + real(at_ms)
    }

    pub(super) fn rec(&self) -> MutexGuard<'_, Rec> {
        lock(&self.rec)
    }

    /// Records an error: a broker error with its code, text (names mapped back) and
    /// scope, or a client error.
    pub(super) fn error(&self, e: &lapin::Error, body: Option<&str>) {
        let (code, text, scope) = match e.kind() {
            lapin::ErrorKind::ProtocolError(p) => (
                p.get_id(),
                unmap(p.get_message().as_str()),
                if e.is_amqp_hard_error() {
                    "connection"
                } else {
                    "channel"
                },
            ),
            other => (0, format!("client: {other:?}"), "client"),
        };
        let mut m = Map::new();
        m.insert("at_ms".into(), json!(self.now_ms()));
        m.insert("code".into(), json!(code));
        m.insert("text".into(), json!(text));
        m.insert("scope".into(), json!(scope));
        if let Some(b) = body {
            m.insert("body".into(), json!(b));
        }
        self.rec().errors.push(Value::Object(m));
    }

    pub(super) fn client_error(&self, text: &str) {
        let at = self.now_ms();
        self.rec().errors.push(
            json!({"at_ms": at, "code": 0, "text": format!("client: {text}"), "scope": "client"}),
        );
    }

    pub(super) fn record(&self, d: &lapin::message::Delivery, queue: &str, consumer: &str) {
        let at = self.now_ms();
        let mut headers: Map<String, Value> = d.properties.headers().as_ref().map_or_else(Map::new, |h| {
            h.into_iter()
                .map(|(k, v)| (k.as_str().to_string(), header_json(k.as_str(), v)))
                .collect()
        });
        let id: Option<usize> = headers
            .remove(ID_HEADER)
            .and_then(|v| v.as_str().and_then(|s| s.parse().ok()));
        let mut props = properties_json(&d.properties);
        // Scaled TTL strings back to what the scenario wrote.
        {
            let written = lock(&TTL_WRITTEN);
            let back = |v: &mut Value| {
                if let Some(w) = v.as_str().and_then(|e| written.get(e)) {
                    *v = json!(w);
                }
            };
            if let Some(e) = props.get_mut("expiration") {
                back(e);
            }
            if let Some(Value::Array(deaths)) = headers.get_mut("x-death") {
                for death in deaths.iter_mut() {
                    if let Some(e) = death.get_mut("original-expiration") {
                        back(e);
                    }
                }
            }
        }
        let body = String::from_utf8_lossy(&d.data).into_owned();
        let mut rec = self.rec();
        let published = id
            .and_then(|i| rec.published_at.get(i))
            .map_or(Value::Null, |t| json!(t));
        rec.deliveries.push(json!({
            "body": body,
            "queue": queue,
            "consumer": consumer,
            "published_at_ms": published,
            "delivered_at_ms": at,
            "redelivered": d.redelivered,
            "routing_key": unmap(d.routing_key.as_str()),
            "exchange": unmap(d.exchange.as_str()),
            "properties": Value::Object(props),
            "headers": Value::Object(headers),
        }));
        drop(rec);
        eprintln!("{at:>8} ms  {consumer:<12} <- {queue:<24} {body}");
    }
}

/// A delivered header as the simulation reports it: x-opt-delivery-time back in the
/// scenario's time, a timestamp or a decimal in the typed form, the rest as `value_json`.
fn header_json(key: &str, v: &AMQPValue) -> Value {
    let back = |real_ms: i64| ((real_ms - start_ms()) as f64 / *SCALE).round() as i64;
    match v {
        // Sent truncated to whole seconds: rounded up again (exact at TIME_SCALE 1).
        AMQPValue::Timestamp(t) if key == DELIVERY_TIME => {
            json!({"$timestamp": ((*t as i64 * 1000 - start_ms()) as f64 / *SCALE / 1000.0).ceil() as i64})
        }
        AMQPValue::Timestamp(t) => json!({"$timestamp": t}),
        AMQPValue::DecimalValue(d) => json!({"$decimal": decimal_text(d.scale, d.value)}),
        AMQPValue::LongLongInt(x) if key == DELIVERY_TIME => json!(back(*x)),
        AMQPValue::LongInt(x) if key == DELIVERY_TIME => json!(back(i64::from(*x))),
        other => value_json(other),
    }
}

/// 150 with scale 2 -> "1.50".
fn decimal_text(scale: u8, value: u32) -> String {
    let digits = format!("{value:0>width$}", width = usize::from(scale) + 1);
    let (int, frac) = digits.split_at(digits.len() - usize::from(scale));
    if frac.is_empty() {
        int.to_string()
    } else {
        format!("{int}.{frac}")
    }
}

/// A value as delivered, as JSON; strings lose the name prefix.
fn value_json(v: &AMQPValue) -> Value {
    match v {
        AMQPValue::Boolean(b) => json!(b),
        AMQPValue::ShortShortInt(x) => json!(x),
        AMQPValue::ShortShortUInt(x) => json!(x),
        AMQPValue::ShortInt(x) => json!(x),
        AMQPValue::ShortUInt(x) => json!(x),
        AMQPValue::LongInt(x) => json!(x),
        AMQPValue::LongUInt(x) => json!(x),
        AMQPValue::LongLongInt(x) => json!(x),
        AMQPValue::Float(f) => json!(f),
        AMQPValue::Double(f) => json!(f),
        AMQPValue::DecimalValue(d) => json!(format!("{d:?}")),
        AMQPValue::ShortString(x) => json!(unmap(x.as_str())),
        AMQPValue::LongString(x) => json!(unmap(&String::from_utf8_lossy(x.as_bytes()))),
        AMQPValue::FieldArray(a) => Value::Array(a.as_slice().iter().map(value_json).collect()),
        AMQPValue::Timestamp(t) => json!(t),
        AMQPValue::FieldTable(t) => table_json(t),
        AMQPValue::ByteArray(b) => json!(String::from_utf8_lossy(b.as_slice())),
        AMQPValue::Void => Value::Null,
    }
}

fn table_json(t: &FieldTable) -> Value {
    Value::Object(
        t.into_iter()
            .map(|(k, v)| (k.as_str().to_string(), value_json(v)))
            .collect(),
    )
}

/// The basic properties in the order and spelling of the run contract.
fn properties_json(p: &BasicProperties) -> Map<String, Value> {
    let mut m = Map::new();
    let s = |x: &Option<ShortString>| x.as_ref().map(|v| json!(unmap(v.as_str())));
    let mut put = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            m.insert(k.to_string(), v);
        }
    };
    put("expiration", s(p.expiration()));
    put("delivery_mode", p.delivery_mode().map(|x| json!(x)));
    put("priority", p.priority().map(|x| json!(x)));
    put("message_id", s(p.message_id()));
    put("correlation_id", s(p.correlation_id()));
    put("content_type", s(p.content_type()));
    put("content_encoding", s(p.content_encoding()));
    put("reply_to", s(p.reply_to()));
    put("timestamp", p.timestamp().map(|x| json!(x)));
    put("type", s(p.kind()));
    put("user_id", s(p.user_id()));
    put("app_id", s(p.app_id()));
    m
}
