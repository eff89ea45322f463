//! The timeline for people (`delaylab run --format text`).
//!
//! ```text
//! Head-of-line blocking
//!   0:00:00.000  publish     #1 "A" -> order.delay.exchange [order.create] expiration 1800000
//!   0:00:00.000  enqueue     #1 in order.delay.queue, expires at 0:30:00.000
//!   0:30:00.000  expire      #2 from order.delay.queue, 0:24:00.000 late
//!   0:30:00.000  deliver     #2 "B" from order.dlx.queue to closer (0:24:00.000 late)
//! ```
//! Long runs print the first `MAX_LINES` events, then a summary.

use std::fmt::Write;

use crate::event::{Event, EventKind};
use crate::sim::Sim;

pub const MAX_LINES: usize = 400;

/// The clock format lives with the durations (the sim prints it too); kept here as well
/// because the playground's and the app's many views import it from this path.
pub use crate::scenario::duration::clock;

/// One line for an event, or None for events not worth a line (confirms, declares).
pub fn line(e: &Event, sim: &Sim) -> Option<String> {
    let s = |x| sim.symbols().str(x).to_string();
    let who = |c: Option<crate::ids::ConsumerId>| {
        c.map_or("basic.get".to_string(), |c| {
            sim.consumers()[c.0 as usize].spec.name.clone()
        })
    };
    let text = match &e.kind {
        EventKind::Published { msg, mandatory } => {
            let mut t = format!(
                "publish     #{} {:?} -> {} [{}]",
                msg.id.0,
                short(&msg.body),
                show_x(&s(msg.exchange)),
                s(msg.routing_key())
            );
            if let Some(x) = msg.expiration {
                let _ = write!(t, " expiration {}", x.text(sim.symbols()));
            }
            for h in ["x-delay", crate::amqp::delivery_time::DELIVERY_TIME_HEADER] {
                if let Some(d) = msg.headers.get(h) {
                    let _ = write!(t, " {h} {}", d.to_json());
                }
            }
            if *mandatory {
                t.push_str(" mandatory");
            }
            t
        }
        EventKind::Error {
            code, text, scope, ..
        } => format!("ERROR       {code} {text} ({} closed)", scope.as_str()),
        EventKind::Delayed {
            msg,
            exchange,
            due_ms,
            ..
        } => format!(
            "delay       #{} in {} until {}",
            msg.0,
            s(*exchange),
            clock(*due_ms)
        ),
        EventKind::DelayDue {
            msg,
            exchange,
            late_ms,
            ..
        } => format!(
            "delay due   #{} from {}{}",
            msg.0,
            s(*exchange),
            late(*late_ms)
        ),
        EventKind::Enqueued {
            msg,
            queue,
            expires_at_ms,
            held,
            ..
        } => {
            let mut t = format!("enqueue     #{} in {}", msg.0, s(*queue));
            if let Some(h) = held {
                let _ = write!(t, ", {}", held_words(h));
            }
            if let Some(at) = expires_at_ms {
                let _ = write!(t, ", expires at {}", clock(*at));
            }
            t
        }
        EventKind::Returned {
            msg, code, text, ..
        } => format!("return      #{} {code} {text}", msg.0),
        EventKind::Confirmed { msg, ack: false } => format!("nack        #{}", msg.0),
        EventKind::Expired {
            msg,
            queue,
            late_ms,
            ..
        } => format!(
            "expire      #{} from {}{}",
            msg.0,
            s(*queue),
            late(*late_ms)
        ),
        EventKind::DeadLettered {
            msg,
            reason,
            dlx,
            routing_keys,
            ..
        } => {
            let keys: Vec<String> = routing_keys.iter().map(|k| s(*k)).collect();
            format!(
                "dead-letter #{} ({}) -> {} [{}]",
                msg.0,
                reason.as_str(),
                show_x(&s(*dlx)),
                keys.join(", ")
            )
        }
        EventKind::Dropped {
            msg, queue, reason, ..
        } => match queue {
            Some(q) => format!("DROP        #{} in {} ({})", msg.0, s(*q), reason.as_str()),
            None => format!("DROP        #{} ({})", msg.0, reason.as_str()),
        },
        EventKind::Delivered {
            msg,
            queue,
            consumer,
            redelivered,
            ..
        } => {
            format!(
                "deliver     #{} {:?} from {} to {}{}",
                msg.id.0,
                short(&msg.body),
                s(*queue),
                who(*consumer),
                if *redelivered { " (redelivered)" } else { "" }
            )
        }
        EventKind::Rejected { msg, requeue, .. } => format!(
            "{}      #{}",
            if *requeue { "nack  " } else { "reject" },
            msg.0
        ),
        EventKind::Requeued {
            msg, queue, held, ..
        } => match held {
            Some(h) => format!("requeue     #{} to {}, {}", msg.0, s(*queue), held_words(h)),
            None => format!("requeue     #{} to {}", msg.0, s(*queue)),
        },
        EventKind::Released {
            msg,
            queue,
            by,
            late_ms,
            ..
        } => format!(
            "release     #{} in {} (held by {}){}",
            msg.0,
            s(*queue),
            held_by_words(*by),
            late(*late_ms)
        ),
        EventKind::ConsumerAttached { consumer, queue } => {
            format!("consume     {} on {}", who(Some(*consumer)), s(*queue))
        }
        EventKind::ConsumerDetached { consumer, queue } => {
            format!("cancel      {} on {}", who(Some(*consumer)), s(*queue))
        }
        EventKind::QueueDeleted { queue, expired } => format!(
            "delete      queue {}{}",
            s(*queue),
            if *expired { " (x-expires)" } else { "" }
        ),
        EventKind::Purged { queue, count } => {
            format!("purge       {} ({count} messages)", s(*queue))
        }
        EventKind::NodeDown { lost } => {
            if *lost {
                "NODE LOST".to_string()
            } else {
                "node down (restart)".to_string()
            }
        }
        EventKind::NodeUp => "node up".to_string(),
        EventKind::BrokerUpgraded { text, .. } => format!("UPGRADE     {text}"),
        EventKind::ConsumerTimedOut { text, .. } => format!("TIMEOUT     {text}"),
        EventKind::LimitReached { text } => format!("STOPPED     {text}"),
        EventKind::Order(o) => o.text(clock),
        _ => return None,
    };
    Some(format!("  {}  {}", clock(e.t_ms), text))
}

