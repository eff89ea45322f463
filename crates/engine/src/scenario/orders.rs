//! The order-timeout lab as a scenario describes it (`orders` and `faults`): plain owned
//! values, built by the loader (`scenario::load`), written back by `scenario::save`.
//!
//! ```text
//! "orders": {"count": 20, "over": "10m", "timeout": "30m",
//!            "publish": {"exchange": "order.delay", "routing_key": "close",
//!                        "properties": {"headers": {"x-delay": 1800000}}},
//!            "consumer": "closer", "policy": "naive",
//!            "pay": [{"share": 0.6, "after": ["1m", "25m"]}, {"share": 0.4, "after": "never"}]}
//! "faults": [{"kind": "pay_race", "share": 0.5}]
//! ```

use crate::amqp::expiration::parse_expiration;
use crate::amqp::x_delay::{parse_x_delay, DelayDecision};
use crate::scenario::{Properties, PublishSpec};

/// Which property carries a message's own delay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DelayField {
    XDelay,
    Expiration,
}

/// The per-message delay a publish carries, read as the broker reads it (the engine's own
/// `amqp` parsers): the plugin's `x-delay` first (an integer or numeric string; <= 0 or
/// too large is no delay), since on a delayed exchange the TTL only starts after it; then
/// `expiration` (strict decimal string).
pub fn message_delay(p: &Properties) -> Option<(DelayField, u64)> {
    if let Ok(DelayDecision::Delay(d)) = parse_x_delay(&p.headers) {
        return Some((DelayField::XDelay, d));
    }
    let e = parse_expiration(p.expiration.as_deref()?).ok()?;
    Some((DelayField::Expiration, e))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Closes the order named in the message, whatever its state.
    Naive,
    /// Reads the order at delivery; updates it (unconditionally) at the end of handling
    /// if the read said WAITING_PAY.
    CheckState,
    /// Reads, then `UPDATE ... WHERE status = 'WAITING_PAY'`: a payment that landed after
    /// the read makes the update affect 0 rows.
    ConditionalUpdate,
    /// Inserts an idempotency record per message id first (a duplicate stops there),
    /// then as `ConditionalUpdate`.
    Idempotent,
}

/// What a consumer that reads the row does with a close message that came too early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Early {
    /// Publish the close message again with the time that is left as its delay.
    Republish,
    /// Ack it and do nothing (only a compensation scan closes the order then).
    Ignore,
}

/// When a share of users pay (or cancel) after the order is created.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    Never,
    Fixed(u64),
    /// Uniform in [lo, hi] ms.
    Range(u64, u64),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShareAfter {
    pub share: f64,
    pub after: After,
}

/// The optional first-level message (e.g. "please pay" at 10 minutes).
#[derive(Clone, Debug, PartialEq)]
pub struct ReminderSpec {
    pub publish: PublishSpec,
    /// The consumer that handles reminders (defaults to the orders consumer).
    pub consumer: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OrdersSpec {
    pub count: u32,
    /// Orders are created evenly over this window from `start_ms`.
    pub start_ms: u64,
    pub over_ms: u64,
    pub timeout_ms: u64,
    /// The close message; its body is replaced by the order id.
    pub publish: PublishSpec,
    pub consumer: String,
    pub policy: Policy,
    pub early: Early,
    /// Payment buckets; shares sum to at most 1, the rest never pays.
    pub pay: Vec<ShareAfter>,
    pub cancel: Option<ShareAfter>,
    pub items: u32,
    /// Units in stock per item at the start.
    pub stock: u32,
    pub reminder: Option<ReminderSpec>,
    /// Compensation scan period, if there is one.
    pub scan_every_ms: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FaultKind {
    DuplicateDelivery,
    EarlyArrival,
    CrashBeforeAck,
    PayRace,
    LoseNode,
    LostInStore,
    ConsumerOutage,
}

pub const FAULT_KINDS: &[(&str, FaultKind)] = &[
    ("duplicate_delivery", FaultKind::DuplicateDelivery),
    ("early_arrival", FaultKind::EarlyArrival),
    ("crash_before_ack", FaultKind::CrashBeforeAck),
    ("pay_race", FaultKind::PayRace),
    ("lose_node", FaultKind::LoseNode),
    ("lost_in_store", FaultKind::LostInStore),
    ("consumer_outage", FaultKind::ConsumerOutage),
];

impl FaultKind {
    pub fn as_str(self) -> &'static str {
        FAULT_KINDS
            .iter()
            .find(|(_, k)| *k == self)
            .map_or("?", |(s, _)| s)
    }

    /// Faults that happen once at a time (`at`), the others hit a `share` of orders or
    /// deliveries.
    pub fn is_timed(self) -> bool {
        matches!(self, FaultKind::LoseNode | FaultKind::ConsumerOutage)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct FaultSpec {
    pub kind: FaultKind,
    /// Timed faults: when.
    pub at_ms: u64,
    /// Share faults: the probability per order (publish faults) or per delivery.
    pub share: f64,
    /// `consumer_outage`: how long; `early_arrival`: how early (the clock skew);
    /// `crash_before_ack`: how long the crashed service takes to restart and subscribe
    /// again (`for`, default [`DEFAULT_RESTART_MS`]).
    pub duration_ms: u64,
}

/// `crash_before_ack` without `for`: a process manager restarts the service and its
/// client subscribes again about 5 s after the crash.
pub const DEFAULT_RESTART_MS: u64 = 5_000;

pub const POLICIES: &[(&str, Policy)] = &[
    ("naive", Policy::Naive),
    ("check_state", Policy::CheckState),
    ("conditional_update", Policy::ConditionalUpdate),
    ("idempotent", Policy::Idempotent),
];

impl Policy {
    pub fn as_str(self) -> &'static str {
        POLICIES
            .iter()
            .find(|(_, p)| *p == self)
            .map_or("?", |(s, _)| s)
    }

    /// Whether it reads the row before acting (and so can notice an early message).
    pub fn reads_first(self) -> bool {
        self != Policy::Naive
    }
}

impl Early {
    pub fn as_str(self) -> &'static str {
        match self {
            Early::Republish => "republish",
            Early::Ignore => "ignore",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::FieldValue;

    fn props(expiration: Option<&str>, x_delay: Option<FieldValue>) -> Properties {
        let mut p = Properties {
            expiration: expiration.map(str::to_string),
            ..Properties::default()
        };
        if let Some(v) = x_delay {
            p.headers.insert("x-delay", v);
        }
        p
    }

    #[test]
    fn x_delay_is_read_as_the_plugin_reads_it_and_comes_first() {
        // A numeric string is a delay (the plugin parses it); both present: x-delay wins.
        let p = props(Some("60000"), Some(FieldValue::str("1800000")));
        assert_eq!(message_delay(&p), Some((DelayField::XDelay, 1_800_000)));
        // 0 and negative are no delay: the expiration is what delays the message.
        assert_eq!(
            message_delay(&props(Some("60000"), Some(FieldValue::Int(0)))),
            Some((DelayField::Expiration, 60_000))
        );
        assert_eq!(message_delay(&props(None, Some(FieldValue::Int(-5)))), None);
        // Expiration is strict: "1e3" is refused by the broker, so it is no delay here.
        assert_eq!(message_delay(&props(Some("1e3"), None)), None);
    }
}
