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
//!
//! Each `Expired` names its cause (`crate::cause`): the message that held the head
//! before it (`after`), and why it was late (`late_cause`): `BehindHead` when it took
//! the head only after its TTL had passed. In the timeline above, B's `after` is A, the
//! head from 0 to 1800000. The queue notes who holds its head (`Queue::note_head`) at
//! every change, so that costs two values per queue and no history.

use super::Sim;
use crate::cause::LateCause;
use crate::death::Reason;
use crate::event::EventKind;
use crate::ids::QueueId;
use crate::queue::{Away, NEVER};
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
    /// In cost modes a dead-lettering queue may have to wait for its turn
    /// (`dead_letter_wait`): then its timer is left to the cost wake-up, not armed here.
    pub(crate) fn expire_head(&mut self, qid: QueueId) {
        // A head change is also when a quorum queue that was refusing publishes may be
        // back at 80 % of its limit (`rabbit_fifo:evaluate_limit/5` runs after every
        // checkout and settle, and tells the publishers `go`).
        self.note_quorum_limit(qid);
        let every = self.checks_every_head(qid);
        if self.heads_due(qid, every) {
            if self.expire_run(qid, Head::Next) {
                return;
            }
            if every && self.expire_run(qid, Head::FirstReady) {
                return;
            }
        }
        self.arm_head_timer(qid);
    }

    /// Notes who holds the head (every head change is followed by `expire_head`, at its
    /// instant), then says whether a head the runs look at has expired. Most calls find
    /// none (a head without a TTL, or not yet due): this answers them without the
    /// expiry loop (`delaylab bench`: two runs per delivered message were a tenth of the
    /// 4.4 quorum queue's engine instructions).
    fn heads_due(&mut self, qid: QueueId, every: bool) -> bool {
        let now = self.now_ms();
        let Some(q) = self.queue_mut(qid) else {
            return false;
        };
        q.note_head(now);
        q.expired_head(now, every).is_some()
    }

    /// 4.3 quorum queues (D15) also expire the head of the ready messages behind a
    /// returned message that has not expired.
    pub(super) fn checks_every_head(&self, qid: QueueId) -> bool {
        self.profile.quorum_expiry == QuorumExpiry::EveryHead
            && self.queue(qid).is_some_and(|q| q.is_quorum())
    }

    /// Removes the expired run at one head of `qid`; true when cost modes paused it.
    fn expire_run(&mut self, qid: QueueId, which: Head) -> bool {
        let now = self.now_ms();
        loop {
            let Some(q) = self.queue_mut(qid) else {
                return false;
            };
            q.note_head(now); // every head change is followed by this run, at its instant
            let head = match which {
                Head::Next => q.head(),
                Head::FirstReady => q.first_ready(),
            };
            let Some(head) = head else { break };
            if head.expires_at_ms > now {
                break;
            }
            if self.dead_letter_wait(qid) {
                return true; // cost modes: the queue goes on when it is free
            }
            let q = self.queue_mut(qid).expect("queue exists");
            let entry = match which {
                Head::Next => q.pop_head(),
                Head::FirstReady => q.pop_first_ready(),
            }
            .expect("head exists");
            let after = q.head_before(entry.copy);
            let qname = q.name;
            let late_ms = now - entry.expires_at_ms;
            let late_cause = self.expiry_late_cause(late_ms, &entry, after);
            self.emit(EventKind::Expired {
                msg: entry.msg.id,
                copy: entry.copy,
                queue: qname,
                late_ms,
                late_cause,
                after,
            });
            let persistent = entry.msg.delivery_mode == 2;
            let failed = entry.failed;
            self.dead_letter(
                qid,
                entry.msg,
                Reason::Expired,
                Some(entry.copy),
                None,
                failed,
            );
            self.charge_dead_letter(qid, persistent);
        }
        false
    }

    /// Why an expiry `late_ms` after its time was late: its TTL passed while it was
    /// away (unacked, held aside), it took the head after its time (behind `after`),
    /// the node was down at its time, or the broker's costs.
    fn expiry_late_cause(
        &self,
        late_ms: u64,
        entry: &crate::queue::Entry,
        after: Option<crate::cause::HeadSpan>,
    ) -> LateCause {
        match entry.away_at_ttl {
            _ if late_ms == 0 => LateCause::OnTime,
            Away::Unacked => LateCause::Unacked,
            Away::Held(by) => LateCause::Held(by),
            Away::No if after.is_some_and(|a| a.to_ms > entry.expires_at_ms) => {
                LateCause::BehindHead
            }
            Away::No => self.late_cause_at(entry.expires_at_ms),
        }
    }

    fn arm_head_timer(&mut self, qid: QueueId) {
        let every = self.checks_every_head(qid);
        let Some(q) = self.queue(qid) else { return };
        let mut head = q.head().map(|h| (h.expires_at_ms, h.copy));
        if every {
            // 4.3 (D15): the earliest of the two heads the scan looks at.
            if let Some(r) = q.first_ready().map(|h| (h.expires_at_ms, h.copy)) {
                if head.is_none_or(|(at, _)| r.0 < at) {
                    head = Some(r);
                }
            }
        }
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
