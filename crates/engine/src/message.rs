//! A message as the broker holds it.
//!
//! Messages are immutable and shared (`Rc<Message>`): a fanout to three queues holds one
//! message and three queue entries. Dead-lettering builds a new message (as RabbitMQ
//! does: the dead-lettered copy is a new message with new headers) that keeps the id of
//! the message the publisher sent, so its whole path can be followed.
//!
//! Size matters: a million waiting messages each hold one `Message`. Hence symbols for
//! names, one routing key stored inline ([`RoutingKeys`]), the `expiration` property
//! kept as its parsed value ([`Expiration`]: the text is only stored when it is not the
//! plain decimal of that value), and the rarely used properties boxed.

use std::borrow::Cow;
use std::num::NonZeroU32;
use std::ops::Deref;
use std::rc::Rc;

use crate::body::Body;
use crate::death::Deaths;
use crate::ids::MsgId;
use crate::scenario::Properties;
use crate::sym::{Sym, Symbols};
use crate::value::Table;

/// What `Message::ttl_ms` returns for a message without a per-message TTL.
pub const NO_TTL: u64 = u64::MAX;

#[derive(Clone, Debug)]
pub struct Message {
    pub id: MsgId,
    /// The exchange it was last published (or dead-lettered) to.
    pub exchange: Sym,
    /// The publish routing key, then the CC and BCC header keys.
    pub routing_keys: RoutingKeys,
    pub published_at_ms: u64,
    pub body: Body,
    pub expiration: Option<Expiration>,
    /// 0 when absent, else 1 (transient) or 2 (persistent).
    pub delivery_mode: u8,
    pub headers: Table,
    /// The other basic properties (message_id, content_type, ...) when any is set; its
    /// `expiration`, `delivery_mode` and `headers` are unused (they live above).
    pub rare: Option<Box<Properties>>,
    /// Dead-letter history (rendered as `x-death` and `x-first-death-*`).
    pub deaths: Option<Box<Deaths>>,
    /// Set when the delayed-message exchange held the message back for this long (the
    /// plugin only holds a message for a positive delay of at most 2^32-1 ms).
    pub delayed_by_ms: Option<NonZeroU32>,
}

/// A message's routing keys, never empty: the publish key, then CC, then BCC.
///
/// One key (by far the usual case) is stored inline; more are shared, because
/// dead-lettering copies them into the new message, its `x-death` entry and the event.
/// Derefs to the slice of keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoutingKeys {
    One(Sym),
    Many(Rc<[Sym]>),
}

/// The `expiration` property of a message that has one.
///
/// Interning the text would keep one string per distinct TTL forever (a million with
/// random delays), so only the value is kept, plus the text when it is not the plain
/// decimal of the value: consumers and `x-death` show `"+5"` or `"007"` verbatim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expiration {
    /// The per-message TTL in ms; NO_TTL if the text does not parse (the publish then
    /// fails, but its `published` event still shows the text).
    pub ms: u64,
    /// The text as published, unless it is exactly `ms` written in decimal.
    pub verbatim: Option<Sym>,
}

impl Message {
    pub fn is_persistent(&self) -> bool {
        self.delivery_mode == 2
    }

    /// The per-message TTL in ms, or NO_TTL.
    pub fn ttl_ms(&self) -> u64 {
        self.expiration.map_or(NO_TTL, |e| e.ms)
    }

    pub fn has_ttl(&self) -> bool {
        self.ttl_ms() != NO_TTL
    }

    /// The publish routing key.
    pub fn routing_key(&self) -> Sym {
        self.routing_keys.first()
    }

    /// Body size, which is what `x-max-length-bytes` counts.
    pub fn body_bytes(&self) -> u64 {
        self.body.len() as u64
    }

    pub fn shared(self) -> Rc<Message> {
        Rc::new(self)
    }
}

