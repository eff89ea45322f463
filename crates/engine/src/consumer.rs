//! A consumer's runtime state: its spec, whether it is attached, what it holds unacked,
//! and which outcome its next delivery gets.

use crate::ids::QueueId;
use crate::rng::Rng;
use crate::scenario::{AckMode, ConsumerSpec, Outcome, OutcomePlan};
use crate::sym::Sym;

#[derive(Debug)]
pub struct Consumer {
    pub spec: ConsumerSpec,
    pub queue_name: Sym,
    /// The queue it is attached to, while attached.
    pub attached: Option<QueueId>,
    pub unacked: u32,
    /// Deliveries so far (indexes `OutcomePlan::Sequence`).
    pub deliveries: u64,
    pub next_tag: u64,
    /// It detached for good (`to` passed or it was stopped).
    pub stopped: bool,
    /// When its channel's tick started (D21, `sim/ack_timeout.rs`): when it attached (a
    /// new channel), or a delivery that woke the channel after it had held nothing for
    /// [`CHANNEL_HIBERNATE_AFTER_MS`].
    pub tick_origin_ms: u64,
    /// Since when it holds nothing unacked (its attach, or its last settlement).
    pub idle_since_ms: u64,
}

/// How long a channel holding nothing stays idle before it hibernates, which cancels its
/// tick (`rabbit_channel:handle_pre_hibernate/1` -> `maybe_cancel_tick_timer/1`); the
/// next message that wakes it starts a new one (`handle_post_hibernate/1` ->
/// `init_tick_timer/1`). The channel's gen_server2 backoff starts at 1 s
/// (`{backoff, ?HIBERNATE_AFTER_MIN, ?HIBERNATE_AFTER_MIN, ?DESIRED_HIBERNATE}`, 1000 to
/// 10 000 ms) [code]. Live 3.10.8 and 4.0.5 (`tests/conformance/v21-consumer-timeout.json`):
/// a delivery 200 ms after the channel opened times out on the tick that started with the
/// channel, 60 s after it opened.
pub const CHANNEL_HIBERNATE_AFTER_MS: u64 = 1_000;

impl Consumer {
    pub fn new(spec: ConsumerSpec, queue_name: Sym) -> Consumer {
        Consumer {
            spec,
            queue_name,
            attached: None,
            unacked: 0,
            deliveries: 0,
            next_tag: 1,
            stopped: false,
            tick_origin_ms: 0,
            idle_since_ms: 0,
        }
    }

    /// It attached at `now_ms`: a new channel, whose tick starts now.
    pub fn on_attach(&mut self, now_ms: u64) {
        self.tick_origin_ms = now_ms;
        self.idle_since_ms = now_ms;
    }

    /// A manual-ack delivery at `now_ms` it now holds: if it held nothing for long
    /// enough that its channel hibernated, the delivery starts the tick again.
    pub fn on_hold(&mut self, now_ms: u64) {
        if self.unacked == 0
            && now_ms.saturating_sub(self.idle_since_ms) >= CHANNEL_HIBERNATE_AFTER_MS
        {
            self.tick_origin_ms = now_ms;
        }
        self.unacked += 1;
    }

    /// One delivery it held is settled (acked, returned, timed out or dropped) at `now_ms`.
    pub fn on_settle(&mut self, now_ms: u64) {
        debug_assert!(self.unacked > 0, "settles what it holds");
        self.unacked -= 1;
        if self.unacked == 0 {
            self.idle_since_ms = now_ms;
        }
    }

    pub fn auto_ack(&self) -> bool {
        self.spec.ack == AckMode::Auto
    }

    /// Whether basic.qos lets it take one more delivery now.
    pub fn has_capacity(&self) -> bool {
        self.auto_ack() || self.spec.prefetch == 0 || self.unacked < self.spec.prefetch
    }

    /// The outcome for the delivery being made now (draws from `rng` for weighted plans).
    pub fn next_outcome(&mut self, rng: &mut Rng) -> Outcome {
        let n = self.deliveries as usize;
        self.deliveries += 1;
        match &self.spec.outcome {
            OutcomePlan::Fixed(o) => *o,
            OutcomePlan::Sequence(list) => {
                list.get(n).or(list.last()).copied().unwrap_or(Outcome::Ack)
            }
            OutcomePlan::Weighted(weights) => pick_weighted(weights, rng.next_f64()),
        }
    }
}

/// Picks the entry whose cumulative weight first exceeds `u` * total (u in [0, 1)).
pub fn pick_weighted(weights: &[(Outcome, f64)], u: f64) -> Outcome {
    let total: f64 = weights.iter().map(|(_, w)| w).sum();
    let mut acc = 0.0;
    for (o, w) in weights {
        acc += w;
        if u * total < acc {
            return *o;
        }
    }
    weights.last().map_or(Outcome::Ack, |(o, _)| *o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weighted_pick_follows_cumulative_weights() {
        let w = [(Outcome::Ack, 3.0), (Outcome::Requeue, 1.0)];
        assert_eq!(pick_weighted(&w, 0.0), Outcome::Ack);
        assert_eq!(pick_weighted(&w, 0.74), Outcome::Ack);
        assert_eq!(pick_weighted(&w, 0.75), Outcome::Requeue);
        assert_eq!(pick_weighted(&w, 0.999), Outcome::Requeue);
    }
}
