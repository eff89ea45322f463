//! The delayed-message exchange's store (rabbitmq-delayed-message-exchange 3.10.2).
//!
//! Messages come out in (due time, exchange name, publish order): the plugin's Mnesia
//! index orders keys by timestamp, then by the exchange record (vhost, name), and
//! messages with the same key come out in insertion order. One copy per node, never
//! replicated: `lose` empties it.
//!
//! ```text
//! t=0    publish A x-delay 3000  -> store {(3000, A)}
//! t=100  publish B x-delay 500   -> store {(600, B), (3000, A)}
//! t=600  B due, routed with the bindings of t=600; t=3000 A due
//! ```
//!
//! A million waiting messages make this the engine's hottest structure, so it is a
//! calendar queue rather than one big ordered map (whose inserts were a cache miss per
//! tree level). Due times fall into buckets of `BUCKET_MS`; a bucket is an unsorted
//! `Vec` (an insert is a push) until its first message falls due, and is then sorted
//! once into release order (`releasing`). The next `RING_BUCKETS` buckets (2.3 h of due
//! times) sit in a ring indexed by bucket number, so an insert is an index and a push;
//! later ones wait in an ordered map and move into the ring as it comes near them.
//!
//! ```text
//! bucket      base  base+1 ...  cursor ...  base+RING-1 | far (BTreeMap)
//! ring slot   empty empty       first non-empty          | due >= 2.3 h ahead
//! ```
//!
//! The store only ever gets messages due after now, so nothing lands in an earlier
//! bucket than the one being released (`base`); one landing in that bucket is put in
//! its sorted place. Copy ids grow in publish order, so (due, name, copy) is the
//! release order. The exchange record is shared by every message stored through the
//! same (unchanged) exchange.

use std::cmp::Ordering;
use std::collections::{BTreeMap, VecDeque};
use std::hint::black_box;
use std::num::NonZeroU32;
use std::rc::Rc;

use crate::amqp::exchange_args::ExchangeKind;
use crate::ids::CopyId;
use crate::message::Message;
use crate::sym::Sym;

/// The span of due times one bucket holds.
const BUCKET_MS: u64 = 1024;
/// Buckets kept in the ring (8192 x 1024 ms: the next 2.3 hours of due times).
const RING_BUCKETS: u64 = 8192;

/// What routing at the due time needs from the exchange as it was at publish.
#[derive(Clone, Debug, PartialEq)]
pub struct ExchangeRecord {
    pub name: Sym,
    pub name_str: Rc<str>,
    pub kind: ExchangeKind,
    pub alternate: Option<Sym>,
}

#[derive(Clone, Debug)]
pub struct Stored {
    /// The message as published (`delayed_by_ms` is set when it is released).
    pub msg: Rc<Message>,
    pub exchange: Rc<ExchangeRecord>,
    /// How long the exchange holds it.
    pub delay_ms: NonZeroU32,
}

/// (due time, copy, what is stored).
type Held = (u64, CopyId, Stored);

#[derive(Debug, Default)]
struct Bucket {
    /// The earliest due time held (meaningless while `held` is empty).
    earliest_ms: u64,
    held: Vec<Held>,
}

impl Bucket {
    fn push(&mut self, held: Held) {
        if self.held.is_empty() || held.0 < self.earliest_ms {
            self.earliest_ms = held.0;
        }
        self.held.push(held);
    }
}

#[derive(Debug, Default)]
pub struct DelayedStore {
    /// Buckets `base .. base + RING_BUCKETS`, bucket `b` in slot `b % RING_BUCKETS`
    /// (allocated with the first message).
    ring: Vec<Bucket>,
    /// No message is ever due in an earlier bucket (it is the one being released).
    base: u64,
    /// The first non-empty ring bucket (`base + RING_BUCKETS` when the ring is empty).
    cursor: u64,
    /// Messages in the ring.
    ring_len: usize,
    /// Buckets from `base + RING_BUCKETS` on, by bucket number.
    far: BTreeMap<u64, Bucket>,
    /// Bucket `base` once something in it fell due, in release order.
    releasing: VecDeque<Held>,
    len: usize,
    /// The record last stored for each exchange name, to share.
    records: BTreeMap<Sym, Rc<ExchangeRecord>>,
}

