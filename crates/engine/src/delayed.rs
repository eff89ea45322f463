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
//! A million waiting messages make this the engine's hottest structure: the messages
//! wait in a calendar queue (`calendar/`), each bucket sorted into release order when
//! its first message falls due. Copy ids grow in publish order, so (due, name, copy) is
//! the release order. The exchange record is shared by every message stored through
//! the same (unchanged) exchange.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::num::NonZeroU32;
use std::rc::Rc;

use crate::amqp::exchange_args::ExchangeKind;
use crate::calendar::{Calendar, Timed};
use crate::ids::CopyId;
use crate::message::Message;
use crate::sym::Sym;

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

impl Timed for Held {
    fn due_ms(&self) -> u64 {
        self.0
    }

    fn release_order(a: &Self, b: &Self) -> Ordering {
        release_order(a, b)
    }

    fn sort_bucket(items: &mut [Self]) {
        sort_for_release(items);
    }

    fn warm(items: &[Self]) {
        crate::message::warm(items.iter().map(|h| &*h.2.msg));
    }
}

#[derive(Debug, Default)]
pub struct DelayedStore {
    held: Calendar<Held>,
    /// Each exchange's record as last stored (shared by the messages stored through it).
    records: BTreeMap<Sym, Rc<ExchangeRecord>>,
}

impl DelayedStore {
    /// Stores a copy due at `due_ms`, after now (the plugin stores positive delays).
    pub fn insert(
        &mut self,
        due_ms: u64,
        copy: CopyId,
        msg: Rc<Message>,
        record: ExchangeRecord,
        delay_ms: NonZeroU32,
    ) {
        let exchange = self.shared(record);
        self.held.insert((
            due_ms,
            copy,
            Stored {
                msg,
                exchange,
                delay_ms,
            },
        ));
    }

    /// The record last stored for this exchange name if unchanged, else this one.
    fn shared(&mut self, record: ExchangeRecord) -> Rc<ExchangeRecord> {
        // `==` on the records, but the same name text (`Rc::ptr_eq`: one interned string)
        // settles the usual case without comparing the text. The pattern names every
        // field, so a new one does not compile until it is compared here.
        let same = |known: &ExchangeRecord| {
            let ExchangeRecord {
                name,
                name_str,
                kind,
                alternate,
            } = known;
            *name == record.name
                && *kind == record.kind
                && *alternate == record.alternate
                && (Rc::ptr_eq(name_str, &record.name_str) || *name_str == record.name_str)
        };
        match self.records.get(&record.name) {
            Some(known) if same(known) => known.clone(),
            _ => {
                let shared = Rc::new(record);
                self.records.insert(shared.name, shared.clone());
                shared
            }
        }
    }

    /// The earliest due time stored.
    pub fn next_due_ms(&self) -> Option<u64> {
        self.held.next_due_ms()
    }

    /// The next message in release order if it is due by `now_ms`.
    pub fn pop_due(&mut self, now_ms: u64) -> Option<(u64, CopyId, Stored)> {
        self.held.pop_due(now_ms)
    }

    /// Takes out the copy stored due at `due_ms` (the order lab's `lost_in_store`).
    pub fn remove(&mut self, due_ms: u64, copy: CopyId) -> Option<Stored> {
        self.held.remove(due_ms, |h| h.1 == copy).map(|h| h.2)
    }

    pub fn len(&self) -> usize {
        self.held.len()
    }

    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    /// `messages_delayed` of an exchange name (counts what was stored under that name).
    pub fn count_for(&self, exchange: Sym) -> u64 {
        let all = self.held.iter_unordered();
        all.filter(|(_, _, s)| s.exchange.name == exchange).count() as u64
    }

    /// Entries in release order, for snapshots (a bucket is sorted when reached).
    pub fn iter(&self) -> impl Iterator<Item = (u64, CopyId, &Stored)> {
        self.held
            .iter_sorted()
            .map(|(due, copy, s)| (*due, *copy, s))
    }

    /// Empties the store (the node holding it is gone), in release order.
    pub fn take_all(&mut self) -> Vec<(u64, CopyId, Stored)> {
        self.held.take_all()
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
    fn far_due_times_come_out_in_order() {
        let mut syms = Symbols::default();
        let mut store = DelayedStore::default();
        // 9_000_000 and 20_000_000 ms: hours apart, in buckets of their own.
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
    fn remove_takes_a_copy_out_of_a_bucket_or_the_releasing_one() {
        let mut syms = Symbols::default();
        let mut store = DelayedStore::default();
        for (due, copy) in [(1000, 1), (1500, 2), (9_000_000, 3), (5000, 4), (5000, 5)] {
            let (m, r) = (msg(copy as u32, &mut syms), record(&mut syms, "x"));
            store.insert(due, CopyId(copy), m, r, since_zero(due));
        }
        assert!(store.remove(1000, CopyId(1)).is_some(), "the first bucket");
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
