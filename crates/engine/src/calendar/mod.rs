//! A calendar queue: what the engine holds until a time comes, earliest out first. Its
//! two users are the delayed-message exchange's store (`delayed.rs`) and what a quorum
//! queue holds aside (`queue_held.rs`: 4.3's delayed retry, 4.4's `x-opt-delivery-time`).
//!
//! At a million waiting messages this is the engine's hottest structure. An ordered map
//! or one binary heap costs a cache miss at each of its ~20 levels on every insert and
//! removal (`delaylab bench`: 4.5x the floor with a `BTreeMap` for held messages, 5.2x
//! with one heap). So: due times fall into buckets of 2^`BUCKET_SHIFT` ms; a bucket is an
//! unsorted list of chunks (`bucket.rs`: an insert is a push, and nothing is copied as
//! it grows) until its first item falls due, and is then gathered and sorted once into
//! release order (`releasing`). The next
//! `RING_BUCKETS` buckets (2.3 h of due times) sit in a ring indexed by bucket number, so
//! an insert is an index and a push; later ones wait in an ordered map and move into the
//! ring as it comes near them. A calendar with fewer than `RING_FROM` items keeps every
//! bucket in the map (the ring is 256 KB: a page's scenario has many small queues).
//!
//! An insert lands in a bucket last written thousands of inserts ago: a cache miss on a
//! store. The store buffer would hide it, but a load soon after that cannot be
//! forwarded from a store in flight (a value moved in two halves: an event, a routing
//! result) waits for every store before it, so each insert waited for memory in turn
//! (a tenth of `delaylab bench --topology qq-delivery-time`). So inserts wait in a small
//! `pending` list, a push into warm memory, and go into their buckets `PENDING_MAX` at a
//! time, or when the calendar is next read in order: one after the other in a tight
//! loop, their misses overlap.
//!
//! ```text
//! bucket      base  base+1 ...  cursor ...  base+RING-1 | far (BTreeMap)
//! ring slot   empty empty       first non-empty          | due >= 2.3 h ahead
//! ```
//!
//! No bucket before `base` (the one being released) holds anything. An item due before
//! `base` (a time the engine has already reached) goes into bucket `base`: every other
//! item is due later, so the order holds; one landing in the bucket being released is
//! put in its sorted place.
//!
//! ```text
//! t=0     insert A due 3000, B due 600    -> bucket 0 {B 600}, bucket 2 {A 3000}
//! t=600   pop_due(600): bucket 0 sorted into releasing [B]; B out
//! t=3000  pop_due(3000): bucket 2 sorted; A out; the calendar is empty
//! ```

use std::cmp::Ordering;
use std::collections::{BTreeMap, VecDeque};

mod bucket;
use bucket::Bucket;

/// A bucket spans 2^10 ms, about a second.
const BUCKET_SHIFT: u32 = 10;
/// Buckets kept in the ring (8192 x 1024 ms: the next 2.3 hours of due times).
const RING_BUCKETS: u64 = 8192;
/// A calendar opens its ring when it holds this many items.
const RING_FROM: usize = 1024;
/// Inserts waiting to go into their buckets, at most.
const PENDING_MAX: usize = 64;

/// What a calendar holds: an item due at a time, in a release order of its own.
pub trait Timed: Sized {
    fn due_ms(&self) -> u64;

    /// The order items come out in; it must order by `due_ms` first.
    fn release_order(a: &Self, b: &Self) -> Ordering;

    /// Sorts one bucket into release order (an item type may know a cheaper key).
    fn sort_bucket(items: &mut [Self]) {
        items.sort_unstable_by(Self::release_order);
    }

    /// Reads what releasing each item touches first, for a whole bucket at once: items
    /// come out in due order, not the order they were allocated in, so each is a cache
    /// miss; read in one pass the misses overlap, instead of each release waiting for
    /// memory in turn (a fifth of the plugin benchmark). Changes nothing but timing.
    fn warm(_items: &[Self]) {}
}

#[derive(Debug)]
pub struct Calendar<T> {
    /// Buckets `base .. base + RING_BUCKETS`, bucket `b` in slot `b % RING_BUCKETS`
    /// (empty until the calendar holds `RING_FROM` items).
    ring: Vec<Bucket<T>>,
    /// No item is in an earlier bucket (it is the one being released).
    base: u64,
    /// The first non-empty ring bucket (`base + RING_BUCKETS` when the ring is empty).
    cursor: u64,
    /// Items in the ring.
    ring_len: usize,
    /// Buckets outside the ring, by bucket number: all of them after the ring's.
    far: BTreeMap<u64, Bucket<T>>,
    /// Bucket `base` once something in it fell due, in release order.
    releasing: VecDeque<T>,
    /// Inserted, not yet in a bucket (at most `PENDING_MAX`).
    pending: Vec<T>,
    /// The earliest due time in `pending` (meaningless while it is empty).
    pending_min_ms: u64,
    /// Every item: releasing, ring, far and pending.
    len: usize,
}

