//! At-least-once dead-lettering from a quorum queue (`x-dead-letter-strategy
//! at-least-once`, which needs a dead-letter exchange and overflow `reject-publish`;
//! the same rules in 3.10 to 4.3: `rabbit_fifo_dlx.erl`, `rabbit_fifo_dlx_worker.erl`).
//!
//! A message that dies does not leave at once: it moves to the queue's dead-letter
//! state, and a worker (one per source queue) publishes it with publisher confirms. It
//! leaves the source only when every queue it was routed to has confirmed it. Meanwhile:
//!
//! - it is not ready and not deliverable, but counts toward the source's `x-max-length`
//!   and `x-max-length-bytes` (`rabbit_fifo:is_over_limit/1`: `messages_ready + NumDlx`),
//!   so a source full of waiting dead letters refuses new publishes;
//! - no dead-letter exchange (`log_missing_dlx_once/1`), no route (`log_no_route_once/1`,
//!   or only cycle targets), or a target that refuses it (reject-publish, a `rejected`
//!   confirm): it waits;
//! - the worker's timer fires every `dead_letter_worker_publisher_confirm_timeout` (default
//!   180 000 ms, `deps/rabbit/Makefile` in every version) while anything waits, from the
//!   first forward on; then every letter never published, or last published at least
//!   that long ago, is routed and published again (`redeliver_messages/1`), to the
//!   targets that have not confirmed it yet;
//! - the worker takes at most `dead_letter_worker_consumer_prefetch` (32) letters at a
//!   time; the rest wait in the queue until one is settled;
//! - its `x-death` is recorded once, when the worker first takes it (`make_msg/5` in
//!   `forward/6`); a retry publishes the same copy.
//!
//! Purging the queue removes waiting letters on 4.3 only (D20, RN 4.3.0 #13885); deleting
//! it drops them.
//!
//! ```text
//! quorum source src (at-least-once, DLX dlx, reject-publish), dlx -> dlq (x-max-length 1,
//! reject-publish); m1 expires at 0:01, m2 at 0:02, nothing consumes dlq:
//!   0:01  m1 dead-lettered: dlq takes it, confirmed: m1 leaves src (the timer armed
//!         while it was pending is cancelled with the confirm: `maybe_cancel_timer/1`)
//!   0:02  m2 dead-lettered: dlq is full and refuses it: m2 waits in src (counted);
//!         the worker's timer is armed for 3:02
//!   3:02  the timer: m2 published again, refused again; waits; timer for 6:02
//!   3:10  a consumer takes m1 from dlq
//!   6:02  the timer: dlq takes m2: it leaves src
//! (at-most-once, the default: m2 would be appended to dlq over its limit, #8495)
//! ```

use std::rc::Rc;

use super::enqueue::Accepted;
use super::hold::Arrival;
use super::Sim;
use crate::death::Reason;
use crate::event::{DeadLetterWait, EventKind};
use crate::ids::QueueId;
use crate::message::Message;
use crate::queue::DeadLetterPending;
use crate::timers::Timer;

pub(crate) use crate::version::{DEAD_LETTER_RETRY_MS, DEAD_LETTER_WORKER_PREFETCH};

impl Sim {
    /// `dead` (its death recorded) enters `qid`'s dead-letter state; the worker forwards
    /// it now if it is within its prefetch.
    pub(crate) fn hold_dead_letter(&mut self, qid: QueueId, dead: Rc<Message>, reason: Reason) {
        let q = self.queue_mut(qid).expect("dead-lettering queue exists");
        q.push_dead_letter(DeadLetterPending {
            msg: dead,
            reason,
            published_at_ms: None,
            settled: Vec::new(),
        });
        let at = q.dead_letters.len() - 1;
        if at < DEAD_LETTER_WORKER_PREFETCH {
            self.forward_dead_letter(qid, at);
        }
        self.arm_dead_letter_timer(qid);
    }

    /// Routes and publishes waiting letter `at` of `qid` to the targets that have not
    /// confirmed it; settles it when every target has. True when it left the queue.
    fn forward_dead_letter(&mut self, qid: QueueId, at: usize) -> bool {
        let now = self.now_ms();
        let q = self.queue(qid).expect("queue");
        let (qname, dlx) = (q.name, q.rules.dlx.expect("at-least-once has a DLX"));
        let d = &q.dead_letters[at];
        let (dead, reason, settled) = (d.msg.clone(), d.reason, d.settled.clone());
        let retry_at = self.next_dead_letter_retry(qid);
        let wait = |sim: &mut Sim, why| {
            sim.emit(EventKind::DeadLetterWaiting {
                msg: dead.id,
                queue: qname,
                retry_at_ms: retry_at,
                why,
            })
        };
        if !self.exchanges.contains_key(&dlx) {
            wait(self, DeadLetterWait::NoExchange(dlx));
            return false;
        }
        let mut routed = self.route(dlx, &dead, true).unwrap_or_default();
        let deaths = dead.deaths.as_deref().expect("a dead letter has a history");
        let targets: Vec<_> = routed
            .queues
            .iter()
            .filter(|t| {
                let name = self.queue(t.queue).map(|q| q.name);
                name.is_some_and(|n| deaths.cycle_with(reason, n).is_none())
            })
            .filter(|t| !settled.contains(&t.queue))
            .cloned()
            .collect();
        routed.delayed.clear(); // a delayed exchange as a DLX: not modelled here
        self.recycle(routed);
        if targets.is_empty() {
            if !settled.is_empty() {
                // Routes changed so that nothing is awaited: one target confirmed it,
                // which is enough (`redeliver0/5`, mandatory semantics).
                self.settle_dead_letter(qid, at);
                return true;
            }
            wait(self, DeadLetterWait::NoRoute(dlx));
            return false;
        }
        let mut refused = None;
        let mut confirmed = Vec::new();
        for t in &targets {
            let by = self.queue(t.queue).map(|q| q.name);
            match self.enqueue(
                t.queue,
                dead.clone(),
                dlx,
                &t.way,
                Arrival::DeadLetterWorker,
            ) {
                Accepted::Yes => confirmed.push(t.queue),
                Accepted::Refused => refused = refused.or(by),
            }
        }
        let q = self.queue_mut(qid).expect("queue");
        let d = &mut q.dead_letters[at];
        d.published_at_ms = Some(now);
        d.settled.extend(confirmed);
        match refused {
            None => {
                self.settle_dead_letter(qid, at);
                true
            }
            Some(target) => {
                wait(self, DeadLetterWait::Refused(target));
                false
            }
        }
    }

