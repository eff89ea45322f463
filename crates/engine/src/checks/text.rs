//! A check and its state in English words, for `delaylab test` and the JavaScript
//! package's `text`: what it expects, what the run showed, and the outcome in one line.
//! (The playground words them in its own languages from the typed state.)
//!
//! ```text
//! passed at 0:30:00.000
//! failed at 0:06:00.000: saw B delivered at 0:30:00.000; expected B delivered by 0:06:00.000
//! failed at 0:00:21.000: saw order-1 dead-lettered at 0:00:21.000; expected never: a message dead-lettered (reason delivery_limit)
//! ```

use super::spec::*;
use super::state::{CheckState, Seen, Status, Undecided};
use crate::report::text::clock;
use crate::scenario::duration::format_duration;

/// What the check expects.
pub fn expected(c: &Check) -> String {
    match &c.kind {
        CheckKind::Happens {
            what,
            filter,
            window,
            never,
        } => {
            let phrase = happening(*what, filter);
            let w = window_words(*window);
            if *never {
                format!("never: {phrase}{w}")
            } else {
                format!("{phrase}{w}")
            }
        }
        CheckKind::Count {
            what,
            filter,
            window,
            bound,
        } => {
            format!(
                "the number of times {}{}: {}",
                happening(*what, filter),
                window_words(*window),
                bound_words(*bound, false)
            )
        }
        CheckKind::Order {
            queue,
            consumer,
            bodies,
        } => format!(
            "first deliveries{} in the order {}",
            place(queue, consumer),
            bodies.join(", ")
        ),
        CheckKind::Lateness {
            filter,
            figure,
            bound,
        } => {
            let of = match (figure, &filter.body) {
                (LateFigure::Message, Some(b)) => b.text().to_string(),
                (_, Some(BodyMatch::Pattern(p))) => format!("messages matching {p:?}"),
                _ => "every delivery".to_string(),
            };
            let fig = match figure {
                LateFigure::Message => "lateness",
                LateFigure::Max => "max lateness",
                LateFigure::P50 => "p50 lateness",
                LateFigure::P99 => "p99 lateness",
            };
            format!(
                "{fig} of {of}{} {}",
                place(&filter.queue, &filter.consumer),
                bound_words(*bound, true)
            )
        }
        CheckKind::Depth {
            target,
            measure,
            at_ms,
            bound,
        } => {
            let what = match target {
                // On a queue, `delayed` counts what the quorum queue holds aside.
                DepthTarget::Queue(q) if *measure == DepthMeasure::Delayed => {
                    format!("held (delayed) messages in queue {q}")
                }
                DepthTarget::Queue(q) => format!("{} messages in queue {q}", measure.as_str()),
                DepthTarget::Exchange(x) => format!("messages held by exchange {x}"),
            };
            format!("{what} {} {}", at_words(*at_ms), bound_words(*bound, false))
        }
        CheckKind::Orders {
            figure,
            at_ms,
            bound,
        } => format!(
            "orders {} {} {}",
            figure.as_str(),
            at_words(*at_ms),
            bound_words(*bound, figure.is_duration())
        ),
    }
}

/// What the run showed (so far).
pub fn seen(c: &Check, s: &CheckState) -> String {
    let body = s.body.as_deref();
    match (&s.seen, &c.kind) {
        (Seen::Nothing, CheckKind::Happens { what, .. }) => format!("no {}", noun(*what)),
        (Seen::Nothing, CheckKind::Lateness { .. }) => "no delivery to measure".into(),
        (Seen::Nothing, _) => "nothing".into(),
        (Seen::At(t), CheckKind::Happens { what, .. }) => {
            format!(
                "{} {} at {}",
                body.unwrap_or("a message"),
                verb(*what),
                clock(*t)
            )
        }
        (Seen::At(t), _) => format!("at {}", clock(*t)),
        (Seen::OtherHeaders(t), _) => format!(
            "{} delivered at {} without those headers",
            body.unwrap_or("a message"),
            clock(*t)
        ),
        (Seen::Count(n), _) => n.to_string(),
        (Seen::Duration(ms), _) => match body {
            Some(b) => format!("{} ({b})", format_duration(*ms)),
            None => format_duration(*ms),
        },
        (Seen::Order { position, got }, CheckKind::Order { bodies, .. }) => match got {
            Some(g) => format!(
                "delivery {} was {g}, not {}",
                position + 1,
                bodies.get(*position).map_or("?", String::as_str)
            ),
            None => format!("only the first {position} of {} came", bodies.len()),
        },
        (Seen::Order { .. }, _) => "out of order".into(),
        (Seen::Missing, _) => "no such queue or exchange then".into(),
    }
}

