//! AMQP field values: the typed values of message headers and of queue, exchange and
//! binding arguments.
//!
//! A scenario is JSON, and JSON carries fewer types than AMQP's field tables. The mapping
//! is the one a client library such as pika applies when it encodes a JSON-like value:
//!
//! | JSON            | AMQP field type (name used in RabbitMQ's error texts) |
//! |-----------------|--------------------------------------------------------|
//! | integer         | `signedint` if it fits in 32 bits, else `long`         |
//! | fraction        | `double`                                               |
//! | string          | `longstr`                                              |
//! | true / false    | `bool`                                                 |
//! | null            | `void`                                                 |
//! | array           | `array`                                                |
//! | object          | `table`                                                |
//! | `{"$timestamp": 1800}` | `timestamp` (seconds since the Unix epoch; virtual time 0 is the epoch) |
//! | `{"$decimal": "1.50"}` | `decimal` (scale = digits after the point, unscaled value an unsigned 32-bit integer, as RabbitMQ reads it) |
//!
//! The two typed forms are objects with exactly one key, `$timestamp` or `$decimal`
//! ([`typed_from_json`] checks them; the loader refuses a malformed one with its path):
//! a nested table of that one key cannot be written. They exist because two rules read
//! those types:
//! 4.4's `x-opt-delivery-time` counts a `timestamp` in seconds and has no conversion for
//! a `decimal` (`amqp/delivery_time.rs`).
//!
//! Values are never coerced: `x-message-ttl: "60000"` stays a string, and the broker
//! rules decide what a string there means (a 406 for a queue argument, a parse for an
//! `x-delay` header). Tables keep insertion order, because that is what a consumer sees.

use std::rc::Rc;

/// One typed AMQP field value.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldValue {
    Void,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Rc<str>),
    Array(Rc<[FieldValue]>),
    Table(Table),
    /// AMQP `timestamp`: seconds since the Unix epoch.
    Timestamp(u64),
    /// AMQP `decimal`: `value` x 10^-`scale` (RabbitMQ parses the value as an unsigned
    /// 32-bit integer, `rabbit_binary_parser`).
    Decimal {
        scale: u8,
        value: u32,
    },
}

/// The key of the typed JSON form of a `timestamp`.
pub const TIMESTAMP_KEY: &str = "$timestamp";
/// The key of the typed JSON form of a `decimal`.
pub const DECIMAL_KEY: &str = "$decimal";

/// The typed value a JSON object stands for: `None` when it is not a typed form (not
/// exactly one key, `$timestamp` or `$decimal`), `Some(Err(why))` when it is one but
/// malformed.
pub fn typed_from_json(
    map: &serde_json::Map<String, serde_json::Value>,
) -> Option<Result<FieldValue, String>> {
    let mut keys = map.iter();
    let (key, v) = keys.next()?;
    if keys.next().is_some() || (key != TIMESTAMP_KEY && key != DECIMAL_KEY) {
        return None;
    }
    Some(match key.as_str() {
        TIMESTAMP_KEY => v.as_u64().map(FieldValue::Timestamp).ok_or_else(|| {
            format!("{TIMESTAMP_KEY} takes whole seconds since the Unix epoch (an integer of 0 or more), not {v}")
        }),
        DECIMAL_KEY => v
            .as_str()
            .and_then(parse_decimal)
            .ok_or_else(|| format!("{DECIMAL_KEY} takes a decimal number of 0 or more written as a string (\"1.50\": up to 255 digits after the point, its digits a number that fits 32 bits unsigned), not {v}")),
        _ => unreachable!("checked above"),
    })
}

/// `"1.50"` -> scale 2, value 150.
fn parse_decimal(s: &str) -> Option<FieldValue> {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let all = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() || !all(int) || !all(frac) || (s.contains('.') && frac.is_empty()) {
        return None;
    }
    let scale = u8::try_from(frac.len()).ok()?;
    let value: u32 = format!("{int}{frac}").parse().ok()?;
    Some(FieldValue::Decimal { scale, value })
}

/// `scale` 2, `value` 150 -> `"1.50"`.
pub fn decimal_text(scale: u8, value: u32) -> String {
    let digits = value.to_string();
    let scale = usize::from(scale);
    let padded = format!("{digits:0>width$}", width = scale + 1);
    let (int, frac) = padded.split_at(padded.len() - scale);
    if frac.is_empty() {
        int.to_string()
    } else {
        format!("{int}.{frac}")
    }
}

/// An ordered AMQP field table (header table or arguments).
///
/// Lookups are linear: header tables hold a handful of entries, and a slice costs far
/// less memory per message than a tree map. A boxed slice rather than a `Vec`: every
/// message holds a table, mostly empty or never changed, so no spare capacity and 16
/// bytes instead of 24; a change rebuilds it (tables are small).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    entries: Box<[(Rc<str>, FieldValue)]>,
}

