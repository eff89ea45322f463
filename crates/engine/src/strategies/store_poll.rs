//! `store-poll`: each task's due time goes into an external store (a Redis sorted set
//! scored by due time, or an indexed table of due times) and the app polls it every
//! period (`ZRANGEBYSCORE key -inf now`, then `ZREM` what it handled).
//!
//! The same loop as `polling-scan` with an index: a poll reads only the members it
//! returns, so no done rows are read; precision is still bounded by the period. The
//! store survives an app restart; polls stop during the downtime and one catch-up poll
//! runs when the app is back.
//!
//! ```text
//! period 1s; ZADD at 0 with score 2500
//! 1 s, 2 s   polls return nothing (a poll is one operation)
//! 3 s        poll returns the member: fired, lateness 500 ms; ZREM
//! ```
//! Work per task: ZADD + ZREM + the task's share of all polls (operations).

use super::polling_scan::scan;
use super::workload::Workload;
use super::StrategyResult;
use crate::scenario::duration::format_duration;

/// The `store-poll` figures.
pub(crate) fn compute(w: &Workload, period_ms: u64) -> StrategyResult {
    let s = scan(w, period_ms, true, None);
    let mut tally = s.tally;
    tally.work = 2 * w.tasks.len() as u64 + s.runs;
    tally.facts = vec![("period_ms", period_ms), ("polls", s.runs)];
    tally.into_result(
        "store-poll",
        format!("poll every {}", format_duration(period_ms)),
        "ops",
    )
}
