//! A message arriving at a queue (rabbit_amqqueue_process:deliver_or_enqueue/3).
//!
//! In order:
//! 1. overflow `reject-publish[-dlx]`: refuse if one more would exceed a limit (checked
//!    before anything else, so `x-max-length: 0` refuses even with a consumer waiting;
//!    a quorum queue rejects from the publish after the one that went over, until back
//!    at 80 %);
//! 2. 4.4 quorum queues: a future `x-opt-delivery-time` holds it aside (`sim/hold.rs`):
//!    no direct delivery, TTL fixed from now as below, counted by the limits of step 5;
//! 3. direct delivery: a consumer with capacity takes it at once, TTL plays no part;
//! 4. queue TTL 0 and no DLX: discarded without being enqueued;
//! 5. enqueue with expiry = now + min(queue TTL, message TTL), fixed from now on
//!    (quorum queues: TTL 0 becomes 1 ms);
//! 6. drop-head: while over a limit, the head is dead-lettered as `maxlen` (held
//!    messages count but are never dropped; only held ones over the limit: the queue
//!    hangs, D39);
//! 7. expired messages at the head leave; the head timer is armed.
//!
//! ```text
//! x-max-length 2, drop-head: publish n1 n2 n3 n4 -> queue [n3 n4], DLQ [n1 n2]
//! ```
//!
//! `Enqueued` names its cause (`crate::cause::Admission`): the routing's way in and
//! where the TTL of step 4 came from; a refusal or a drop-head names the limit it hit.

use std::rc::Rc;

use super::hold::Arrival;
use super::route::Way;
use super::Sim;
use crate::cause::{Admission, DropCause, LimitHit, TtlFrom};
use crate::death::Reason;
use crate::event::{DropReason, EventKind};
use crate::ids::{MsgId, QueueId};
use crate::message::Message;
use crate::queue::{Entry, Overflow, Queue, NEVER};
use crate::sym::Sym;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Accepted {
    Yes,
    /// reject-publish: the publisher gets a nack.
    Refused,
}

impl Sim {
    /// Delivers `msg` (arriving through exchange `via`, routed by `way`, by `arrival`)
    /// to queue `qid`.
    pub(crate) fn enqueue(
        &mut self,
        qid: QueueId,
        msg: Rc<Message>,
        via: Sym,
        way: &Way,
        arrival: Arrival,
    ) -> Accepted {
        let Some(q) = self.queue(qid) else {
            return Accepted::Yes;
        };
        let qname = q.name;
        // An untracked arrival skips a quorum queue's reject-publish (see `Arrival`).
        let untracked = arrival == Arrival::Untracked && q.is_quorum();
        self.note_quorum_limit(qid); // the state the last command left (evaluate_limit)
        if !untracked && self.refuses(qid, msg.body_bytes()) {
            if arrival == Arrival::DeadLetterWorker {
                return Accepted::Refused; // the worker keeps it
            }
            return self.refuse(qid, msg);
        }
        let (expires_at_ms, ttl) = self.expiry_for(qid, &msg);
        let fate = self.delivery_time_fate(qid, &msg, arrival);
        let held = fate.held();
        let copy = self.new_copy();
        let mut why = admission(way, ttl);
        why.delivery_time = fate.ignored();
        self.emit(EventKind::Enqueued {
            msg: msg.id,
            copy,
            queue: qname,
            via,
            expires_at_ms: (expires_at_ms != NEVER).then_some(expires_at_ms),
            held,
            why,
        });
        self.charge_arrival(qid);
        // D30 (4.0+): a quorum queue starts a dead letter with the failed-delivery count
        // it carries (`rabbit_fifo:maybe_set_msg_delivery_count/2`); delivered, it shows
        // as acquired that often too (`rabbit_fifo_client:add_delivery_count_header/2`:
        // "a delivery count but no acquired count") and as redelivered.
        let carried = match (&msg.deaths, self.queue(qid).is_some_and(|q| q.is_quorum())) {
            (Some(d), true) if self.profile.dead_letter_keeps_delivery_count => d.delivery_count,
            _ => 0,
        };
        let entry = Entry {
            copy,
            msg,
            expires_at_ms,
            redelivered: carried > 0,
            returns: carried,
            failed: carried,
            away_at_ttl: crate::queue::Away::No,
            held_by: None,
        };
        if let Some(hold) = held {
            let by = entry.msg.id;
            self.hold(qid, entry, hold);
            self.drop_head_while_over(qid, Some(by));
            self.note_quorum_limit(qid);
            return Accepted::Yes;
        }
        let Err(entry) = self.deliver_direct(qid, entry) else {
            return Accepted::Yes;
        };
        if self.discards_at_once(qid) {
            self.emit(EventKind::Dropped {
                msg: entry.msg.id,
                copy: Some(copy),
                queue: Some(qname),
                reason: DropReason::Expired,
                why: DropCause::NoDlx,
            });
            self.end_copy();
            return Accepted::Yes;
        }
        let by = entry.msg.id;
        let q = self.queue_mut(qid).expect("queue exists");
        q.push_back(entry);
        self.drop_head_while_over(qid, Some(by));
        self.expire_head(qid);
        self.note_quorum_limit(qid);
        Accepted::Yes
    }

    /// reject-publish: would this message overflow the queue? Quorum queues instead
    /// reject once over the limit, until back at 80 % (they overshoot by design).
    fn refuses(&self, qid: QueueId, bytes: u64) -> bool {
        let q = self.queue(qid).expect("queue exists");
        match q.rules.overflow {
            Overflow::DropHead => false,
            _ if q.is_quorum() => q.rejecting,
            _ => q.would_overflow(bytes),
        }
    }

