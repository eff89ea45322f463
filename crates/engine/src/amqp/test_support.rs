//! Helpers shared by the `amqp` unit tests (the live-broker probe's text format).

use crate::value::{FieldValue, Table};

/// A table from key/value pairs.
pub fn args(pairs: &[(&str, FieldValue)]) -> Table {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

/// Undoes the probe's `show()`: `\\`, `\n`, `\r`, `\t`, `\xNN`.
pub fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(char::from(u8::from_str_radix(&hex, 16).expect("\\xNN")));
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}
