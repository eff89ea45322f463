//! A read-only picture of the broker at the current virtual time, for the playground.
//!
//! The UI draws from snapshots and events only; it never holds engine state. Lists are
//! capped (`MAX_ENTRIES` per queue, `MAX_DELAYED` of the store) so that a queue of
//! 200,000 messages costs the same to draw as one of 50; counts are always exact.
//!
//! For each queued message: its remaining TTL, or, once its expiry time has passed
//! while it waits behind the head, how overdue it is (head-of-line blocking, visible).
//! For each message a quorum queue holds aside (4.3's delayed retry, 4.4's
//! `x-opt-delivery-time`): why, when it is released and which delivery it will be (it
//! is in the queue, not ready: `held`), the page's countdown.

use crate::exchange::Destination;
use crate::queue::{Overflow, Queue, QueueKind, NEVER};
use crate::scenario::{Outcome, OutcomePlan};
use crate::sim::Sim;

pub const MAX_ENTRIES: usize = 60;
pub const MAX_DELAYED: usize = 60;

#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub now_ms: u64,
    pub node_up: bool,
    pub exchanges: Vec<ExchangeView>,
    pub queues: Vec<QueueView>,
    pub delayed: Vec<DelayedView>,
    pub delayed_total: u64,
    pub consumers: Vec<ConsumerView>,
    /// The order-timeout lab's table and counters, when the scenario has `orders`.
    pub orders: Option<crate::orders::view::OrdersView>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ExchangeView {
    pub name: String,
    /// `direct`, ..., or `x-delayed-message` (then `wrapped` says the routing type).
    pub kind: String,
    pub wrapped: Option<String>,
    pub alternate: Option<String>,
    pub internal: bool,
    pub bindings: Vec<BindingView>,
    pub messages_delayed: u64,
    /// Every publish through it is refused (code, RabbitMQ's text): a delayed exchange
    /// kept after an upgrade to a version without the plugin (`Sim::refuses_publishes`).
    pub refusing: Option<(u16, String)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BindingView {
    pub destination: String,
    pub to_exchange: bool,
    pub routing_key: String,
    pub arguments: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct QueueView {
    pub name: String,
    pub quorum: bool,
    pub durable: bool,
    pub message_ttl_ms: Option<u64>,
    pub dlx: Option<String>,
    pub dlrk: Option<String>,
    pub max_length: Option<u64>,
    pub max_length_bytes: Option<u64>,
    pub overflow: &'static str,
    pub expires_ms: Option<u64>,
    /// Quorum: the delivery limit in force (`x-delivery-limit`, or the version's default
    /// when `delivery_limit_default`); a negative one as declared.
    pub delivery_limit: Option<i64>,
    /// The limit is the version's default (4.0+: 20), not the queue's argument (D8).
    pub delivery_limit_default: bool,
    /// Quorum, 4.3: the delayed retry the queue's `x-delayed-retry-*` arguments set (D16).
    pub delayed_retry: Option<crate::version::DelayedRetry>,
    pub ready: u64,
    pub unacked: u64,
    pub ready_bytes: u64,
    /// Messages whose expiry has passed but which wait behind the head: exact at any
    /// size (`Queue::overdue`, an index by expiry, not a scan).
    pub overdue: u64,
    /// The first ready messages, head first.
    pub head: Vec<EntryView>,
    /// Messages held aside (4.3 delayed retry, 4.4 `x-opt-delivery-time`: not ready, not
    /// deliverable yet), the earliest first, at most [`MAX_ENTRIES`]; `held_total`
    /// counts them all (they count toward the length limits, not toward `ready`).
    pub held: Vec<HeldView>,
    pub held_total: u64,
    /// Quorum, at-least-once: dead letters waiting in the queue until a target confirms
    /// them (not ready, counted toward its length limits; `sim/dead_letter_retry.rs`).
    pub dead_letters: u64,
    /// Since when the first of `head` holds the head: what a message overdue behind it
    /// waits for (`Queue::head_since_ms`).
    pub head_since_ms: Option<u64>,
    pub consumers: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EntryView {
    pub msg: u32,
    pub copy: u64,
    pub body: String,
    pub expires_at_ms: Option<u64>,
    /// Time left before expiry (> 0), if it has a TTL and it has not passed.
    pub remaining_ms: Option<u64>,
    /// How long ago its expiry passed (it is stuck behind the head).
    pub overdue_ms: Option<u64>,
    pub redelivered: bool,
}

/// A message a quorum queue holds aside (D16, D34): released at `ready_at_ms`, for its
/// delivery number `attempt`; `by` says why.
#[derive(Clone, Debug, PartialEq)]
pub struct HeldView {
    pub msg: u32,
    pub copy: u64,
    pub body: String,
    pub by: crate::cause::HeldBy,
    pub ready_at_ms: u64,
    pub remaining_ms: u64,
    /// The delivery it will be: returns so far + 1.
    pub attempt: u32,
    /// Failed deliveries so far (4.3's delivery count, what the delay grows with).
    pub failed: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DelayedView {
    pub msg: u32,
    pub copy: u64,
    pub body: String,
    pub exchange: String,
    pub due_ms: u64,
    pub remaining_ms: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ConsumerView {
    pub name: String,
    pub queue: String,
    pub attached: bool,
    pub stopped: bool,
    pub auto_ack: bool,
    pub prefetch: u32,
    pub unacked: u32,
    pub handle_ms: u64,
    pub outcome: String,
}

impl Snapshot {
    pub fn of(sim: &Sim) -> Snapshot {
        let now = sim.now_ms();
        let delayed: Vec<DelayedView> = sim
            .delayed_store()
            .iter()
            .take(MAX_DELAYED)
            .map(|(due, copy, s)| DelayedView {
                msg: s.msg.id.0,
                copy: copy.0,
                body: s.msg.body.to_string(),
                exchange: s.exchange.name_str.to_string(),
                due_ms: due,
                remaining_ms: due.saturating_sub(now),
            })
            .collect();
        Snapshot {
            now_ms: now,
            node_up: sim.node_is_up(),
            exchanges: exchanges(sim),
            queues: sim.queues().map(|q| queue_view(sim, q, now)).collect(),
            delayed,
            delayed_total: sim.delayed_store().len() as u64,
            consumers: consumers(sim),
            orders: sim
                .orders_lab()
                .map(|lab| crate::orders::view::of(lab, now)),
        }
    }

    pub fn queue(&self, name: &str) -> Option<&QueueView> {
        self.queues.iter().find(|q| q.name == name)
    }

    pub fn exchange(&self, name: &str) -> Option<&ExchangeView> {
        self.exchanges.iter().find(|x| x.name == name)
    }
}

impl ExchangeView {
    /// True for an `x-delayed-message` exchange (the plugin's): messages with `x-delay`
    /// wait in its store. Read this, not the type's name.
    pub fn is_delayed(&self) -> bool {
        self.wrapped.is_some()
    }
}

fn exchanges(sim: &Sim) -> Vec<ExchangeView> {
    let syms = sim.symbols();
    // (exchange, messages it holds): a plugin exchange or two, so a list (a BTreeMap's
    // code was start-up code in the playground for this alone).
    let mut counts: Vec<(crate::sym::Sym, u64)> = Vec::new();
    for (_, _, s) in sim.delayed_store().iter() {
        let name = s.exchange.name;
        match counts.iter_mut().find(|(n, _)| *n == name) {
            Some((_, k)) => *k += 1,
            None => counts.push((name, 1)),
        }
    }
    sim.exchanges()
        .filter(|x| !x.builtin || !x.bindings.is_empty())
        .map(|x| ExchangeView {
            name: syms.str(x.name).to_string(),
            kind: if x.delayed {
                "x-delayed-message".into()
            } else {
                x.kind.as_str().into()
            },
            wrapped: x.delayed.then(|| x.kind.as_str().to_string()),
            alternate: x.alternate.map(|a| syms.str(a).to_string()),
            internal: x.internal,
            bindings: x
                .bindings
                .iter()
                .map(|b| {
                    let (dest, to_exchange) = match b.destination {
                        Destination::Queue(q) => (q, false),
                        Destination::Exchange(e) => (e, true),
                    };
                    BindingView {
                        destination: syms.str(dest).to_string(),
                        to_exchange,
                        routing_key: syms.str(b.routing_key).to_string(),
                        arguments: if b.arguments.is_empty() {
                            String::new()
                        } else {
                            b.arguments.to_json().to_string()
                        },
                    }
                })
                .collect(),
            messages_delayed: counts
                .iter()
                .find(|(n, _)| *n == x.name)
                .map_or(0, |(_, k)| *k),
            refusing: sim.refuses_publishes(x).map(|e| (e.code, e.text)),
        })
        .collect()
}

fn queue_view(sim: &Sim, q: &Queue, now: u64) -> QueueView {
    let syms = sim.symbols();
    let r = &q.rules;
    let overdue = q.overdue(now);
    QueueView {
        name: syms.str(q.name).to_string(),
        quorum: r.kind == QueueKind::Quorum,
        durable: q.durable,
        message_ttl_ms: r.message_ttl_ms,
        dlx: r.dlx.map(|s| syms.str(s).to_string()),
        dlrk: r.dlrk.map(|s| syms.str(s).to_string()),
        max_length: r.max_length,
        max_length_bytes: r.max_length_bytes,
        overflow: match r.overflow {
            Overflow::DropHead => "drop-head",
            Overflow::RejectPublish => "reject-publish",
            Overflow::RejectPublishDlx => "reject-publish-dlx",
        },
        expires_ms: r.expires_ms,
        delivery_limit: r.delivery_limit,
        delivery_limit_default: r.delivery_limit.is_some()
            && q.arguments.get("x-delivery-limit").is_none(),
        delayed_retry: r.delayed_retry,
        ready: q.ready_len(),
        unacked: q.unacked_len(),
        ready_bytes: q.ready_bytes(),
        overdue,
        head: q
            .iter_ready()
            .take(MAX_ENTRIES)
            .map(|e| {
                let exp = (e.expires_at_ms != NEVER).then_some(e.expires_at_ms);
                EntryView {
                    msg: e.msg.id.0,
                    copy: e.copy.0,
                    body: e.msg.body.to_string(),
                    expires_at_ms: exp,
                    remaining_ms: exp.filter(|t| *t > now).map(|t| t - now),
                    overdue_ms: exp.filter(|t| *t <= now).map(|t| now - t),
                    redelivered: e.redelivered,
                }
            })
            .collect(),
        held: q
            .earliest_held(MAX_ENTRIES)
            .into_iter()
            .map(|(at, e)| HeldView {
                msg: e.msg.id.0,
                copy: e.copy.0,
                body: e.msg.body.to_string(),
                by: e.held_by.expect("a held message knows why"),
                ready_at_ms: at,
                remaining_ms: at.saturating_sub(now),
                attempt: e.returns.saturating_add(1),
                failed: e.failed,
            })
            .collect(),
        held_total: q.held_len(),
        dead_letters: q.dead_letter_len(),
        consumers: q
            .consumers
            .iter()
            .map(|c| sim.consumers()[c.0 as usize].spec.name.clone())
            .collect(),
        head_since_ms: q.head_since_ms(),
    }
}

/// An outcome as the AMQP method the consumer sends: basic.nack and basic.reject are told
/// apart (on 4.3 only a reject counts toward a quorum queue's delivery limit, D9).
fn outcome_words(o: Outcome) -> &'static str {
    match o {
        Outcome::Ack => "ack",
        Outcome::Reject => "reject",
        Outcome::Requeue => "nack requeue",
        Outcome::RejectRequeue => "reject requeue",
        Outcome::NackMultiple => "nack multiple requeue",
        Outcome::Republish => "republish, ack",
    }
}

fn consumers(sim: &Sim) -> Vec<ConsumerView> {
    sim.consumers()
        .iter()
        .map(|c| ConsumerView {
            name: c.spec.name.clone(),
            queue: c.spec.queue.clone(),
            attached: c.attached.is_some(),
            stopped: c.stopped,
            auto_ack: c.auto_ack(),
            prefetch: c.spec.prefetch,
            unacked: c.unacked,
            handle_ms: c.spec.handle_ms,
            outcome: match &c.spec.outcome {
                OutcomePlan::Fixed(o) => outcome_words(*o).to_string(),
                OutcomePlan::Sequence(list) => list
                    .iter()
                    .map(|o| outcome_words(*o))
                    .collect::<Vec<_>>()
                    .join(", "),
                OutcomePlan::Weighted(w) => w
                    .iter()
                    .map(|(o, p)| format!("{}:{p}", outcome_words(*o)))
                    .collect::<Vec<_>>()
                    .join(", "),
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 4.3 delayed retry (retry-backoff-4-3): at 0:01 order-new, rejected once at 0:00,
    /// is in orders.work, not ready, back at 0:02 for its second delivery.
    #[test]
    fn a_message_held_for_delayed_retry_is_shown_in_its_queue_with_its_time() {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../scenarios/retry-backoff-4-3.json"),
        )
        .unwrap();
        let s = crate::scenario::load_str(&text).unwrap();
        let mut sim = Sim::new(&s);
        while sim.advance(1_000) == crate::sim::Progress::More {}
        let snap = Snapshot::of(&sim);
        let q = snap.queue("orders.work").unwrap();
        assert_eq!((q.ready, q.unacked, q.held_total), (0, 0, 1));
        let h = &q.held[0];
        assert_eq!(h.body, "order-new");
        assert_eq!(
            (h.ready_at_ms, h.remaining_ms, h.attempt, h.failed),
            (2_000, 1_000, 2, 1)
        );
        let retry = q.delayed_retry.expect("the queue's delayed retry");
        assert_eq!((retry.min_ms, retry.max_ms), (2_000, 10_000));
        assert_eq!(
            (q.delivery_limit, q.delivery_limit_default),
            (Some(20), true)
        );
        let classic = snap.queue("legacy.work").unwrap();
        assert_eq!(
            (classic.delivery_limit, classic.delayed_retry),
            (None, None)
        );
    }
}
