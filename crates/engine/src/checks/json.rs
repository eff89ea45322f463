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
//! when the reason is a live broker's.

use serde_json::{json, Map, Value};

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
    match s {
        Seen::Nothing => json!({"kind": "nothing"}),
        Seen::At(ms) => json!({"kind": "at", "ms": ms}),
        Seen::OtherHeaders(ms) => json!({"kind": "other_headers", "ms": ms}),
        Seen::Count(n) => json!({"kind": "count", "value": n}),
        Seen::Duration(ms) => json!({"kind": "duration", "ms": ms}),
        Seen::Order { position, got } => {
            json!({"kind": "order", "position": position, "got": got})
        }
        Seen::Missing => json!({"kind": "missing"}),
    }
}

/// One check (the `index`-th) and its state.
pub fn state_json(index: usize, c: &Check, s: &CheckState) -> Value {
    let mut m = Map::new();
    m.insert("id".into(), json!(c.id(index)));
    m.insert("label".into(), json!(c.label));
    m.insert("kind".into(), json!(kind_name(c)));
    m.insert("status".into(), json!(s.status.as_str()));
    m.insert("at_ms".into(), json!(s.at_ms));
    m.insert("seen".into(), seen_json(&s.seen));
    m.insert("msg".into(), json!(s.msg));
    m.insert("body".into(), json!(s.body));
    m.insert("expected".into(), json!(text::expected(c)));
    m.insert("text".into(), json!(text::outcome(c, s)));
    if let Some(u) = &s.undecided {
        m.insert("undecided".into(), json!(text::undecided(u)));
        m.insert("live".into(), json!(u.is_live()));
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