    fn refuse(&mut self, qid: QueueId, msg: Rc<Message>) -> Accepted {
        let q = self.queue(qid).expect("queue exists");
        let (qname, overflow) = (q.name, q.rules.overflow);
        let limit = length_limit(q, 1, msg.body_bytes(), Some(msg.id));
        if overflow == Overflow::RejectPublishDlx {
            self.dead_letter(qid, msg, Reason::Maxlen, None, Some(limit), 0);
        } else {
            self.emit(EventKind::Dropped {
                msg: msg.id,
                copy: None,
                queue: Some(qname),
                reason: DropReason::RejectPublish,
                why: DropCause::Limit(Box::new(limit)),
            });
        }
        Accepted::Refused
    }

    /// Expiry time for a message entering `qid` now, and where its TTL came from.
    fn expiry_for(&self, qid: QueueId, msg: &Message) -> (u64, Ttl) {
        let q = self.queue(qid).expect("queue exists");
        let (queue_ttl, msg_ttl) = (q.rules.message_ttl_ms.unwrap_or(NEVER), msg.ttl_ms());
        let from = match (queue_ttl != NEVER, msg_ttl != NEVER) {
            (false, false) => return (NEVER, Ttl::None),
            (true, false) => Ttl::Queue,
            (false, true) => Ttl::Message,
            (true, true) => Ttl::Both(queue_ttl, msg_ttl),
        };
        let ttl = queue_ttl.min(msg_ttl);
        // rabbit_fifo: "we discard the message if it cannot be consumed within the same
        // millisecond", so a quorum queue's TTL 0 is 1 ms.
        let ttl = if q.is_quorum() { ttl.max(1) } else { ttl };
        (self.now_ms().saturating_add(ttl), from)
    }

    /// Classic queue with queue TTL 0 and no DLX: the optimisation that discards an
    /// undeliverable message without enqueuing it.
    fn discards_at_once(&self, qid: QueueId) -> bool {
        let q = self.queue(qid).expect("queue exists");
        !q.is_quorum() && q.rules.message_ttl_ms == Some(0) && q.rules.dlx.is_none()
    }

    /// drop-head (the default overflow): dead-letter heads as `maxlen` while over a limit
    /// (`by`: the message whose arrival put the queue over it).
    pub(crate) fn drop_head_while_over(&mut self, qid: QueueId, by: Option<MsgId>) {
        loop {
            let Some(q) = self.queue_mut(qid) else { return };
            // Quorum queues have no reject-publish-dlx: its rules already fell back to
            // drop-head (rabbit_quorum_queue:overflow/3).
            if q.rules.overflow != Overflow::DropHead || !q.over_limit() {
                return;
            }
            let limit = length_limit(q, 0, 0, by);
            let Some(entry) = q.pop_head() else {
                self.hang_if_only_held(qid); // nothing ready to drop: the broker loops (D39)
                return;
            };
            let copy = Some(entry.copy);
            self.dead_letter(
                qid,
                entry.msg,
                Reason::Maxlen,
                copy,
                Some(limit),
                entry.failed,
            );
        }
    }

    /// Quorum reject-publish: start rejecting once over the limit; stop at 80 %.
    pub(crate) fn note_quorum_limit(&mut self, qid: QueueId) {
        let Some(q) = self.queue_mut(qid) else { return };
        if !q.is_quorum() || q.rules.overflow != Overflow::RejectPublish {
            return;
        }
        if q.over_limit() {
            q.rejecting = true;
        } else if q.rejecting && q.below_soft_limit() {
            q.rejecting = false;
        }
    }
}

/// Where a TTL came from, with both values when both applied (`expiry_for`).
#[derive(Clone, Copy)]
enum Ttl {
    None,
    Queue,
    Message,
    Both(u64, u64),
}

/// The cause an `Enqueued` names: the routing's way, and where the TTL came from.
fn admission(way: &Way, ttl: Ttl) -> Admission {
    let (from, ttls) = match ttl {
        Ttl::None => (TtlFrom::None, None),
        Ttl::Queue => (TtlFrom::Queue, None),
        Ttl::Message => (TtlFrom::Message, None),
        Ttl::Both(q, m) => (TtlFrom::Both, Some((q, m))),
    };
    let more = match ttls {
        None => way.more.clone(),
        Some(ttls) => {
            let mut more = way.more.as_deref().cloned().unwrap_or_default();
            more.ttls = Some(ttls);
            Some(Rc::new(more))
        }
    };
    Admission {
        matched: way.matched,
        key: way.key,
        ttl: from,
        delivery_time: None,
        more,
    }
}

/// The length limit of `q` that `msgs` more messages of `bytes` go over (`x-max-length`
/// when that one is, else `x-max-length-bytes`; a quorum queue still rejecting on its
/// way down to 80 % names the one it has).
fn length_limit(q: &Queue, msgs: u64, bytes: u64, by: Option<MsgId>) -> LimitHit {
    let r = &q.rules;
    let (len, held_bytes) = q.len_for_limits();
    let over_count = r.max_length.filter(|m| len + msgs > *m);
    let over_bytes = r.max_length_bytes.filter(|m| held_bytes + bytes > *m);
    let (max, in_bytes) = match (over_count, over_bytes, r.max_length) {
        (Some(m), _, _) => (m, false),
        (None, Some(m), _) => (m, true),
        (None, None, Some(m)) => (m, false),
        (None, None, None) => (r.max_length_bytes.unwrap_or(0), true),
    };
    LimitHit::Length {
        max,
        bytes: in_bytes,
        overflow: r.overflow,
        by,
    }
}
