//! `timing-wheel`: an in-memory hashed wheel in the application (Netty's
//! `HashedWheelTimer`): `wheel_size` buckets, one visited per tick.
//!
//! Rules, from Netty 4's worker loop:
//! - the worker wakes at `(tick + 1) * tick_ms`, moves new timeouts into buckets, then
//!   expires bucket `tick & (wheel_size - 1)`; a timeout added during tick T with
//!   deadline d goes to bucket `max(d / tick_ms, T)` with `(d / tick_ms - T) / wheel_size`
//!   remaining rounds, so it fires at the end of its tick: lateness in `(0, tick_ms]`;
//! - a long delay takes several rounds: its bucket is visited (and its rounds counted
//!   down) once per turn of the wheel, so work per task grows with delay / (tick * size);
//! - everything lives in the app's memory: a restart (or a lost node) loses every task
//!   waiting at that moment; the new wheel starts when the app is back;
//! - each instance has its own wheel: several instances need coordination (not modelled).
//!
//! ```text
//! tick 100 ms, 512 buckets (one turn = 51.2 s); add at 0 with delay 120 s
//! calculated tick 1200: bucket 1200 & 511 = 176, rounds (1200 - 0) / 512 = 2
//! 17.7 s, 68.9 s  bucket 176 visited, rounds 2 -> 1 -> 0
//! 120.1 s         visited again, rounds 0: fired, lateness 100 ms; 3 visits in all
//! ```

use super::stats::{peak_overlap, Tally};
use super::workload::Workload;
use super::StrategyResult;
use crate::scenario::duration::format_duration;

/// The `timing-wheel` figures.
pub(crate) fn compute(w: &Workload, tick_ms: u64, wheel_size: u64) -> StrategyResult {
    let (tick, size) = (tick_ms.max(1), wheel_size.max(1));
    let n = w.tasks.len();
    let mut tally = Tally::new(n as u64);
    let mut intervals = Vec::with_capacity(n);
    let (mut lost_on_restart, mut max_rounds, mut visits) = (0u64, 0u64, 0u64);
    for t in &w.tasks {
        let enter = w.enter_ms(t);
        // The wheel the task went into: the first one, or the one started after the outage.
        let (start, dies_at) = match w.outage {
            Some(o) if enter >= o.up_ms() && enter >= o.at_ms => (o.up_ms(), None),
            Some(o) => (0, Some(o.at_ms)),
            None => (0, None),
        };
        let added_tick = (enter - start).div_ceil(tick).saturating_sub(1);
        let calculated = t.due_ms().max(enter).saturating_sub(start) / tick;
        let rounds = calculated.saturating_sub(added_tick) / size;
        let fire_ms = start + (calculated.max(added_tick) + 1) * tick;
        match dies_at {
            Some(at) if fire_ms > at => {
                lost_on_restart += 1;
                intervals.push((enter, at));
                // Visits made before the restart.
                let ticks_alive = (at - start) / tick;
                visits += ticks_alive.saturating_sub(added_tick) / size;
            }
            _ => {
                tally.fire(t.due_ms(), fire_ms);
                intervals.push((enter, fire_ms));
                visits += rounds + 1;
                max_rounds = max_rounds.max(rounds);
            }
        }
    }
    tally.peak_stored = peak_overlap(intervals.into_iter());
    tally.work = visits;
    tally.facts = vec![
        ("tick_ms", tick),
        ("wheel_size", size),
        ("max_rounds", max_rounds),
        ("lost_on_restart", lost_on_restart),
    ];
    let params = format!("tick {}, {} buckets", format_duration(tick), size);
    tally.into_result("timing-wheel", params, "visits")
}
