//! `checks`: a scenario's named assertions (`scenario::checks`), each an object with
//! a `label`, an optional `name` and exactly one kind key:
//!
//! ```text
//! delivered | enqueued | dead_lettered | dropped | returned | error
//!     body | body_matches, queue, consumer (delivered), reason (dead_lettered, dropped),
//!     code (error, returned), headers (delivered); at | by | within; never
//! count     of: one of the six above, their fields, at | by | within; equals | at_least | at_most
//! order     bodies: [...], queue, consumer
//! lateness  body | of: max | p50 | p99 (with body_matches), queue, consumer; bound (durations)
//! depth     queue | exchange, of: ready | unacked | overdue | delayed | dead_letters, at; bound (counts)
//! orders    of: a figure of the lab's tally, at; bound
//! ```
//!
//! Checked against the rest of the scenario, so that a typo fails here instead of
//! making a check pass vacuously: a queue, exchange or consumer it names is one the
//! scenario has (topology, a declare action, `consumers`); its times are within `until`;
//! `orders` needs the lab. Limits: `MAX_CHECKS`, `MAX_LABEL_BYTES`,
//! `MAX_CHECK_NAME_BYTES`, `MAX_PATTERN_BYTES`, `MAX_ORDER_BODIES`.

use serde_json::Value;

use super::check_figures as figures;
use super::errors::{expected, fail, index, R};
use super::json::{as_obj, duration, table, Obj};
use super::limits::*;
use crate::scenario::checks::*;
use crate::scenario::duration::format_duration;
use crate::scenario::model::*;

const KINDS: &[&str] = &[
    "delivered",
    "enqueued",
    "dead_lettered",
    "dropped",
    "returned",
    "error",
    "count",
    "order",
    "lateness",
    "depth",
    "orders",
];

pub(super) const WINDOW_KEYS: &[&str] = &["at", "by", "within"];

/// Loads `checks` against the rest of the scenario `s` (already loaded).
pub(super) fn checks(items: &[Value], s: &Scenario) -> R<Vec<Check>> {
    if items.len() > MAX_CHECKS {
        return fail(
            "checks",
            format!(
                "{} checks; the limit is {MAX_CHECKS} (MAX_CHECKS)",
                items.len()
            ),
        );
    }
    let names = Names::of(s);
    let mut out: Vec<Check> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let o = as_obj(item, index("checks", i))?;
        let c = check(&o, &names)?;
        let id = c.id(i);
        if let Some(j) = out.iter().enumerate().position(|(j, x)| x.id(j) == id) {
            let path = if c.name.is_some() {
                o.p("name")
            } else {
                o.path.clone()
            };
            return fail(
                path,
                format!("the check name \"{id}\" is taken by checks[{j}]; names are unique"),
            );
        }
        out.push(c);
    }
    Ok(out)
}

/// What the rest of the scenario declares, for a check's names and times.
pub(super) struct Names<'a> {
    s: &'a Scenario,
}

