//! The messages a quorum queue holds aside until their time (4.3's delayed retry, 4.4's
//! `x-opt-delivery-time`), earliest out first, ties in arrival order (copies are
//! numbered so).
//!
//! `rabbit_fifo` keys them by (time, Raft index) in a tree; what the simulation asks of
//! them is a priority queue's work: add one, look at the earliest, take the due ones out
//! earliest first. At a million held messages an ordered tree (or one binary heap) costs
//! a cache miss at each of its ~20 levels on every insert and removal: `delaylab bench
//! --topology qq-delivery-time` spent more time there than in the whole floor (a binary
//! heap of 16-byte keys), 4.5x the floor with a `BTreeMap`, 5.2x with one heap of boxed
//! entries. So: a calendar. Due times are cut into spans of `SPAN_MS`; each span holds its
//! messages in a small binary heap, and the spans sit in a small ordered map (a million
//! messages over two hours: 7,000 spans of 140). An insert is a map lookup among few
//! keys and a push at the end of its span's heap; taking the earliest pops the first
//! span's heap, which fits in cache. Messages all due in one span (a page's scenario)
//! make it one heap: no worse than before. A span is a plain pile until messages are
//! taken from it (a heap's push compares with a parent half a span away: a cache miss
//! on every insert into one of 7,000 spans), then one heap built in place.
//!
//! Entries live in the heaps themselves, not boxed: they come out in time order, not
//! the order they went in, and a box is one cache miss and one allocation more each.

use std::cmp::{Ordering, Reverse};
use std::collections::{BTreeMap, BinaryHeap};

use crate::ids::CopyId;
use crate::queue::Entry;

/// The width of a calendar span: 2^10 ms, about a second.
const SPAN_SHIFT: u32 = 10;

/// One held message, due at `at_ms`.
#[derive(Debug)]
struct Slot {
    at_ms: u64,
    entry: Entry,
}

impl Slot {
    fn key(&self) -> (u64, CopyId) {
        (self.at_ms, self.entry.copy)
    }
}

impl PartialEq for Slot {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl Eq for Slot {}
impl PartialOrd for Slot {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Slot {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

/// A span's messages: a pile while only added to (a push at its end, whose cache line
/// stays warm), a heap once messages are taken from it (it is the first span then, and
/// it fits in cache). A pile knows its earliest time.
#[derive(Debug)]
enum Span {
    Pile {
        first_ms: u64,
        slots: Vec<Reverse<Slot>>,
    },
    Heap(BinaryHeap<Reverse<Slot>>),
}

impl Span {
    fn first_ms(&self) -> u64 {
        match self {
            Span::Pile { first_ms, .. } => *first_ms,
            Span::Heap(h) => h.peek().expect("no span is empty").0.at_ms,
        }
    }

    fn push(&mut self, slot: Slot) {
        match self {
            Span::Pile { first_ms, slots } => {
                *first_ms = (*first_ms).min(slot.at_ms);
                if slots.len() == slots.capacity() {
                    // Half again, not double: at a million held messages a span's
                    // unused room is most of what the structure costs beyond them.
                    slots.reserve_exact((slots.len() / 2).max(4));
                }
                slots.push(Reverse(slot));
            }
            Span::Heap(h) => h.push(Reverse(slot)),
        }
    }

    fn heap(&mut self) -> &mut BinaryHeap<Reverse<Slot>> {
        if let Span::Pile { slots, .. } = self {
            *self = Span::Heap(BinaryHeap::from(std::mem::take(slots)));
        }
        let Span::Heap(h) = self else {
            unreachable!("made a heap above")
        };
        h
    }

    fn slots(&self) -> &[Reverse<Slot>] {
        match self {
            Span::Pile { slots, .. } => slots,
            Span::Heap(h) => h.as_slice(),
        }
    }

