//! The messages a quorum queue holds aside until their time (4.3's delayed retry, 4.4's
//! `x-opt-delivery-time`), earliest out first, ties in arrival order (copies are
//! numbered so).
//!
//! `rabbit_fifo` keys them by (time, Raft index) in a tree; what the simulation asks of
//! them is a priority queue's work: add one, look at the earliest, take the due ones out
//! earliest first. At a million held messages an ordered tree costs a cache miss at each
//! level on every insert (`delaylab bench --topology qq-delivery-time`: 4.5x the floor
//! with a `BTreeMap`), so they wait in a calendar queue (`calendar/`), as the
//! delayed exchange's messages do. Entries live in the calendar's buckets themselves,
//! not boxed: they come out in time order, not the order they went in, and a box is one
//! cache miss and one allocation more each.

use std::cmp::Ordering;

use crate::calendar::{Calendar, Timed};
use crate::queue::Entry;

/// One held message, due at `at_ms`.
#[derive(Debug)]
struct Slot {
    at_ms: u64,
    entry: Entry,
}

impl Timed for Slot {
    fn due_ms(&self) -> u64 {
        self.at_ms
    }

    fn release_order(a: &Self, b: &Self) -> Ordering {
        (a.at_ms, a.entry.copy).cmp(&(b.at_ms, b.entry.copy))
    }

    fn sort_bucket(items: &mut [Self]) {
        items.sort_unstable_by_key(|s| (s.at_ms, s.entry.copy));
    }

    fn warm(items: &[Self]) {
        crate::message::warm(items.iter().map(|s| &*s.entry.msg));
    }
}

#[derive(Debug, Default)]
pub struct Held {
    calendar: Calendar<Slot>,
}

impl Held {
    pub fn new() -> Held {
        Held::default()
    }

    pub fn len(&self) -> usize {
        self.calendar.len()
    }

    pub fn is_empty(&self) -> bool {
        self.calendar.is_empty()
    }

    /// Holds `entry` until `at_ms`.
    pub fn insert(&mut self, at_ms: u64, entry: Entry) {
        self.calendar.insert(Slot { at_ms, entry });
    }

    /// The earliest due time held.
    pub fn next_ms(&self) -> Option<u64> {
        self.calendar.next_due_ms()
    }

    /// The earliest held message if it is due by `now_ms`, with its due time.
    pub fn pop_due(&mut self, now_ms: u64) -> Option<(u64, Entry)> {
        let s = self.calendar.pop_due(now_ms)?;
        Some((s.at_ms, s.entry))
    }

    /// The `limit` messages due first, earliest first (a snapshot's; only the buckets
    /// they are in are sorted).
    pub fn earliest(&self, limit: usize) -> Vec<(u64, &Entry)> {
        let first = self.calendar.iter_sorted().take(limit);
        first.map(|s| (s.at_ms, &s.entry)).collect()
    }

    /// Takes every held message out, earliest first.
    pub fn drain_sorted(&mut self) -> Vec<(u64, Entry)> {
        let all = self.calendar.take_all();
        all.into_iter().map(|s| (s.at_ms, s.entry)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{CopyId, MsgId};
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
