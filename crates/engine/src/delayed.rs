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
//! once into release order (`releasing`). The store only ever gets messages due after
//! now, so nothing lands in an earlier bucket than the one being released; one landing
//! in that bucket is put in its sorted place. Copy ids grow in publish order, so
//! (due, name, copy) is the release order. The exchange record is shared by every
//! message stored through the same (unchanged) exchange.

use std::cmp::Ordering;
use std::collections::{BTreeMap, VecDeque};
use std::num::NonZeroU32;
use std::rc::Rc;

use crate::exchange::ExchangeKind;
use crate::ids::CopyId;
use crate::message::Message;
use crate::sym::Sym;

/// The span of due times one bucket holds.
const BUCKET_MS: u64 = 1024;

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

#[derive(Debug)]
struct Bucket {
    earliest_ms: u64,
    held: Vec<Held>,
}

#[derive(Debug, Default)]
pub struct DelayedStore {
    /// Buckets by due time / BUCKET_MS, all after the one being released.
    buckets: BTreeMap<u64, Bucket>,
    /// The earliest bucket once something in it fell due, in release order.
    releasing: VecDeque<Held>,
    releasing_bucket: u64,
    len: usize,
    /// The record last stored for each exchange name, to share.
    records: BTreeMap<Sym, Rc<ExchangeRecord>>,
}

impl DelayedStore {
    /// Stores a copy due at `due_ms`, which is after every due time released so far.
    pub fn insert(&mut self, due_ms: u64, copy: CopyId, msg: Rc<Message>, record: ExchangeRecord, delay_ms: NonZeroU32) {
        let held = (due_ms, copy, Stored { msg, exchange: self.shared(record), delay_ms });
        let bucket = due_ms / BUCKET_MS;
        debug_assert!(self.releasing.is_empty() || bucket >= self.releasing_bucket, "due before the bucket being released");
        if !self.releasing.is_empty() && bucket == self.releasing_bucket {
            let at = self.releasing.partition_point(|h| release_order(h, &held) == Ordering::Less);
            self.releasing.insert(at, held);
        } else {
            let b = self.buckets.entry(bucket).or_insert(Bucket { earliest_ms: due_ms, held: Vec::new() });
            b.earliest_ms = b.earliest_ms.min(due_ms);
            b.held.push(held);
        }
        self.len += 1;
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
        match self.releasing.front() {
            Some((due, _, _)) => Some(*due),
            None => self.buckets.first_key_value().map(|(_, b)| b.earliest_ms),
        }
    }

    /// Takes the next entry if it is due at `now_ms`; returns (due, copy, stored).
    pub fn pop_due(&mut self, now_ms: u64) -> Option<(u64, CopyId, Stored)> {
        if self.next_due_ms()? > now_ms {
            return None;
        }
        if self.releasing.is_empty() {
            let (bucket, Bucket { mut held, .. }) = self.buckets.pop_first()?;
            held.sort_unstable_by(release_order);
            self.releasing = held.into();
            self.releasing_bucket = bucket;
        }
        self.len -= 1;
        self.releasing.pop_front()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `messages_delayed` of an exchange name (counts what was stored under that name).
    pub fn count_for(&self, exchange: Sym) -> u64 {
        let all = self.releasing.iter().chain(self.buckets.values().flat_map(|b| &b.held));
        all.filter(|(_, _, s)| s.exchange.name == exchange).count() as u64
    }

    /// Entries in release order, for snapshots (a bucket is sorted when reached).
    pub fn iter(&self) -> impl Iterator<Item = (u64, CopyId, &Stored)> {
        let later = self.buckets.values().flat_map(|b| {
            let mut held: Vec<&Held> = b.held.iter().collect();
            held.sort_unstable_by(|x, y| release_order(x, y));
            held
        });
        self.releasing.iter().chain(later).map(|(due, copy, s)| (*due, *copy, s))
    }

    /// Empties the store (the node holding it is gone), in release order.
    pub fn take_all(&mut self) -> Vec<(u64, CopyId, Stored)> {
        let mut all: Vec<Held> = self.releasing.drain(..).collect();
        all.extend(std::mem::take(&mut self.buckets).into_values().flat_map(|b| b.held));
        all.sort_unstable_by(release_order);
        self.len = 0;
        all
    }
}

/// (due time, exchange name, copy).
fn release_order(a: &Held, b: &Held) -> Ordering {
    a.0.cmp(&b.0).then_with(|| a.2.exchange.name_str.cmp(&b.2.exchange.name_str)).then(a.1.cmp(&b.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::MsgId;
    use crate::message::RoutingKeys;
    use crate::sym::Symbols;

    fn record(syms: &mut Symbols, name: &str) -> ExchangeRecord {
        let sym = syms.intern(name);
        ExchangeRecord { name: sym, name_str: syms.name(sym).clone(), kind: ExchangeKind::Direct, alternate: None }
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

    fn copies(v: &[(u64, CopyId, &Stored)]) -> Vec<u64> {
        v.iter().map(|(_, c, _)| c.0).collect()
    }

    #[test]
    fn releases_by_due_then_exchange_name_then_publish_order() {
        let mut syms = Symbols::default();
        let mut store = DelayedStore::default();
        let one = NonZeroU32::new(1).unwrap();
        // (due, exchange, copy): same due in "b" before "a", and a far one.
        for (due, x, copy) in [(5000, "b", 1), (5000, "a", 2), (100, "b", 3), (5000, "a", 4), (900_000, "a", 5), (5001, "a", 6)] {
            let (m, r) = (msg(copy as u32, &mut syms), record(&mut syms, x));
            store.insert(due, CopyId(copy), m, r, one);
        }
        let listed: Vec<_> = store.iter().collect();
        assert_eq!(copies(&listed), [3, 2, 4, 1, 6, 5]);
        assert_eq!(store.next_due_ms(), Some(100));
        assert_eq!(store.pop_due(99).map(|h| h.1), None);
        assert_eq!(store.pop_due(5000).map(|h| h.1 .0), Some(3));
        assert_eq!(store.pop_due(5000).map(|h| h.1 .0), Some(2));
        // Into the bucket being released, after now: in its sorted place.
        let (m, r) = (msg(7, &mut syms), record(&mut syms, "a"));
        store.insert(5001, CopyId(7), m, r, one);
        let (m, r) = (msg(8, &mut syms), record(&mut syms, "0"));
        store.insert(5001, CopyId(8), m, r, one);
        let rest: Vec<u64> = std::iter::from_fn(|| store.pop_due(u64::MAX)).map(|h| h.1 .0).collect();
        assert_eq!(rest, [4, 1, 8, 6, 7, 5]);
        assert!(store.is_empty());
    }

    #[test]
    fn take_all_is_in_release_order() {
        let mut syms = Symbols::default();
        let mut store = DelayedStore::default();
        let one = NonZeroU32::new(1).unwrap();
        for (due, x, copy) in [(3000, "b", 1), (3000, "a", 2), (10, "z", 3)] {
            let (m, r) = (msg(copy as u32, &mut syms), record(&mut syms, x));
            store.insert(due, CopyId(copy), m, r, one);
        }
        assert_eq!(store.pop_due(10).map(|h| h.1 .0), Some(3));
        let all: Vec<u64> = store.take_all().iter().map(|h| h.1 .0).collect();
        assert_eq!(all, [2, 1]);
        assert_eq!(store.len(), 0);
    }
}