impl FieldValue {
    /// The AMQP type name RabbitMQ prints in error texts (`{unacceptable_type,longstr}`).
    pub fn amqp_type_name(&self) -> &'static str {
        match self {
            FieldValue::Void => "void",
            FieldValue::Bool(_) => "bool",
            // As pika sends a Python int (and RabbitMQ prints it): 32 bits if it fits.
            FieldValue::Int(n) if i32::try_from(*n).is_ok() => "signedint",
            FieldValue::Int(_) => "long",
            FieldValue::Float(_) => "double",
            FieldValue::Str(_) => "longstr",
            FieldValue::Array(_) => "array",
            FieldValue::Table(_) => "table",
            FieldValue::Timestamp(_) => "timestamp",
            FieldValue::Decimal { .. } => "decimal",
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            FieldValue::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_int(&self) -> Option<i64> {
        match self {
            FieldValue::Int(n) => Some(*n),
            _ => None,
        }
    }

    pub fn str(s: &str) -> FieldValue {
        FieldValue::Str(Rc::from(s))
    }

    /// Converts from JSON with the mapping in the module docs. Integers beyond i64 become
    /// `double`, as a client would have to send them.
    pub fn from_json(v: &serde_json::Value) -> FieldValue {
        use serde_json::Value as J;
        match v {
            J::Null => FieldValue::Void,
            J::Bool(b) => FieldValue::Bool(*b),
            J::Number(n) => match n.as_i64() {
                Some(i) => FieldValue::Int(i),
                None => FieldValue::Float(n.as_f64().unwrap_or(f64::MAX)),
            },
            J::String(s) => FieldValue::Str(Rc::from(s.as_str())),
            J::Array(items) => FieldValue::Array(items.iter().map(FieldValue::from_json).collect()),
            // A malformed typed form is refused by the loader before it gets here.
            J::Object(map) => match typed_from_json(map) {
                Some(Ok(typed)) => typed,
                _ => FieldValue::Table(Table::from_json_map(map)),
            },
        }
    }

    /// Back to JSON, as a consumer's client library would present the value.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match self {
            FieldValue::Void => J::Null,
            FieldValue::Bool(b) => J::Bool(*b),
            FieldValue::Int(i) => J::from(*i),
            FieldValue::Float(f) => serde_json::Number::from_f64(*f)
                .map(J::Number)
                .unwrap_or(J::Null),
            FieldValue::Str(s) => J::String(s.to_string()),
            FieldValue::Array(items) => J::Array(items.iter().map(FieldValue::to_json).collect()),
            FieldValue::Table(t) => t.to_json(),
            FieldValue::Timestamp(s) => serde_json::json!({ TIMESTAMP_KEY: s }),
            FieldValue::Decimal { scale, value } => {
                serde_json::json!({ DECIMAL_KEY: decimal_text(*scale, *value) })
            }
        }
    }
}

impl Table {
    pub fn new() -> Table {
        Table::default()
    }

    pub fn from_json_map(map: &serde_json::Map<String, serde_json::Value>) -> Table {
        Table {
            entries: map
                .iter()
                .map(|(k, v)| (Rc::from(k.as_str()), FieldValue::from_json(v)))
                .collect(),
        }
    }

    /// A table of `entries` in this order; their keys must differ. Keys already shared
    /// (one `Rc<str>` for many tables) are kept, not copied: a client publishing a
    /// million messages with one header allocates only each table's slice.
    pub fn from_entries(entries: Vec<(Rc<str>, FieldValue)>) -> Table {
        for (i, (k, _)) in entries.iter().enumerate() {
            assert!(
                entries[..i].iter().all(|(e, _)| e != k),
                "header key {k:?} given twice"
            );
        }
        Table {
            entries: entries.into_boxed_slice(),
        }
    }

    /// Replaces each key with `shared(key)`, an equal string shared with other tables.
    pub fn share_keys(&mut self, mut shared: impl FnMut(&str) -> Rc<str>) {
        for (k, _) in self.entries.iter_mut() {
            *k = shared(k);
        }
    }

    pub fn to_json(&self) -> serde_json::Value {
        let mut map = serde_json::Map::new();
        for (k, v) in &self.entries {
            map.insert(k.to_string(), v.to_json());
        }
        serde_json::Value::Object(map)
    }

