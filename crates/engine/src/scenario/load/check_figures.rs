//! The checks that compare a figure with a bound (`count`, `order`, `lateness`, `depth`,
//! `orders`): their fields, the bound (`equals`, `at_least`, `at_most`) and the time a
//! figure is read at. The list, the names and the happenings they select are `checks`.

use super::checks::{
    body_match, consumer_ref, filter, happening_keys, queue_ref, window, Names, WINDOW_KEYS,
};
use super::errors::{expected, fail, index, R};
use super::json::{duration, uint, Obj};
use super::limits::*;
use crate::scenario::checks::*;
use serde_json::Value;

const BOUND_KEYS: &[&str] = &["equals", "at_least", "at_most"];

/// `equals`, or `at_least` and/or `at_most`: counts, or durations when `durations`.
fn bound(o: &Obj, durations: bool) -> R<Bound> {
    let read = |k: &str| -> R<Option<u64>> {
        match o.get(k) {
            None => Ok(None),
            Some(v) if durations => duration(v, &o.p(k)).map(Some),
            Some(v) => uint(v, &o.p(k), u64::MAX).map(Some),
        }
    };
    let (equals, at_least, at_most) = (read("equals")?, read("at_least")?, read("at_most")?);
    match (equals, at_least, at_most) {
        (Some(x), None, None) => Ok(Bound::Equals(x)),
        (Some(_), _, _) => fail(
            o.p("equals"),
            "give equals alone, or at_least and/or at_most",
        ),
        (None, None, None) => fail(o.path.clone(), "needs a bound: equals, at_least or at_most"),
        (None, Some(a), Some(b)) if a > b => fail(
            o.p("at_most"),
            "at_most is below at_least: no figure can hold",
        ),
        (None, at_least, at_most) => Ok(Bound::Range { at_least, at_most }),
    }
}

pub(super) fn count(o: &Obj, names: &Names) -> R<CheckKind> {
    let path = o.p("of");
    let of = o.str_req("of")?;
    let Some(what) = Happening::parse(&of) else {
        let all: Vec<&str> = Happening::ALL.iter().map(|h| h.as_str()).collect();
        return fail(
            path,
            format!(
                "unknown happening {of:?}; expected one of {}",
                all.join(", ")
            ),
        );
    };
    let mut keys = vec!["of"];
    keys.extend(happening_keys(what));
    keys.extend_from_slice(WINDOW_KEYS);
    keys.extend_from_slice(BOUND_KEYS);
    o.check_keys(&keys)?;
    Ok(CheckKind::Count {
        what,
        filter: filter(o, what, names)?,
        window: window(o, names)?,
        bound: bound(o, false)?,
    })
}

pub(super) fn order(o: &Obj, names: &Names) -> R<CheckKind> {
    o.check_keys(&["bodies", "queue", "consumer"])?;
    let path = o.p("bodies");
    let items = o.array("bodies")?;
    if items.len() < 2 || items.len() > MAX_ORDER_BODIES {
        return fail(
            path,
            format!("an order lists 2 to {MAX_ORDER_BODIES} bodies (MAX_ORDER_BODIES)"),
        );
    }
    let mut bodies = Vec::with_capacity(items.len());
    for (i, v) in items.iter().enumerate() {
        match v.as_str() {
            Some(b) if b.len() <= MAX_BODY_BYTES => bodies.push(b.to_string()),
            Some(_) => return fail(index(&path, i), "longer than MAX_BODY_BYTES"),
            None => return fail(index(&path, i), expected("a body (a string)", v)),
        }
    }
    Ok(CheckKind::Order {
        queue: queue_ref(o, names)?,
        consumer: consumer_ref(o, names)?,
        bodies,
    })
}