impl DelayedStore {
    /// Stores a copy due at `due_ms`, which is after every due time released so far.
    pub fn insert(
        &mut self,
        due_ms: u64,
        copy: CopyId,
        msg: Rc<Message>,
        record: ExchangeRecord,
        delay_ms: NonZeroU32,
    ) {
        let held = (
            due_ms,
            copy,
            Stored {
                msg,
                exchange: self.shared(record),
                delay_ms,
            },
        );
        self.len += 1;
        if self.ring.is_empty() {
            self.ring
                .resize_with(RING_BUCKETS as usize, Bucket::default);
            // Stored at `due_ms - delay_ms` (now): nothing later can be due before that.
            self.base = due_ms.saturating_sub(u64::from(delay_ms.get())) / BUCKET_MS;
            self.cursor = self.base + RING_BUCKETS;
        }
        debug_assert!(
            due_ms / BUCKET_MS >= self.base,
            "due before the bucket being released"
        );
        let bucket = (due_ms / BUCKET_MS).max(self.base);
        if bucket == self.base && !self.releasing.is_empty() {
            let at = self
                .releasing
                .partition_point(|h| release_order(h, &held) == Ordering::Less);
            self.releasing.insert(at, held);
        } else if bucket < self.base + RING_BUCKETS {
            self.ring[(bucket % RING_BUCKETS) as usize].push(held);
            self.ring_len += 1;
            self.cursor = self.cursor.min(bucket);
        } else {
            self.far.entry(bucket).or_default().push(held);
        }
    }

    fn shared(&mut self, record: ExchangeRecord) -> Rc<ExchangeRecord> {
        match self.records.get(&record.name) {
            Some(known) if **known == record => known.clone(),
            _ => {
                let shared = Rc::new(record);
                self.records.insert(shared.name, shared.clone());
                shared
            }
        }
    }

    pub fn next_due_ms(&self) -> Option<u64> {
        if let Some((due, _, _)) = self.releasing.front() {
            return Some(*due);
        }
        if self.ring_len > 0 {
            return Some(self.slot(self.cursor).earliest_ms);
        }
        self.far.first_key_value().map(|(_, b)| b.earliest_ms)
    }

    /// Takes the next entry if it is due at `now_ms`; returns (due, copy, stored).
    pub fn pop_due(&mut self, now_ms: u64) -> Option<(u64, CopyId, Stored)> {
        if self.next_due_ms()? > now_ms {
            return None;
        }
        if self.releasing.is_empty() {
            self.start_releasing();
        }
        self.len -= 1;
        self.releasing.pop_front()
    }

    /// Moves the earliest bucket into `releasing`, sorted, and makes it the base.
    fn start_releasing(&mut self) {
        let (bucket, mut held) = if self.ring_len > 0 {
            let b = self.cursor;
            let held = std::mem::take(&mut self.ring[(b % RING_BUCKETS) as usize].held);
            self.ring_len -= held.len();
            (b, held)
        } else {
            match self.far.pop_first() {
                Some((b, far)) => (b, far.held),
                None => return,
            }
        };
        sort_for_release(&mut held);
        warm(&held);
        self.releasing = held.into();
        self.base = bucket;
        self.cursor = bucket + RING_BUCKETS;
        if self.ring_len > 0 {
            // Every ring bucket before `bucket` was empty, so the ring keeps its slots.
            self.cursor = (bucket + 1..bucket + RING_BUCKETS)
                .find(|b| !self.slot(*b).held.is_empty())
                .expect("ring_len counts a message");
        }
        while let Some(entry) = self.far.first_entry() {
            let b = *entry.key();
            if b >= self.base + RING_BUCKETS {
                break;
            }
            let far = entry.remove();
            self.ring_len += far.held.len();
            self.cursor = self.cursor.min(b);
            *self.slot_mut(b) = far;
        }
    }