impl<T> Default for Calendar<T> {
    fn default() -> Self {
        Calendar {
            ring: Vec::new(),
            base: 0,
            cursor: RING_BUCKETS,
            ring_len: 0,
            far: BTreeMap::new(),
            releasing: VecDeque::new(),
            pending: Vec::new(),
            pending_min_ms: 0,
            len: 0,
        }
    }
}

impl<T: Timed> Calendar<T> {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn insert(&mut self, item: T) {
        self.len += 1;
        let due_ms = item.due_ms();
        if self.pending.is_empty() || due_ms < self.pending_min_ms {
            self.pending_min_ms = due_ms;
        }
        if self.pending.capacity() == 0 {
            self.pending.reserve_exact(PENDING_MAX);
        }
        self.pending.push(item);
        if self.pending.len() >= PENDING_MAX {
            self.flush();
        }
    }

    /// Puts the pending inserts into their buckets: first the ring slots they go to are
    /// asked for, then the places in those buckets' chunks they will be written to, then
    /// they are written. Each pass's cache misses overlap, and the writes find their lines
    /// in the cache: a write that misses holds up, in the store buffer, every later load
    /// that cannot be forwarded a value (`sym.rs`'s `same_text` says how costly that is).
    fn flush(&mut self) {
        let mut pending = std::mem::take(&mut self.pending);
        if !self.ring.is_empty() {
            for item in &pending {
                if let Some(slot) = self.ring_slot(item.due_ms()) {
                    crate::hint::prefetch(slot);
                }
            }
            for item in &pending {
                if let Some(next) = self.ring_slot(item.due_ms()).and_then(Bucket::next_slot) {
                    crate::hint::prefetch(next);
                }
            }
        }
        for item in pending.drain(..) {
            self.place(item);
        }
        self.pending = pending;
    }

    /// The ring bucket an item due at `due_ms` goes into, if it goes into the ring.
    fn ring_slot(&self, due_ms: u64) -> Option<&Bucket<T>> {
        let bucket = self.bucket_of(due_ms);
        (bucket < self.base + RING_BUCKETS).then(|| self.slot(bucket))
    }

    fn place(&mut self, item: T) {
        let bucket = self.bucket_of(item.due_ms());
        if bucket == self.base && !self.releasing.is_empty() {
            let at = self
                .releasing
                .partition_point(|h| T::release_order(h, &item) == Ordering::Less);
            self.releasing.insert(at, item);
            return;
        }
        if self.ring.is_empty() && self.len >= RING_FROM {
            self.open_ring(bucket);
        }
        if !self.ring.is_empty() && bucket < self.base + RING_BUCKETS {
            self.slot_mut(bucket).push(item);
            self.ring_len += 1;
            self.cursor = self.cursor.min(bucket);
        } else {
            self.far.entry(bucket).or_default().push(item);
        }
    }

    /// Allocates the ring from the earliest bucket held (or `bucket`, the one about to
    /// be filled) and moves the buckets it covers into it.
    fn open_ring(&mut self, bucket: u64) {
        self.ring
            .resize_with(RING_BUCKETS as usize, Bucket::default);
        if self.releasing.is_empty() {
            let first = self.far.first_key_value().map_or(bucket, |(b, _)| *b);
            self.base = first.min(bucket);
        }
        self.cursor = self.base + RING_BUCKETS;
        self.pull_near();
    }

    /// Moves the far buckets the ring now covers into it.
    fn pull_near(&mut self) {
        if self.ring.is_empty() {
            return;
        }
        while let Some(entry) = self.far.first_entry() {
            let b = *entry.key();
            if b >= self.base + RING_BUCKETS {
                break;
            }
            debug_assert!(b >= self.base, "a far bucket before the ring");
            let far = entry.remove();
            self.ring_len += far.len();
            self.cursor = self.cursor.min(b);
            let slot = self.slot_mut(b);
            debug_assert!(slot.is_empty(), "two buckets in one slot");
            *slot = far;
        }
    }

