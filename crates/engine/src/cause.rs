//! Why an event happened: the rule that applied and what it applied to, carried by the
//! event for a message's story (the playground's inspector, `delaylab-playground`
//! `story.rs`). Each cause is set once, where `sim::*` applies the rule.
//!
//! Causes are never serialized: traces, run results and golden files stay as they were
//! (`report::trace` writes the fields RabbitMQ shows and leaves these out, as it does
//! `Error::subject` and `Error::cause`). They cost no allocation on the common paths: a
//! one-binding route, one TTL source, an on-time or head-blocked expiry are inline; a
//! longer way (alternate exchange, exchange-to-exchange bindings, a headers match), both
//! TTLs, or a limit that was hit are boxed, and rare.
//!
//! ```text
//! t=0   A enqueued  why: binding "order.create" (direct), TTL from the message
//! t=60s B enqueued  why: binding "order.create" (direct), TTL from the message
//! t=30m A expired   late_cause None,   after: None (A was the head since it came)
//! t=30m B expired   late_cause Behind, after: A, the head from 0:00 to 30:00
//! ```

use std::rc::Rc;

use crate::amqp::exchange_args::ExchangeKind;
use crate::amqp::queue_args::Overflow;
use crate::death::Reason;
use crate::ids::MsgId;
use crate::sym::Sym;

/// How a copy came into its queue and where its TTL came from (`Enqueued::why`).
#[derive(Clone, Debug, PartialEq)]
pub struct Admission {
    /// The rule of the last hop, into the queue.
    pub matched: Matched,
    /// The matching binding's key (the default exchange: the routing key, the queue's name).
    pub key: Sym,
    pub ttl: TtlFrom,
    /// The message carries `x-opt-delivery-time` and this queue did not hold it: why
    /// (`None` when it has no such header or is held: `Enqueued::held`).
    pub delivery_time: Option<DeliveryTimeIgnored>,
    /// The rest, when there is more than one binding of `via` to tell.
    pub more: Option<Rc<AdmissionMore>>,
}

/// Why a message's `x-opt-delivery-time` did not hold it in the queue it entered
/// (`sim/hold.rs`, rows D34-D40 of the version notes): it went in ready, the header
/// unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeliveryTimeIgnored {
    /// This version does not read it at publish (before 4.4: an ordinary header).
    OlderVersion,
    /// A classic queue never reads it (4.4 too).
    ClassicQueue,
    /// At-most-once dead-lettering enqueues without reading it (D40).
    AtMostOnceDeadLetter,
    /// Not an integer or a timestamp (a string, a float...): ignored (D35).
    NotATime,
    /// Not later than the time it arrived: ready at once.
    NotLater,
}

/// The rule that put the message into a queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Matched {
    /// A binding of an exchange of this type matched (fanout: every binding does).
    Binding(ExchangeKind),
    /// The default exchange: a routing key that names a queue.
    Default,
}

/// Where a copy's effective TTL came from (rabbit_amqqueue_process:calculate_msg_expiry:
/// min(queue TTL, message TTL), fixed at enqueue).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtlFrom {
    /// Neither the queue nor the message has one: it never expires.
    None,
    /// The queue's `x-message-ttl`; the message has no expiration.
    Queue,
    /// The message's `expiration`; the queue has no `x-message-ttl`.
    Message,
    /// Both; the lower applies (`AdmissionMore::ttls` holds both values).
    Both,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct AdmissionMore {
    /// The hops before the last one, from the exchange the message entered by (`via`):
    /// exchange-to-exchange bindings and alternate exchanges, in the order taken.
    pub hops: Vec<Hop>,
    /// The matching headers binding's arguments, as JSON text.
    pub arguments: Option<String>,
    /// (queue `x-message-ttl`, message `expiration`) in ms, when both applied.
    pub ttls: Option<(u64, u64)>,
}

/// One hop from exchange to exchange on the way to a queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hop {
    pub from: Sym,
    pub to: Sym,
    pub by: HopBy,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HopBy {
    /// An exchange-to-exchange binding of an exchange of this type, with its key.
    Binding { kind: ExchangeKind, key: Sym },
    /// `from` matched nothing, so its alternate exchange `to` took the message.
    Alternate,
}