    /// Takes out the copy stored due at `due_ms` (the order lab's `lost_in_store`).
    /// Buckets are unsorted until released, so a swap-remove keeps them valid.
    pub fn remove(&mut self, due_ms: u64, copy: CopyId) -> Option<Stored> {
        let bucket = (due_ms / BUCKET_MS).max(self.base);
        let held = if let Some(at) = self.releasing.iter().position(|h| h.1 == copy) {
            self.releasing.remove(at)?
        } else if !self.ring.is_empty() && bucket < self.base + RING_BUCKETS {
            let held = take_from(self.slot_mut(bucket), copy)?;
            self.ring_len -= 1;
            if bucket == self.cursor && self.slot(bucket).held.is_empty() {
                let end = self.base + RING_BUCKETS;
                self.cursor = (bucket + 1..end)
                    .find(|b| !self.slot(*b).held.is_empty())
                    .unwrap_or(end);
            }
            held
        } else {
            let far = self.far.get_mut(&bucket)?;
            let held = take_from(far, copy)?;
            if far.held.is_empty() {
                self.far.remove(&bucket);
            }
            held
        };
        self.len -= 1;
        Some(held.2)
    }

    fn slot(&self, bucket: u64) -> &Bucket {
        &self.ring[(bucket % RING_BUCKETS) as usize]
    }