    pub fn next_due_ms(&self) -> Option<u64> {
        let pending = (!self.pending.is_empty()).then_some(self.pending_min_ms);
        let placed = if let Some(item) = self.releasing.front() {
            Some(item.due_ms())
        } else if self.ring_len > 0 {
            Some(self.slot(self.cursor).earliest_ms)
        } else {
            self.far.first_key_value().map(|(_, b)| b.earliest_ms)
        };
        match (placed, pending) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The next item in release order if it is due by `now_ms`.
    pub fn pop_due(&mut self, now_ms: u64) -> Option<T> {
        if self.next_due_ms()? > now_ms {
            return None;
        }
        self.flush();
        if self.releasing.is_empty() {
            self.start_releasing();
        }
        self.len -= 1;
        self.releasing.pop_front()
    }

    /// Sorts the first non-empty bucket into `releasing` and moves the ring on to it.
    fn start_releasing(&mut self) {
        let (bucket, mut items) = if self.ring_len > 0 {
            let b = self.cursor;
            let items = self.slot_mut(b).take_vec();
            self.ring_len -= items.len();
            (b, items)
        } else {
            match self.far.pop_first() {
                Some((b, mut far)) => (b, far.take_vec()),
                None => return,
            }
        };
        T::sort_bucket(&mut items);
        T::warm(&items);
        self.releasing = items.into();
        self.base = bucket;
        self.cursor = bucket + RING_BUCKETS;
        if self.ring_len > 0 {
            self.cursor = (bucket + 1..bucket + RING_BUCKETS)
                .find(|b| !self.slot(*b).is_empty())
                .expect("ring_len counts an item");
        }
        self.pull_near();
    }

    /// Takes out the item due at `due_ms` that `is` picks.
    pub fn remove(&mut self, due_ms: u64, mut is: impl FnMut(&T) -> bool) -> Option<T> {
        self.flush();
        let bucket = self.bucket_of(due_ms);
        let item = if let Some(at) = self.releasing.iter().position(&mut is) {
            self.releasing.remove(at)?
        } else if !self.ring.is_empty() && bucket < self.base + RING_BUCKETS {
            let item = self.slot_mut(bucket).take(is)?;
            self.ring_len -= 1;
            if bucket == self.cursor && self.slot(bucket).is_empty() {
                let end = self.base + RING_BUCKETS;
                self.cursor = (bucket + 1..end)
                    .find(|b| !self.slot(*b).is_empty())
                    .unwrap_or(end);
            }
            item
        } else {
            let far = self.far.get_mut(&bucket)?;
            let item = far.take(is)?;
            if far.is_empty() {
                self.far.remove(&bucket);
            }
            item
        };
        self.len -= 1;
        Some(item)
    }

    /// The bucket an item due at `due_ms` goes into: its own, or the one being released
    /// if its time has already been reached (see the module docs).
    fn bucket_of(&self, due_ms: u64) -> u64 {
        (due_ms >> BUCKET_SHIFT).max(self.base)
    }

    fn slot(&self, bucket: u64) -> &Bucket<T> {
        &self.ring[(bucket % RING_BUCKETS) as usize]
    }

    fn slot_mut(&mut self, bucket: u64) -> &mut Bucket<T> {
        &mut self.ring[(bucket % RING_BUCKETS) as usize]
    }

    /// The waiting buckets (not `releasing`) in bucket order.
    fn buckets(&self) -> impl Iterator<Item = &Bucket<T>> {
        let ring = (!self.ring.is_empty())
            .then(|| (self.base..self.base + RING_BUCKETS).map(|b| self.slot(b)));
        ring.into_iter().flatten().chain(self.far.values())
    }

    /// Every item, in no particular order.
    pub fn iter_unordered(&self) -> impl Iterator<Item = &T> {
        self.releasing
            .iter()
            .chain(self.buckets().flat_map(|b| b.iter()))
            .chain(&self.pending)
    }

    /// Every item in release order, each bucket sorted when reached: `take(n)` sorts
    /// only the buckets the first n are in (for snapshots).
    pub fn iter_sorted(&self) -> impl Iterator<Item = &T> {
        let later = self.buckets().filter(|b| !b.is_empty()).flat_map(|b| {
            let mut items: Vec<&T> = b.iter().collect();
            items.sort_unstable_by(|x, y| T::release_order(x, y));
            items
        });
        let mut placed = self.releasing.iter().chain(later).peekable();
        let mut pending: Vec<&T> = self.pending.iter().collect();
        pending.sort_unstable_by(|x, y| T::release_order(x, y));
        let mut pending = pending.into_iter().peekable();
        std::iter::from_fn(move || match (placed.peek(), pending.peek()) {
            (Some(a), Some(b)) if T::release_order(b, a) == Ordering::Less => pending.next(),
            (Some(_), _) => placed.next(),
            (None, _) => pending.next(),
        })
    }

    /// Empties the calendar, in release order (a node gone, a queue purged).
    pub fn take_all(&mut self) -> Vec<T> {
        self.flush();
        let mut all: Vec<T> = self.releasing.drain(..).collect();
        for b in self.ring.iter_mut() {
            all.append(&mut b.take_vec());
        }
        all.extend(
            std::mem::take(&mut self.far)
                .into_values()
                .flat_map(|mut b| b.take_vec()),
        );
        all.sort_unstable_by(T::release_order);
        self.len = 0;
        self.ring_len = 0;
        self.cursor = self.base + RING_BUCKETS;
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// (due, arrival): out by due time, then arrival.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
    struct Item(u64, u64);

    impl Timed for Item {
        fn due_ms(&self) -> u64 {
            self.0
        }
        fn release_order(a: &Self, b: &Self) -> Ordering {
            (a.0, a.1).cmp(&(b.0, b.1))
        }
    }

    #[test]
    fn a_small_calendar_keeps_its_buckets_in_the_map() {
        let mut c = Calendar::default();
        for (due, n) in [(3000, 1), (600, 2), (600, 3)] {
            c.insert(Item(due, n));
        }
        assert!(c.ring.is_empty());
        assert_eq!(c.next_due_ms(), Some(600));
        assert_eq!(c.pop_due(599), None);
        assert_eq!(c.pop_due(600), Some(Item(600, 2)));
        // Into the bucket being released, before what is left of it.
        c.insert(Item(601, 4));
        assert_eq!(c.pop_due(u64::MAX), Some(Item(600, 3)));
        assert_eq!(c.pop_due(u64::MAX), Some(Item(601, 4)));
        assert_eq!(c.pop_due(u64::MAX), Some(Item(3000, 1)));
        assert!(c.is_empty() && c.next_due_ms().is_none());
    }

    /// Random inserts (near, far, into the bucket being released), pops and removals,
    /// across the ring's opening, against a sorted reference.
    #[test]
    fn matches_a_sorted_reference_through_the_ring_and_far_map() {
        for seed in 1..=4 {
            let mut rng = Rng::new(seed);
            let mut c = Calendar::default();
            let mut reference: Vec<Item> = Vec::new();
            let mut now = 0u64;
            let mut arrival = 0u64;
            for step in 0..30_000u64 {
                match rng.range_u64(0, 9) {
                    0..=5 => {
                        // Most due within 2 h, some days ahead (far).
                        let ahead = if rng.range_u64(0, 19) == 0 {
                            rng.range_u64(1, 40_000_000)
                        } else {
                            rng.range_u64(1, 7_200_000)
                        };
                        arrival += 1;
                        let item = Item(now + ahead, arrival);
                        c.insert(item);
                        reference.push(item);
                    }
                    6..=8 => {
                        now += rng.range_u64(0, 5_000);
                        reference.sort_unstable();
                        while let Some(item) = c.pop_due(now) {
                            assert_eq!(item, reference.remove(0), "seed {seed} step {step}");
                        }
                        assert!(reference.first().is_none_or(|r| r.0 > now));
                    }
                    _ if !reference.is_empty() => {
                        let at = rng.range_u64(0, reference.len() as u64 - 1) as usize;
                        let gone = reference.swap_remove(at);
                        assert_eq!(c.remove(gone.0, |i| *i == gone), Some(gone));
                        assert_eq!(c.remove(gone.0, |i| *i == gone), None, "only once");
                    }
                    _ => {}
                }
                assert_eq!(c.len(), reference.len());
                assert_eq!(c.next_due_ms(), reference.iter().map(|r| r.0).min());
                if step % 997 == 0 {
                    // In order, inserts not yet in their buckets included.
                    let mut sorted = reference.clone();
                    sorted.sort_unstable();
                    let listed: Vec<Item> = c.iter_sorted().take(300).copied().collect();
                    assert_eq!(listed[..], sorted[..sorted.len().min(300)]);
                }
            }
            assert!(!c.ring.is_empty(), "the ring opened");
            reference.sort_unstable();
            let listed: Vec<Item> = c.iter_sorted().copied().collect();
            assert_eq!(listed, reference);
            assert_eq!(c.iter_unordered().count(), reference.len());
            assert_eq!(c.take_all(), reference);
            assert!(c.is_empty() && c.next_due_ms().is_none());
        }
    }
}
