//! Between the engine's typed field values and lapin's AMQP values, and from what the
//! broker delivers back to the JSON of the run contract.

use lapin::types::{AMQPValue, FieldArray, FieldTable, LongString, ShortString};
use lapin::BasicProperties;
use serde_json::{json, Map, Value};

use delaylab_engine::value::{FieldValue, Table};

use delaylab_engine::scenario::rename::Rename;

/// The engine's mapping (as pika encodes JSON-like values): an integer is `signedint`
/// when it fits in 32 bits, else `long`.
pub fn to_amqp(v: &FieldValue) -> AMQPValue {
    match v {
        FieldValue::Void => AMQPValue::Void,
        FieldValue::Bool(b) => AMQPValue::Boolean(*b),
        FieldValue::Int(n) => match i32::try_from(*n) {
            Ok(i) => AMQPValue::LongInt(i),
            Err(_) => AMQPValue::LongLongInt(*n),
        },
        FieldValue::Float(f) => AMQPValue::Double(*f),
        FieldValue::Str(s) => AMQPValue::LongString(LongString::from(s.to_string())),
        FieldValue::Array(items) => AMQPValue::FieldArray(FieldArray::from(
            items.iter().map(to_amqp).collect::<Vec<_>>(),
        )),
        FieldValue::Table(t) => AMQPValue::FieldTable(to_table(t)),
        FieldValue::Timestamp(s) => AMQPValue::Timestamp(*s),
        FieldValue::Decimal { scale, value } => {
            AMQPValue::DecimalValue(lapin::types::DecimalValue {
                scale: *scale,
                value: *value,
            })
        }
    }
}

pub fn to_table(t: &Table) -> FieldTable {
    let mut out = FieldTable::default();
    for (k, v) in t.iter() {
        out.insert(ShortString::from(k), to_amqp(v));
    }
    out
}

/// A value as delivered, as JSON; strings lose the replay's name prefix.
pub fn from_amqp(v: &AMQPValue, names: &Rename) -> Value {
    match v {
        AMQPValue::Boolean(b) => json!(b),
        AMQPValue::ShortShortInt(n) => json!(n),
        AMQPValue::ShortShortUInt(n) => json!(n),
        AMQPValue::ShortInt(n) => json!(n),
        AMQPValue::ShortUInt(n) => json!(n),
        AMQPValue::LongInt(n) => json!(n),
        AMQPValue::LongUInt(n) => json!(n),
        AMQPValue::LongLongInt(n) => json!(n),
        AMQPValue::Float(f) => json!(f),
        AMQPValue::Double(f) => json!(f),
        AMQPValue::DecimalValue(d) => json!(format!("{d:?}")),
        AMQPValue::ShortString(s) => json!(names.unmap(s.as_str())),
        AMQPValue::LongString(s) => json!(names.unmap(&String::from_utf8_lossy(s.as_bytes()))),
        AMQPValue::FieldArray(a) => {
            Value::Array(a.as_slice().iter().map(|x| from_amqp(x, names)).collect())
        }
        AMQPValue::Timestamp(t) => json!(t),
        AMQPValue::FieldTable(t) => table_json(t, names),
        AMQPValue::ByteArray(b) => json!(String::from_utf8_lossy(b.as_slice())),
        AMQPValue::Void => Value::Null,
    }
}

/// A top-level header as the simulation reports it: a `timestamp` or a `decimal` in the
/// typed form (`{"$timestamp": s}`, `{"$decimal": "1.50"}`), anything else as
/// [`from_amqp`] (nested values, e.g. x-death's `time`, stay plain).
pub fn header_json(v: &AMQPValue, names: &Rename) -> Value {
    match v {
        AMQPValue::Timestamp(t) => json!({"$timestamp": t}),
        AMQPValue::DecimalValue(d) => {
            json!({"$decimal": delaylab_engine::value::decimal_text(d.scale, d.value)})
        }
        other => from_amqp(other, names),
    }
}

pub fn table_json(t: &FieldTable, names: &Rename) -> Value {
    let mut m = Map::new();
    for (k, v) in t {
        m.insert(k.as_str().to_string(), from_amqp(v, names));
    }
    Value::Object(m)
}

/// Basic properties in the order and spelling of the engine's report.
pub fn properties_json(p: &BasicProperties, names: &Rename) -> Map<String, Value> {
    let mut m = Map::new();
    let s = |x: &Option<ShortString>| x.as_ref().map(|v| json!(names.unmap(v.as_str())));
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
