//! Dead-letter history: the `x-death` header and the cycle rule.
//!
//! RabbitMQ 3.10 keeps one `x-death` entry per (queue, reason), newest first. A repeat
//! death for a pair raises its `count` and moves it to the front; its `time`, `exchange`,
//! `routing-keys` and `original-expiration` keep their first values. The
//! `x-first-death-*` headers are set once and never change; 3.10 has no `x-last-death-*`.
//!
//! Timeline (retry loop, work queue W rejects into retry queue R, R's TTL expires back
//! to W):
//!
//! ```text
//! t=0     W rejects   x-death = [{W,rejected,1}]                 first = (rejected, W)
//! t=5000  R expires   x-death = [{R,expired,1}, {W,rejected,1}]
//! t=5001  W rejects   x-death = [{W,rejected,2}, {R,expired,1}]  (moved to the front)
//! ```
//!
//! Cycle rule (rabbit_dead_letter:detect_cycles, on the history *after* recording the
//! new death): a death by `rejected` never cycles. Otherwise a target queue T is a cycle
//! when the history has an entry for T and no entry from the newest one down to T's
//! has reason `rejected`. So a queue that dead-letters to itself on expiry drops the
//! message at its first expiry, while the retry loop above keeps working.

use crate::message::{Expiration, RoutingKeys};
use crate::sym::Sym;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reason {
    Rejected,
    Expired,
    Maxlen,
    DeliveryLimit,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Rejected => "rejected",
            Reason::Expired => "expired",
            Reason::Maxlen => "maxlen",
            Reason::DeliveryLimit => "delivery_limit",
        }
    }
}

/// One `x-death` entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Death {
    pub queue: Sym,
    pub reason: Reason,
    pub count: u64,
    /// Virtual time of the first death for this (queue, reason), in ms.
    pub time_ms: u64,
    pub exchange: Sym,
    pub routing_keys: RoutingKeys,
    pub original_expiration: Option<Expiration>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Deaths {
    /// Newest first.
    pub entries: Vec<Death>,
    /// `x-first-death-reason/-queue/-exchange`, set by the broker at the first
    /// dead-lettering of a message without `x-death`; `None` for a history the client
    /// published (see [`from_client_headers`]).
    pub first: Option<FirstDeath>,
    /// `x-last-death-*` (3.13+, rabbitmq-versions.md D2): the newest death's reason,
    /// queue and exchange; `None` on versions that do not set them.
    pub last: Option<LastDeath>,
    /// D30, 4.0+: the failed-delivery count (the quorum header `delivery_count`) the
    /// copy carries out of the quorum queue it last died in (`annotate_msg/2`), which a
    /// quorum target starts it with (`maybe_set_msg_delivery_count/2`); 0 otherwise.
    pub delivery_count: u32,
}

/// One death as the `x-first-death-*` and `x-last-death-*` headers show it: its reason,
/// queue and exchange.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeathMark {
    pub reason: Reason,
    pub queue: Sym,
    pub exchange: Sym,
}

/// The first death (`x-first-death-reason/-queue/-exchange`).
pub type FirstDeath = DeathMark;
/// The newest death, as 3.13+ show it in `x-last-death-reason/-queue/-exchange`.
pub type LastDeath = DeathMark;

impl Deaths {
    /// Records `death` into an optional history and returns the new history.
    pub fn record(prev: Option<&Deaths>, death: Death) -> Deaths {
        match prev {
            None => Deaths {
                first: Some(FirstDeath {
                    reason: death.reason,
                    queue: death.queue,
                    exchange: death.exchange,
                }),
                last: None,
                entries: vec![death],
                delivery_count: 0,
            },
            Some(prev) => {
                let mut next = prev.clone();
                let same = |d: &Death| d.queue == death.queue && d.reason == death.reason;
                match next.entries.iter().position(same) {
                    Some(at) => {
                        let mut entry = next.entries.remove(at);
                        entry.count += 1;
                        next.entries.insert(0, entry);
                    }
                    None => next.entries.insert(0, death),
                }
                next
            }
        }
    }

    /// The number of deaths recorded for `queue` with `reason` (the retry-count idiom).
    pub fn count(&self, queue: Sym, reason: Reason) -> u64 {
        self.entries
            .iter()
            .find(|d| d.queue == queue && d.reason == reason)
            .map_or(0, |d| d.count)
    }

    /// Whether dead-lettering to `target` closes an automatic cycle (see module docs).
    /// `self` already holds the death being dead-lettered.
    pub fn is_cycle(&self, newest_reason: Reason, target: Sym) -> bool {
        self.cycle_with(newest_reason, target).is_some()
    }

    /// When dead-lettering to `target` closes an automatic cycle, the reason of the
    /// message's death in `target` that closes it (what a drop names as its cause).
    pub fn cycle_with(&self, newest_reason: Reason, target: Sym) -> Option<Reason> {
        if newest_reason == Reason::Rejected {
            return None;
        }
        let at = self.entries.iter().position(|d| d.queue == target)?;
        self.entries[..=at]
            .iter()
            .all(|d| d.reason != Reason::Rejected)
            .then_some(self.entries[at].reason)
    }
}

