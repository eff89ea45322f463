//! Writing a scenario's `checks` back (`load(save(s)) == s`), in the loader's spelling:
//! times and lateness bounds as the shortest duration strings, counts as integers.

use serde_json::{json, Map, Value};

use super::dur;
use crate::scenario::checks::*;

pub(super) fn check(c: &Check) -> Value {
    let mut m = Map::new();
    if let Some(n) = &c.name {
        m.insert("name".into(), json!(n));
    }
    m.insert("label".into(), json!(c.label));
    if !c.versions.is_empty() {
        let list: Vec<&str> = c.versions.iter().map(|v| v.as_str()).collect();
        m.insert("versions".into(), json!(list));
    }
    if c.failure {
        m.insert("failure".into(), json!(true));
    }
    let (key, body) = match &c.kind {
        CheckKind::Happens {
            what,
            filter: f,
            window: w,
            never,
        } => {
            let mut b = Map::new();
            put_filter(&mut b, f);
            put_window(&mut b, *w);
            if *never {
                b.insert("never".into(), json!(true));
            }
            (what.as_str(), b)
        }
        CheckKind::Count {
            what,
            filter: f,
            window: w,
            bound,
        } => {
            let mut b = Map::new();
            b.insert("of".into(), json!(what.as_str()));
            put_filter(&mut b, f);
            put_window(&mut b, *w);
            put_bound(&mut b, *bound, false);
            ("count", b)
        }
        CheckKind::Order {
            queue,
            consumer,
            bodies,
        } => {
            let mut b = Map::new();
            b.insert("bodies".into(), json!(bodies));
            put_opt(&mut b, "queue", queue);
            put_opt(&mut b, "consumer", consumer);
            ("order", b)
        }
        CheckKind::Lateness {
            filter: f,
            figure,
            bound,
        } => {
            let mut b = Map::new();
            if *figure != LateFigure::Message {
                b.insert("of".into(), json!(figure.as_str()));
            }
            put_filter(&mut b, f);
            put_bound(&mut b, *bound, true);
            ("lateness", b)
        }
        CheckKind::Depth {
            target,
            measure,
            at_ms,
            bound,
        } => {
            let mut b = Map::new();
            match target {
                DepthTarget::Queue(q) => b.insert("queue".into(), json!(q)),
                DepthTarget::Exchange(x) => b.insert("exchange".into(), json!(x)),
            };
            b.insert("of".into(), json!(measure.as_str()));
            if let Some(t) = at_ms {
                b.insert("at".into(), dur(*t));
            }
            put_bound(&mut b, *bound, false);
            ("depth", b)
        }
        CheckKind::Orders {
            figure,
            at_ms,
            bound,
        } => {
            let mut b = Map::new();
            b.insert("of".into(), json!(figure.as_str()));
            if let Some(t) = at_ms {
                b.insert("at".into(), dur(*t));
            }
            put_bound(&mut b, *bound, figure.is_duration());
            ("orders", b)
        }
    };
    m.insert(key.into(), Value::Object(body));
    Value::Object(m)
}

fn put_opt(m: &mut Map<String, Value>, key: &str, v: &Option<String>) {
    if let Some(v) = v {
        m.insert(key.into(), json!(v));
    }
}

fn put_filter(m: &mut Map<String, Value>, f: &Filter) {
    match &f.body {
        Some(BodyMatch::Exact(b)) => m.insert("body".into(), json!(b)),
        Some(BodyMatch::Pattern(p)) => m.insert("body_matches".into(), json!(p)),
        None => None,
    };
    put_opt(m, "queue", &f.queue);
    put_opt(m, "consumer", &f.consumer);
    if let Some(r) = &f.reason {
        m.insert("reason".into(), json!(r));
    }
    if let Some(c) = f.code {
        m.insert("code".into(), json!(c));
    }
    if let Some(h) = &f.headers {
        m.insert("headers".into(), Value::Object(h.clone()));
    }
}

fn put_window(m: &mut Map<String, Value>, w: Window) {
    match w {
        Window::Whole => {}
        Window::At(t) => {
            m.insert("at".into(), dur(t));
        }
        Window::By(t) => {
            m.insert("by".into(), dur(t));
        }
        Window::Within(a, b) => {
            m.insert("within".into(), json!([dur(a), dur(b)]));
        }
    }
}

fn put_bound(m: &mut Map<String, Value>, b: Bound, durations: bool) {
    let v = |x: u64| if durations { dur(x) } else { json!(x) };
    match b {
        Bound::Equals(x) => {
            m.insert("equals".into(), v(x));
        }
        Bound::Range { at_least, at_most } => {
            if let Some(a) = at_least {
                m.insert("at_least".into(), v(a));
            }
            if let Some(b) = at_most {
                m.insert("at_most".into(), v(b));
            }
        }
    }
}
