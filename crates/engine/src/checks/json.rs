//! Each check's state as JSON, for the JavaScript package (`sim.checks()`), an embed's
//! `checks` message and `delaylab test --format json`:
//!
//! ```json
//! {"id": "b-on-time", "label": "B is delivered by 6:00", "kind": "delivered",
//!  "status": "failed", "at_ms": 360000,
//!  "seen": {"kind": "at", "ms": 1800000}, "msg": 2, "body": "B",
//!  "expected": "B delivered by 0:06:00.000",
//!  "text": "failed at 0:06:00.000: saw B delivered at 0:30:00.000; expected ..."}
//! ```
//! `seen.kind`: `nothing`, `at` (`ms`), `other_headers` (`ms`: a delivery that matched
//! all but the headers), `count` (`value`), `duration` (`ms`), `order`
//! (`position`, 0-based, and `got`, null when the run ended first), `missing`.
//! `undecided` (a sentence) is there when `status` is `undecided`, and `live: true`
//! when the reason is a live broker's. `failure: true` marks a check that states what
//! goes wrong (a reported failure, reproduced); `versions` the check's own versions;
//! `expected_here: false` a check not expected on the version this run is on (shown,
//! never a failure).

use serde_json::{Map, Value};

use super::spec::{Check, CheckKind};
use super::state::{CheckState, Seen};
use super::text;

/// The key a check has in the scenario file (`delivered`, `count`, `depth`, ...).
pub fn kind_name(c: &Check) -> &'static str {
    match &c.kind {
        CheckKind::Happens { what, .. } => what.as_str(),
        CheckKind::Count { .. } => "count",
        CheckKind::Order { .. } => "order",
        CheckKind::Lateness { .. } => "lateness",
        CheckKind::Depth { .. } => "depth",
        CheckKind::Orders { .. } => "orders",
    }
}

pub fn seen_json(s: &Seen) -> Value {
    // Built field by field rather than with `json!`: the JavaScript package carries
    // this code, and each `json!` object is a few hundred bytes of wasm.
    let mut m = Map::new();
    let (kind, fields): (&str, [(&str, Value); 2]) = match s {
        Seen::Nothing => ("nothing", [("", Value::Null), ("", Value::Null)]),
        Seen::At(ms) => ("at", [("ms", (*ms).into()), ("", Value::Null)]),
        Seen::OtherHeaders(ms) => ("other_headers", [("ms", (*ms).into()), ("", Value::Null)]),
        Seen::Count(n) => ("count", [("value", (*n).into()), ("", Value::Null)]),
        Seen::Duration(ms) => ("duration", [("ms", (*ms).into()), ("", Value::Null)]),
        Seen::Order { position, got } => (
            "order",
            [
                ("position", (*position as u64).into()),
                ("got", got.clone().map_or(Value::Null, Value::String)),
            ],
        ),
        Seen::Missing => ("missing", [("", Value::Null), ("", Value::Null)]),
    };
    m.insert("kind".into(), kind.into());
    for (k, v) in fields {
        if !k.is_empty() {
            m.insert(k.into(), v);
        }
    }
    Value::Object(m)
}

/// One check (the `index`-th) and its state.
pub fn state_json(index: usize, c: &Check, s: &CheckState) -> Value {
    let opt = |v: Option<u64>| v.map_or(Value::Null, Value::from);
    let fields: [(&str, Value); 10] = [
        ("id", c.id(index).into()),
        ("label", c.label.as_str().into()),
        ("kind", kind_name(c).into()),
        ("status", s.status.as_str().into()),
        ("at_ms", opt(s.at_ms)),
        ("seen", seen_json(&s.seen)),
        ("msg", opt(s.msg.map(u64::from))),
        ("body", s.body.clone().map_or(Value::Null, Value::String)),
        ("expected", text::expected(c).into()),
        ("text", text::outcome(c, s).into()),
    ];
    let mut m: Map<String, Value> = fields.into_iter().map(|(k, v)| (k.into(), v)).collect();
    if let Some(u) = &s.undecided {
        m.insert("undecided".into(), text::undecided(u).into());
        m.insert("live".into(), u.is_live().into());
    }
    if c.failure {
        m.insert("failure".into(), true.into());
    }
    if !c.versions.is_empty() {
        let list: Vec<Value> = c.versions.iter().map(|v| v.as_str().into()).collect();
        m.insert("versions".into(), Value::Array(list));
    }
    if !s.expected_here {
        m.insert("expected_here".into(), false.into());
    }
    Value::Object(m)
}

/// Every check and its state, in the scenario's order.
pub fn states_json(checks: &[Check], states: &[CheckState]) -> Value {
    Value::Array(
        checks
            .iter()
            .zip(states)
            .enumerate()
            .map(|(i, (c, s))| state_json(i, c, s))
            .collect(),
    )
}
