//! `polling-scan`: a scheduled job reads the business table every period and closes the
//! due pending rows (`status = pending AND due_at <= now`).
//!
//! Rules, as the seed articles describe them:
//! - precision is bounded by the period: a task due just after a run waits for the next
//!   one (lateness in `[0, period)`, more after an outage or with a `batch` limit);
//! - without an index on (status, due) every run reads the whole table, done rows
//!   included, so rows scanned per run grow with the table; with one, a run reads only
//!   the rows it returns;
//! - the job holds a lock: one instance runs it, so it does not scale out;
//! - runs are on the cron clock (`k * period`); a restart skips the runs in its downtime
//!   and the app runs one catch-up scan when it is back. The table survives.
//!
//! ```text
//! period 1m; rows created at 10 s (delay 30 s) and 50 s (delay 5 s)
//! 60 s   run 1: reads 2 rows, closes both (lateness 20 s and 5 s)
//! 120 s  run 2: reads 2 rows (both done), closes none; the job stops when all are done
//! ```

use super::stats::{peak_overlap, Tally};
use super::workload::{OutageKind, Workload};
use super::StrategyResult;
use crate::scenario::duration::format_duration;

/// What a scan loop produced, shared with `store-poll` (an indexed scan of a sorted set).
pub(crate) struct Scan {
    pub tally: Tally,
    pub runs: u64,
    pub max_rows_per_run: u64,
}

/// Runs the scan loop to the last task. `indexed`: a run reads only the rows it returns.
pub(crate) fn scan(w: &Workload, period_ms: u64, indexed: bool, batch: Option<u64>) -> Scan {
    let n = w.tasks.len();
    let enter: Vec<u64> = w.tasks.iter().map(|t| w.enter_ms(t)).collect();
    let mut entered_sorted = enter.clone();
    entered_sorted.sort_unstable();
    // A row can be picked once it is in the table and due.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (w.tasks[i].due_ms().max(enter[i]), w.tasks[i].due_ms(), i));
    let restart = w.outage.and_then(|o| match o.kind {
        OutageKind::Restart { .. } => Some((o.at_ms, o.up_ms())),
        OutageKind::Lose => None, // another instance takes the lock at once; the table survives
    });
    let next_run = |prev: Option<u64>| -> u64 {
        let candidate = prev.map_or(period_ms, |p| (p / period_ms + 1).saturating_mul(period_ms));
        match restart {
            Some((at, up)) if prev.unwrap_or(0) < up && candidate >= at && at < up => up,
            _ => candidate,
        }
    };
    let mut tally = Tally::new(n as u64);
    let mut fired_at = vec![0u64; n];
    let (mut runs, mut max_rows_per_run, mut next) = (0u64, 0u64, 0usize);
    let mut run_at: Option<u64> = None;
    while next < n {
        let r = next_run(run_at);
        let table_full = entered_sorted.last().is_some_and(|last| *last <= r);
        let first_avail = w.tasks[order[next]].due_ms().max(enter[order[next]]);
        let on_grid = r % period_ms == 0 && restart.is_none_or(|(_, up)| r >= up);
        if table_full && on_grid && first_avail > r {
            // The runs before the next due row find nothing; each still reads the table.
            let idle = (first_avail - r).div_ceil(period_ms);
            runs += idle;
            if !indexed {
                tally.rows_scanned += idle * n as u64;
                max_rows_per_run = max_rows_per_run.max(n as u64);
            }
            run_at = Some(r + (idle - 1) * period_ms);
            continue;
        }
        run_at = Some(r);
        runs += 1;
        let limit = batch.unwrap_or(u64::MAX);
        let mut handled = 0u64;
        while next < n && handled < limit {
            let i = order[next];
            if w.tasks[i].due_ms().max(enter[i]) > r {
                break;
            }
            tally.fire(w.tasks[i].due_ms(), r);
            fired_at[i] = r;
            handled += 1;
            next += 1;
        }
        let rows = if indexed {
            handled
        } else {
            entered_sorted.partition_point(|e| *e <= r) as u64
        };
        tally.rows_scanned += rows;
        max_rows_per_run = max_rows_per_run.max(rows);
    }
    tally.peak_stored = peak_overlap((0..n).map(|i| (enter[i], fired_at[i])));
    Scan {
        tally,
        runs,
        max_rows_per_run,
    }
}

/// The `polling-scan` figures.
pub(crate) fn compute(
    w: &Workload,
    period_ms: u64,
    indexed: bool,
    batch: Option<u64>,
) -> StrategyResult {
    let s = scan(w, period_ms, indexed, batch);
    let mut tally = s.tally;
    tally.work = tally.rows_scanned;
    tally.facts = vec![
        ("period_ms", period_ms),
        ("indexed", u64::from(indexed)),
        ("runs", s.runs),
        ("max_rows_per_run", s.max_rows_per_run),
        ("instances", 1),
    ];
    if let Some(b) = batch {
        tally.facts.push(("batch", b));
    }
    let params = format!(
        "period {}, {}{}",
        format_duration(period_ms),
        if indexed { "indexed" } else { "not indexed" },
        batch.map_or(String::new(), |b| format!(", batch {b}"))
    );
    tally.into_result("polling-scan", params, "rows")
}
