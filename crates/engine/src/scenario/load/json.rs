//! Typed access to JSON with paths: an [`Obj`] knows where it is in the document, and
//! each accessor reads one field as one type (a string, a name within `MAX_NAME_BYTES`,
//! an integer, a duration within `MAX_DURATION_MS`, a field table nested at most
//! `MAX_HEADER_DEPTH` deep) or fails naming that field's path.

use serde_json::{Map, Value};

use super::errors::{error, expected, fail, index, join, unknown_message, R};
use super::limits::{MAX_DURATION_MS, MAX_HEADER_DEPTH, MAX_NAME_BYTES};
use crate::scenario::duration::{duration_from_json, format_duration};
use crate::value::Table;

pub(crate) struct Obj<'a> {
    pub(super) m: &'a Map<String, Value>,
    pub(super) path: String,
}

pub(crate) fn as_obj(v: &Value, path: impl Into<String>) -> R<Obj<'_>> {
    let path = path.into();
    match v {
        Value::Object(m) => Ok(Obj { m, path }),
        other => fail(path, expected("an object", other)),
    }
}

impl<'a> Obj<'a> {
    pub(crate) fn p(&self, key: &str) -> String {
        join(&self.path, key)
    }

    pub(crate) fn get(&self, key: &str) -> Option<&'a Value> {
        self.m.get(key)
    }

    pub(crate) fn check_keys(&self, allowed: &[&str]) -> R<()> {
        match self.m.keys().find(|k| !allowed.contains(&k.as_str())) {
            Some(k) => fail(self.p(k), unknown_message(allowed)),
            None => Ok(()),
        }
    }

    pub(crate) fn obj(&self, key: &str) -> R<Obj<'a>> {
        let p = self.p(key);
        match self.get(key) {
            Some(v) => as_obj(v, p),
            None => fail(p, "missing (required)"),
        }
    }

    /// A list; absent means empty.
    pub(crate) fn array(&self, key: &str) -> R<&'a [Value]> {
        match self.get(key) {
            None => Ok(&[]),
            Some(Value::Array(items)) => Ok(items),
            Some(other) => fail(self.p(key), expected("a list", other)),
        }
    }

    pub(super) fn str_opt(&self, key: &str) -> R<Option<String>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => fail(self.p(key), expected("a string", other)),
        }
    }

    pub(crate) fn str_or(&self, key: &str, default: &str) -> R<String> {
        Ok(self.str_opt(key)?.unwrap_or_else(|| default.to_string()))
    }

    pub(super) fn str_req(&self, key: &str) -> R<String> {
        self.str_opt(key)?
            .ok_or_else(|| error(self.p(key), "missing (required)"))
    }

    /// An exchange or queue name or a routing key, at most `MAX_NAME_BYTES`.
    pub(super) fn name_req(&self, key: &str) -> R<String> {
        let s = self.str_req(key)?;
        check_name(&s, &self.p(key))
    }

    /// Like `name_req`, empty when absent.
    pub(super) fn name_or(&self, key: &str) -> R<String> {
        let s = self.str_or(key, "")?;
        check_name(&s, &self.p(key))
    }

    pub(crate) fn bool_or(&self, key: &str, default: bool) -> R<bool> {
        match self.get(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => fail(self.p(key), expected("true or false", other)),
        }
    }

    pub(crate) fn uint_opt(&self, key: &str, max: u64) -> R<Option<u64>> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => uint(v, &self.p(key), max).map(Some),
        }
    }

    pub(crate) fn dur_opt(&self, key: &str) -> R<Option<u64>> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => duration(v, &self.p(key)).map(Some),
        }
    }

    pub(crate) fn dur_req(&self, key: &str) -> R<u64> {
        self.dur_opt(key)?
            .ok_or_else(|| error(self.p(key), "missing (required)"))
    }

    /// A field table (`arguments`, `headers`); absent means empty.
    pub(super) fn table_or_empty(&self, key: &str) -> R<Table> {
        match self.get(key) {
            None => Ok(Table::new()),
            Some(v) => table(v, &self.p(key)),
        }
    }
}

