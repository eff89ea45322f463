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
//! Virtual time is exact: a 500 ms TTL expires at +500 (the real broker's timer fires
//! within about a millisecond of it).

use super::Sim;
use crate::death::Reason;
use crate::event::EventKind;
use crate::ids::QueueId;
use crate::queue::NEVER;
use crate::timers::Timer;

impl Sim {
    /// Removes the expired run at the head of `qid`, then arms the head timer.
    pub(crate) fn expire_head(&mut self, qid: QueueId) {
        let now = self.now_ms();
        loop {
            let Some(q) = self.queue_mut(qid) else { return };
            let Some(head) = q.head() else { break };
            if head.expires_at_ms > now {
                break;
            }
            if self.dead_letter_wait(qid) {
                return; // cost modes: the queue goes on when it is free
            }
            let q = self.queue_mut(qid).expect("queue exists");
            let entry = q.pop_head().expect("head exists");
            let qname = q.name;
            let late_ms = now - entry.expires_at_ms;
            self.emit(EventKind::Expired {
                msg: entry.msg.id,
                copy: entry.copy,
                queue: qname,
                late_ms,
            });
            let persistent = entry.msg.delivery_mode == 2;
            self.dead_letter(qid, entry.msg, Reason::Expired, Some(entry.copy));
            self.charge_dead_letter(qid, persistent);
        }
        self.arm_head_timer(qid);
    }

    fn arm_head_timer(&mut self, qid: QueueId) {
        let Some(q) = self.queue(qid) else { return };
        let head = q.head().map(|h| (h.expires_at_ms, h.copy));
        let late = match head {
            Some((at, copy)) if at != NEVER => self.expiry_late_ms(q.is_quorum(), copy),
            _ => 0,
        };
        let q = self.queue_mut(qid).expect("queue exists");
        let at = head.map_or(NEVER, |(at, _)| at.saturating_add(late));
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
