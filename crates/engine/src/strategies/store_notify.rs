//! `store-notify`: each task is a key with a TTL (`SET order:1 "" PX delay`) and the app
//! acts on Redis's key-expired notification (`notify-keyspace-events Ex`).
//!
//! Rules:
//! - Redis expires keys in its expire cycle (hz 10: every `expire_cycle_ms` = 100 ms),
//!   so the notification comes at the first cycle at or after the due time;
//! - notifications are pub/sub: fire and forget. One sent while the subscriber (the app)
//!   is down is lost, and so is its task (the key is already gone);
//! - under memory pressure Redis loses events: while more than `pressure_above` keys
//!   are stored, each notification is dropped with probability `drop_share`, drawn with
//!   the engine's PRNG seeded from the workload (same seed, same drops).
//!
//! ```text
//! cycle 100 ms; SET at 0 with PX 250
//! 300 ms  the cycle finds it expired: key deleted, notification sent, task fired (+50 ms)
//! ```
//! Work per task: the SET and the notification (operations).

use super::stats::{peak_overlap, Tally};
use super::workload::{OutageKind, Workload};
use super::StrategyResult;
use crate::rng::Rng;
use crate::scenario::duration::format_duration;

/// Mixed into the workload seed so the drops are not the arrival draws.
const DROP_SEED_SALT: u64 = 0x6e6f_7469_6679;

/// The `store-notify` figures.
pub(crate) fn compute(
    w: &Workload,
    expire_cycle_ms: u64,
    pressure_above: u64,
    drop_share: f64,
) -> StrategyResult {
    let n = w.tasks.len();
    let cycle = expire_cycle_ms.max(1);
    let enter: Vec<u64> = w.tasks.iter().map(|t| w.enter_ms(t)).collect();
    let notify: Vec<u64> = (0..n)
        .map(|i| {
            w.tasks[i]
                .due_ms()
                .max(enter[i])
                .div_ceil(cycle)
                .saturating_mul(cycle)
        })
        .collect();
    let mut entered_sorted = enter.clone();
    entered_sorted.sort_unstable();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (notify[i], w.tasks[i].due_ms(), i));
    let down = w.outage.and_then(|o| match o.kind {
        OutageKind::Restart { .. } => Some((o.at_ms, o.up_ms())),
        OutageKind::Lose => None, // the subscriber reconnects to another instance at once
    });
    let mut rng = Rng::new(w.seed ^ DROP_SEED_SALT);
    let mut tally = Tally::new(n as u64);
    let (mut dropped, mut missed_while_down) = (0u64, 0u64);
    for (expired_before, &i) in order.iter().enumerate() {
        let at = notify[i];
        let stored = entered_sorted.partition_point(|e| *e <= at) as u64 - expired_before as u64;
        // Always draw, so one task's fate does not shift every later draw.
        let unlucky = rng.next_f64() < drop_share;
        if down.is_some_and(|(from, to)| at >= from && at < to) {
            missed_while_down += 1;
        } else if stored > pressure_above && unlucky {
            dropped += 1;
        } else {
            tally.fire(w.tasks[i].due_ms(), at);
        }
    }
    tally.peak_stored = peak_overlap((0..n).map(|i| (enter[i], notify[i])));
    tally.work = 2 * n as u64;
    tally.facts = vec![
        ("expire_cycle_ms", cycle),
        ("pressure_above", pressure_above),
        ("drop_share_permille", (drop_share * 1000.0).round() as u64),
        ("dropped_under_pressure", dropped),
        ("lost_while_down", missed_while_down),
    ];
    let params = format!(
        "expire cycle {}, drops {}% above {} keys",
        format_duration(cycle),
        drop_share * 100.0,
        pressure_above
    );
    tally.into_result("store-notify", params, "ops")
}
