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
//!
//! A quorum queue also holds messages aside (`hold`): 4.3's delayed retry and 4.4's
//! `x-opt-delivery-time` (`crate::cause::HeldBy`). Held messages are in the queue and
//! count toward its length limits (`rabbit_fifo:messages_ready_plus_delayed/1`), but
//! they are not ready: not delivered, not expiring, left out of `ready_len`. They are
//! kept by (time, copy), copies numbered in arrival order, as `rabbit_fifo` keys them by
//! (time, Raft index): each goes at its own time, ties in arrival order.

use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

use crate::cause::HeadSpan;
use crate::ids::{ConsumerId, CopyId, MsgId, QueueId};
use crate::message::Message;
use crate::queue_held::Held;
use crate::sym::Sym;

/// How many places behind the leaving message `left_ready` prefetches.
const WARM_AHEAD: usize = 8;

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
    /// Quorum, 4.3+: delayed retry (`x-delayed-retry-*`, see `sim/returns.rs`).
    pub delayed_retry: Option<crate::version::DelayedRetry>,
    /// Quorum: `x-dead-letter-strategy at-least-once` in force (it needs a DLX and
    /// reject-publish, else at-most-once): dead letters wait in the queue until a target
    /// confirms them (`sim/dead_letter_retry.rs`); its worker enqueues them tracked,
    /// which honours `x-opt-delivery-time` on 4.4 (D40).
    pub dead_letter_at_least_once: bool,
}

/// A dead letter an at-least-once quorum queue keeps until every target it routes to
/// has confirmed it (`rabbit_fifo_dlx_worker` `#pending{}`). The queue's copy ended
/// when it died (`DeadLettered`): a waiting letter is no copy, but counts toward the
/// queue's length limits.
#[derive(Clone, Debug)]
pub struct DeadLetterPending {
    /// The dead-lettered copy as the worker publishes it (x-death recorded once).
    pub msg: Rc<Message>,
    pub reason: crate::death::Reason,
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
    /// While the queue holds it aside: why (set by `Queue::hold`, cleared at release).
    pub held_by: Option<crate::cause::HeldBy>,
}

