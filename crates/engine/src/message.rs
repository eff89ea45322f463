//! A message as the broker holds it.
//!
//! Messages are immutable and shared (`Rc<Message>`): a fanout to three queues holds one
//! message and three queue entries. Dead-lettering builds a new message (as RabbitMQ
//! does: the dead-lettered copy is a new message with new headers) that keeps the id of
//! the message the publisher sent, so its whole path can be followed.

use std::rc::Rc;

use crate::death::Deaths;
use crate::ids::MsgId;
use crate::scenario::Properties;
use crate::sym::Sym;
use crate::value::Table;

/// Marks "no per-message TTL" in `Message::ttl_ms` (a u64 instead of Option saves memory).
pub const NO_TTL: u64 = u64::MAX;

#[derive(Clone, Debug)]
pub struct Message {
    pub id: MsgId,
    /// The exchange it was last published (or dead-lettered) to.
    pub exchange: Sym,
    pub routing_key: Sym,
    /// CC then BCC header keys: routing keys besides `routing_key`.
    pub extra_keys: Box<[Sym]>,
    pub published_at_ms: u64,
    pub body: Box<str>,
    /// The `expiration` property as the publisher wrote it (consumers see it verbatim).
    pub expiration: Option<Sym>,
    /// `expiration` parsed, or NO_TTL.
    pub ttl_ms: u64,
    /// 0 when absent, else 1 (transient) or 2 (persistent).
    pub delivery_mode: u8,
    pub headers: Table,
    /// The other basic properties (message_id, content_type, ...) when any is set; its
    /// `expiration`, `delivery_mode` and `headers` are unused (they live above).
    pub rare: Option<Box<Properties>>,
    /// Dead-letter history (rendered as `x-death` and `x-first-death-*`).
    pub deaths: Option<Box<Deaths>>,
    /// Set when the delayed-message exchange held the message back for this long.
    pub delayed_by_ms: Option<u32>,
}

impl Message {
    pub fn is_persistent(&self) -> bool {
        self.delivery_mode == 2
    }

    pub fn has_ttl(&self) -> bool {
        self.ttl_ms != NO_TTL
    }

    /// Body size, which is what `x-max-length-bytes` counts.
    pub fn body_bytes(&self) -> u64 {
        self.body.len() as u64
    }

    /// All routing keys: the publish key, then CC, then BCC.
    pub fn routing_keys(&self) -> impl Iterator<Item = Sym> + '_ {
        std::iter::once(self.routing_key).chain(self.extra_keys.iter().copied())
    }

    pub fn shared(self) -> Rc<Message> {
        Rc::new(self)
    }
}