    /// Every target confirmed letter `at`: it leaves the source (whose limits it no longer
    /// counts toward) and the worker takes the next one waiting beyond its prefetch.
    fn settle_dead_letter(&mut self, qid: QueueId, at: usize) {
        let q = self.queue_mut(qid).expect("queue");
        q.remove_dead_letter(at).expect("waiting");
        let next = q
            .dead_letters
            .get(DEAD_LETTER_WORKER_PREFETCH - 1)
            .is_some_and(|n| n.published_at_ms.is_none());
        self.note_quorum_limit(qid);
        if next && at < DEAD_LETTER_WORKER_PREFETCH {
            // The worker's credit is back: it takes the next letter at once.
            self.forward_dead_letter(qid, DEAD_LETTER_WORKER_PREFETCH - 1);
        }
    }

    /// When the worker's next timer fires (armed, or to be armed now).
    fn next_dead_letter_retry(&self, qid: QueueId) -> u64 {
        let q = self.queue(qid).expect("queue");
        q.dead_letter_timer_at_ms
            .unwrap_or_else(|| self.now_ms().saturating_add(self.dead_letter_retry_ms))
    }

    /// The worker's timer runs while anything waits (`maybe_set_timer/1`).
    fn arm_dead_letter_timer(&mut self, qid: QueueId) {
        let retry = self.dead_letter_retry_ms;
        let now = self.now_ms();
        let Some(q) = self.queue_mut(qid) else { return };
        if q.dead_letters.is_empty() || q.dead_letter_timer_at_ms.is_some() {
            return;
        }
        let at = now.saturating_add(retry);
        q.dead_letter_timer_at_ms = Some(at);
        self.arm(at, Timer::DeadLetterRetry(qid));
    }

    /// `Timer::DeadLetterRetry`: publishes again every letter never published or last
    /// published at least a timeout ago, within the worker's prefetch
    /// (`redeliver_and_ack/1`), then arms the timer again while anything waits.
    pub(crate) fn on_dead_letter_timer(&mut self, qid: QueueId) {
        let now = self.now_ms();
        let retry = self.dead_letter_retry_ms;
        let Some(q) = self.queue_mut(qid) else { return };
        if q.dead_letter_timer_at_ms != Some(now) {
            return; // stale
        }
        q.dead_letter_timer_at_ms = None;
        if !self.node_up {
            return; // the worker starts again with the node (`node_up_again`)
        }
        let mut at = 0;
        let mut taken = 0;
        while taken < DEAD_LETTER_WORKER_PREFETCH {
            let Some(d) = self.queue(qid).and_then(|q| q.dead_letters.get(at)) else {
                break;
            };
            taken += 1;
            let due = d
                .published_at_ms
                .is_none_or(|p| p.saturating_add(retry) <= now);
            if due && self.forward_dead_letter(qid, at) {
                continue; // it left: the next one is at `at` now
            }
            at += 1;
        }
        self.arm_dead_letter_timer(qid);
        self.try_deliver(qid);
    }

    /// The node is back: a new worker takes the waiting letters and forwards them at
    /// once (`handle_continue/2` checks out the discards; each is published anew).
    pub(crate) fn restart_dead_letter_worker(&mut self, qid: QueueId) {
        let now = self.now_ms();
        let Some(q) = self.queue_mut(qid) else { return };
        if q.dead_letters.is_empty() {
            return;
        }
        for d in q.dead_letters.iter_mut() {
            d.published_at_ms = None;
        }
        q.dead_letter_timer_at_ms = Some(now);
        self.on_dead_letter_timer(qid);
    }

    /// Purge (4.3, D20) or deletion: the waiting letters are dropped with `reason`.
    pub(crate) fn drop_dead_letters(
        &mut self,
        qid: QueueId,
        reason: crate::event::DropReason,
    ) -> u64 {
        let Some(q) = self.queue_mut(qid) else {
            return 0;
        };
        let qname = q.name;
        let gone = q.drain_dead_letters();
        let n = gone.len() as u64;
        for d in gone {
            self.emit(EventKind::Dropped {
                msg: d.msg.id,
                copy: None, // the queue's copy ended when it died
                queue: Some(qname),
                reason,
                why: crate::cause::DropCause::Plain,
            });
        }
        n
    }
}
