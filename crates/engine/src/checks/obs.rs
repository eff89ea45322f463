//! What the evaluator observes: one happening (a delivery, an enqueue, a dead-lettering,
//! a drop, a return, an error), with the names a check may filter on, from either
//! source: the simulation's events ([`Obs::of_event`]) or a live broker's replay result
//! (`checks::live`), which has names and bodies but no message ids.

use serde_json::Value;

use super::spec::Happening;
use crate::event::{Event, EventKind};
use crate::message::Message;
use crate::report::render;
use crate::sim::Sim;

/// One happening, borrowed from its source for the time it is looked at.
pub struct Obs<'a> {
    pub t_ms: u64,
    pub what: Happening,
    /// The simulation's message id (none on a live broker, or for a declaration's error).
    pub msg: Option<u32>,
    pub body: Option<&'a str>,
    pub queue: Option<&'a str>,
    pub consumer: Option<&'a str>,
    /// `dead_lettered`, `dropped`: why, as the run result names it.
    pub reason: Option<&'static str>,
    pub code: Option<u16>,
    /// A delivery's lateness so far (`crate::lateness`: the run result's `late_ms`);
    /// `None` on a live broker, which does not say when a message was due.
    pub late_ms: Option<u64>,
    /// A delivery's headers as the consumer sees them, built only when a check asks.
    pub headers: Headers<'a>,
}

pub enum Headers<'a> {
    None,
    /// Rendered as the run result renders them (`report::render::headers_counted`).
    Sim {
        msg: &'a Message,
        sim: &'a Sim,
        returns: u32,
        acquired: u32,
    },
    /// A replay result's delivery `headers`.
    Json(&'a Value),
}

impl Headers<'_> {
    pub fn value(&self) -> Value {
        match self {
            Headers::None => Value::Null,
            Headers::Sim {
                msg,
                sim,
                returns,
                acquired,
            } => render::headers_counted(msg, sim.symbols(), *returns, *acquired),
            Headers::Json(v) => (*v).clone(),
        }
    }
}

impl<'a> Obs<'a> {
    /// A happening at `t_ms` with nothing known of it yet.
    pub fn bare(t_ms: u64, what: Happening) -> Obs<'a> {
        Obs {
            t_ms,
            what,
            msg: None,
            body: None,
            queue: None,
            consumer: None,
            reason: None,
            code: None,
            late_ms: None,
            headers: Headers::None,
        }
    }

    /// The happening an engine event is, if it is one; `body_of` finds the body of a
    /// message the event names by id only.
    pub fn of_event(
        e: &'a Event,
        sim: &'a Sim,
        body_of: impl Fn(u32) -> Option<&'a str>,
    ) -> Option<Obs<'a>> {
        let syms = sim.symbols();
        let base = |what: Happening, msg: Option<u32>| Obs {
            msg,
            body: msg.and_then(&body_of),
            ..Obs::bare(e.t_ms, what)
        };
        Some(match &e.kind {
            EventKind::Delivered {
                msg,
                queue,
                consumer,
                returns,
                acquired,
                ..
            } => Obs {
                body: Some(&msg.body),
                queue: Some(syms.str(*queue)),
                consumer: consumer.map(|c| sim.consumers()[c.0 as usize].spec.name.as_str()),
                headers: Headers::Sim {
                    msg,
                    sim,
                    returns: *returns,
                    acquired: *acquired,
                },
                ..base(Happening::Delivered, Some(msg.id.0))
            },
            EventKind::Enqueued { msg, queue, .. } => Obs {
                queue: Some(syms.str(*queue)),
                ..base(Happening::Enqueued, Some(msg.0))
            },
            EventKind::DeadLettered {
                msg, queue, reason, ..
            } => Obs {
                queue: Some(syms.str(*queue)),
                reason: Some(reason.as_str()),
                ..base(Happening::DeadLettered, Some(msg.0))
            },
            EventKind::Dropped {
                msg, queue, reason, ..
            } => Obs {
                queue: queue.map(|q| syms.str(q)),
                reason: Some(reason.as_str()),
                ..base(Happening::Dropped, Some(msg.0))
            },
            EventKind::Returned { msg, code, .. } => Obs {
                code: Some(*code),
                ..base(Happening::Returned, Some(msg.0))
            },
            EventKind::Error { msg, code, .. } => Obs {
                code: Some(*code),
                ..base(Happening::Error, msg.map(|m| m.0))
            },
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::death::Reason;
    use crate::event::DropReason;
    use crate::scenario::checks::{DEAD_LETTER_REASONS, DROP_REASONS};

    /// The scenario layer lists the reasons a check may name; they are the sim's.
    #[test]
    fn the_reasons_a_check_names_are_the_runs() {
        use DropReason::*;
        let drops = [
            Expired,
            Rejected,
            Maxlen,
            DeliveryLimit,
            DlxMissing,
            DeadLetterCycle,
            RejectPublish,
            Unroutable,
            NodeLost,
            QueueDeleted,
            Purged,
            LostInStore,
            PluginRemoved,
        ];
        // A new DropReason must be added to `drops` (and to DROP_REASONS): this match says so.
        for d in drops {
            match d {
                Expired | Rejected | Maxlen | DeliveryLimit | DlxMissing | DeadLetterCycle
                | RejectPublish | Unroutable | NodeLost | QueueDeleted | Purged | LostInStore
                | PluginRemoved => {}
            }
        }
        assert_eq!(drops.map(DropReason::as_str), DROP_REASONS);
        let deaths = [
            Reason::Expired,
            Reason::Rejected,
            Reason::Maxlen,
            Reason::DeliveryLimit,
        ];
        for r in deaths {
            match r {
                Reason::Expired | Reason::Rejected | Reason::Maxlen | Reason::DeliveryLimit => {}
            }
        }
        assert_eq!(deaths.map(Reason::as_str), DEAD_LETTER_REASONS);
    }
}
