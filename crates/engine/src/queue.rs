//! A queue's contents: ready messages in order, and the unacknowledged ones.
//!
//! Pure data structure: no time, no events. The rules that decide when entries move
//! (expiry at the head, length limits, requeue position) live in `sim::*`, which calls
//! these operations.
//!
//! Order: a classic queue keeps ready entries sorted by `CopyId` (the order they were
//! enqueued), so a requeued entry goes back to its original position
//! (`requeue_in_place`). A quorum queue in 3.10 re-appends a returned message at the
//! back (`push_back`), or, with a delivery limit, serves returns first (`push_return`).

use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

use crate::cause::HeadSpan;
use crate::ids::{ConsumerId, CopyId, MsgId, QueueId};
use crate::message::Message;
use crate::sym::Sym;

/// Marks "never expires" in `Entry::expires_at_ms`.
pub const NEVER: u64 = u64::MAX;

pub use crate::amqp::queue_args::{Overflow, QueueKind};

/// The behaviour a queue's arguments select, with names resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct QueueRules {
    pub kind: QueueKind,
    pub message_ttl_ms: Option<u64>,
    pub dlx: Option<Sym>,
    pub dlrk: Option<Sym>,
    pub max_length: Option<u64>,
    pub max_length_bytes: Option<u64>,
    pub overflow: Overflow,
    pub expires_ms: Option<u64>,
    /// Quorum only: returns beyond this many are dead-lettered as `delivery_limit`
    /// (3.10 does not validate it: 0 or -1 dead-letter at the first return).
    pub delivery_limit: Option<i64>,
    /// Quorum, 4.3 only: delayed retry (`x-delayed-retry-*`, see `sim/returns.rs`).
    pub delayed_retry: Option<crate::version::DelayedRetry>,
    /// Quorum, `x-dead-letter-strategy at-least-once` in force (a DLX and overflow
    /// reject-publish): dead letters wait in the queue until a target confirms them
    /// (`sim/dead_letter_retry.rs`).
    pub at_least_once: bool,
}

/// A dead letter an at-least-once quorum queue keeps until every target it routes to
/// has confirmed it (`rabbit_fifo_dlx_worker` `#pending{}`).
#[derive(Clone, Debug)]
pub struct DeadLetterPending {
    /// The dead-lettered copy as the worker publishes it (x-death recorded once).
    pub msg: Rc<Message>,
    pub reason: crate::death::Reason,
    /// The source queue's copy, alive until the letter is settled.
    pub copy: Option<CopyId>,
    /// When the worker last published it (`last_published_at`); `None`: never (no
    /// route, no dead-letter exchange, or beyond the worker's prefetch).
    pub published_at_ms: Option<u64>,
    /// Targets that confirmed it (not published to again).
    pub settled: Vec<crate::ids::QueueId>,
}

/// One copy of a message in a queue.
#[derive(Clone, Debug)]
pub struct Entry {
    pub copy: CopyId,
    pub msg: Rc<Message>,
    /// Enqueue time + min(queue TTL, message TTL), fixed at enqueue; NEVER if no TTL.
    pub expires_at_ms: u64,
    pub redelivered: bool,
    /// Quorum queues: how many times it was returned (x-delivery-count up to 4.2; the
    /// acquired count of 4.3).
    pub returns: u32,
    /// Quorum queues: failed deliveries among those returns (basic.reject requeue=true,
    /// channel loss): 4.3's delivery count.
    pub failed: u32,
    /// Where it was when its TTL passed, if not in the queue (a late expiry's cause).
    pub away_at_ttl: Away,
}

/// Where a copy was when its TTL passed, if not waiting in its queue: only a message in
/// the queue expires, so it expires when it is back (`sim/returns.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Away {
    /// In the queue (or its TTL has not passed).
    No,
    /// Delivered, unacknowledged.
    Unacked,
    /// Held back by 4.3's delayed retry.
    RetryHeld,
}