/// 3.10 and 3.13.3+ (rabbitmq-versions.md D1, `Profile::client_x_death` `Merge`): the
/// `x-death` header a client published is the message's history, so the next
/// dead-lettering continues its counts (`rabbit_dead_letter:update_x_death_header/2`;
/// 3.13.3+ `mc_amqpl:headers_to_deaths/2`). Entries that do not read as one (no queue or
/// an unknown reason) are left out. `x-first-death-*` are not added: 3.10 sets them only
/// on a message without `x-death` (`rabbit_dead_letter:make_msg/5`; live 3.10.8, case
/// `tests/conformance/v01-client-x-death.json`), so the client's own, if it sent them,
/// are what the consumer sees [3.13.3+ assumed the same, not run]. `None` when there is no
/// usable entry.
pub fn from_client_headers(
    headers: &crate::value::Table,
    syms: &mut crate::sym::Symbols,
) -> Option<Deaths> {
    use crate::value::FieldValue;
    let Some(FieldValue::Array(items)) = headers.get("x-death") else {
        return None;
    };
    let reason_of = |s: &str| match s {
        "rejected" => Some(Reason::Rejected),
        "expired" => Some(Reason::Expired),
        "maxlen" => Some(Reason::Maxlen),
        "delivery_limit" => Some(Reason::DeliveryLimit),
        _ => None,
    };
    let mut entries = Vec::new();
    for item in items.iter() {
        let FieldValue::Table(t) = item else { continue };
        let text = |k: &str| t.get(k).and_then(FieldValue::as_str).map(str::to_owned);
        let (Some(queue), Some(reason)) =
            (text("queue"), text("reason").and_then(|r| reason_of(&r)))
        else {
            continue;
        };
        let keys: Vec<crate::sym::Sym> = match t.get("routing-keys") {
            Some(FieldValue::Array(ks)) => ks
                .iter()
                .filter_map(FieldValue::as_str)
                .map(|k| syms.intern(k))
                .collect(),
            _ => Vec::new(),
        };
        let queue = syms.intern(&queue);
        let routing_keys = match keys.split_first() {
            Some((first, rest)) => RoutingKeys::new(*first, rest),
            None => RoutingKeys::One(queue),
        };
        let original_expiration = text("original-expiration").map(|e| {
            let ms = crate::amqp::expiration::parse_expiration(&e).ok();
            Expiration::new(&e, ms, syms)
        });
        entries.push(Death {
            queue,
            reason,
            count: t
                .get("count")
                .and_then(FieldValue::as_int)
                .unwrap_or(1)
                .max(1) as u64,
            time_ms: t
                .get("time")
                .and_then(FieldValue::as_int)
                .unwrap_or(0)
                .max(0) as u64
                * 1000,
            exchange: syms.intern(text("exchange").as_deref().unwrap_or("")),
            routing_keys,
            original_expiration,
        });
    }
    if entries.is_empty() {
        return None;
    }
    Some(Deaths {
        entries,
        first: None,
        last: None,
        delivery_count: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sym::Symbols;

    fn death(t: &mut Symbols, q: &str, reason: Reason, time_ms: u64) -> Death {
        Death {
            queue: t.intern(q),
            reason,
            count: 1,
            time_ms,
            exchange: t.intern("x"),
            routing_keys: RoutingKeys::One(t.intern("rk")),
            original_expiration: None,
        }
    }

    #[test]
    fn repeat_death_counts_and_moves_to_front_keeping_first_time() {
        let mut t = Symbols::default();
        let d = Deaths::record(None, death(&mut t, "W", Reason::Rejected, 0));
        let d = Deaths::record(Some(&d), death(&mut t, "R", Reason::Expired, 5000));
        let d = Deaths::record(Some(&d), death(&mut t, "W", Reason::Rejected, 5001));
        assert_eq!(d.entries.len(), 2);
        assert_eq!(t.str(d.entries[0].queue), "W");
        assert_eq!(d.entries[0].count, 2);
        assert_eq!(d.entries[0].time_ms, 0);
        assert_eq!(d.first.map(|f| f.reason), Some(Reason::Rejected));
        assert_eq!(d.count(t.intern("W"), Reason::Rejected), 2);
    }

    #[test]
    fn self_loop_on_expiry_is_a_cycle_at_first_hop() {
        let mut t = Symbols::default();
        let d = Deaths::record(None, death(&mut t, "Q", Reason::Expired, 10));
        assert!(d.is_cycle(Reason::Expired, t.intern("Q")));
        assert!(!d.is_cycle(Reason::Expired, t.intern("other")));
    }

    #[test]
    fn a_loop_with_a_rejection_is_not_a_cycle() {
        let mut t = Symbols::default();
        let d = Deaths::record(None, death(&mut t, "W", Reason::Rejected, 0));
        let d = Deaths::record(Some(&d), death(&mut t, "R", Reason::Expired, 5000));
        assert!(!d.is_cycle(Reason::Expired, t.intern("W")));
    }

    #[test]
    fn rejection_never_cycles() {
        let mut t = Symbols::default();
        let d = Deaths::record(None, death(&mut t, "W", Reason::Rejected, 0));
        assert!(!d.is_cycle(Reason::Rejected, t.intern("W")));
    }

    #[test]
    fn expiry_loop_through_two_queues_cycles_when_it_returns() {
        let mut t = Symbols::default();
        let d = Deaths::record(None, death(&mut t, "A", Reason::Expired, 0));
        let d = Deaths::record(Some(&d), death(&mut t, "B", Reason::Expired, 10));
        assert!(d.is_cycle(Reason::Expired, t.intern("A")));
    }
}
