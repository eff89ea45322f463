//! Engine events as lines for people (the log, the inspector's steps): our words in the
//! UI language, RabbitMQ's names, codes and texts as RabbitMQ writes them; and the
//! short forms the views share (a body cut to fit, a span of time).

use delaylab_engine::report::{render, text::clock, trace};
use delaylab_engine::{EventKind, Sim};

use crate::i18n::{t, Lang};
use crate::track::{Entry, Track};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Info,
    Good,
    Warn,
    Bad,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    pub seq: u64,
    pub t_ms: u64,
    pub kind: &'static str,
    pub msg: Option<u32>,
    pub body: String,
    pub place: String,
    pub detail: String,
    pub level: Level,
}

pub fn ex_name(name: &str) -> String {
    if name.is_empty() {
        "(AMQP default)".to_string()
    } else {
        name.to_string()
    }
}

pub fn short(body: &str) -> String {
    if body.chars().count() <= 24 {
        body.to_string()
    } else {
        body.chars().take(22).collect::<String>() + "…"
    }
}

/// `m:ss.s` for short spans, `h:mm:ss` for long ones (countdowns, lateness).
pub fn span(ms: u64) -> String {
    if ms >= 3_600_000 {
        let s = ms / 1000;
        format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    } else {
        format!(
            "{}:{:02}.{}",
            ms / 60_000,
            (ms / 1000) % 60,
            (ms % 1000) / 100
        )
    }
}