impl<'a> Names<'a> {
    fn of(s: &'a Scenario) -> Names<'a> {
        Names { s }
    }

    fn has_queue(&self, name: &str) -> bool {
        self.s.topology.queues.iter().any(|q| q.name == name)
            || self.s.actions.iter().any(
                |a| matches!(&a.kind, ActionKind::Declare(Declare::Queue(q)) if q.name == name),
            )
    }

    pub(super) fn has_exchange(&self, name: &str) -> bool {
        self.s.topology.exchanges.iter().any(|x| x.name == name)
            || self.s.actions.iter().any(
                |a| matches!(&a.kind, ActionKind::Declare(Declare::Exchange(x)) if x.name == name),
            )
    }

    fn has_consumer(&self, name: &str) -> bool {
        self.s.consumers.iter().any(|c| c.name == name)
    }

    pub(super) fn has_orders_lab(&self) -> bool {
        self.s.orders.is_some()
    }

    /// A time a check names: within the run when the scenario says where it ends.
    pub(super) fn time(&self, o: &Obj, key: &str, v: &Value) -> R<u64> {
        let path = o.p(key);
        let ms = duration(v, &path)?;
        if let Some(until) = self.s.until_ms {
            if ms > until {
                return fail(
                    path,
                    format!(
                        "{} is after the scenario's end (until {}): the run never gets there",
                        format_duration(ms),
                        format_duration(until)
                    ),
                );
            }
        }
        Ok(ms)
    }
}

fn check(o: &Obj, names: &Names) -> R<Check> {
    let mut allowed = vec!["name", "label", "versions", "failure"];
    allowed.extend_from_slice(KINDS);
    o.check_keys(&allowed)?;
    let present: Vec<&str> = KINDS
        .iter()
        .copied()
        .filter(|k| o.m.contains_key(*k))
        .collect();
    let key = match present.as_slice() {
        [one] => *one,
        [] => {
            return fail(
                o.path.clone(),
                format!("a check needs one of {}", KINDS.join(", ")),
            )
        }
        [a, b, ..] => {
            return fail(
                o.path.clone(),
                format!("a check has exactly one of its kinds; found {a} and {b}"),
            )
        }
    };
    let name = match o.str_opt("name")? {
        None => None,
        Some(n) => Some(name_of_check(&n, &o.p("name"))?),
    };
    let label = label(o)?;
    let body = as_obj(o.get(key).unwrap_or(&Value::Null), o.p(key))?;
    let kind = match key {
        "count" => figures::count(&body, names)?,
        "order" => figures::order(&body, names)?,
        "lateness" => figures::lateness(&body, names)?,
        "depth" => figures::depth(&body, names)?,
        "orders" => figures::orders(&body, names)?,
        happening => {
            let what = Happening::parse(happening).expect("a kind key");
            let mut keys = happening_keys(what);
            keys.extend_from_slice(WINDOW_KEYS);
            keys.push("never");
            body.check_keys(&keys)?;
            CheckKind::Happens {
                what,
                filter: filter(&body, what, names)?,
                window: window(&body, names)?,
                never: body.bool_or("never", false)?,
            }
        }
    };
    let versions = check_versions(o, names)?;
    let failure = o.bool_or("failure", false)?;
    Ok(Check {
        name,
        label,
        kind,
        versions,
        failure,
    })
}

/// A check's `versions`: where its expectation holds, among the versions the scenario
/// is written for (a check can only be run on those: `delaylab test`).
fn check_versions(o: &Obj, names: &Names) -> R<Vec<crate::version::BrokerVersion>> {
    let versions = super::versions_list(o, "the scenario's versions")?;
    let written_for = names.s.written_for();
    for (i, v) in versions.iter().enumerate() {
        if !written_for.contains(v) {
            let list: Vec<String> = written_for.iter().map(|w| format!("\"{w}\"")).collect();
            return fail(
                format!("{}[{i}]", o.p("versions")),
                format!(
                    "\"{v}\" is not one of the versions the scenario is written for ({}); \
                     add it to the scenario's versions first",
                    list.join(", ")
                ),
            );
        }
    }
    Ok(versions)
}

fn label(o: &Obj) -> R<String> {
    let path = o.p("label");
    let label = o.str_req("label")?;
    if label.trim().is_empty() {
        return fail(path, "empty; say in plain words what the check means");
    }
    if label.len() > MAX_LABEL_BYTES {
        return fail(
            path,
            format!(
                "{} bytes; the limit is {MAX_LABEL_BYTES} bytes (MAX_LABEL_BYTES)",
                label.len()
            ),
        );
    }
    if label.chars().any(char::is_control) {
        return fail(
            path,
            "a label is one line of text (no line breaks or control characters)",
        );
    }
    Ok(label)
}

fn name_of_check(n: &str, path: &str) -> R<String> {
    let ok = (1..=MAX_CHECK_NAME_BYTES).contains(&n.len())
        && n.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.');
    if !ok {
        return fail(
            path,
            format!(
                "a check name is 1 to {MAX_CHECK_NAME_BYTES} letters, digits, '-', '_' or '.' (MAX_CHECK_NAME_BYTES)"
            ),
        );
    }
    Ok(n.to_string())
}

/// The selection fields a kind of happening takes.
pub(super) fn happening_keys(what: Happening) -> Vec<&'static str> {
    let mut keys = vec!["body", "body_matches"];
    keys.extend_from_slice(match what {
        Happening::Delivered => &["queue", "consumer", "headers"][..],
        Happening::Enqueued => &["queue"],
        Happening::DeadLettered | Happening::Dropped => &["queue", "reason"],
        Happening::Returned | Happening::Error => &["code"],
    });
    keys
}