/// "held by x-opt-delivery-time until 0:30:00.000".
fn held_words(h: &crate::cause::Hold) -> String {
    format!(
        "held by {} until {}",
        held_by_words(h.by),
        clock(h.until_ms)
    )
}

fn held_by_words(by: crate::cause::HeldBy) -> &'static str {
    match by {
        crate::cause::HeldBy::DeliveryTime => "x-opt-delivery-time",
        crate::cause::HeldBy::DelayedRetry => "delayed retry",
    }
}

fn late(ms: u64) -> String {
    if ms == 0 {
        String::new()
    } else {
        format!(", {} late", clock(ms))
    }
}

fn show_x(name: &str) -> String {
    if name.is_empty() {
        "(default exchange)".to_string()
    } else {
        name.to_string()
    }
}

fn short(body: &str) -> String {
    if body.chars().count() <= 40 {
        body.to_string()
    } else {
        body.chars().take(37).collect::<String>() + "..."
    }
}

/// The summary block after the timeline, from the JSON result.
pub fn summary(result: &serde_json::Value) -> String {
    let mut out = String::new();
    let n = |k: &str| result[k].as_array().map_or(0, |a| a.len());
    let _ = writeln!(
        out,
        "\n{} deliveries, {} dropped, {} returned, {} errors",
        n("deliveries"),
        n("dropped"),
        n("returned"),
        n("errors")
    );
    let l = &result["lateness_ms"];
    if l["count"].as_u64().unwrap_or(0) > 0 {
        let _ = writeln!(
            out,
            "lateness: mean {}, p99 {}, max {}",
            clock(l["mean"].as_f64().unwrap_or(0.0) as u64),
            clock(l["p99"].as_u64().unwrap_or(0)),
            clock(l["max"].as_u64().unwrap_or(0))
        );
    }
    let mut reasons: std::collections::BTreeMap<&str, u64> = Default::default();
    for d in result["dropped"].as_array().into_iter().flatten() {
        *reasons
            .entry(d["reason"].as_str().unwrap_or("?"))
            .or_default() += 1;
    }
    for (r, c) in reasons {
        let _ = writeln!(out, "dropped ({r}): {c}");
    }
    if let Some(qs) = result["final"]["queues"].as_object() {
        for (q, v) in qs {
            let _ = write!(
                out,
                "queue {q}: {} ready, {} unacked",
                v["ready"], v["unacked"]
            );
            if let Some(held) = v.get("held") {
                let _ = write!(out, ", {held} held");
            }
            out.push('\n');
        }
    }
    if let Some(xs) = result["final"]["delayed"].as_object() {
        for (x, v) in xs {
            let _ = writeln!(out, "delayed exchange {x}: {v} messages_delayed");
        }
    }
    for note in result["not_simulated"].as_array().into_iter().flatten() {
        let _ = writeln!(out, "not simulated: {}", note.as_str().unwrap_or_default());
    }
    if result["orders"].is_object() {
        out.push_str(&crate::orders::outcome::summary_text(
            &result["orders"],
            clock,
        ));
    }
    if let Some(l) = result["limit_reached"].as_str() {
        let _ = writeln!(out, "STOPPED by a limit: {l}");
    }
    out
}
