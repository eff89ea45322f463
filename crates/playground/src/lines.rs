//! Engine events as lines for people (the log, the inspector's steps): our words in the
//! UI language, RabbitMQ's names, codes and texts as RabbitMQ writes them; and the
//! short forms the views share (a body cut to fit, a span of time).

use delaylab_engine::cause::HeldBy;
use delaylab_engine::report::{render, text::clock};
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
    /// The run (`Track::run`) and the event's place in it: unique in the page.
    pub run: u64,
    pub seq: u64,
    pub t_ms: u64,
    /// The engine's kind name (`EventKind::name`): what the kind filter matches.
    pub kind: &'static str,
    /// The UI text key of its label: the kind's, or a finer one (`k_nacked` for a
    /// rejection sent as basic.nack).
    pub label: &'static str,
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
    let mut label = crate::i18n::kind_key(e.kind.name());
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
            held,
            ..
        } => {
            let mut d = format!("{} {}", w("l_via"), ex_name(syms.str(*via)));
            if let Some(h) = held {
                d.push_str(&format!(
                    ", {} {}",
                    w("l_held_time_until"),
                    clock(h.until_ms)
                ));
            }
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
            nack,
            ..
        } => {
            level = Level::Warn;
            if *nack {
                label = "k_nacked";
            }
            let method = if *nack { "basic.nack" } else { "basic.reject" };
            (
                s(*queue),
                format!("{} {method} requeue={requeue}", consumer(Some(*c))),
            )
        }
        EventKind::Requeued { queue, held, .. } => (
            s(*queue),
            held.map_or_else(String::new, |h| {
                format!("{} {}", w("l_held_until"), clock(h.until_ms))
            }),
        ),
        EventKind::Released {
            queue, by, late_ms, ..
        } => {
            let by = match by {
                HeldBy::DeliveryTime => w("l_released_time"),
                HeldBy::DelayedRetry => w("l_released_retry"),
            };
            let late = if *late_ms > 0 {
                format!(", {} {}", span(*late_ms), w("l_late"))
            } else {
                String::new()
            };
            (s(*queue), format!("{by}{late}"))
        }
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
        EventKind::ConsumerAttached { consumer: c, queue }
        | EventKind::ConsumerDetached { consumer: c, queue } => (s(*queue), consumer(Some(*c))),
        EventKind::ExchangeDeclared { exchange } => {
            let kind = sim
                .exchanges()
                .find(|x| x.name == *exchange)
                .map(|x| {
                    if x.delayed {
                        format!("x-delayed-message ({})", x.kind.as_str())
                    } else {
                        x.kind.as_str().to_string()
                    }
                })
                .unwrap_or_default();
            (ex_name(syms.str(*exchange)), kind)
        }
        EventKind::ExchangeDeleted { exchange } => (ex_name(syms.str(*exchange)), String::new()),
        EventKind::QueueDeclared { queue } => {
            let kind = sim
                .queues()
                .find(|q| q.name == *queue)
                .map(|q| if q.is_quorum() { "quorum" } else { "classic" })
                .unwrap_or_default();
            (s(*queue), kind.to_string())
        }
        EventKind::QueueDeleted { queue, expired } => (
            s(*queue),
            if *expired {
                format!("x-expires ({})", w("l_unused"))
            } else {
                String::new()
            },
        ),
        EventKind::Bound {
            source,
            destination,
            to_exchange,
            routing_key,
        }
        | EventKind::Unbound {
            source,
            destination,
            to_exchange,
            routing_key,
        } => (
            ex_name(syms.str(*source)),
            format!(
                "→ {}{} [{}]",
                if *to_exchange { "⇄ " } else { "" },
                s(*destination),
                s(*routing_key)
            ),
        ),
        EventKind::Purged { queue, count } => (s(*queue), format!("{count} {}", w("l_messages"))),
        EventKind::NodeDown { lost } => {
            level = Level::Bad;
            (
                String::new(),
                if *lost { w("l_node_lost") } else { "" }.to_string(),
            )
        }
        EventKind::NodeUp => (String::new(), String::new()),
        EventKind::BrokerUpgraded { from, to, text } => {
            level = Level::Warn;
            (format!("RabbitMQ {from} → {to}"), text.to_string())
        }
        EventKind::Order(o) => {
            // The lab's fields as "name value" pairs (its words are its own).
            let mut m = serde_json::Map::new();
            o.json_fields(&mut m);
            let d: Vec<String> = m
                .iter()
                .map(|(k, v)| match v {
                    serde_json::Value::String(t) => format!("{k} {t}"),
                    other => format!("{k} {other}"),
                })
                .collect();
            (String::new(), d.join(", "))
        }
    };
    LogLine {
        run: track.run,
        seq: entry.seq,
        t_ms: e.t_ms,
        kind: e.kind.name(),
        label,
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