pub(super) fn filter(o: &Obj, what: Happening, names: &Names) -> R<Filter> {
    let reason = match o.get("reason") {
        None => None,
        Some(v) => Some(reason(v, &o.p("reason"), what)?),
    };
    let code = o.uint_opt("code", u64::from(u16::MAX))?.map(|c| c as u16);
    let headers = match o.get("headers") {
        None => None,
        Some(v) => {
            table(v, &o.p("headers"))?; // the scenario's limits on field tables
            v.as_object().cloned()
        }
    };
    Ok(Filter {
        body: body_match(o)?,
        queue: queue_ref(o, names)?,
        consumer: consumer_ref(o, names)?,
        reason,
        code,
        headers,
    })
}

pub(super) fn body_match(o: &Obj) -> R<Option<BodyMatch>> {
    match (o.str_opt("body")?, o.str_opt("body_matches")?) {
        (Some(_), Some(_)) => fail(
            o.p("body_matches"),
            "give body (exact) or body_matches (a pattern), not both",
        ),
        (Some(b), None) => {
            if b.len() > MAX_BODY_BYTES {
                return fail(
                    o.p("body"),
                    format!(
                        "{} bytes; the limit is {MAX_BODY_BYTES} bytes (MAX_BODY_BYTES)",
                        b.len()
                    ),
                );
            }
            Ok(Some(BodyMatch::Exact(b)))
        }
        (None, Some(p)) => {
            if p.is_empty() || p.len() > MAX_PATTERN_BYTES {
                return fail(
                    o.p("body_matches"),
                    format!(
                        "a pattern is 1 to {MAX_PATTERN_BYTES} bytes (MAX_PATTERN_BYTES): * for any run of characters, ? for one"
                    ),
                );
            }
            Ok(Some(BodyMatch::Pattern(p)))
        }
        (None, None) => Ok(None),
    }
}

pub(super) fn queue_ref(o: &Obj, names: &Names) -> R<Option<String>> {
    let Some(q) = o.str_opt("queue")? else {
        return Ok(None);
    };
    if !names.has_queue(&q) {
        return fail(
            o.p("queue"),
            format!(
                "the scenario has no queue {} (in topology or a declare action)",
                Value::String(q)
            ),
        );
    }
    Ok(Some(q))
}

pub(super) fn consumer_ref(o: &Obj, names: &Names) -> R<Option<String>> {
    let Some(c) = o.str_opt("consumer")? else {
        return Ok(None);
    };
    if !names.has_consumer(&c) {
        return fail(
            o.p("consumer"),
            format!("the scenario has no consumer {}", Value::String(c)),
        );
    }
    Ok(Some(c))
}

fn reason(v: &Value, path: &str, what: Happening) -> R<String> {
    let allowed: &[&str] = match what {
        Happening::DeadLettered => &DEAD_LETTER_REASONS,
        _ => &DROP_REASONS,
    };
    match v.as_str() {
        Some(r) if allowed.contains(&r) => Ok(r.to_string()),
        _ => fail(path, expected(&format!("one of {}", allowed.join(", ")), v)),
    }
}

pub(super) fn window(o: &Obj, names: &Names) -> R<Window> {
    let present: Vec<&str> = WINDOW_KEYS
        .iter()
        .copied()
        .filter(|k| o.m.contains_key(*k))
        .collect();
    let at = |k: &str| names.time(o, k, o.get(k).unwrap_or(&Value::Null));
    match present.as_slice() {
        [] => Ok(Window::Whole),
        ["at"] => Ok(Window::At(at("at")?)),
        ["by"] => Ok(Window::By(at("by")?)),
        [_] => {
            let path = o.p("within");
            let v = o.get("within").unwrap_or(&Value::Null);
            let Some([a, b]) = v.as_array().map(Vec::as_slice) else {
                return fail(
                    path,
                    expected("a list of two times such as [\"5m\", \"7m\"]", v),
                );
            };
            let from = names
                .time(o, "within", a)
                .map_err(|e| at_index(e, &path, 0))?;
            let to = names
                .time(o, "within", b)
                .map_err(|e| at_index(e, &path, 1))?;
            if from > to {
                return fail(path, "the window ends before it starts");
            }
            Ok(Window::Within(from, to))
        }
        [a, b, ..] => fail(
            o.p(b),
            format!("give one of at, by or within; found {a} and {b}"),
        ),
    }
}

