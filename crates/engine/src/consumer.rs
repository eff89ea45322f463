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
    /// When its channel's tick started: the first delivery it held with nothing else
    /// unacked (D21, `sim/ack_timeout.rs`).
    pub tick_origin_ms: u64,
}

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