pub(super) fn check_name(s: &str, path: &str) -> R<String> {
    if s.len() > MAX_NAME_BYTES {
        return fail(
            path,
            format!(
                "{} bytes; the limit is {MAX_NAME_BYTES} bytes (MAX_NAME_BYTES: names and routing keys are AMQP short strings)",
                s.len()
            ),
        );
    }
    Ok(s.to_string())
}

pub(crate) fn uint(v: &Value, path: &str, max: u64) -> R<u64> {
    match v.as_u64() {
        Some(n) if n <= max => Ok(n),
        _ => fail(path, expected(&format!("an integer from 0 to {max}"), v)),
    }
}

pub(crate) fn duration(v: &Value, path: &str) -> R<u64> {
    let ms = duration_from_json(v).map_err(|m| error(path, m))?;
    if ms > MAX_DURATION_MS {
        return fail(
            path,
            format!(
                "{} is beyond the limit of {} (MAX_DURATION_MS)",
                format_duration(ms),
                format_duration(MAX_DURATION_MS)
            ),
        );
    }
    Ok(ms)
}

pub(super) fn table(v: &Value, path: &str) -> R<Table> {
    let Value::Object(m) = v else {
        return fail(path, expected("an object (a field table)", v));
    };
    if let Some(segments) = too_deep(v, 1) {
        return fail(
            path_of(path, segments),
            format!("nested more than {MAX_HEADER_DEPTH} levels deep (MAX_HEADER_DEPTH)"),
        );
    }
    for (k, c) in m {
        if let Some((mut segments, why)) = bad_typed(c) {
            segments.push(Seg::Key(k));
            return fail(path_of(path, segments), why);
        }
    }
    Ok(Table::from_json_map(m))
}

fn path_of(path: &str, mut segments: Vec<Seg<'_>>) -> String {
    segments.reverse();
    let mut p = path.to_string();
    for seg in segments {
        match seg {
            Seg::Key(k) => p = join(&p, k),
            Seg::Index(i) => p = index(&p, i),
        }
    }
    p
}

/// The path (innermost segment first) to the first malformed typed value
/// (`{"$timestamp": ...}`, `{"$decimal": ...}`, `crate::value::typed_from_json`), and why.
/// Called after the depth check, so its recursion is bounded.
fn bad_typed(v: &Value) -> Option<(Vec<Seg<'_>>, String)> {
    match v {
        Value::Object(m) => match crate::value::typed_from_json(m) {
            Some(Err(why)) => Some((Vec::new(), why)),
            Some(Ok(_)) => None,
            None => m.iter().find_map(|(k, c)| {
                bad_typed(c).map(|(mut s, why)| {
                    s.push(Seg::Key(k));
                    (s, why)
                })
            }),
        },
        Value::Array(items) => items.iter().enumerate().find_map(|(i, c)| {
            bad_typed(c).map(|(mut s, why)| {
                s.push(Seg::Index(i));
                (s, why)
            })
        }),
        _ => None,
    }
}

enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