impl RoutingKeys {
    /// `first` followed by `extra` (CC, then BCC).
    pub fn new(first: Sym, extra: &[Sym]) -> RoutingKeys {
        if extra.is_empty() {
            return RoutingKeys::One(first);
        }
        RoutingKeys::Many(
            std::iter::once(first)
                .chain(extra.iter().copied())
                .collect(),
        )
    }

    pub fn first(&self) -> Sym {
        self[0]
    }
}

impl Deref for RoutingKeys {
    type Target = [Sym];

    fn deref(&self) -> &[Sym] {
        match self {
            RoutingKeys::One(k) => std::slice::from_ref(k),
            RoutingKeys::Many(keys) => keys,
        }
    }
}

impl Expiration {
    /// `text` parsed to `ms` (None if it is invalid). The text is kept (interned: odd
    /// spellings are few) unless it is the plain decimal of `ms`.
    pub fn new(text: &str, ms: Option<u64>, syms: &mut Symbols) -> Expiration {
        let plain = ms.is_some() && is_plain_decimal(text);
        Expiration {
            ms: ms.unwrap_or(NO_TTL),
            verbatim: (!plain).then(|| syms.intern(text)),
        }
    }

    /// Whether the text parses (a publish with an invalid one fails with a 406).
    pub fn is_valid(&self) -> bool {
        self.ms != NO_TTL
    }

    /// The text as the publisher wrote it.
    pub fn text<'a>(&self, syms: &'a Symbols) -> Cow<'a, str> {
        match self.verbatim {
            Some(sym) => Cow::Borrowed(syms.str(sym)),
            None => Cow::Owned(self.ms.to_string()),
        }
    }
}

/// Digits only, and no leading zero unless it is "0": then a valid `expiration` is
/// exactly its value written in decimal.
fn is_plain_decimal(text: &str) -> bool {
    let b = text.as_bytes();
    !b.is_empty() && b.iter().all(u8::is_ascii_digit) && (b[0] != b'0' || b.len() == 1)
}

/// Reads what delivering and then freeing each message touches first (the message, the
/// first bytes of its body and of its headers), for a calendar bucket's worth at once
/// (`calendar::Timed::warm`): first every message, so that their cache misses overlap,
/// then what each points to. Messages were allocated in publish order and come out in
/// due order, so each is a miss; one after the other they were a fifth of the plugin
/// benchmark. Changes nothing but timing.
pub fn warm<'a>(messages: impl Iterator<Item = &'a Message> + Clone) {
    for m in messages.clone() {
        std::hint::black_box(m.id);
    }
    for m in messages {
        std::hint::black_box((
            m.body.on_heap().then(|| m.body.as_bytes().first().copied()),
            // Key and value: a one-header table is 40 bytes, in two cache lines for one
            // allocation in four, and freeing reads both (the key alone left the value's
            // line cold: a fifteenth of `delaylab bench --topology qq-delivery-time`).
            m.headers
                .iter()
                .next()
                .map(|(k, v)| (k.len(), std::mem::discriminant(v))),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expiration_keeps_only_odd_text() {
        let mut syms = Symbols::default();
        let cases = [
            ("500", Some(500), false),
            ("0", Some(0), false),
            ("+5", Some(5), true),
            ("007", Some(7), true),
            ("-0", Some(0), true),
            ("00", Some(0), true),
            ("315360000001", None, true),
            ("abc", None, true),
        ];
        for (text, ms, kept) in cases {
            let e = Expiration::new(text, ms, &mut syms);
            assert_eq!(e.verbatim.is_some(), kept, "{text}");
            assert_eq!(e.text(&syms), text);
        }
    }

    #[test]
    fn one_routing_key_is_inline() {
        let mut syms = Symbols::default();
        let (a, b) = (syms.intern("a"), syms.intern("b"));
        assert_eq!(RoutingKeys::new(a, &[]), RoutingKeys::One(a));
        assert_eq!(&*RoutingKeys::new(a, &[b]), &[a, b]);
        assert_eq!(RoutingKeys::new(a, &[b]).first(), a);
    }
}
