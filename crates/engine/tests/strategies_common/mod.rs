//! Small workloads for the strategy tests.
#![allow(dead_code)]

use delaylab_engine::strategies::{
    self, Config, DelayMix, Outage, OutageKind, StrategyResult, Workload, WorkloadSpec,
};

pub fn mix(delays_ms: &[u64]) -> Vec<DelayMix> {
    delays_ms
        .iter()
        .map(|d| DelayMix {
            delay_ms: *d,
            up_to_ms: None,
            weight: 1.0,
        })
        .collect()
}

pub fn workload(
    count: u64,
    over_ms: u64,
    delays: Vec<DelayMix>,
    outage: Option<Outage>,
) -> Workload {
    Workload::generate(&WorkloadSpec {
        seed: 5,
        count,
        over_ms,
        delays,
        outage,
    })
}

pub fn restart(at_ms: u64, downtime_ms: u64) -> Option<Outage> {
    Some(Outage {
        at_ms,
        kind: OutageKind::Restart { downtime_ms },
    })
}

pub fn lose(at_ms: u64) -> Option<Outage> {
    Some(Outage {
        at_ms,
        kind: OutageKind::Lose,
    })
}

pub fn run(name: &str, w: &Workload) -> StrategyResult {
    strategies::run(&Config::default_for(name).expect("known strategy"), w)
}

/// Tasks waiting at `at_ms` (entered before it, due after it).
pub fn waiting_at(w: &Workload, at_ms: u64) -> u64 {
    w.tasks
        .iter()
        .filter(|t| t.created_at_ms < at_ms && t.due_ms() > at_ms)
        .count() as u64
}
