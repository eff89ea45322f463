//! Messages a quorum queue holds aside until a time: one mechanism, two causes
//! (`crate::cause::HeldBy`), as `rabbit_fifo` keeps both in one `#delayed{}` tree keyed
//! by (time, Raft index):
//!
//! - 4.3 delayed retry (D16, `sim/returns.rs`): a return held for
//!   `min(min x delivery count, max)`;
//! - 4.4 `x-opt-delivery-time` (D34): a message published with a time later than now is
//!   held from its arrival until then (`Profile::quorum_delivery_time`; the header's
//!   types in `amqp/delivery_time.rs`).
//!
//! While held, a message is in its queue (`Queue::hold`): counted toward
//! `x-max-length`/`x-max-length-bytes` (D38), purged and counted by `queue.purge`,
//! kept through a restart and the loss of a node as the rest of a quorum queue (D43);
//! but not ready: not delivered, left out of `basic.get` and `message_count` (D42), and
//! its TTL is not checked (D37). Each goes at its own time, ties in arrival order: no
//! head-of-line blocking between held messages. An exact timer (`{timer, expire_msgs,
//! NextTs, {abs, true}}`, not the 5 s tick; other traffic releases nothing) moves the
//! due ones to the back of the returns, served before the ready backlog
//! (`rabbit_fifo:expire_shallow/2`, `take_next_msg/1`); one whose TTL passed meanwhile
//! then expires at once, at the head (`Entry::away_at_ttl`). A message returned after
//! its release is not held again by its delivery time (D41: `return_one/8` reads only
//! the return's own annotations).
//!
//! Arrival paths (D40): a publish is a tracked enqueue and is held; at-most-once
//! dead-lettering is an untracked one (`rabbit_dead_letter:publish/5`, stateless), which
//! the branch enqueues ready at once; at-least-once dead-lettering (its worker publishes
//! tracked) is held again [inferred].
//!
//! Held messages alone over a drop-head limit (D39): `evaluate_limit0/4` calls
//! `drop_head/2` while over the limit, which finds no ready message, changes nothing,
//! and is called again: the queue's process loops forever. The simulation stops the run
//! there with [`LimitKind::QueueHang`], in words.
//!
//! ```text
//! 4.4, quorum queue q (consumer c), published at 0:00 with x-opt-delivery-time
//!   1800000, 300000, 10000:
//! 0:00   enqueued a, b, c: held until 30:00, 5:00, 0:10 (ready 0, held 3)
//! 0:10   released c (back of the returns), delivered to c
//! 5:00   released b, delivered
//! 30:00  released a, delivered
//! x-max-length 2, drop-head, a third held message: the queue hangs -> run stopped
//! ```

use super::Sim;
use crate::amqp::delivery_time::{held_until, read_delivery_time, DELIVERY_TIME_HEADER};
use crate::cause::{DeliveryTimeIgnored, HeldBy, Hold};
use crate::event::EventKind;
use crate::ids::QueueId;
use crate::limits::{queue_hang_text, LimitKind};
use crate::message::Message;
use crate::queue::{Away, Entry};
use crate::timers::Timer;

/// How a message reaches a queue, which decides whether `x-opt-delivery-time` holds it
/// (D40).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arrival {
    /// A client's publish: a tracked enqueue, held by its delivery time; a quorum
    /// queue's reject-publish refuses it (the client `rabbit_fifo_client` was told
    /// `{queue_status, reject_publish}` and rejects locally); a refused message is lost
    /// for the broker (the publisher gets a nack).
    Tracked,
    /// At-least-once dead-lettering's worker (`rabbit_fifo_dlx_worker`): tracked as a
    /// publish (held by its delivery time, refused as a publish is), but a refused
    /// letter stays in its source queue (`sim/dead_letter_retry.rs`).
    DeadLetterWorker,
    /// At-most-once dead-lettering, the delayed-message plugin's release: an untracked
    /// enqueue (`maybe_enqueue/8`'s first clause, "direct enqueue without tracking",
    /// `S@v3.10.8`; the same in 4.x), never held; a quorum queue appends it whatever
    /// its limit, so a full dead-letter queue with reject-publish keeps growing
    /// (rabbitmq-server #8495). A classic queue refuses it as any other
    /// (`rabbit_amqqueue_process` `maybe_deliver_or_enqueue/3`).
    Untracked,
}

/// What a message's `x-opt-delivery-time` does in the queue it enters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DeliveryTimeFate {
    /// No such header.
    Absent,
    Held(Hold),
    Ignored(DeliveryTimeIgnored),
}

impl DeliveryTimeFate {
    pub(crate) fn held(self) -> Option<Hold> {
        match self {
            DeliveryTimeFate::Held(h) => Some(h),
            _ => None,
        }
    }

    pub(crate) fn ignored(self) -> Option<DeliveryTimeIgnored> {
        match self {
            DeliveryTimeFate::Ignored(i) => Some(i),
            _ => None,
        }
    }
}