#[derive(Clone, Debug)]
pub struct Unacked {
    pub entry: Entry,
    pub consumer: ConsumerId,
    pub delivery_tag: u64,
    /// Unique per delivery in the whole run (see `Timer::Handled`).
    pub delivery: u64,
    /// What the consumer will do when its handle time is over (drawn at delivery).
    pub outcome: crate::scenario::Outcome,
}

#[derive(Debug)]
pub struct Queue {
    pub id: QueueId,
    pub name: Sym,
    pub durable: bool,
    pub exclusive: bool,
    pub auto_delete: bool,
    pub rules: QueueRules,
    /// The declared arguments, kept for re-declare equivalence and for display.
    pub arguments: crate::value::Table,
    returns: VecDeque<Entry>,
    ready: VecDeque<Entry>,
    /// 4.3 delayed retry: returns set aside until their time, by (ready time, copy).
    set_aside: BTreeMap<(u64, CopyId), Entry>,
    /// The ready time the retry timer is armed for.
    pub retry_timer_at_ms: Option<u64>,
    ready_bytes: u64,
    pub unacked: BTreeMap<CopyId, Unacked>,
    /// Attached consumers in attach order; `next_consumer` is the round-robin cursor.
    pub consumers: Vec<ConsumerId>,
    pub next_consumer: usize,
    /// The expiry the head timer is armed for (a stale timer is ignored when it fires).
    pub head_timer_at_ms: Option<u64>,
    /// Last use for `x-expires` (consumer, basic.get, declare).
    pub last_used_ms: u64,
    /// When it was declared (a quorum queue's 5 s tick runs from then).
    pub created_ms: u64,
    pub expiry_timer_at_ms: Option<u64>,
    /// Quorum reject-publish: rejecting until the queue is back at 80 % of its limit.
    pub rejecting: bool,
    /// At-least-once dead letters not yet confirmed by their targets, oldest first
    /// (counted toward the length limits, not ready, not deliverable).
    pub dead_letters: VecDeque<DeadLetterPending>,
    dead_letter_bytes: u64,
    /// When the dead-letter worker's retry timer is armed for.
    pub dead_letter_timer_at_ms: Option<u64>,
    /// Who holds the head and since when, and who held it before (`note_head`): what
    /// an expiry behind the head names as its cause. Two values per queue, no history.
    head_mark: Option<HeadMark>,
    prev_head: Option<HeadSpan>,
}

#[derive(Clone, Copy, Debug)]
struct HeadMark {
    copy: CopyId,
    msg: MsgId,
    since_ms: u64,
}

impl Queue {
    pub fn new(id: QueueId, name: Sym, rules: QueueRules, now_ms: u64) -> Queue {
        Queue {
            id,
            name,
            durable: true,
            exclusive: false,
            auto_delete: false,
            rules,
            arguments: crate::value::Table::new(),
            returns: VecDeque::new(),
            ready: VecDeque::new(),
            set_aside: BTreeMap::new(),
            retry_timer_at_ms: None,
            ready_bytes: 0,
            unacked: BTreeMap::new(),
            consumers: Vec::new(),
            next_consumer: 0,
            head_timer_at_ms: None,
            last_used_ms: now_ms,
            created_ms: now_ms,
            expiry_timer_at_ms: None,
            rejecting: false,
            dead_letters: VecDeque::new(),
            dead_letter_bytes: 0,
            dead_letter_timer_at_ms: None,
            head_mark: None,
            prev_head: None,
        }
    }

    /// Notes who holds the head at `now_ms`: if it changed, the new head holds it from
    /// now and the old one's time at the head is kept as the span before it. `sim` calls
    /// this at the instant the head changes (`expire_head` runs after every change).
    pub fn note_head(&mut self, now_ms: u64) {
        let head = self.head().map(|h| (h.copy, h.msg.id));
        if head.map(|h| h.0) == self.head_mark.map(|m| m.copy) {
            return;
        }
        if let Some(m) = self.head_mark.take() {
            self.prev_head = Some(HeadSpan {
                msg: m.msg,
                from_ms: m.since_ms,
                to_ms: now_ms,
            });
        }
        self.head_mark = head.map(|(copy, msg)| HeadMark {
            copy,
            msg,
            since_ms: now_ms,
        });
    }

