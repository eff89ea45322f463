//! Which happenings a check is about: its [`Filter`] compiled once (a body pattern into
//! a [`Glob`]), then asked of every happening of its kind. The cheap tests
//! (names, reason, code, body) come first; a delivery's headers are only rendered for
//! a delivery that passed them.
//!
//! Headers match as a subset of what the consumer sees: a table by key, a list by
//! position from its start (`x-death` is newest first), anything else by equality.
//! `{"x-death": [{"count": 1, "reason": "expired"}]}` holds for a delivery whose newest
//! `x-death` entry has count 1 and reason expired, whatever else it carries.

use serde_json::{Map, Value};

use super::glob::Glob;
use super::obs::Obs;
use super::spec::{BodyMatch, Filter};

enum Body {
    Any,
    Exact(String),
    Pattern(Glob),
}

pub struct Selector {
    body: Body,
    filter: Filter,
}

impl Selector {
    pub fn new(filter: &Filter) -> Selector {
        let body = match &filter.body {
            None => Body::Any,
            Some(BodyMatch::Exact(b)) => Body::Exact(b.clone()),
            Some(BodyMatch::Pattern(p)) => Body::Pattern(Glob::new(p)),
        };
        Selector {
            body,
            filter: filter.clone(),
        }
    }

    /// True when the body is one the check names (any body when it names none).
    pub fn body_matches(&self, body: Option<&str>) -> bool {
        match (&self.body, body) {
            (Body::Any, _) => true,
            (Body::Exact(want), Some(b)) => want == b,
            (Body::Pattern(p), Some(b)) => p.matches(b),
            (_, None) => false,
        }
    }

    pub fn matches(&self, o: &Obs) -> bool {
        self.matches_but_headers(o)
            && self
                .filter
                .headers
                .as_ref()
                .is_none_or(|h| contains_table(&o.headers.value(), h))
    }

    /// True when the check names headers and `o` matches all else.
    pub fn has_headers(&self) -> bool {
        self.filter.headers.is_some()
    }

    pub fn matches_but_headers(&self, o: &Obs) -> bool {
        let f = &self.filter;
        let same = |want: &Option<String>, got: Option<&str>| {
            want.as_deref().is_none_or(|w| got == Some(w))
        };
        same(&f.queue, o.queue)
            && same(&f.consumer, o.consumer)
            && f.reason.as_deref().is_none_or(|r| o.reason == Some(r))
            && f.code.is_none_or(|c| o.code == Some(c))
            && self.body_matches(o.body)
    }
}

fn contains_table(actual: &Value, want: &Map<String, Value>) -> bool {
    match actual {
        Value::Object(a) => want
            .iter()
            .all(|(k, w)| a.get(k).is_some_and(|v| contains(v, w))),
        _ => false,
    }
}

/// `actual` holds everything `want` says (see the module's note).
pub fn contains(actual: &Value, want: &Value) -> bool {
    match (actual, want) {
        (_, Value::Object(w)) => contains_table(actual, w),
        (Value::Array(a), Value::Array(w)) => {
            w.len() <= a.len() && w.iter().zip(a).all(|(w, a)| contains(a, w))
        }
        (a, w) => a == w,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn headers_match_as_a_subset() {
        let got = json!({"x-death": [{"count": 1, "reason": "expired", "queue": "w"},
                                     {"count": 3, "reason": "rejected"}],
                         "x-first-death-reason": "rejected"});
        assert!(contains(&got, &json!({"x-death": [{"count": 1}]})));
        assert!(contains(
            &got,
            &json!({"x-death": [{}, {"reason": "rejected"}]})
        ));
        assert!(contains(&got, &json!({"x-first-death-reason": "rejected"})));
        assert!(!contains(&got, &json!({"x-death": [{"count": 2}]})));
        assert!(!contains(&got, &json!({"x-death": [{}, {}, {}]})), "longer");
        assert!(!contains(&got, &json!({"x-delivery-count": 1})), "absent");
        assert!(!contains(&json!(1), &json!({"a": 1})));
    }

    #[test]
    fn bodies_exact_or_by_pattern() {
        let s = |b: Option<BodyMatch>| {
            Selector::new(&Filter {
                body: b,
                ..Filter::default()
            })
        };
        assert!(s(None).body_matches(None));
        assert!(s(Some(BodyMatch::Exact("B".into()))).body_matches(Some("B")));
        assert!(!s(Some(BodyMatch::Exact("B".into()))).body_matches(Some("BB")));
        assert!(!s(Some(BodyMatch::Exact("B".into()))).body_matches(None));
        let p = s(Some(BodyMatch::Pattern("order-?-*".into())));
        assert!(p.body_matches(Some("order-1-again")));
        assert!(p.body_matches(Some("order-2-")));
        assert!(!p.body_matches(Some("order-12-x")));
    }
}