/// The outcome in one line.
pub fn outcome(c: &Check, s: &CheckState) -> String {
    match s.status {
        Status::Pending => format!("pending: expected {}", expected(c)),
        Status::Passed => format!("passed at {}", clock(s.at_ms.unwrap_or(0))),
        Status::Failed => {
            let mut line = format!(
                "failed at {}: saw {}; expected {}",
                clock(s.at_ms.unwrap_or(0)),
                seen(c, s),
                expected(c)
            );
            if let Some(id) = s.msg {
                line.push_str(&format!(" (message #{id}"));
                if let Some(b) = &s.body {
                    line.push_str(&format!(", {b}"));
                }
                line.push(')');
            }
            line
        }
        Status::Undecided => format!(
            "cannot be decided: {}",
            s.undecided.as_ref().map_or(String::new(), undecided)
        ),
    }
}

pub fn undecided(u: &Undecided) -> String {
    match u {
        Undecided::Live(why) => format!("on a live broker, {why}"),
        Undecided::NotReplayable(why) => format!("the scenario cannot run on a live broker: {why}"),
        Undecided::RunStopped { at_ms } => {
            format!("the run stopped on a limit at {}", clock(*at_ms))
        }
        Undecided::MissedStop { at_ms } => format!(
            "the run did not stop at {} to read the broker",
            clock(*at_ms)
        ),
    }
}

fn happening(what: Happening, f: &Filter) -> String {
    let subject = match &f.body {
        Some(BodyMatch::Exact(b)) => b.clone(),
        Some(BodyMatch::Pattern(p)) => format!("a message matching {p:?}"),
        None if what == Happening::Error => "an error".into(),
        None => "a message".into(),
    };
    let mut out = if what == Happening::Error {
        if f.body.is_some() {
            format!("an error on publishing {subject}")
        } else {
            subject
        }
    } else {
        format!("{subject} {}", verb(what))
    };
    if let Some(q) = &f.queue {
        let prep = match what {
            Happening::Delivered => "from",
            Happening::Enqueued => "into",
            _ => "out of",
        };
        out.push_str(&format!(" {prep} queue {q}"));
    }
    if let Some(c) = &f.consumer {
        out.push_str(&format!(" to consumer {c}"));
    }
    if let Some(r) = &f.reason {
        out.push_str(&format!(" (reason {r})"));
    }
    if let Some(code) = f.code {
        out.push_str(&format!(" (code {code})"));
    }
    if let Some(h) = &f.headers {
        out.push_str(&format!(
            " with headers {}",
            serde_json::Value::Object(h.clone())
        ));
    }
    out
}

fn verb(what: Happening) -> &'static str {
    match what {
        Happening::Delivered => "delivered",
        Happening::Enqueued => "enqueued",
        Happening::DeadLettered => "dead-lettered",
        Happening::Dropped => "dropped",
        Happening::Returned => "returned",
        Happening::Error => "raised",
    }
}

fn noun(what: Happening) -> &'static str {
    match what {
        Happening::Delivered => "such delivery",
        Happening::Enqueued => "such enqueue",
        Happening::DeadLettered => "such dead-lettering",
        Happening::Dropped => "such drop",
        Happening::Returned => "such return",
        Happening::Error => "such error",
    }
}

fn place(queue: &Option<String>, consumer: &Option<String>) -> String {
    let mut out = String::new();
    if let Some(q) = queue {
        out.push_str(&format!(" from queue {q}"));
    }
    if let Some(c) = consumer {
        out.push_str(&format!(" to consumer {c}"));
    }
    out
}

fn window_words(w: Window) -> String {
    match w {
        Window::Whole => String::new(),
        Window::At(t) => format!(" at {}", clock(t)),
        Window::By(t) => format!(" by {}", clock(t)),
        Window::Within(a, b) => format!(" between {} and {}", clock(a), clock(b)),
    }
}

fn at_words(at_ms: Option<u64>) -> String {
    match at_ms {
        Some(t) => format!("at {}", clock(t)),
        None => "at the end".into(),
    }
}

pub fn bound_words(b: Bound, durations: bool) -> String {
    let v = |x: u64| {
        if durations {
            format_duration(x)
        } else {
            x.to_string()
        }
    };
    match b {
        Bound::Equals(x) => format!("exactly {}", v(x)),
        Bound::Range {
            at_least: Some(a),
            at_most: Some(m),
        } => format!("from {} to {}", v(a), v(m)),
        Bound::Range {
            at_least: Some(a), ..
        } => format!("at least {}", v(a)),
        Bound::Range {
            at_most: Some(m), ..
        } => format!("at most {}", v(m)),
        Bound::Range { .. } => "anything".into(),
    }
}