    /// Since when the current head holds the head (as last noted).
    pub fn head_since_ms(&self) -> Option<u64> {
        let m = self.head_mark?;
        (Some(m.copy) == self.head().map(|h| h.copy)).then_some(m.since_ms)
    }

    /// The message that held the head just before `copy` took it, if `copy` is the noted
    /// head and took it straight from that one (no empty queue in between).
    pub fn head_before(&self, copy: CopyId) -> Option<HeadSpan> {
        let m = self.head_mark.filter(|m| m.copy == copy)?;
        self.prev_head.filter(|p| p.to_ms == m.since_ms)
    }

    pub fn is_quorum(&self) -> bool {
        self.rules.kind == QueueKind::Quorum
    }

    pub fn ready_len(&self) -> u64 {
        (self.returns.len() + self.ready.len()) as u64
    }

    pub fn ready_bytes(&self) -> u64 {
        self.ready_bytes
    }

    pub fn unacked_len(&self) -> u64 {
        self.unacked.len() as u64
    }

    pub fn head(&self) -> Option<&Entry> {
        self.returns.front().or_else(|| self.ready.front())
    }

    pub fn pop_head(&mut self) -> Option<Entry> {
        let e = self
            .returns
            .pop_front()
            .or_else(|| self.ready.pop_front())?;
        self.ready_bytes -= e.msg.body_bytes();
        Some(e)
    }

    /// The first ready message behind the returns (4.3 quorum expiry looks at it too).
    pub fn first_ready(&self) -> Option<&Entry> {
        self.ready.front()
    }

    pub fn pop_first_ready(&mut self) -> Option<Entry> {
        let e = self.ready.pop_front()?;
        self.ready_bytes -= e.msg.body_bytes();
        Some(e)
    }

    pub fn push_back(&mut self, e: Entry) {
        self.ready_bytes += e.msg.body_bytes();
        self.ready.push_back(e);
    }

    /// Quorum queue with a delivery limit: returns are served before ready messages,
    /// in the order they were returned.
    pub fn push_return(&mut self, e: Entry) {
        self.ready_bytes += e.msg.body_bytes();
        self.returns.push_back(e);
    }

    /// Classic queue: back to the original position (entries are sorted by copy id).
    pub fn requeue_in_place(&mut self, e: Entry) {
        self.ready_bytes += e.msg.body_bytes();
        let at = self.ready.partition_point(|x| x.copy < e.copy);
        self.ready.insert(at, e);
    }

    /// Takes one ready entry out by copy, wherever it is (the order lab's
    /// `lost_in_store`). A message just stored is at the back: the search starts there.
    pub fn remove_ready(&mut self, copy: CopyId) -> Option<Entry> {
        let e = match self.ready.iter().rposition(|e| e.copy == copy) {
            Some(at) => self.ready.remove(at),
            None => {
                let at = self.returns.iter().rposition(|e| e.copy == copy)?;
                self.returns.remove(at)
            }
        }?;
        self.ready_bytes -= e.msg.body_bytes();
        Some(e)
    }

    /// Delayed retry: keeps `e` out of delivery until `ready_at_ms`.
    pub fn set_aside(&mut self, ready_at_ms: u64, e: Entry) {
        self.set_aside.insert((ready_at_ms, e.copy), e);
    }

    /// The earliest ready time of a set-aside entry.
    pub fn next_set_aside_ms(&self) -> Option<u64> {
        self.set_aside.keys().next().map(|(t, _)| *t)
    }

    /// Takes out the set-aside entries ready by `now_ms`, earliest first.
    pub fn take_ready_set_aside(&mut self, now_ms: u64) -> Vec<Entry> {
        let later = self
            .set_aside
            .split_off(&(now_ms.saturating_add(1), CopyId(0)));
        std::mem::replace(&mut self.set_aside, later)
            .into_values()
            .collect()
    }

