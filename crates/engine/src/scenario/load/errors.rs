//! The loader's error: a [`LoadError`] names the JSON path of the problem
//! (`actions[3].publish.properties.expiration`) and says what is wrong; the path
//! builders and the message phrases every part of the loader shares.

use std::fmt;

use serde_json::Value;

/// Why a scenario could not be loaded: the JSON path of the problem and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// `actions[3].publish.properties.expiration`; `$` for the document as a whole
    /// (JSON syntax errors, size limit).
    pub path: String,
    pub message: String,
    /// 1-based line and column of a JSON syntax error, for an editor to point at.
    pub line: Option<usize>,
    pub column: Option<usize>,
}

impl LoadError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> LoadError {
        LoadError {
            path: path.into(),
            message: message.into(),
            line: None,
            column: None,
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for LoadError {}

/// The loader's internal result: the error boxed, so that each `?` moves one pointer
/// (the code size of the start-up wasm).
pub(crate) type R<T> = Result<T, Box<LoadError>>;

pub(crate) fn fail<T>(path: impl Into<String>, message: impl Into<String>) -> R<T> {
    Err(error(path, message))
}

/// A boxed [`LoadError`], built out of line: one small call at each of the loader's
/// many error sites (and one copy per argument type, not per result type).
#[cold]
#[inline(never)]
pub(crate) fn error(path: impl Into<String>, message: impl Into<String>) -> Box<LoadError> {
    Box::new(LoadError::new(path, message))
}

/// The public functions' result: the error out of its box.
pub(crate) fn unboxed<T>(r: R<T>) -> Result<T, LoadError> {
    r.map_err(|e| *e)
}

/// `path.key`, or `path["odd key"]` for keys that are not plain words.
pub(super) fn join(path: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && key.len() <= 64
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    match (path.is_empty(), plain) {
        (true, true) => key.to_string(),
        (false, true) => format!("{path}.{key}"),
        (_, false) => format!("{path}[{}]", short_quote(key)),
    }
}

pub(crate) fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

pub(super) fn unknown_message(allowed: &[&str]) -> String {
    if allowed.is_empty() {
        "unknown field; this object takes no fields".into()
    } else {
        format!("unknown field; expected one of: {}", allowed.join(", "))
    }
}

pub(crate) fn expected(what: &str, found: &Value) -> String {
    format!("expected {what}, found {}", describe(found))
}

pub(super) fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {}", short_quote(s)),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// JSON-quoted, cut to a readable length.
pub(super) fn short_quote(s: &str) -> String {
    const MAX_CHARS: usize = 60;
    if s.chars().count() > MAX_CHARS {
        let head: String = s.chars().take(MAX_CHARS).collect();
        format!("{}...", Value::String(head))
    } else {
        Value::String(s.to_string()).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::load::tests::assert_err;
    use serde_json::json;

    #[test]
    fn display_is_path_colon_message() {
        let e = LoadError::new("actions[3].at", "boom");
        assert_eq!(e.to_string(), "actions[3].at: boom");
    }

    #[test]
    fn odd_keys_are_quoted_in_paths() {
        assert_eq!(join("a", "b.c"), "a[\"b.c\"]");
        assert_eq!(join("", "x"), "x");
        assert_eq!(join("a", ""), "a[\"\"]");
        assert_err(json!({"a\"b": 1}), "[\"a\\\"b\"]", "unknown field");
    }
}