impl Sim {
    /// What `msg`'s `x-opt-delivery-time` does in queue `qid`, arriving now by
    /// `arrival` (D34, D35, D40): held until its time (4.4, quorum, tracked, later than
    /// now), or why not.
    pub(crate) fn delivery_time_fate(
        &self,
        qid: QueueId,
        msg: &Message,
        arrival: Arrival,
    ) -> DeliveryTimeFate {
        use DeliveryTimeFate::{Absent, Held, Ignored};
        if !msg.headers.contains_key(DELIVERY_TIME_HEADER) {
            return Absent;
        }
        if !self.profile.quorum_delivery_time {
            return Ignored(DeliveryTimeIgnored::OlderVersion);
        }
        if !self.queue(qid).is_some_and(|q| q.is_quorum()) {
            return Ignored(DeliveryTimeIgnored::ClassicQueue);
        }
        if arrival == Arrival::Untracked {
            return Ignored(DeliveryTimeIgnored::AtMostOnceDeadLetter);
        }
        // A decimal was refused at publish (541); on a dead-lettering path it reads as
        // not a time here.
        let Ok(Some(at_ms)) = read_delivery_time(&msg.headers) else {
            return Ignored(DeliveryTimeIgnored::NotATime);
        };
        match held_until(at_ms, self.now_ms()) {
            Some(until_ms) => Held(Hold {
                until_ms,
                by: HeldBy::DeliveryTime,
            }),
            None => Ignored(DeliveryTimeIgnored::NotLater),
        }
    }

    /// Holds `entry` aside in `qid` until `hold.until_ms` and arms the release.
    pub(crate) fn hold(&mut self, qid: QueueId, entry: Entry, hold: Hold) {
        let q = self.queue_mut(qid).expect("queue");
        q.hold(hold.until_ms, entry, hold.by);
        self.arm_hold_timer(qid);
    }

    /// Arms the release of the earliest held message of `qid` (one that fell due while
    /// the node was down: now).
    pub(crate) fn arm_hold_timer(&mut self, qid: QueueId) {
        let now = self.now_ms();
        let Some(q) = self.queue_mut(qid) else { return };
        let Some(at) = q.next_held_ms() else {
            q.hold_timer_at_ms = None;
            return;
        };
        let at = at.max(now);
        if q.hold_timer_at_ms != Some(at) {
            q.hold_timer_at_ms = Some(at);
            self.arm(at, Timer::HoldRelease(qid));
        }
    }

    /// The held messages whose time came go to the back of the returns (ahead of the
    /// ready messages), each with a `Released`; then head expiry and delivery.
    pub(crate) fn on_hold_timer(&mut self, qid: QueueId) {
        let now = self.now_ms();
        let Some(q) = self.queue_mut(qid) else { return };
        if q.hold_timer_at_ms != Some(now) {
            return; // stale
        }
        q.hold_timer_at_ms = None;
        if !self.node_up {
            return; // released when the node is back (`node_up_again` re-arms)
        }
        let qname = self.queue(qid).expect("queue").name;
        while let Some((due_ms, mut e)) = self.queue_mut(qid).expect("queue").pop_due_held(now) {
            let by = e.held_by.take().expect("a held message knows why");
            if e.away_at_ttl == Away::No && now >= e.expires_at_ms {
                e.away_at_ttl = Away::Held(by); // its TTL passed while held
            }
            let late_ms = now - due_ms;
            let late_cause = self.late_cause_at(due_ms);
            self.emit(EventKind::Released {
                msg: e.msg.id,
                copy: e.copy,
                queue: qname,
                by,
                late_ms,
                late_cause: if late_ms == 0 {
                    crate::cause::LateCause::OnTime
                } else {
                    late_cause
                },
            });
            self.queue_mut(qid).expect("queue").push_return(e);
        }
        self.arm_hold_timer(qid);
        self.expire_head(qid);
        self.try_deliver(qid);
    }

    /// drop-head over a limit with nothing ready to drop, only held messages: the
    /// broker's queue loops forever (D39). Stops the run and says so; false when there
    /// was something else to do.
    pub(crate) fn hang_if_only_held(&mut self, qid: QueueId) -> bool {
        let Some(q) = self.queue(qid) else {
            return false;
        };
        if q.held_len() == 0 || q.ready_len() > 0 {
            return false;
        }
        let (len, bytes) = q.len_for_limits();
        let limit = match (q.rules.max_length, q.rules.max_length_bytes) {
            (Some(m), _) if len > m => format!("x-max-length of {m}"),
            (_, Some(m)) => format!("x-max-length-bytes of {m} ({bytes} bytes)"),
            _ => "length limit".to_string(),
        };
        let text = queue_hang_text(self.syms.str(q.name), &limit, q.held_len());
        self.halt(LimitKind::QueueHang, text);
        true
    }
}