/// Where a copy was when its TTL passed, if not waiting in its queue: only a message in
/// the queue expires, so it expires when it is back (`sim/returns.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Away {
    /// In the queue (or its TTL has not passed).
    No,
    /// Delivered, unacknowledged.
    Unacked,
    /// Held aside by its quorum queue (delayed retry, `x-opt-delivery-time`).
    Held(crate::cause::HeldBy),
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
    /// Messages held aside until their time, by (time, copy): see the module docs and
    /// `queue_held`.
    held: Held,
    /// The time the hold timer is armed for (`sim/hold.rs`).
    pub hold_timer_at_ms: Option<u64>,
    ready_bytes: u64,
    /// Body bytes of the held messages (they count toward `x-max-length-bytes`).
    held_bytes: u64,
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
            held: Held::new(),
            hold_timer_at_ms: None,
            ready_bytes: 0,
            held_bytes: 0,
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
        self.left_ready(&e);
        Some(e)
    }

    /// The first ready message behind the returns (4.3 quorum expiry looks at it too).
    pub fn first_ready(&self) -> Option<&Entry> {
        self.ready.front()
    }

    /// The head an expiry run starts at, if it has expired by `now_ms`: the next message
    /// (the returns first), or with `every` (4.3 quorum queues, D15) the first ready one
    /// behind a returned message that has not expired.
    pub fn expired_head(&self, now_ms: u64, every: bool) -> Option<&Entry> {
        let expired = |e: &&Entry| e.expires_at_ms <= now_ms;
        self.head()
            .filter(expired)
            .or_else(|| self.first_ready().filter(|e| every && expired(e)))
    }

    pub fn pop_first_ready(&mut self) -> Option<Entry> {
        let e = self.ready.pop_front()?;
        self.left_ready(&e);
        Some(e)
    }

    /// Every entry joining the ready messages comes through here.
    fn joins_ready(&mut self, e: &Entry) {
        self.ready_bytes += e.msg.body_bytes();
    }

    /// Every entry leaving the ready messages comes through here.
    ///
    /// It also prefetches the message `WARM_AHEAD` places behind: ready messages leave
    /// in the order they came, often long after (a TTL wait queue's head expiring), so
    /// each one's message is a cache miss; fetched a few leavings ahead, it is there
    /// when its turn comes instead of each leaving waiting for memory in turn.
    fn left_ready(&mut self, e: &Entry) {
        self.ready_bytes -= e.msg.body_bytes();
        if let Some(ahead) = self.ready.get(WARM_AHEAD) {
            crate::hint::prefetch(&*ahead.msg);
        }
    }

    pub fn push_back(&mut self, e: Entry) {
        self.joins_ready(&e);
        self.ready.push_back(e);
    }

    /// Quorum queue with a delivery limit: returns are served before ready messages,
    /// in the order they were returned.
    pub fn push_return(&mut self, e: Entry) {
        self.joins_ready(&e);
        self.returns.push_back(e);
    }

    /// Classic queue: back to the original position (entries are sorted by copy id).
    pub fn requeue_in_place(&mut self, e: Entry) {
        self.joins_ready(&e);
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
        self.left_ready(&e);
        Some(e)
    }

    /// Holds `e` aside until `until_ms` (not ready, not deliverable), for `by`.
    pub fn hold(&mut self, until_ms: u64, mut e: Entry, by: crate::cause::HeldBy) {
        debug_assert!(self.is_quorum(), "only quorum queues hold messages aside");
        e.held_by = Some(by);
        self.held_bytes += e.msg.body_bytes();
        self.held.insert(until_ms, e);
    }

    /// The earliest time a held message is due.
    pub fn next_held_ms(&self) -> Option<u64> {
        self.held.next_ms()
    }

    /// Takes out the earliest held message if it is due by `now_ms`, with its time (ties
    /// in arrival order), its `held_by` still telling why it was held. One at a time, not
    /// a list of the due ones: each hold timer releases about one message, and a list
    /// was an allocation per message (`delaylab bench --topology qq-delivery-time`).
    pub fn pop_due_held(&mut self, now_ms: u64) -> Option<(u64, Entry)> {
        let (at, e) = self.held.pop_due(now_ms)?;
        self.held_bytes -= e.msg.body_bytes();
        Some((at, e))
    }

    /// The `limit` held messages due first, with their due times, earliest first (for
    /// snapshots).
    pub fn earliest_held(&self, limit: usize) -> Vec<(u64, &Entry)> {
        self.held.earliest(limit)
    }

    /// Messages held aside (not ready, not deliverable).
    pub fn held_len(&self) -> u64 {
        self.held.len() as u64
    }

    /// Body bytes of the held messages.
    pub fn held_bytes(&self) -> u64 {
        self.held_bytes
    }

    /// Ready messages whose expiry has passed by `now_ms` but which are not the head:
    /// they wait behind it (head-of-line blocking). Exact, whatever the queue's size: a
    /// scan when asked (a snapshot, a check), not an index kept on every enqueue. At
    /// 200,000 ready messages the scan takes about 0.3 ms, far less than a frame; an
    /// index by expiry cost every message a tree insert and removal in the hot path
    /// (delaylab bench: dlx-per-message 2.98x the floor with it).
    pub fn overdue(&self, now_ms: u64) -> u64 {
        let passed = |e: &&Entry| e.expires_at_ms != NEVER && e.expires_at_ms <= now_ms;
        self.iter_ready().skip(1).filter(passed).count() as u64
    }

    /// Returned entries, served before the ready ones (quorum queues with a limit).
    pub fn returns_len(&self) -> usize {
        self.returns.len()
    }

    /// Ready entries, head first (for snapshots).
    pub fn iter_ready(&self) -> impl Iterator<Item = &Entry> {
        self.returns.iter().chain(self.ready.iter())
    }

    /// Takes every waiting entry out, ready ones head first, then the held ones
    /// (purge, delete, node loss: a purge counts the held ones too, D42).
    pub fn drain_ready(&mut self) -> Vec<Entry> {
        self.ready_bytes = 0;
        self.held_bytes = 0;
        let mut out: Vec<Entry> = self.returns.drain(..).collect();
        out.extend(self.ready.drain(..));
        out.extend(self.held.drain_sorted().into_iter().map(|(_, e)| e));
        out
    }

    /// Keeps only the ready entries for which `keep` is true (a classic queue's restart;
    /// classic queues hold nothing aside).
    pub fn retain_ready(&mut self, mut keep: impl FnMut(&Entry) -> bool) -> Vec<Entry> {
        debug_assert!(self.held.is_empty(), "only quorum queues hold messages");
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

    /// What the length limits count, and their body bytes: the ready messages, the held
    /// ones (`rabbit_fifo:messages_ready_plus_delayed/1`, D38) and the at-least-once dead
    /// letters not yet confirmed (`rabbit_fifo:is_over_limit/1`: `+ NumDlx`).
    pub fn len_for_limits(&self) -> (u64, u64) {
        (
            self.ready_len() + self.held_len() + self.dead_letter_len(),
            self.ready_bytes + self.held_bytes + self.dead_letter_bytes,
        )
    }

    /// Whether the queue is over a length limit (unacked messages do not count).
    pub fn over_limit(&self) -> bool {
        if self.rules.max_length.is_none() && self.rules.max_length_bytes.is_none() {
            return false; // most queues: nothing to add up (asked at every arrival)
        }
        let (len, bytes) = self.len_for_limits();
        self.rules.max_length.is_some_and(|m| len > m)
            || self.rules.max_length_bytes.is_some_and(|m| bytes > m)
    }

    /// Whether one more message of `bytes` would go over a limit (reject-publish check).
    pub fn would_overflow(&self, bytes: u64) -> bool {
        let (len, held) = self.len_for_limits();
        self.rules.max_length.is_some_and(|m| len + 1 > m)
            || self
                .rules
                .max_length_bytes
                .is_some_and(|m| held + bytes > m)
    }

    /// Quorum queues stop rejecting once back at or below 80 % of the limits.
    pub fn below_soft_limit(&self) -> bool {
        let soft = |m: u64| m.saturating_mul(8) / 10;
        let (len, bytes) = self.len_for_limits();
        self.rules.max_length.is_none_or(|m| len <= soft(m))
            && self.rules.max_length_bytes.is_none_or(|m| bytes <= soft(m))
    }
}