impl AdmissionMore {
    /// The exchange whose binding put the message into the queue (`via` when no hops).
    pub fn last_exchange(&self, via: Sym) -> Sym {
        self.hops.last().map_or(via, |h| h.to)
    }
}

impl Admission {
    pub fn last_exchange(&self, via: Sym) -> Sym {
        self.more.as_ref().map_or(via, |m| m.last_exchange(via))
    }
}

/// A message that held the head of a queue, from when to when (`Expired::after`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeadSpan {
    pub msg: MsgId,
    pub from_ms: u64,
    pub to_ms: u64,
}

/// Why an expiry or a delayed release came after its time (`Expired`, `DelayDue`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LateCause {
    /// It was not late.
    OnTime,
    /// Only the head of a queue expires: it became the head after its TTL had passed,
    /// behind `Expired::after` (head-of-line blocking).
    BehindHead,
    /// Its TTL passed while a consumer held it unacknowledged; it expired once back.
    Unacked,
    /// Its TTL passed while its quorum queue held it aside (4.3's delayed retry, 4.4's
    /// `x-opt-delivery-time`); it expired once released.
    Held(HeldBy),
    /// The node was down when it fell due; it went when the node started again.
    NodeDown,
    /// Measured costs: the broker was busy (the expiry timer's or the dead-lettering
    /// queue's work, the delayed-message plugin's one process and its table).
    Busy,
}

/// Why a quorum queue holds a message aside: in the queue, counted toward its length
/// limits, but not ready and not delivered until its time (`sim/hold.rs`; one mechanism,
/// two causes: `rabbit_fifo`'s `#delayed{}` tree keyed by (time, Raft index)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HeldBy {
    /// 4.3 delayed retry (`x-delayed-retry-*`, D16): a return held for
    /// `min(min x delivery count, max)`.
    DelayedRetry,
    /// 4.4: the publisher's `x-opt-delivery-time` (D34), an absolute time in ms.
    DeliveryTime,
}

impl HeldBy {
    /// As traces write it (`"held_by"`).
    pub fn as_str(self) -> &'static str {
        match self {
            HeldBy::DelayedRetry => "delayed_retry",
            HeldBy::DeliveryTime => "delivery_time",
        }
    }
}

/// A message held aside until `until_ms`, and why (`Enqueued::held`, `Requeued::held`):
/// "held by x-opt-delivery-time until 30:00".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hold {
    pub until_ms: u64,
    pub by: HeldBy,
}

/// A limit that ended a copy's stay or refused a message (`DeadLettered::limit`,
/// `DropCause::Limit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitHit {
    /// `x-max-length` (or `x-max-length-bytes` when `bytes`) of `max`, with the queue's
    /// overflow behaviour; `by` is the message whose arrival went over it.
    Length {
        max: u64,
        bytes: bool,
        overflow: Overflow,
        by: Option<MsgId>,
    },
    /// The quorum delivery limit: returned `count` times, more than `limit` (`failed_only`:
    /// 4.3 counts only failed deliveries, not a nack or a timeout).
    Delivery {
        count: u32,
        limit: i64,
        failed_only: bool,
    },
}

/// Why a message or a copy was dropped, beyond its `DropReason` (`Dropped::why`).
#[derive(Clone, Debug, PartialEq)]
pub enum DropCause {
    /// The reason says it all (purged, deleted, node lost...).
    Plain,
    /// The queue has no dead-letter exchange, so the death ends here.
    NoDlx,
    /// The queue's dead-letter exchange `dlx` does not exist (looked up at dead-letter time).
    DlxMissing {
        dlx: Sym,
    },
    /// A dead-letter cycle: the message died in this queue before (for `earlier`), with
    /// no rejection since, so RabbitMQ drops it rather than loop.
    Cycle {
        earlier: Reason,
    },
    /// No binding matched from `exchange` (nor an alternate exchange's).
    NoRoute {
        exchange: Sym,
    },
    Limit(Box<LimitHit>),
}

/// Why a publish came back with `basic.return` (`Returned::why`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReturnCause {
    /// No queue took it.
    NoRoute,
    /// A delayed-message exchange holds it: the channel sees "routed nowhere" (it is still
    /// delivered when due, rabbitmq-delayed-message-exchange README).
    DelayedHeld,
}