    fn slot_mut(&mut self, bucket: u64) -> &mut Bucket {
        &mut self.ring[(bucket % RING_BUCKETS) as usize]
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `messages_delayed` of an exchange name (counts what was stored under that name).
    pub fn count_for(&self, exchange: Sym) -> u64 {
        let all = self
            .releasing
            .iter()
            .chain(self.buckets().flat_map(|b| &b.held));
        all.filter(|(_, _, s)| s.exchange.name == exchange).count() as u64
    }

    /// The waiting buckets (not `releasing`) in bucket order.
    fn buckets(&self) -> impl Iterator<Item = &Bucket> {
        let ring = (!self.ring.is_empty())
            .then(|| (self.base..self.base + RING_BUCKETS).map(|b| self.slot(b)));
        ring.into_iter().flatten().chain(self.far.values())
    }

    /// Entries in release order, for snapshots (a bucket is sorted when reached).
    pub fn iter(&self) -> impl Iterator<Item = (u64, CopyId, &Stored)> {
        let later = self.buckets().filter(|b| !b.held.is_empty()).flat_map(|b| {
            let mut held: Vec<&Held> = b.held.iter().collect();
            held.sort_unstable_by(|x, y| release_order(x, y));
            held
        });
        self.releasing
            .iter()
            .chain(later)
            .map(|(due, copy, s)| (*due, *copy, s))
    }

    /// Empties the store (the node holding it is gone), in release order.
    pub fn take_all(&mut self) -> Vec<(u64, CopyId, Stored)> {
        let mut all: Vec<Held> = self.releasing.drain(..).collect();
        for b in self.ring.iter_mut() {
            all.append(&mut b.held);
        }
        all.extend(
            std::mem::take(&mut self.far)
                .into_values()
                .flat_map(|b| b.held),
        );
        all.sort_unstable_by(release_order);
        self.len = 0;
        self.ring_len = 0;
        self.cursor = self.base + RING_BUCKETS;
        all
    }
}

/// Swap-removes `copy` from an (unsorted) bucket and recomputes its earliest due time.
fn take_from(b: &mut Bucket, copy: CopyId) -> Option<Held> {
    let at = b.held.iter().position(|h| h.1 == copy)?;
    let held = b.held.swap_remove(at);
    b.earliest_ms = b.held.iter().map(|h| h.0).min().unwrap_or(0);
    Some(held)
}

/// Reads what releasing each message of a bucket touches first (the message, its body
/// and its headers, which are freed after delivery), for all of them at once. They were
/// allocated in publish order and come out in due order, so each is a cache miss; read
/// here in one pass the misses overlap, instead of each release waiting for memory in
/// turn (they were a fifth of the plugin benchmark). Changes nothing but timing.
fn warm(held: &[Held]) {
    for (_, _, s) in held {
        black_box(Rc::strong_count(&s.msg));
    }
    for (_, _, s) in held {
        let m = &*s.msg;
        black_box((
            m.id,
            m.body.as_bytes().first().copied(),
            m.headers.iter().next().map(|(k, _)| k.len()),
        ));
    }
}

/// Sorts a bucket into release order. Usually every message of a bucket came through
/// one exchange (one shared record): then (due, copy) is the order, compared as plain
/// integers without looking at the records (a third of sorting a bucket).
fn sort_for_release(held: &mut [Held]) {
    let one_exchange = held.split_first().is_none_or(|(first, rest)| {
        rest.iter()
            .all(|h| Rc::ptr_eq(&h.2.exchange, &first.2.exchange))
    });
    if one_exchange {
        held.sort_unstable_by_key(|h| (h.0, h.1));
    } else {
        held.sort_unstable_by(release_order);
    }
}

/// (due time, exchange name, copy). Messages stored through one exchange share its
/// record, so the names are only compared across exchanges.
fn release_order(a: &Held, b: &Held) -> Ordering {
    a.0.cmp(&b.0)
        .then_with(|| {
            if Rc::ptr_eq(&a.2.exchange, &b.2.exchange) {
                Ordering::Equal
            } else {
                a.2.exchange.name_str.cmp(&b.2.exchange.name_str)
            }
        })
        .then(a.1.cmp(&b.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::MsgId;
    use crate::message::RoutingKeys;
    use crate::sym::Symbols;

    fn record(syms: &mut Symbols, name: &str) -> ExchangeRecord {
        let sym = syms.intern(name);
        ExchangeRecord {
            name: sym,
            name_str: syms.name(sym).clone(),
            kind: ExchangeKind::Direct,
            alternate: None,
        }
    }

    fn msg(id: u32, syms: &mut Symbols) -> Rc<Message> {
        Rc::new(Message {
            id: MsgId(id),
            exchange: syms.intern("x"),
            routing_keys: RoutingKeys::One(syms.intern("k")),
            published_at_ms: 0,
            body: "".into(),
            expiration: None,
            delivery_mode: 0,
            headers: Default::default(),
            rare: None,
            deaths: None,
            delayed_by_ms: None,
        })
    }

    /// The delay of a message stored at t=0 (the store's first bucket is now's).
    fn since_zero(due_ms: u64) -> NonZeroU32 {
        NonZeroU32::new(due_ms as u32).unwrap()
    }

    fn copies(v: &[(u64, CopyId, &Stored)]) -> Vec<u64> {
        v.iter().map(|(_, c, _)| c.0).collect()
    }

    #[test]
    fn releases_by_due_then_exchange_name_then_publish_order() {
        let mut syms = Symbols::default();
        let mut store = DelayedStore::default();
        // (due, exchange, copy): same due in "b" before "a", and a far one.
        for (due, x, copy) in [
            (5000, "b", 1),
            (5000, "a", 2),
            (100, "b", 3),
            (5000, "a", 4),
            (900_000, "a", 5),
            (5001, "a", 6),
        ] {
            let (m, r) = (msg(copy as u32, &mut syms), record(&mut syms, x));
            store.insert(due, CopyId(copy), m, r, since_zero(due));
        }
        let listed: Vec<_> = store.iter().collect();
        assert_eq!(copies(&listed), [3, 2, 4, 1, 6, 5]);
        assert_eq!(store.next_due_ms(), Some(100));
        assert_eq!(store.pop_due(99).map(|h| h.1), None);
        assert_eq!(store.pop_due(5000).map(|h| h.1 .0), Some(3));
        assert_eq!(store.pop_due(5000).map(|h| h.1 .0), Some(2));
        // Into the bucket being released, after now: in its sorted place.
        let (m, r) = (msg(7, &mut syms), record(&mut syms, "a"));
        store.insert(5001, CopyId(7), m, r, since_zero(5001));
        let (m, r) = (msg(8, &mut syms), record(&mut syms, "0"));
        store.insert(5001, CopyId(8), m, r, since_zero(5001));
        let rest: Vec<u64> = std::iter::from_fn(|| store.pop_due(u64::MAX))
            .map(|h| h.1 .0)
            .collect();
        assert_eq!(rest, [4, 1, 8, 6, 7, 5]);
        assert!(store.is_empty());
    }

    #[test]
    fn take_all_is_in_release_order() {
        let mut syms = Symbols::default();
        let mut store = DelayedStore::default();
        for (due, x, copy) in [(3000, "b", 1), (3000, "a", 2), (10, "z", 3)] {
            let (m, r) = (msg(copy as u32, &mut syms), record(&mut syms, x));
            store.insert(due, CopyId(copy), m, r, since_zero(due));
        }
        assert_eq!(store.pop_due(10).map(|h| h.1 .0), Some(3));
        let all: Vec<u64> = store.take_all().iter().map(|h| h.1 .0).collect();
        assert_eq!(all, [2, 1]);
        assert_eq!(store.len(), 0);
    }

    #[test]
    fn far_due_times_wait_outside_the_ring_and_come_out_in_order() {
        let mut syms = Symbols::default();
        let mut store = DelayedStore::default();
        // 9_000_000 and 20_000_000 ms are more than RING_BUCKETS buckets after the first.
        for (due, copy) in [(1000, 1), (9_000_000, 2), (20_000_000, 3), (5000, 4)] {
            let (m, r) = (msg(copy as u32, &mut syms), record(&mut syms, "x"));
            store.insert(due, CopyId(copy), m, r, since_zero(due));
        }
        assert_eq!(store.pop_due(1000).map(|h| h.0), Some(1000));
        let (m, r) = (msg(5, &mut syms), record(&mut syms, "x"));
        store.insert(
            8_500_000,
            CopyId(5),
            m,
            r,
            NonZeroU32::new(8_499_000).unwrap(),
        );
        assert_eq!(store.next_due_ms(), Some(5000));
        let listed: Vec<u64> = store.iter().map(|(due, _, _)| due).collect();
        assert_eq!(listed, [5000, 8_500_000, 9_000_000, 20_000_000]);
        let rest: Vec<u64> = std::iter::from_fn(|| store.pop_due(u64::MAX))
            .map(|h| h.0)
            .collect();
        assert_eq!(rest, [5000, 8_500_000, 9_000_000, 20_000_000]);
        assert!(store.is_empty());
        assert_eq!(store.next_due_ms(), None);
        // Empty again: a new message is found wherever it lands.
        let (m, r) = (msg(6, &mut syms), record(&mut syms, "x"));
        store.insert(20_000_100, CopyId(6), m, r, NonZeroU32::new(100).unwrap());
        assert_eq!(store.count_for(syms.intern("x")), 1);
        assert_eq!(store.pop_due(20_000_100).map(|h| h.1 .0), Some(6));
    }

    #[test]
    fn remove_takes_a_copy_out_of_the_ring_the_far_map_or_the_releasing_bucket() {
        let mut syms = Symbols::default();
        let mut store = DelayedStore::default();
        for (due, copy) in [(1000, 1), (1500, 2), (9_000_000, 3), (5000, 4), (5000, 5)] {
            let (m, r) = (msg(copy as u32, &mut syms), record(&mut syms, "x"));
            store.insert(due, CopyId(copy), m, r, since_zero(due));
        }
        assert!(
            store.remove(1000, CopyId(1)).is_some(),
            "ring, the cursor's bucket"
        );
        assert_eq!(store.next_due_ms(), Some(1500));
        assert!(store.remove(9_000_000, CopyId(3)).is_some(), "far");
        assert!(store.remove(9_000_000, CopyId(3)).is_none(), "only once");
        assert_eq!(store.pop_due(5000).map(|h| h.1 .0), Some(2));
        assert_eq!(store.pop_due(5000).map(|h| h.1 .0), Some(4));
        assert!(store.remove(5000, CopyId(5)).is_some(), "releasing");
        assert!(store.is_empty());
        assert_eq!(store.next_due_ms(), None);
    }
}
