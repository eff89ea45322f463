//! Expiry: only the head of a queue expires (rabbit_amqqueue_process:drop_expired_msgs).
//!
//! A queue keeps one timer, for its head's expiry. When it fires, the run of expired
//! messages at the head leaves (dead-lettered as `expired`, or dropped); the first
//! message that has not expired, or has no TTL, stops it, however long overdue the
//! messages behind it are. That is head-of-line blocking:
//!
//! ```text
//! t=0     A enqueued, expiration 30 min     queue [A(1800000)]
//! t=60000 B enqueued, expiration  5 min     queue [A(1800000) B(360000)]
//! t=360000  B's time passes: B is not the head, nothing happens (B is overdue)
//! t=1800000 A expires, then B (1440000 ms late), both dead-lettered in queue order
//! ```
//!
//! 4.3 quorum queues (rabbitmq-versions.md D15, `Profile::quorum_expiry`) check the head
//! of the returned messages and the head of the queue, returns first, so an expired
//! message is not held up by a live returned one.
//!
//! Virtual time is exact: a 500 ms TTL expires at +500 (the real broker's timer fires
//! within about a millisecond of it).

use super::Sim;
use crate::death::Reason;
use crate::event::EventKind;
use crate::ids::QueueId;
use crate::queue::NEVER;
use crate::timers::Timer;
use crate::version::QuorumExpiry;

/// Which head an expiry run looks at.
#[derive(Clone, Copy)]
enum Head {
    /// The next message to deliver (the returns first): every version.
    Next,
    /// The first ready message behind the returns (4.3 quorum queues).
    FirstReady,
}

impl Sim {
    /// Removes the expired run at the head of `qid`, then arms the head timer.
    pub(crate) fn expire_head(&mut self, qid: QueueId) {
        self.expire_run(qid, Head::Next);
        if self.checks_every_head(qid) {
            self.expire_run(qid, Head::FirstReady);
        }
        self.arm_head_timer(qid);
    }

    /// 4.3 quorum queues (D15) also expire the head of the ready messages behind a
    /// returned message that has not expired.
    fn checks_every_head(&self, qid: QueueId) -> bool {
        self.profile.quorum_expiry == QuorumExpiry::EveryHead
            && self.queue(qid).is_some_and(|q| q.is_quorum())
    }

    /// Removes the expired run at one head of `qid`.
    fn expire_run(&mut self, qid: QueueId, which: Head) {
        let now = self.now_ms();
        loop {
            let Some(q) = self.queue_mut(qid) else { return };
            let head = match which {
                Head::Next => q.head(),
                Head::FirstReady => q.first_ready(),
            };
            let Some(head) = head else { break };
            if head.expires_at_ms > now {
                break;
            }
            let entry = match which {
                Head::Next => q.pop_head(),
                Head::FirstReady => q.pop_first_ready(),
            }
            .expect("head exists");
            let qname = q.name;
            let late_ms = now - entry.expires_at_ms;
            self.emit(EventKind::Expired {
                msg: entry.msg.id,
                copy: entry.copy,
                queue: qname,
                late_ms,
            });
            self.dead_letter(qid, entry.msg, Reason::Expired, Some(entry.copy));
        }
    }

    fn arm_head_timer(&mut self, qid: QueueId) {
        let every = self.checks_every_head(qid);
        let Some(q) = self.queue_mut(qid) else { return };
        let mut at = q.head().map_or(NEVER, |h| h.expires_at_ms);
        if every {
            at = at.min(q.first_ready().map_or(NEVER, |h| h.expires_at_ms));
        }
        if at == NEVER {
            q.head_timer_at_ms = None;
            return;
        }
        if q.head_timer_at_ms != Some(at) {
            q.head_timer_at_ms = Some(at);
            self.arm(at, Timer::QueueHead(qid));
        }
    }

    pub(crate) fn on_head_timer(&mut self, qid: QueueId) {
        let now = self.now_ms();
        let Some(q) = self.queue_mut(qid) else { return };
        if q.head_timer_at_ms != Some(now) {
            return; // stale: the head changed since this timer was armed
        }
        q.head_timer_at_ms = None;
        if !self.node_up {
            return; // the queue process is down; it drops expired heads when it starts
        }
        self.expire_head(qid);
        self.try_deliver(qid);
    }
}
