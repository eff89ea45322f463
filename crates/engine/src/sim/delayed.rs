//! The delayed-message exchange at work: holding messages and releasing them when due.
//!
//! ```text
//! t=0    publish A x-delay 3000 (mandatory) -> Delayed(due 3000), Returned 312 at once,
//!                                             Confirmed ack at once
//! t=2000 a binding is added to the exchange
//! t=3000 A due: routed with the bindings of t=3000 -> Enqueued (TTL starts now)
//! ```
//! One store timer, for the earliest due time; everything due at the same instant goes
//! out in store order. While the node is down nothing goes out; when it starts again
//! the overdue messages go out at once, earliest first.

use std::num::NonZeroU32;
use std::rc::Rc;

use super::hold::Arrival;
use super::Sim;
use crate::cause::{DropCause, LateCause};
use crate::delayed::{ExchangeRecord, Stored};
use crate::event::{DropReason, EventKind};
use crate::message::Message;
use crate::timers::Timer;

impl Sim {
    /// `delay_ms` is positive (the plugin routes a message with no delay at once).
    pub(crate) fn store_delayed(&mut self, msg: Rc<Message>, rec: ExchangeRecord, delay_ms: u64) {
        let due_ms = self.now_ms().saturating_add(delay_ms);
        let copy = self.new_copy();
        self.emit(EventKind::Delayed {
            msg: msg.id,
            copy,
            exchange: rec.name,
            due_ms,
        });
        let delay =
            NonZeroU32::new(u32::try_from(delay_ms).unwrap_or(u32::MAX)).expect("a positive delay");
        self.plugin_insert();
        self.delayed.insert(due_ms, copy, msg, rec, delay);
        self.arm_delayed_timer();
    }

    pub(crate) fn arm_delayed_timer(&mut self) {
        if self.costs.is_some() {
            return self.arm_plugin_timer(); // one key per tick (`costs::plugin`)
        }
        let Some(due) = self.delayed.next_due_ms() else {
            return;
        };
        let at = due.max(self.now_ms());
        if self.delayed_timer_at_ms.is_none_or(|t| at < t) {
            self.delayed_timer_at_ms = Some(at);
            self.arm(at, Timer::DelayedDue);
        }
    }

    pub(crate) fn on_delayed_timer(&mut self) {
        if self.delayed_timer_at_ms == Some(self.now_ms()) {
            self.delayed_timer_at_ms = None;
        }
        if !self.node_up {
            return;
        }
        while let Some((due, copy, stored)) = self.delayed.pop_due(self.now_ms()) {
            self.release(due, copy, stored);
        }
        self.arm_delayed_timer();
    }

    pub(super) fn release(&mut self, due_ms: u64, copy: crate::ids::CopyId, stored: Stored) {
        let Stored {
            mut msg,
            exchange,
            delay_ms,
        } = stored;
        // Marked only now, so that storing it did not copy the message: by now the
        // store's reference is normally the only one, and this changes it in place.
        Rc::make_mut(&mut msg).delayed_by_ms = Some(delay_ms);
        let late_ms = self.now_ms() - due_ms;
        let late_cause = match late_ms {
            0 => LateCause::OnTime,
            _ => self.late_cause_at(due_ms),
        };
        self.emit(EventKind::DelayDue {
            msg: msg.id,
            copy,
            exchange: exchange.name,
            late_ms,
            late_cause,
        });
        self.end_copy();
        let routed = self.route_released(&exchange, &msg);
        if routed.queues.is_empty() {
            // One attempt, no return, no confirm: the message is simply gone.
            self.emit(EventKind::Dropped {
                msg: msg.id,
                copy: None,
                queue: None,
                reason: DropReason::Unroutable,
                why: DropCause::NoRoute {
                    exchange: exchange.name,
                },
            });
        }
        for t in &routed.queues {
            // The plugin delivers stateless (untracked): x-opt-delivery-time would not hold
            // it, were the plugin and a 4.4 quorum queue ever on one node (they are not).
            self.enqueue(
                t.queue,
                msg.clone(),
                exchange.name,
                &t.way,
                Arrival::Untracked,
            );
        }
        self.recycle(routed);
    }
}