pub(super) fn lateness(o: &Obj, names: &Names) -> R<CheckKind> {
    let mut keys = vec!["body", "of", "body_matches", "queue", "consumer"];
    keys.extend_from_slice(BOUND_KEYS);
    o.check_keys(&keys)?;
    let figure =
        match (o.get("body"), o.str_opt("of")?) {
            (Some(_), Some(_)) => return fail(
                o.p("of"),
                "give body (one message's lateness) or of (a figure of every delivery's), not both",
            ),
            (Some(_), None) => {
                if o.get("body_matches").is_some() {
                    return fail(o.p("body_matches"), "a pattern goes with of, not with body");
                }
                LateFigure::Message
            }
            (None, Some(of)) => match LateFigure::OF.into_iter().find(|f| f.as_str() == of) {
                Some(f) => f,
                None => {
                    return fail(
                        o.p("of"),
                        format!("unknown figure {of:?}; expected max, p50 or p99"),
                    )
                }
            },
            (None, None) => {
                return fail(
                    o.path.clone(),
                    "needs body (one message) or of (max, p50 or p99 of every delivery)",
                )
            }
        };
    Ok(CheckKind::Lateness {
        filter: Filter {
            body: body_match(o)?,
            queue: queue_ref(o, names)?,
            consumer: consumer_ref(o, names)?,
            ..Filter::default()
        },
        figure,
        bound: bound(o, true)?,
    })
}

pub(super) fn depth(o: &Obj, names: &Names) -> R<CheckKind> {
    let mut keys = vec!["queue", "exchange", "of", "at"];
    keys.extend_from_slice(BOUND_KEYS);
    o.check_keys(&keys)?;
    let of = o.str_req("of")?;
    let Some(measure) = DepthMeasure::ALL.into_iter().find(|m| m.as_str() == of) else {
        return fail(
            o.p("of"),
            format!(
                "unknown measure {of:?}; expected ready, unacked, overdue, delayed or dead_letters"
            ),
        );
    };
    let target = match (o.str_opt("queue")?, o.str_opt("exchange")?) {
        (Some(_), Some(_)) => return fail(o.p("exchange"), "give queue or exchange, not both"),
        (Some(_), None) => DepthTarget::Queue(queue_ref(o, names)?.expect("present")),
        (None, Some(x)) => {
            if !names.has_exchange(&x) {
                return fail(
                    o.p("exchange"),
                    format!(
                        "the scenario has no exchange {} (in topology or a declare action)",
                        Value::String(x)
                    ),
                );
            }
            if measure != DepthMeasure::Delayed {
                return fail(
                    o.p("of"),
                    "an exchange holds no queue: only \"delayed\" (a delayed exchange's store) applies",
                );
            }
            DepthTarget::Exchange(x)
        }
        (None, None) => return fail(o.path.clone(), "needs queue or exchange"),
    };
    Ok(CheckKind::Depth {
        target,
        measure,
        at_ms: at_opt(o, names)?,
        bound: bound(o, false)?,
    })
}

pub(super) fn orders(o: &Obj, names: &Names) -> R<CheckKind> {
    let mut keys = vec!["of", "at"];
    keys.extend_from_slice(BOUND_KEYS);
    o.check_keys(&keys)?;
    if !names.has_orders_lab() {
        return fail(
            o.path.clone(),
            "the scenario has no order lab (orders) to count",
        );
    }
    let of = o.str_req("of")?;
    let Some(figure) = OrdersFigure::parse(&of) else {
        let all: Vec<&str> = OrdersFigure::ALL.iter().map(|f| f.as_str()).collect();
        return fail(
            o.p("of"),
            format!("unknown figure {of:?}; expected one of {}", all.join(", ")),
        );
    };
    Ok(CheckKind::Orders {
        figure,
        at_ms: at_opt(o, names)?,
        bound: bound(o, figure.is_duration())?,
    })
}

fn at_opt(o: &Obj, names: &Names) -> R<Option<u64>> {
    match o.get("at") {
        None => Ok(None),
        Some(v) => names.time(o, "at", v).map(Some),
    }
}