    pub fn get(&self, key: &str) -> Option<&FieldValue> {
        self.entries
            .iter()
            .find(|(k, _)| &**k == key)
            .map(|(_, v)| v)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Sets `key`, replacing an existing entry in place (keeps its position).
    pub fn insert(&mut self, key: &str, value: FieldValue) {
        match self.entries.iter_mut().find(|(k, _)| &**k == key) {
            Some(slot) => slot.1 = value,
            None => self.rebuild(|v| v.push((Rc::from(key), value))),
        }
    }

    /// Sets `key` as the first entry (RabbitMQ prepends the headers it adds).
    pub fn insert_front(&mut self, key: &str, value: FieldValue) {
        self.remove(key);
        self.rebuild(|v| v.insert(0, (Rc::from(key), value)));
    }

    pub fn remove(&mut self, key: &str) -> Option<FieldValue> {
        let at = self.entries.iter().position(|(k, _)| &**k == key)?;
        let mut removed = None;
        self.rebuild(|v| removed = Some(v.remove(at).1));
        removed
    }

    /// Applies a change to the entries as a `Vec` (one more slot reserved, so a push
    /// does not reallocate twice).
    fn rebuild(&mut self, change: impl FnOnce(&mut Vec<(Rc<str>, FieldValue)>)) {
        let mut v = std::mem::take(&mut self.entries).into_vec();
        v.reserve_exact(1);
        change(&mut v);
        self.entries = v.into_boxed_slice();
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &FieldValue)> {
        self.entries.iter().map(|(k, v)| (&**k, v))
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl FromIterator<(String, FieldValue)> for Table {
    /// A repeated key replaces the earlier value in place (as `insert` does).
    fn from_iter<I: IntoIterator<Item = (String, FieldValue)>>(iter: I) -> Table {
        let mut entries: Vec<(Rc<str>, FieldValue)> = Vec::new();
        for (k, v) in iter {
            match entries.iter_mut().find(|(e, _)| **e == *k) {
                Some(slot) => slot.1 = v,
                None => entries.push((Rc::from(k), v)),
            }
        }
        Table {
            entries: entries.into_boxed_slice(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_types_map_without_coercion() {
        assert_eq!(
            FieldValue::from_json(&json!("60000")).amqp_type_name(),
            "longstr"
        );
        assert_eq!(FieldValue::from_json(&json!(60000)), FieldValue::Int(60000));
        assert_eq!(FieldValue::from_json(&json!(1.5)), FieldValue::Float(1.5));
        assert_eq!(FieldValue::from_json(&json!(true)), FieldValue::Bool(true));
        assert_eq!(FieldValue::from_json(&json!(null)), FieldValue::Void);
    }

    #[test]
    fn table_keeps_order_and_round_trips() {
        let src = json!({"b": 1, "a": [1, "x"], "c": {"d": false}});
        let t = FieldValue::from_json(&src);
        assert_eq!(t.to_json().to_string(), src.to_string());
    }

    #[test]
    fn typed_forms_round_trip_and_refuse_what_they_cannot_be() {
        for src in [
            json!({"$timestamp": 1800}),
            json!({"$decimal": "1.50"}),
            json!({"$decimal": "0.05"}),
            json!({"$decimal": "7"}),
        ] {
            let v = FieldValue::from_json(&src);
            assert!(!matches!(v, FieldValue::Table(_)), "{src}");
            assert_eq!(v.to_json(), src);
        }
        assert_eq!(
            FieldValue::from_json(&json!({"$timestamp": 1800})).amqp_type_name(),
            "timestamp"
        );
        assert_eq!(
            FieldValue::from_json(&json!({"$decimal": "1.50"})),
            FieldValue::Decimal {
                scale: 2,
                value: 150
            }
        );
        let err = |v: serde_json::Value| {
            typed_from_json(v.as_object().unwrap())
                .expect("a typed form")
                .unwrap_err()
        };
        assert!(err(json!({"$timestamp": -1})).contains("whole seconds"));
        assert!(err(json!({"$timestamp": "1800"})).contains("whole seconds"));
        assert!(err(json!({"$decimal": 1.5})).contains("as a string"));
        assert!(err(json!({"$decimal": "1."})).contains("as a string"));
        assert!(err(json!({"$decimal": "99999999999"})).contains("32 bits"));
        assert!(err(json!({"$decimal": "-1"})).contains("of 0 or more"));
        // Not a typed form: an ordinary table.
        for table in [
            json!({"timestamp": 5}),
            json!({"$timestamp": 5, "b": 1}),
            json!({"$long": 5}),
        ] {
            assert!(typed_from_json(table.as_object().unwrap()).is_none());
        }
    }

    #[test]
    fn insert_front_moves_existing_key() {
        let mut t = Table::new();
        t.insert("a", FieldValue::Int(1));
        t.insert("b", FieldValue::Int(2));
        t.insert_front("b", FieldValue::Int(3));
        let keys: Vec<&str> = t.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["b", "a"]);
    }

    #[test]
    fn from_entries_keeps_shared_keys_and_refuses_a_repeated_one() {
        let key: Rc<str> = Rc::from("x-delay");
        let t = Table::from_entries(vec![(key.clone(), FieldValue::Int(5))]);
        assert_eq!(t.get("x-delay"), Some(&FieldValue::Int(5)));
        assert_eq!(Rc::strong_count(&key), 2, "the key is shared, not copied");
        let twice = std::panic::catch_unwind(|| {
            Table::from_entries(vec![
                (Rc::from("a"), FieldValue::Int(1)),
                (Rc::from("a"), FieldValue::Int(2)),
            ])
        });
        assert!(twice.is_err());
    }
}
