//! Rust literals and calls as the generated program writes them: values with their AMQP
//! type spelled out (lapin's `AMQPValue`), argument tables with their lessons, option
//! structs, and calls wrapped as rustfmt wraps them.

use delaylab_engine::value::FieldValue;

use crate::args::{is_i32, Arg};
use crate::syntax::{comment, quote, Style};
use crate::walk::Entry;

pub(super) fn q(s: &str) -> String {
    quote(s, Style::Rust)
}

pub(super) fn float(f: f64) -> String {
    if f.is_nan() {
        "f64::NAN".into()
    } else if f.is_infinite() {
        if f > 0.0 {
            "f64::INFINITY"
        } else {
            "f64::NEG_INFINITY"
        }
        .into()
    } else {
        format!("{f:?}")
    }
}

/// A value with its AMQP type spelled out (lapin's `AMQPValue`).
pub(super) fn value(v: &FieldValue) -> String {
    match v {
        FieldValue::Void => "AMQPValue::Void".into(),
        FieldValue::Bool(b) => format!("AMQPValue::Boolean({b})"),
        // A signedint when it fits in 32 bits, else a long (as the engine maps it).
        FieldValue::Int(n) if is_i32(*n) => format!("AMQPValue::LongInt({n})"),
        FieldValue::Int(n) => format!("AMQPValue::LongLongInt({n})"),
        FieldValue::Float(f) => format!("AMQPValue::Double({})", float(*f)),
        FieldValue::Str(s) => format!("AMQPValue::LongString({}.into())", q(s)),
        FieldValue::Array(items) => format!(
            "array(vec![{}])",
            items.iter().map(value).collect::<Vec<_>>().join(", ")
        ),
        FieldValue::Table(t) if t.is_empty() => {
            "AMQPValue::FieldTable(FieldTable::default())".into()
        }
        FieldValue::Table(t) => format!(
            "AMQPValue::FieldTable(table([{}]))",
            t.iter()
                .map(|(k, v)| format!("({}, {})", q(k), value(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        FieldValue::Timestamp(s) => format!("AMQPValue::Timestamp({s})"),
        FieldValue::Decimal { scale, value } => format!(
            "AMQPValue::DecimalValue(lapin::types::DecimalValue {{ scale: {scale}, value: {value} }})"
        ),
    }
}

pub(super) fn arg(a: &Arg) -> String {
    match a {
        Arg::Name(s) => format!("name_arg({})", q(s)),
        Arg::List(l) => format!(
            "array(vec![{}])",
            l.iter().map(arg).collect::<Vec<_>>().join(", ")
        ),
        Arg::Ms(ms) => format!("ms_arg({ms})"),
        Arg::DeliveryTime(t) => format!("AMQPValue::LongLongInt(delivery_time({t}))"),
        Arg::DeliveryTimeS(s) => format!("AMQPValue::Timestamp(delivery_time_s({s}))"),
        Arg::Plain(v) => value(v),
    }
}

/// A `FieldTable` expression: one entry a line with its lesson above it.
pub(super) fn table(entries: &[Entry], indent: &str) -> String {
    if entries.is_empty() {
        return "FieldTable::default()".into();
    }
    let inner = format!("{indent}    ");
    let mut out = String::from("table([\n");
    for e in entries {
        if let Some(n) = e.note {
            out.push_str(&comment(&inner, "//", n));
        }
        out.push_str(&format!("{inner}({}, {}),\n", q(e.key), arg(&e.value)));
    }
    out.push_str(indent);
    out.push_str("])");
    out
}

/// `Options { a: true, ..Default::default() }` with the flags that are set.
pub(super) fn options(kind: &str, flags: &[(&str, bool)]) -> String {
    let set: Vec<String> = flags
        .iter()
        .filter(|(_, on)| *on)
        .map(|(f, _)| format!("{f}: true"))
        .collect();
    if set.is_empty() {
        format!("{kind}::default()")
    } else {
        format!("{kind} {{ {}, ..Default::default() }}", set.join(", "))
    }
}

pub(super) fn exchange_kind(kind: &str) -> String {
    match kind {
        "direct" => "ExchangeKind::Direct".into(),
        "fanout" => "ExchangeKind::Fanout".into(),
        "topic" => "ExchangeKind::Topic".into(),
        "headers" => "ExchangeKind::Headers".into(),
        other => format!("ExchangeKind::Custom({}.into())", q(other)),
    }
}

/// Line width of the generated code (rustfmt's default).
pub(super) const MAX_WIDTH: usize = 100;

/// `f(a, b).await` on one line when it fits at `indent`, else one argument a line as
/// rustfmt writes it.
pub(super) fn call(indent: &str, f: &str, args: &[String], tail: &str) -> String {
    let one = format!("{f}({}){tail}", args.join(", "));
    if indent.len() + one.len() <= MAX_WIDTH && !one.contains('\n') {
        return one;
    }
    let mut out = format!("{f}(\n");
    for a in args {
        out.push_str(&format!("{indent}    {a},\n"));
    }
    // rustfmt puts `.await` on a line of its own after a broken call.
    out.push_str(&format!("{indent})\n{indent}{tail}"));
    out
}

/// An argument table: no line and `FieldTable::default()` when it is empty, else a
/// `let args = table([...]);` line and `args`.
pub(super) fn args_line(entries: &[Entry], indent: &str) -> (Vec<String>, &'static str) {
    if entries.is_empty() {
        (Vec::new(), "FieldTable::default()")
    } else {
        (
            vec![format!("let args = {};", table(entries, indent))],
            "args",
        )
    }
}
