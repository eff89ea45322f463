//! The delayed-message exchange's store (rabbitmq-delayed-message-exchange 3.10.2).
//!
//! Messages are kept sorted by (due time, exchange name, publish order): the plugin's
//! Mnesia index orders keys by timestamp, then by the exchange record (vhost, name), and
//! messages with the same key come out in insertion order. One copy per node, never
//! replicated: `lose` empties it.
//!
//! ```text
//! t=0    publish A x-delay 3000  -> store {(3000, A)}
//! t=100  publish B x-delay 500   -> store {(600, B), (3000, A)}
//! t=600  B due, routed with the bindings of t=600; t=3000 A due
//! ```

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::exchange::ExchangeKind;
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
    pub msg: Rc<Message>,
    pub exchange: Rc<ExchangeRecord>,
}

#[derive(Debug, Default)]
pub struct DelayedStore {
    entries: BTreeMap<(u64, Rc<str>, CopyId), Stored>,
}

impl DelayedStore {
    pub fn insert(&mut self, due_ms: u64, copy: CopyId, stored: Stored) {
        let name = stored.exchange.name_str.clone();
        self.entries.insert((due_ms, name, copy), stored);
    }

    pub fn next_due_ms(&self) -> Option<u64> {
        self.entries.first_key_value().map(|((due, _, _), _)| *due)
    }

    /// Takes the first entry if it is due at `now_ms`; returns (due, copy, stored).
    pub fn pop_due(&mut self, now_ms: u64) -> Option<(u64, CopyId, Stored)> {
        if self.next_due_ms()? > now_ms {
            return None;
        }
        let ((due, _, copy), stored) = self.entries.pop_first()?;
        Some((due, copy, stored))
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `messages_delayed` of an exchange name (counts what was stored under that name).
    pub fn count_for(&self, exchange: Sym) -> u64 {
        self.entries.values().filter(|s| s.exchange.name == exchange).count() as u64
    }

    /// Entries in due order, for snapshots.
    pub fn iter(&self) -> impl Iterator<Item = (u64, CopyId, &Stored)> {
        self.entries.iter().map(|((due, _, copy), s)| (*due, *copy, s))
    }

    /// Empties the store (the node holding it is gone).
    pub fn take_all(&mut self) -> Vec<(u64, CopyId, Stored)> {
        std::mem::take(&mut self.entries).into_iter().map(|((due, _, copy), s)| (due, copy, s)).collect()
    }
}
