//! Events: every state change of the simulated broker, at an exact virtual millisecond.
//!
//! The simulation appends events in the order things happen; ties at the same
//! millisecond keep that order (time, then sequence). The playground animates exactly
//! these, `delaylab run --trace` writes them, and tests assert on them.
//!
//! Copy accounting: `Enqueued` and `Delayed` create a copy; `Acked`, `DeadLettered`,
//! `DelayDue` and `Dropped` (with a copy) end it; everything else leaves it alive. A
//! message that never became a copy ends at publish in `Returned`, `Error` or `Dropped`
//! with no copy.
//!
//! Fields named `why`, `after`, `late_cause` and `limit` say why the event
//! happened ([`crate::cause`]); no output writes them.

use std::rc::Rc;

use crate::cause::{
    Admission, DropCause, HeadSpan, HeldBy, Hold, LateCause, LimitHit, ReturnCause,
};

use crate::amqp::{Cause, ErrorScope, Subject};
use crate::death::Reason;
use crate::ids::{ConsumerId, CopyId, MsgId};
use crate::message::{Message, RoutingKeys};
use crate::sym::Sym;

#[derive(Clone, Debug)]
pub struct Event {
    pub t_ms: u64,
    pub kind: EventKind,
}

/// Why a message (or a copy of it) left the broker without being consumed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DropReason {
    Expired,
    Rejected,
    Maxlen,
    DeliveryLimit,
    DlxMissing,
    DeadLetterCycle,
    RejectPublish,
    Unroutable,
    NodeLost,
    QueueDeleted,
    Purged,
    /// The order lab's `lost_in_store` fault: a stored, confirmed copy lost by the store.
    LostInStore,
    /// An upgrade to a version that cannot run the delayed-message plugin (4.3): what
    /// the plugin held is never delivered (its README: disabling it loses them).
    PluginRemoved,
}