/// Formats one kept event as a log line: our words (via, late, due...) in `lang`;
/// RabbitMQ's names, codes, texts and reasons as RabbitMQ writes them.
pub fn line(entry: &Entry, sim: &Sim, track: &Track, lang: Lang) -> LogLine {
    let w = |key| t(lang, key);
    let e = &entry.ev;
    let syms = sim.symbols();
    let s = |x| syms.str(x).to_string();
    let consumer = |c: Option<delaylab_engine::ids::ConsumerId>| {
        c.map_or(crate::node_id::BASIC_GET.to_string(), |c| {
            sim.consumers()[c.0 as usize].spec.name.clone()
        })
    };
    let id = e.kind.msg_id().map(|m| m.0);
    let mut level = Level::Info;
    let (place, detail): (String, String) = match &e.kind {
        EventKind::Published { msg, mandatory } => {
            let mut d = format!("[{}]", s(msg.routing_key()));
            if let Some(x) = msg.expiration {
                d.push_str(&format!(" expiration {}", x.text(syms)));
            }
            if let Some(x) = msg.headers.get("x-delay") {
                d.push_str(&format!(" x-delay {}", x.to_json()));
            }
            if *mandatory {
                d.push_str(" mandatory");
            }
            (ex_name(syms.str(msg.exchange)), d)
        }
        EventKind::Error {
            code, text, scope, ..
        } => {
            level = Level::Bad;
            (scope.as_str().to_string(), format!("{code} {text}"))
        }
        EventKind::Delayed {
            exchange, due_ms, ..
        } => (
            ex_name(syms.str(*exchange)),
            format!("{} {}", w("l_due"), clock(*due_ms)),
        ),
        EventKind::DelayDue {
            exchange, late_ms, ..
        } => {
            if *late_ms > 0 {
                level = Level::Warn;
            }
            (
                ex_name(syms.str(*exchange)),
                if *late_ms > 0 {
                    format!("{} {}", w("l_late"), clock(*late_ms))
                } else {
                    String::new()
                },
            )
        }
        EventKind::Enqueued {
            queue,
            via,
            expires_at_ms,
            ..
        } => {
            let mut d = format!("{} {}", w("l_via"), ex_name(syms.str(*via)));
            if let Some(at) = expires_at_ms {
                d.push_str(&format!(", {} {}", w("l_expires_at"), clock(*at)));
            }
            (s(*queue), d)
        }
        EventKind::Returned {
            exchange,
            routing_key,
            code,
            text,
            ..
        } => {
            level = Level::Bad;
            (
                ex_name(syms.str(*exchange)),
                format!("{code} {text} [{}]", s(*routing_key)),
            )
        }
        EventKind::Confirmed { ack, .. } => {
            if !ack {
                level = Level::Bad;
            }
            (
                String::new(),
                if *ack {
                    "basic.ack".into()
                } else {
                    "basic.nack".into()
                },
            )
        }
        EventKind::Expired { queue, late_ms, .. } => {
            if *late_ms > 0 {
                level = Level::Warn;
            }
            (
                s(*queue),
                if *late_ms > 0 {
                    format!("{} {}", w("l_late"), clock(*late_ms))
                } else {
                    String::new()
                },
            )
        }
        EventKind::DeadLettered {
            queue,
            reason,
            dlx,
            routing_keys,
            ..
        } => {
            let keys: Vec<String> = routing_keys.iter().map(|k| s(*k)).collect();
            (
                s(*queue),
                format!(
                    "{} → {} [{}]",
                    reason.as_str(),
                    ex_name(syms.str(*dlx)),
                    keys.join(", ")
                ),
            )
        }
        EventKind::Dropped { queue, reason, .. } => {
            level = Level::Bad;
            (
                queue.map(s).unwrap_or_default(),
                reason.as_str().to_string(),
            )
        }
        EventKind::Delivered {
            queue,
            consumer: c,
            redelivered,
            ..
        } => {
            level = Level::Good;
            let mut d = format!("→ {}", consumer(*c));
            if entry.late > 0 {
                d.push_str(&format!(", {} {}", w("l_late"), clock(entry.late)));
            }
            if *redelivered {
                d.push_str(", redelivered");
            }
            (s(*queue), d)
        }
        EventKind::Acked {
            queue, consumer: c, ..
        } => (s(*queue), consumer(*c)),
        EventKind::Rejected {
            queue,
            consumer: c,
            requeue,
            ..
        } => {
            level = Level::Warn;
            (
                s(*queue),
                format!("{} requeue={requeue}", consumer(Some(*c))),
            )
        }
        EventKind::Requeued { queue, .. } => (s(*queue), String::new()),
        EventKind::ConsumerTimedOut {
            queue,
            consumer: c,
            text,
            ..
        } => {
            // The engine's words say what the broker did (channel closed or consumer
            // cancelled) and why; the line only names where.
            level = Level::Bad;
            (s(*queue), format!("{}: {text}", consumer(Some(*c))))
        }
        EventKind::LimitReached { text } => {
            level = Level::Bad;
            (String::new(), text.to_string())
        }
        _ => {
            let mut v = trace::event_json(e, sim);
            if let Some(m) = v.as_object_mut() {
                m.remove("t_ms");
                m.remove("event");
            }
            (String::new(), v.to_string())
        }
    };
    LogLine {
        seq: entry.seq,
        t_ms: e.t_ms,
        kind: e.kind.name(),
        msg: id,
        body: id.map(|i| short(track.body(i))).unwrap_or_default(),
        place,
        detail,
        level,
    }
}

/// (properties, headers) as JSON text.
pub type PropsView = Option<(String, String)>;

/// (properties, headers) as JSON text, as published and as delivered, from a path.
pub fn message_views(steps: &[Entry], sim: &Sim) -> (PropsView, PropsView) {
    let syms = sim.symbols();
    let pretty = |v: serde_json::Value| serde_json::to_string_pretty(&v).unwrap_or_default();
    let mut published = None;
    let mut delivered = None;
    for s in steps {
        match &s.ev.kind {
            EventKind::Published { msg, .. } if published.is_none() => {
                published = Some((
                    pretty(render::properties(msg, syms)),
                    pretty(msg.headers.to_json()),
                ));
            }
            EventKind::Delivered { msg, returns, .. } => {
                delivered = Some((
                    pretty(render::properties(msg, syms)),
                    pretty(render::headers(msg, syms, *returns)),
                ));
            }
            _ => {}
        }
    }
    (published, delivered)
}