    /// Entries set aside by delayed retry with their ready times, earliest first (for
    /// snapshots).
    pub fn iter_set_aside(&self) -> impl Iterator<Item = (u64, &Entry)> {
        self.set_aside.iter().map(|((at, _), e)| (*at, e))
    }

    /// Entries set aside by delayed retry (not ready, not deliverable).
    pub fn set_aside_len(&self) -> u64 {
        self.set_aside.len() as u64
    }

    /// Ready entries, head first (for snapshots).
    pub fn iter_ready(&self) -> impl Iterator<Item = &Entry> {
        self.returns.iter().chain(self.ready.iter())
    }

    /// Takes every ready entry out, head first (purge, delete, node loss).
    pub fn drain_ready(&mut self) -> Vec<Entry> {
        self.ready_bytes = 0;
        let mut out: Vec<Entry> = self.returns.drain(..).collect();
        out.extend(self.ready.drain(..));
        out.extend(std::mem::take(&mut self.set_aside).into_values());
        out
    }

    /// Keeps only the ready entries for which `keep` is true (node restart).
    pub fn retain_ready(&mut self, mut keep: impl FnMut(&Entry) -> bool) -> Vec<Entry> {
        let mut lost = Vec::new();
        for e in self.drain_ready() {
            if keep(&e) {
                self.push_back(e);
            } else {
                lost.push(e);
            }
        }
        lost
    }

    /// An at-least-once dead letter enters the queue's waiting list (see
    /// [`DeadLetterPending`]).
    pub fn push_dead_letter(&mut self, d: DeadLetterPending) {
        self.dead_letter_bytes += d.msg.body_bytes();
        self.dead_letters.push_back(d);
    }

    /// A settled or dropped dead letter leaves the waiting list.
    pub fn remove_dead_letter(&mut self, at: usize) -> Option<DeadLetterPending> {
        let d = self.dead_letters.remove(at)?;
        self.dead_letter_bytes -= d.msg.body_bytes();
        Some(d)
    }

    /// Takes every waiting dead letter out (purge on 4.3, deletion).
    pub fn drain_dead_letters(&mut self) -> Vec<DeadLetterPending> {
        self.dead_letter_bytes = 0;
        self.dead_letters.drain(..).collect()
    }

    /// Dead letters waiting for their targets (at-least-once).
    pub fn dead_letter_len(&self) -> u64 {
        self.dead_letters.len() as u64
    }

    /// What the length limits count: ready messages, and at-least-once dead letters not
    /// yet confirmed (`rabbit_fifo:is_over_limit/1`: `messages_ready + NumDlx`).
    fn limit_len(&self) -> u64 {
        self.ready_len() + self.dead_letter_len()
    }

    fn limit_bytes(&self) -> u64 {
        self.ready_bytes + self.dead_letter_bytes
    }

    /// Whether the ready part is over a length limit (only ready messages count, and
    /// at-least-once dead letters waiting for a target).
    pub fn over_limit(&self) -> bool {
        self.rules.max_length.is_some_and(|m| self.limit_len() > m)
            || self
                .rules
                .max_length_bytes
                .is_some_and(|m| self.limit_bytes() > m)
    }

    /// Whether one more message of `bytes` would go over a limit (reject-publish check).
    pub fn would_overflow(&self, bytes: u64) -> bool {
        self.rules
            .max_length
            .is_some_and(|m| self.limit_len() + 1 > m)
            || self
                .rules
                .max_length_bytes
                .is_some_and(|m| self.limit_bytes() + bytes > m)
    }

    /// Quorum queues stop rejecting once back at or below 80 % of the limits.
    pub fn below_soft_limit(&self) -> bool {
        let soft = |m: u64| m.saturating_mul(8) / 10;
        self.rules
            .max_length
            .is_none_or(|m| self.limit_len() <= soft(m))
            && self
                .rules
                .max_length_bytes
                .is_none_or(|m| self.limit_bytes() <= soft(m))
    }
}
