//! A workload: N delayed tasks drawn from a spec with the engine's seeded PRNG, and an
//! optional outage of whatever holds the waiting tasks.
//!
//! Drawing: for each task in turn, a creation time uniform in `[0, over)`, then a delay
//! picked from the mix by weight (uniform in `[delay, up_to]` for a ranged entry). The
//! tasks are then sorted by creation time (ties keep draw order). Same spec, same seed:
//! the same tasks on every platform.
//!
//! The outage (timeline for `restart {at: 20m, downtime: 1m}`):
//! ```text
//! 20m     the app (or the broker node) stops; what it held in memory is gone
//! 20m-21m tasks created now cannot be handed over; the producer retries them, so they
//!         enter at 21m (their due time still counts from their creation)
//! 21m     back up; overdue work is caught up
//! ```
//! `lose {at}` is a node gone for good, replaced at once (no downtime): the plugin's
//! store and classic queues' contents go with it; an app-side store survives.

use crate::rng::Rng;

#[derive(Clone, Debug, PartialEq)]
pub struct DelayMix {
    pub delay_ms: u64,
    /// A range `[delay_ms, up_to_ms]` instead of one fixed delay.
    pub up_to_ms: Option<u64>,
    /// Positive; weights need not sum to 1.
    pub weight: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutageKind {
    Restart { downtime_ms: u64 },
    Lose,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outage {
    pub at_ms: u64,
    pub kind: OutageKind,
}

impl Outage {
    /// When the holder is back (the outage time for a loss).
    pub fn up_ms(&self) -> u64 {
        match self.kind {
            OutageKind::Restart { downtime_ms } => self.at_ms.saturating_add(downtime_ms),
            OutageKind::Lose => self.at_ms,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct WorkloadSpec {
    pub seed: u64,
    pub count: u64,
    /// Tasks are created over `[0, over_ms)`.
    pub over_ms: u64,
    pub delays: Vec<DelayMix>,
    pub outage: Option<Outage>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Task {
    pub created_at_ms: u64,
    pub delay_ms: u64,
}

impl Task {
    pub fn due_ms(&self) -> u64 {
        self.created_at_ms.saturating_add(self.delay_ms)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    /// Sorted by creation time.
    pub tasks: Vec<Task>,
    pub outage: Option<Outage>,
    /// For strategies that draw (store-notify's drops).
    pub seed: u64,
    /// The RabbitMQ version the broker strategies run on (`compare --broker`); `None`:
    /// 3.10, as before.
    pub broker: Option<crate::version::BrokerVersion>,
    /// The broker strategies' cost mode (`crate::costs`; ideal unless set).
    pub costs: crate::costs::CostMode,
}

impl Workload {
    /// Draws the tasks. The spec is assumed valid (the loader checks it): a non-empty mix
    /// with positive weights.
    pub fn generate(spec: &WorkloadSpec) -> Workload {
        let mut rng = Rng::new(spec.seed);
        let total: f64 = spec.delays.iter().map(|d| d.weight).sum();
        let mut tasks: Vec<Task> = (0..spec.count)
            .map(|_| {
                let created_at_ms = if spec.over_ms == 0 {
                    0
                } else {
                    rng.range_u64(0, spec.over_ms - 1)
                };
                let delay_ms = pick(&spec.delays, total, &mut rng);
                Task {
                    created_at_ms,
                    delay_ms,
                }
            })
            .collect();
        tasks.sort_by_key(|t| t.created_at_ms);
        Workload {
            tasks,
            outage: spec.outage,
            seed: spec.seed,
            broker: None,
            costs: crate::costs::CostMode::Ideal,
        }
    }

    /// When the task reaches whatever holds it: its creation, or the end of a restart
    /// if it was created while the holder was down (the producer retries).
    pub fn enter_ms(&self, t: &Task) -> u64 {
        match self.outage {
            Some(
                o @ Outage {
                    at_ms,
                    kind: OutageKind::Restart { .. },
                },
            ) if t.created_at_ms >= at_ms && t.created_at_ms < o.up_ms() => o.up_ms(),
            _ => t.created_at_ms,
        }
    }

    pub fn max_delay_ms(&self) -> u64 {
        self.tasks.iter().map(|t| t.delay_ms).max().unwrap_or(0)
    }
}

fn pick(mix: &[DelayMix], total: f64, rng: &mut Rng) -> u64 {
    let mut x = rng.next_f64() * total;
    let entry = mix
        .iter()
        .find(|d| {
            x -= d.weight;
            x < 0.0
        })
        .unwrap_or_else(|| mix.last().expect("a non-empty delay mix"));
    match entry.up_to_ms {
        Some(hi) if hi > entry.delay_ms => rng.range_u64(entry.delay_ms, hi),
        _ => entry.delay_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(outage: Option<Outage>) -> WorkloadSpec {
        WorkloadSpec {
            seed: 3,
            count: 1000,
            over_ms: 60_000,
            delays: vec![
                DelayMix {
                    delay_ms: 1_000,
                    up_to_ms: None,
                    weight: 3.0,
                },
                DelayMix {
                    delay_ms: 10_000,
                    up_to_ms: Some(20_000),
                    weight: 1.0,
                },
            ],
            outage,
        }
    }

    #[test]
    fn draws_within_the_window_and_the_mix_by_weight() {
        let w = Workload::generate(&spec(None));
        assert_eq!(w.tasks.len(), 1000);
        assert!(w
            .tasks
            .windows(2)
            .all(|p| p[0].created_at_ms <= p[1].created_at_ms));
        assert!(w.tasks.iter().all(|t| t.created_at_ms < 60_000));
        let short = w.tasks.iter().filter(|t| t.delay_ms == 1_000).count();
        assert!((650..850).contains(&short), "about 3 in 4 are 1 s: {short}");
        assert!(w
            .tasks
            .iter()
            .filter(|t| t.delay_ms != 1_000)
            .all(|t| (10_000..=20_000).contains(&t.delay_ms)));
    }

    #[test]
    fn tasks_created_during_a_restart_enter_when_it_ends() {
        let o = Outage {
            at_ms: 10_000,
            kind: OutageKind::Restart { downtime_ms: 5_000 },
        };
        let w = Workload::generate(&spec(Some(o)));
        for t in &w.tasks {
            let inside = (10_000..15_000).contains(&t.created_at_ms);
            assert_eq!(w.enter_ms(t), if inside { 15_000 } else { t.created_at_ms });
        }
    }
}