/// An error on `within` moved to the list element it is about.
pub(super) fn at_index(
    mut e: Box<super::errors::LoadError>,
    path: &str,
    i: usize,
) -> Box<super::errors::LoadError> {
    if e.path == path {
        e.path = index(path, i);
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::load::tests::{assert_err, ok};
    use serde_json::json;

    /// A scenario with a queue `q`, an exchange `d`, a consumer `c` and the given checks.
    fn with(checks: Value) -> Value {
        json!({"until": "10m", "topology": {"queues": [{"name": "q"}],
               "exchanges": [{"name": "d", "type": "x-delayed-message", "arguments": {"x-delayed-type": "direct"}}]},
               "consumers": [{"name": "c", "queue": "q", "ack": "auto"}], "checks": checks})
    }

    #[test]
    fn a_file_without_checks_has_none() {
        assert!(ok(json!({})).checks.is_empty());
    }

    #[test]
    fn every_kind_loads() {
        let s = ok(with(json!([
            {"label": "a", "delivered": {"body": "B", "queue": "q", "consumer": "c", "at": "6m",
             "headers": {"x-death": [{"count": 1}]}}},
            {"label": "b", "enqueued": {"body_matches": "order-*", "queue": "q", "by": 1000}},
            {"label": "c", "dead_lettered": {"reason": "delivery_limit", "never": true}},
            {"label": "d", "dropped": {"reason": "node_lost", "within": ["1m", "2m"]}},
            {"label": "e", "returned": {"code": 312}},
            {"label": "f", "error": {"never": true}},
            {"label": "g", "count": {"of": "delivered", "consumer": "c", "equals": 21}},
            {"label": "h", "order": {"bodies": ["a", "b", "a"], "consumer": "c"}},
            {"label": "i", "lateness": {"body": "B", "at_least": "24m", "at_most": "25m"}},
            {"label": "j", "lateness": {"of": "p99", "at_most": "2s"}},
            {"label": "k", "depth": {"queue": "q", "of": "overdue", "at": "6m", "equals": 1}},
            {"name": "l.1", "label": "l", "depth": {"exchange": "d", "of": "delayed", "at_least": 1}}
        ])));
        assert_eq!(s.checks.len(), 12);
        assert_eq!(
            s.checks[0].kind,
            CheckKind::Happens {
                what: Happening::Delivered,
                filter: Filter {
                    body: Some(BodyMatch::Exact("B".into())),
                    queue: Some("q".into()),
                    consumer: Some("c".into()),
                    headers: json!({"x-death": [{"count": 1}]}).as_object().cloned(),
                    ..Filter::default()
                },
                window: Window::At(360_000),
                never: false,
            }
        );
        assert_eq!(
            s.checks[3].kind,
            CheckKind::Happens {
                what: Happening::Dropped,
                filter: Filter {
                    reason: Some("node_lost".into()),
                    ..Filter::default()
                },
                window: Window::Within(60_000, 120_000),
                never: false,
            }
        );
        assert_eq!(
            s.checks[8].kind,
            CheckKind::Lateness {
                filter: Filter {
                    body: Some(BodyMatch::Exact("B".into())),
                    ..Filter::default()
                },
                figure: LateFigure::Message,
                bound: Bound::Range {
                    at_least: Some(1_440_000),
                    at_most: Some(1_500_000)
                },
            }
        );
        assert_eq!(s.checks[11].id(11), "l.1");
        assert_eq!(s.checks[10].id(10), "check-11");
    }

    #[test]
    fn a_check_names_the_versions_it_holds_on_and_whether_it_states_a_failure() {
        use crate::version::BrokerVersion::*;
        let mut v = with(json!([
            {"label": "a", "versions": ["4.3", "4.0"], "failure": true, "error": {"never": true}},
            {"label": "b", "error": {"never": true}}
        ]));
        v["versions"] = json!(["4.0", "4.1", "4.3"]);
        let s = ok(v.clone());
        assert_eq!(s.checks[0].versions, vec![V4_0, V4_3]);
        assert!(s.checks[0].failure);
        assert!(s.checks[1].versions.is_empty() && !s.checks[1].failure);
        // Expected on its own versions; the other on the scenario's.
        assert_eq!(s.check_expected_on(0), vec![V4_0, V4_3]);
        assert_eq!(s.check_expected_on(1), vec![V4_0, V4_1, V4_3]);
        assert!(s.check_applies(0, V4_3) && !s.check_applies(0, V4_1));
        assert!(s.check_applies(1, V4_1) && !s.check_applies(1, V3_10));
        // Written back as read.
        let again = crate::scenario::load_value(&crate::scenario::save::to_value(&s)).unwrap();
        assert_eq!(again.checks, s.checks);

        v["checks"][0]["versions"] = json!(["4.2"]);
        assert_err(
            v.clone(),
            "checks[0].versions[0]",
            "\"4.2\" is not one of the versions the scenario is written for (\"4.0\", \"4.1\", \"4.3\")",
        );
        v["checks"][0]["versions"] = json!([]);
        assert_err(
            v.clone(),
            "checks[0].versions",
            "an empty list; leave versions out to mean the scenario's versions",
        );
        v["checks"][0]["versions"] = json!(["4.0", "4.0"]);
        assert_err(v.clone(), "checks[0].versions[1]", "listed twice");
        v["checks"][0]["versions"] = json!(["4.0"]);
        v["checks"][0]["failure"] = json!("yes");
        assert_err(v, "checks[0].failure", "");
        // A scenario without `versions` is written for its broker alone.
        assert_err(
            with(json!([{"label": "a", "versions": ["4.3"], "error": {"never": true}}])),
            "checks[0].versions[0]",
            "(\"3.10\")",
        );
    }

    #[test]
    fn order_lab_figures_need_the_lab() {
        assert_err(
            with(json!([{"label": "x", "orders": {"of": "paid_closed", "equals": 0}}])),
            "checks[0].orders",
            "no order lab",
        );
    }

    #[test]
    fn errors_name_the_path() {
        let cases: &[(Value, &str, &str)] = &[
            (
                json!([{"delivered": {}}]),
                "checks[0].label",
                "missing (required)",
            ),
            (
                json!([{"label": " ", "delivered": {}}]),
                "checks[0].label",
                "empty",
            ),
            (
                json!([{"label": "a\nb", "delivered": {}}]),
                "checks[0].label",
                "one line",
            ),
            (
                json!([{"label": "x"}]),
                "checks[0]",
                "a check needs one of delivered",
            ),
            (
                json!([{"label": "x", "delivered": {}, "dropped": {}}]),
                "checks[0]",
                "found delivered and dropped",
            ),
            (
                json!([{"label": "x", "delivered": {"reason": "expired"}}]),
                "checks[0].delivered.reason",
                "unknown field",
            ),
            (
                json!([{"label": "x", "delivered": {"queue": "nope"}}]),
                "checks[0].delivered.queue",
                "no queue \"nope\"",
            ),
            (
                json!([{"label": "x", "delivered": {"consumer": "nope"}}]),
                "checks[0].delivered.consumer",
                "no consumer \"nope\"",
            ),
            (
                json!([{"label": "x", "delivered": {"at": "11m"}}]),
                "checks[0].delivered.at",
                "after the scenario's end (until 10m)",
            ),
            (
                json!([{"label": "x", "delivered": {"at": "1m", "by": "2m"}}]),
                "checks[0].delivered.by",
                "found at and by",
            ),
            (
                json!([{"label": "x", "delivered": {"within": ["2m", "1m"]}}]),
                "checks[0].delivered.within",
                "ends before it starts",
            ),
            (
                json!([{"label": "x", "delivered": {"within": ["2m", "soon"]}}]),
                "checks[0].delivered.within[1]",
                "invalid duration",
            ),
            (
                json!([{"label": "x", "dropped": {"reason": "lost"}}]),
                "checks[0].dropped.reason",
                "expected one of expired, rejected, maxlen, delivery_limit, dlx_missing",
            ),
            (
                json!([{"label": "x", "dead_lettered": {"reason": "unroutable"}}]),
                "checks[0].dead_lettered.reason",
                "expected one of expired, rejected, maxlen, delivery_limit, found",
            ),
            (
                json!([{"label": "x", "delivered": {"body": "a", "body_matches": "a*"}}]),
                "checks[0].delivered.body_matches",
                "not both",
            ),
            (
                json!([{"label": "x", "delivered": {"body_matches": ""}}]),
                "checks[0].delivered.body_matches",
                "MAX_PATTERN_BYTES",
            ),
            (
                json!([{"label": "x", "count": {"of": "delivered"}}]),
                "checks[0].count",
                "needs a bound",
            ),
            (
                json!([{"label": "x", "count": {"of": "seen", "equals": 1}}]),
                "checks[0].count.of",
                "unknown happening",
            ),
            (
                json!([{"label": "x", "count": {"of": "error", "equals": 1, "at_most": 2}}]),
                "checks[0].count.equals",
                "equals alone",
            ),
            (
                json!([{"label": "x", "count": {"of": "error", "at_least": 3, "at_most": 2}}]),
                "checks[0].count.at_most",
                "below at_least",
            ),
            (
                json!([{"label": "x", "order": {"bodies": ["a"]}}]),
                "checks[0].order.bodies",
                "2 to 100 bodies",
            ),
            (
                json!([{"label": "x", "lateness": {"at_most": "1s"}}]),
                "checks[0].lateness",
                "needs body",
            ),
            (
                json!([{"label": "x", "lateness": {"of": "p90", "at_most": "1s"}}]),
                "checks[0].lateness.of",
                "expected max, p50 or p99",
            ),
            (
                json!([{"label": "x", "lateness": {"of": "max", "at_most": "fast"}}]),
                "checks[0].lateness.at_most",
                "invalid duration",
            ),
            (
                json!([{"label": "x", "depth": {"queue": "q", "of": "size", "equals": 1}}]),
                "checks[0].depth.of",
                "unknown measure",
            ),
            (
                json!([{"label": "x", "depth": {"exchange": "d", "of": "ready", "equals": 1}}]),
                "checks[0].depth.of",
                "only \"delayed\"",
            ),
            (
                json!([{"label": "x", "depth": {"exchange": "e", "of": "delayed", "equals": 1}}]),
                "checks[0].depth.exchange",
                "no exchange \"e\"",
            ),
            (
                json!([{"name": "a b", "label": "x", "error": {}}]),
                "checks[0].name",
                "letters, digits",
            ),
            (
                json!([{"name": "check-2", "label": "x", "error": {}}, {"label": "y", "error": {}}]),
                "checks[1]",
                "taken by checks[0]",
            ),
            (
                json!([{"label": "x", "delivered": {"headers": []}}]),
                "checks[0].delivered.headers",
                "a field table",
            ),
        ];
        for (checks, path, needle) in cases {
            assert_err(with(checks.clone()), path, needle);
        }
    }

    #[test]
    fn limits_are_named() {
        let many: Vec<Value> = (0..=MAX_CHECKS)
            .map(|_| json!({"label": "x", "error": {"never": true}}))
            .collect();
        assert_err(with(Value::Array(many)), "checks", "MAX_CHECKS");
        assert_err(
            with(json!([{"label": "x".repeat(MAX_LABEL_BYTES + 1), "error": {}}])),
            "checks[0].label",
            "MAX_LABEL_BYTES",
        );
        assert_err(
            with(
                json!([{"label": "x", "error": {"body_matches": "*".repeat(MAX_PATTERN_BYTES + 1)}}]),
            ),
            "checks[0].error.body_matches",
            "MAX_PATTERN_BYTES",
        );
        assert_err(json!({"checks": {}}), "checks", "expected a list");
    }
}
