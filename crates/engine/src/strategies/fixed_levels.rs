//! `fixed-levels`: a fixed set of delay levels, one TTL queue each, as RocketMQ ships
//! (`1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h`). A delay is rounded
//! UP to the next level, so lateness is the rounding (never early), except a delay above
//! the last level, which is clamped to it and fires early.
//! ```text
//! delay 45 s -> level 1m: queue delay.wait.60000, fires 15 s late
//! delay 3 h  -> level 2h (the last): fires 1 h early
//! ```
//! Each queue has one TTL, so there is no head-of-line blocking inside a level.

use super::broker::{delay_scenario, persistent, wait_queue, BrokerRun, DelayTopology, Plan};
use super::workload::Workload;
use crate::value::Table;

/// The level a delay goes to: the first at or above it, else the last.
pub(crate) fn level_for(levels_ms: &[u64], delay_ms: u64) -> u64 {
    levels_ms
        .iter()
        .copied()
        .find(|l| *l >= delay_ms)
        .or(levels_ms.last().copied())
        .unwrap_or(0)
}

pub(crate) fn new(w: &Workload, levels_ms: &[u64]) -> BrokerRun {
    let levels = levels_ms.to_vec();
    let clamped = w
        .tasks
        .iter()
        .filter(|t| levels.last().is_some_and(|l| t.delay_ms > *l))
        .count() as u64;
    let plan = Plan {
        name: "fixed-levels",
        params: format!("{} levels, rounded up", levels.len()),
        scenario: delay_scenario("fixed-levels", DelayTopology::PerTtlQueues(&levels)),
        publish: Box::new(move |_task, remaining_ms| {
            persistent(
                "",
                &wait_queue(level_for(&levels, remaining_ms)),
                None,
                Table::new(),
            )
        }),
        facts: vec![
            ("levels", levels_ms.len() as u64),
            ("clamped_to_last_level", clamped),
        ],
    };
    BrokerRun::new(plan, w)
}