#[derive(Clone, Debug)]
pub enum EventKind {
    Published {
        msg: Rc<Message>,
        mandatory: bool,
    },
    /// A broker error closed the publisher's (or the declaring) channel or connection.
    Error {
        msg: Option<MsgId>,
        code: u16,
        text: Rc<str>,
        scope: ErrorScope,
        /// What the refusal is about (for a form to point at its box); not in any output.
        subject: Option<Subject>,
        /// Why, where the code alone does not say it (for a form to explain); not in any output.
        cause: Option<Cause>,
    },
    /// The delayed-message exchange took the message into its store.
    Delayed {
        msg: MsgId,
        copy: CopyId,
        exchange: Sym,
        due_ms: u64,
    },
    /// A stored delayed message fell due and is routed now (`Enqueued`/`Dropped` follow).
    DelayDue {
        msg: MsgId,
        copy: CopyId,
        exchange: Sym,
        late_ms: u64,
        /// Why it is late, if it is (not in any output).
        late_cause: LateCause,
    },
    Enqueued {
        msg: MsgId,
        copy: CopyId,
        queue: Sym,
        via: Sym,
        expires_at_ms: Option<u64>,
        /// 4.4 quorum queues (D34): held aside by `x-opt-delivery-time` until then, not
        /// ready (`sim/hold.rs`); `None` when it is ready at once.
        held: Option<Hold>,
        /// The binding that matched and where the TTL came from (not in any output).
        why: Admission,
    },
    Returned {
        msg: MsgId,
        exchange: Sym,
        routing_key: Sym,
        code: u16,
        text: &'static str,
        /// Not in any output.
        why: ReturnCause,
    },
    Confirmed {
        msg: MsgId,
        ack: bool,
    },
    /// The copy's TTL has passed and it left the head of the queue; `late_ms` is how long
    /// after its expiry time that happened (head-of-line blocking makes it large).
    Expired {
        msg: MsgId,
        copy: CopyId,
        queue: Sym,
        late_ms: u64,
        /// Why it is late (not in any output).
        late_cause: LateCause,
        /// The message that held the head of this queue just before this copy became
        /// the head, and when (not in any output). With `late_cause` `BehindHead`, the
        /// head it waited behind; that message's own `Expired` names the one before it.
        after: Option<HeadSpan>,
    },
    /// `copy` is None when the message never entered the queue (reject-publish-dlx).
    DeadLettered {
        msg: MsgId,
        copy: Option<CopyId>,
        queue: Sym,
        reason: Reason,
        dlx: Sym,
        routing_keys: RoutingKeys,
        /// For `maxlen` and `delivery_limit`: the limit that was hit (not in any output).
        limit: Option<Box<LimitHit>>,
    },
    Dropped {
        msg: MsgId,
        copy: Option<CopyId>,
        queue: Option<Sym>,
        reason: DropReason,
        /// Why, beyond the reason (not in any output).
        why: DropCause,
    },
    Delivered {
        msg: Rc<Message>,
        copy: CopyId,
        queue: Sym,
        /// `None` for `basic.get`.
        consumer: Option<ConsumerId>,
        redelivered: bool,
        delivery_tag: u64,
        /// Quorum queues: times it was returned before (rendered as `x-delivery-count`;
        /// 4.3: the failed deliveries only).
        returns: u32,
        /// 4.3 quorum queues: `x-acquired-count` (every return), 0 when absent.
        acquired: u32,
    },
    Acked {
        msg: MsgId,
        copy: CopyId,
        queue: Sym,
        consumer: Option<ConsumerId>,
    },
    Rejected {
        msg: MsgId,
        copy: CopyId,
        queue: Sym,
        consumer: ConsumerId,
        requeue: bool,
        /// The consumer sent `basic.nack` (else `basic.reject`). On 4.3 this decides
        /// whether a quorum queue's delivery limit counts the return (D9) and which
        /// delayed-retry type sets it aside (D16). Not in any output (traces unchanged).
        nack: bool,
    },
    Requeued {
        msg: MsgId,
        copy: CopyId,
        queue: Sym,
        /// 4.3 delayed retry (D16): the message is held aside, not deliverable, until
        /// then; `None` when it is ready at once.
        held: Option<Hold>,
    },
    /// A message its quorum queue held aside (`Enqueued::held`, `Requeued::held`) is
    /// released at its time: it joins the back of the returned messages, ahead of the
    /// ready backlog (`sim/hold.rs`). `late_ms`: how long after its time (the node was
    /// down then).
    Released {
        msg: MsgId,
        copy: CopyId,
        queue: Sym,
        by: HeldBy,
        late_ms: u64,
        /// Why it is late, if it is (not in any output).
        late_cause: LateCause,
    },
    ConsumerAttached {
        consumer: ConsumerId,
        queue: Sym,
    },
    ConsumerDetached {
        consumer: ConsumerId,
        queue: Sym,
    },
    ExchangeDeclared {
        exchange: Sym,
    },
    ExchangeDeleted {
        exchange: Sym,
    },
    QueueDeclared {
        queue: Sym,
    },
    QueueDeleted {
        queue: Sym,
        expired: bool,
    },
    Bound {
        source: Sym,
        destination: Sym,
        to_exchange: bool,
        routing_key: Sym,
    },
    Unbound {
        source: Sym,
        destination: Sym,
        to_exchange: bool,
        routing_key: Sym,
    },
    Purged {
        queue: Sym,
        count: u64,
    },
    NodeDown {
        lost: bool,
    },
    NodeUp,
    /// An `upgrade` action: the node came back on another RabbitMQ version. `text` says
    /// what that changed, in a learner's words.
    BrokerUpgraded {
        from: crate::version::BrokerVersion,
        to: crate::version::BrokerVersion,
        text: Rc<str>,
    },
    /// D21: a manual-ack consumer held a delivery unacked longer than the consumer
    /// timeout (`sim/ack_timeout.rs`). `channel_closed`: the broker closed its channel
    /// with 406 (3.10-4.2; an `error` event and the returns follow); else (4.3, quorum)
    /// only this message went back and the consumer was cancelled. `text` says it in words.
    ConsumerTimedOut {
        consumer: ConsumerId,
        queue: Sym,
        msg: MsgId,
        copy: CopyId,
        held_ms: u64,
        timeout_ms: u64,
        channel_closed: bool,
        text: Rc<str>,
    },
    /// A limit stopped the run (the text says which); nothing happens after it.
    LimitReached {
        text: Rc<str>,
    },
    /// The order-timeout lab (`crate::orders`): orders, stock, scans, injected faults.
    Order(crate::orders::OrderEvent),
}

impl DropReason {
    pub fn as_str(self) -> &'static str {
        match self {
            DropReason::Expired => "expired",
            DropReason::Rejected => "rejected",
            DropReason::Maxlen => "maxlen",
            DropReason::DeliveryLimit => "delivery_limit",
            DropReason::DlxMissing => "dlx_missing",
            DropReason::DeadLetterCycle => "dead_letter_cycle",
            DropReason::RejectPublish => "reject_publish",
            DropReason::Unroutable => "unroutable",
            DropReason::NodeLost => "node_lost",
            DropReason::QueueDeleted => "queue_deleted",
            DropReason::Purged => "purged",
            DropReason::LostInStore => "lost_in_store",
            DropReason::PluginRemoved => "plugin_removed",
        }
    }

    pub fn from_reason(r: Reason) -> DropReason {
        match r {
            Reason::Rejected => DropReason::Rejected,
            Reason::Expired => DropReason::Expired,
            Reason::Maxlen => DropReason::Maxlen,
            Reason::DeliveryLimit => DropReason::DeliveryLimit,
        }
    }
}