/// The path (innermost segment first) to the first table or array nested deeper than
/// `MAX_HEADER_DEPTH`; recursion stops there, so its depth is bounded.
fn too_deep(v: &Value, depth: usize) -> Option<Vec<Seg<'_>>> {
    let nested = matches!(v, Value::Object(_) | Value::Array(_));
    if nested && depth > MAX_HEADER_DEPTH {
        return Some(Vec::new());
    }
    match v {
        Value::Object(m) => m.iter().find_map(|(k, c)| {
            too_deep(c, depth + 1).map(|mut s| {
                s.push(Seg::Key(k));
                s
            })
        }),
        Value::Array(items) => items.iter().enumerate().find_map(|(i, c)| {
            too_deep(c, depth + 1).map(|mut s| {
                s.push(Seg::Index(i));
                s
            })
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::limits::*;
    use crate::scenario::load::tests::{assert_err, err, ok, publish_with};
    use serde_json::json;

    #[test]
    fn duration_limit() {
        assert_eq!(ok(json!({"until": "366d"})).until_ms, Some(MAX_DURATION_MS));
        assert_err(
            json!({"until": "367d"}),
            "until",
            "367d is beyond the limit of 366d (MAX_DURATION_MS)",
        );
        assert_err(json!({"until": u64::MAX}), "until", "MAX_DURATION_MS");
    }

    #[test]
    fn name_length_limit() {
        let long = "n".repeat(MAX_NAME_BYTES + 1);
        assert_eq!(
            ok(json!({"topology": {"queues": [{"name": "n".repeat(MAX_NAME_BYTES)}]}}))
                .topology
                .queues
                .len(),
            1
        );
        assert_err(
            json!({"topology": {"queues": [{"name": long}]}}),
            "topology.queues[0].name",
            "256 bytes; the limit is 255 bytes (MAX_NAME_BYTES",
        );
        assert_err(
            json!({"topology": {"bindings": [{"source": "e", "destination": "q", "routing_key": long}]}}),
            "topology.bindings[0].routing_key",
            "MAX_NAME_BYTES",
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {"exchange": long}}]}),
            "actions[0].publish.exchange",
            "MAX_NAME_BYTES",
        );
        assert_err(
            json!({"actions": [{"at": 0, "purge": {"queue": long}}]}),
            "actions[0].purge.queue",
            "MAX_NAME_BYTES",
        );
    }

    #[test]
    fn typed_header_values_load_and_a_malformed_one_names_its_path() {
        let s = ok(publish_with(json!({"headers": {
            "x-opt-delivery-time": {"$timestamp": 1800}, "price": {"$decimal": "1.50"}}})));
        let crate::scenario::ActionKind::Publish(p) = &s.actions[0].kind else {
            panic!("a publish")
        };
        let h = &p.properties.headers;
        assert_eq!(
            h.get("x-opt-delivery-time"),
            Some(&crate::value::FieldValue::Timestamp(1800))
        );
        assert_eq!(h.get("price").unwrap().amqp_type_name(), "decimal");
        assert_err(
            publish_with(json!({"headers": {"t": [1, {"$timestamp": "soon"}]}})),
            "actions[0].publish.properties.headers.t[1]",
            "$timestamp takes whole seconds",
        );
        assert_err(
            json!({"topology": {"queues": [{"name": "q", "arguments": {"x": {"$decimal": 1}}}]}}),
            "topology.queues[0].arguments.x",
            "$decimal takes a decimal number",
        );
    }

    #[test]
    fn header_depth_limit() {
        let mut deep = json!(1);
        for _ in 0..MAX_HEADER_DEPTH - 1 {
            deep = json!([deep]);
        }
        ok(publish_with(json!({"headers": {"a": deep.clone()}})));
        let s = publish_with(json!({"headers": {"a b": [deep]}}));
        // headers is level 1, the list under "a b" level 2, the innermost list level 17.
        let (p, m) = err(s);
        assert_eq!(
            p,
            format!(
                "actions[0].publish.properties.headers[\"a b\"]{}",
                "[0]".repeat(MAX_HEADER_DEPTH - 1)
            )
        );
        assert_eq!(m, "nested more than 16 levels deep (MAX_HEADER_DEPTH)");
        let mut deep_args = json!({});
        for _ in 0..MAX_HEADER_DEPTH {
            deep_args = json!({"k": deep_args});
        }
        assert_err(
            json!({"topology": {"queues": [{"name": "q", "arguments": deep_args}]}}),
            &format!(
                "topology.queues[0].arguments{}",
                ".k".repeat(MAX_HEADER_DEPTH)
            ),
            "nested more than 16 levels deep",
        );
    }
}
