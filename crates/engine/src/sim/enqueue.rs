//! A message arriving at a queue (rabbit_amqqueue_process:deliver_or_enqueue/3).
//!
//! In order:
//! 1. overflow `reject-publish[-dlx]`: refuse if one more would exceed a limit (checked
//!    before anything else, so `x-max-length: 0` refuses even with a consumer waiting);
//! 2. direct delivery: a consumer with capacity takes it at once, TTL plays no part;
//! 3. queue TTL 0 and no DLX: discarded without being enqueued;
//! 4. enqueue with expiry = now + min(queue TTL, message TTL), fixed from now on
//!    (quorum queues: TTL 0 becomes 1 ms);
//! 5. drop-head: while over a limit, the head is dead-lettered as `maxlen`;
//! 6. expired messages at the head leave; the head timer is armed.
//!
//! ```text
//! x-max-length 2, drop-head: publish n1 n2 n3 n4 -> queue [n3 n4], DLQ [n1 n2]
//! ```

use std::rc::Rc;

use super::Sim;
use crate::death::Reason;
use crate::event::{DropReason, EventKind};
use crate::ids::QueueId;
use crate::message::Message;
use crate::queue::{Entry, Overflow, NEVER};
use crate::sym::Sym;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Accepted {
    Yes,
    /// reject-publish: the publisher gets a nack.
    Refused,
}

impl Sim {
    /// Delivers `msg` (arriving through exchange `via`) to queue `qid`.
    pub(crate) fn enqueue(&mut self, qid: QueueId, msg: Rc<Message>, via: Sym) -> Accepted {
        let Some(q) = self.queue(qid) else {
            return Accepted::Yes;
        };
        let qname = q.name;
        if self.refuses(qid, msg.body_bytes()) {
            return self.refuse(qid, msg);
        }
        let expires_at_ms = self.expiry_for(qid, &msg);
        let copy = self.new_copy();
        self.emit(EventKind::Enqueued {
            msg: msg.id,
            copy,
            queue: qname,
            via,
            expires_at_ms: (expires_at_ms != NEVER).then_some(expires_at_ms),
        });
        let entry = Entry {
            copy,
            msg,
            expires_at_ms,
            redelivered: false,
            returns: 0,
            failed: 0,
        };
        if self.deliver_direct(qid, entry.clone()) {
            return Accepted::Yes;
        }
        if self.discards_at_once(qid) {
            self.emit(EventKind::Dropped {
                msg: entry.msg.id,
                copy: Some(copy),
                queue: Some(qname),
                reason: DropReason::Expired,
            });
            self.end_copy();
            return Accepted::Yes;
        }
        let q = self.queue_mut(qid).expect("queue exists");
        q.push_back(entry);
        self.drop_head_while_over(qid);
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
        if overflow == Overflow::RejectPublishDlx {
            self.dead_letter(qid, msg, Reason::Maxlen, None);
        } else {
            self.emit(EventKind::Dropped {
                msg: msg.id,
                copy: None,
                queue: Some(qname),
                reason: DropReason::RejectPublish,
            });
        }
        Accepted::Refused
    }

    /// Expiry time for a message entering `qid` now.
    fn expiry_for(&self, qid: QueueId, msg: &Message) -> u64 {
        let q = self.queue(qid).expect("queue exists");
        let ttl = q.rules.message_ttl_ms.unwrap_or(NEVER).min(msg.ttl_ms());
        if ttl == NEVER {
            return NEVER;
        }
        // rabbit_fifo: "we discard the message if it cannot be consumed within the same
        // millisecond", so a quorum queue's TTL 0 is 1 ms.
        let ttl = if q.is_quorum() { ttl.max(1) } else { ttl };
        self.now_ms().saturating_add(ttl)
    }

    /// Classic queue with queue TTL 0 and no DLX: the optimisation that discards an
    /// undeliverable message without enqueuing it.
    fn discards_at_once(&self, qid: QueueId) -> bool {
        let q = self.queue(qid).expect("queue exists");
        !q.is_quorum() && q.rules.message_ttl_ms == Some(0) && q.rules.dlx.is_none()
    }

    /// drop-head (the default overflow): dead-letter heads as `maxlen` while over a limit.
    pub(crate) fn drop_head_while_over(&mut self, qid: QueueId) {
        loop {
            let Some(q) = self.queue_mut(qid) else { return };
            // Quorum queues have no reject-publish-dlx: its rules already fell back to
            // drop-head (rabbit_quorum_queue:overflow/3).
            if q.rules.overflow != Overflow::DropHead || !q.over_limit() {
                return;
            }
            let Some(entry) = q.pop_head() else { return };
            self.dead_letter(qid, entry.msg, Reason::Maxlen, Some(entry.copy));
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