impl EventKind {
    /// The event's name as written in traces (`"enqueued"`, `"dead_lettered"`, ...).
    /// The names [`EventKind::name`] gives the events about one message's way through
    /// the broker, in the order a message meets them: what a log filter offers.
    pub const MESSAGE_KINDS: &'static [&'static str] = &[
        "published",
        "enqueued",
        "expired",
        "dead_lettered",
        "delayed",
        "delay_due",
        "delivered",
        "acked",
        "rejected",
        "requeued",
        "released",
        "dropped",
        "returned",
        "confirmed",
        "error",
    ];

    /// Every name [`EventKind::name`] gives, the message kinds first (in their order),
    /// then consumers, topology, the node, limits and the order lab's kinds: what a log's
    /// kind filter offers so that every line it can show can be picked.
    pub const ALL_KINDS: &'static [&'static str] = &[
        "published",
        "enqueued",
        "expired",
        "dead_lettered",
        "delayed",
        "delay_due",
        "delivered",
        "acked",
        "rejected",
        "requeued",
        "released",
        "dropped",
        "returned",
        "confirmed",
        "error",
        "consumer_attached",
        "consumer_detached",
        "consumer_timeout",
        "exchange_declared",
        "exchange_deleted",
        "queue_declared",
        "queue_deleted",
        "bound",
        "unbound",
        "purged",
        "node_down",
        "node_up",
        "broker_upgraded",
        "limit_reached",
        "order_created",
        "order_paid",
        "order_canceled",
        "order_closed",
        "close_skipped",
        "stock_released",
        "order_reminded",
        "scan_run",
        "fault_injected",
    ];

    pub fn name(&self) -> &'static str {
        match self {
            EventKind::Published { .. } => "published",
            EventKind::Error { .. } => "error",
            EventKind::Delayed { .. } => "delayed",
            EventKind::DelayDue { .. } => "delay_due",
            EventKind::Enqueued { .. } => "enqueued",
            EventKind::Returned { .. } => "returned",
            EventKind::Confirmed { .. } => "confirmed",
            EventKind::Expired { .. } => "expired",
            EventKind::DeadLettered { .. } => "dead_lettered",
            EventKind::Dropped { .. } => "dropped",
            EventKind::Delivered { .. } => "delivered",
            EventKind::Acked { .. } => "acked",
            EventKind::Rejected { .. } => "rejected",
            EventKind::Requeued { .. } => "requeued",
            EventKind::Released { .. } => "released",
            EventKind::ConsumerAttached { .. } => "consumer_attached",
            EventKind::ConsumerDetached { .. } => "consumer_detached",
            EventKind::ExchangeDeclared { .. } => "exchange_declared",
            EventKind::ExchangeDeleted { .. } => "exchange_deleted",
            EventKind::QueueDeclared { .. } => "queue_declared",
            EventKind::QueueDeleted { .. } => "queue_deleted",
            EventKind::Bound { .. } => "bound",
            EventKind::Unbound { .. } => "unbound",
            EventKind::Purged { .. } => "purged",
            EventKind::NodeDown { .. } => "node_down",
            EventKind::NodeUp => "node_up",
            EventKind::BrokerUpgraded { .. } => "broker_upgraded",
            EventKind::ConsumerTimedOut { .. } => "consumer_timeout",
            EventKind::LimitReached { .. } => "limit_reached",
            EventKind::Order(o) => o.name(),
        }
    }

    /// The message this event is about, if any.
    pub fn msg_id(&self) -> Option<MsgId> {
        match self {
            EventKind::Published { msg, .. } | EventKind::Delivered { msg, .. } => Some(msg.id),
            EventKind::Error { msg, .. } => *msg,
            EventKind::Delayed { msg, .. }
            | EventKind::DelayDue { msg, .. }
            | EventKind::Enqueued { msg, .. }
            | EventKind::Returned { msg, .. }
            | EventKind::Confirmed { msg, .. }
            | EventKind::Expired { msg, .. }
            | EventKind::DeadLettered { msg, .. }
            | EventKind::Dropped { msg, .. }
            | EventKind::Acked { msg, .. }
            | EventKind::Rejected { msg, .. }
            | EventKind::Requeued { msg, .. }
            | EventKind::Released { msg, .. }
            | EventKind::ConsumerTimedOut { msg, .. } => Some(*msg),
            EventKind::Order(o) => o.msg(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::EventKind;

    #[test]
    fn every_kind_the_presets_emit_is_listed_and_message_kinds_come_first() {
        let all = EventKind::ALL_KINDS;
        assert_eq!(
            &all[..EventKind::MESSAGE_KINDS.len()],
            EventKind::MESSAGE_KINDS
        );
        let mut unique = all.to_vec();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), all.len(), "a kind is listed twice");
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
        let mut seen = std::collections::BTreeSet::new();
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_none_or(|x| x != "json") {
                continue;
            }
            let s = crate::scenario::load_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            let limits = crate::limits::Limits {
                max_events: 20_000,
                ..crate::limits::Limits::default()
            };
            crate::report::run_with(&s, limits, |e, _| {
                seen.insert(e.kind.name());
            });
        }
        for k in &seen {
            assert!(all.contains(k), "{k} is emitted but not in ALL_KINDS");
        }
        assert!(seen.len() > 20, "the presets emit many kinds: {seen:?}");
    }
}