    fn into_slots(self) -> Vec<Reverse<Slot>> {
        match self {
            Span::Pile { slots, .. } => slots,
            Span::Heap(h) => h.into_vec(),
        }
    }
}

/// Held messages by (due time, copy), earliest out first.
#[derive(Debug, Default)]
pub struct Held {
    /// Span (`at_ms >> SPAN_SHIFT`) to its messages; no span is empty.
    spans: BTreeMap<u64, Span>,
    len: usize,
}

impl Held {
    pub fn new() -> Held {
        Held::default()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Holds `entry` until `at_ms`. A copy is held once at a time (the caller's
    /// invariant: a held copy is nowhere else).
    pub fn insert(&mut self, at_ms: u64, entry: Entry) {
        let slot = Slot { at_ms, entry };
        match self.spans.entry(at_ms >> SPAN_SHIFT) {
            std::collections::btree_map::Entry::Occupied(mut o) => o.get_mut().push(slot),
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert(Span::Pile {
                    first_ms: at_ms,
                    slots: vec![Reverse(slot)],
                });
            }
        }
        self.len += 1;
    }

    /// The earliest due time.
    pub fn next_ms(&self) -> Option<u64> {
        self.spans.first_key_value().map(|(_, s)| s.first_ms())
    }

    /// Takes out the earliest held message if it is due by `now_ms`.
    pub fn pop_due(&mut self, now_ms: u64) -> Option<(u64, Entry)> {
        let mut first = self.spans.first_entry()?;
        if first.get().first_ms() > now_ms {
            return None;
        }
        let heap = first.get_mut().heap();
        let Reverse(s) = heap.pop().expect("no span is empty");
        if heap.is_empty() {
            first.remove();
        }
        self.len -= 1;
        Some((s.at_ms, s.entry))
    }

    /// The `limit` earliest, in order (a snapshot's list): the first spans that hold
    /// `limit` messages, sorted.
    pub fn earliest(&self, limit: usize) -> Vec<(u64, &Entry)> {
        let mut out: Vec<&Slot> = Vec::new();
        for span in self.spans.values() {
            if out.len() >= limit {
                break;
            }
            out.extend(span.slots().iter().map(|Reverse(s)| s));
        }
        out.sort_unstable();
        out.truncate(limit);
        out.into_iter().map(|s| (s.at_ms, &s.entry)).collect()
    }

    /// Takes every held message out, earliest first.
    pub fn drain_sorted(&mut self) -> Vec<(u64, Entry)> {
        self.len = 0;
        let mut out = Vec::new();
        for (_, span) in std::mem::take(&mut self.spans) {
            let mut slots = span.into_slots();
            slots.sort_unstable_by(|a, b| b.cmp(a)); // Reverse: earliest first
            out.extend(slots.into_iter().map(|Reverse(s)| (s.at_ms, s.entry)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::MsgId;
    use crate::message::{Message, RoutingKeys};
    use crate::queue::{Away, NEVER};
    use crate::sym::Symbols;
    use std::rc::Rc;

    fn entry(copy: u64) -> Entry {
        let mut syms = Symbols::default();
        let q = syms.intern("q");
        let msg = Message {
            id: MsgId(copy as u32),
            exchange: syms.intern(""),
            routing_keys: RoutingKeys::One(q),
            published_at_ms: 0,
            body: "m".into(),
            expiration: None,
            delivery_mode: 2,
            headers: crate::value::Table::new(),
            rare: None,
            deaths: None,
            delayed_by_ms: None,
        };
        Entry {
            copy: CopyId(copy),
            msg: Rc::new(msg),
            expires_at_ms: NEVER,
            redelivered: false,
            returns: 0,
            failed: 0,
            away_at_ttl: Away::No,
            held_by: None,
        }
    }

    #[test]
    fn out_by_time_then_arrival() {
        let mut h = Held::new();
        // Timeline: held at 30:00, 5:00, 0:10 and a second one at 5:00 (arrived last).
        for (copy, at) in [(1, 1_800_000), (2, 300_000), (3, 10_000), (4, 300_000)] {
            h.insert(at, entry(copy));
        }
        assert_eq!(h.next_ms(), Some(10_000));
        assert!(h.pop_due(9_999).is_none(), "nothing due before 0:10");
        let copies =
            |v: Vec<(u64, &Entry)>| v.iter().map(|(t, e)| (*t, e.copy.0)).collect::<Vec<_>>();
        assert_eq!(
            copies(h.earliest(3)),
            vec![(10_000, 3), (300_000, 2), (300_000, 4)]
        );
        let mut out = Vec::new();
        while let Some((t, e)) = h.pop_due(300_000) {
            out.push((t, e.copy.0));
        }
        assert_eq!(out, vec![(10_000, 3), (300_000, 2), (300_000, 4)]);
        assert_eq!(h.len(), 1);
        let rest: Vec<_> = h
            .drain_sorted()
            .into_iter()
            .map(|(t, e)| (t, e.copy.0))
            .collect();
        assert_eq!(rest, vec![(1_800_000, 1)]);
        assert!(h.is_empty());
    }

    #[test]
    fn earliest_of_many_matches_a_full_sort() {
        let mut h = Held::new();
        let mut rng = crate::rng::Rng::new(7);
        let mut keys = Vec::new();
        for copy in 0..500 {
            let at = rng.range_u64(0, 50);
            h.insert(at, entry(copy));
            keys.push((at, copy));
        }
        keys.sort_unstable();
        for limit in [0, 1, 60, 500, 900] {
            let got: Vec<_> = h
                .earliest(limit)
                .iter()
                .map(|(t, e)| (*t, e.copy.0))
                .collect();
            assert_eq!(got, keys.iter().take(limit).copied().collect::<Vec<_>>());
        }
    }
}
