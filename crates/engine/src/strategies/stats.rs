//! The figures every strategy reports, computed the same way for all of them.
//!
//! Lateness is fired time minus due time (ms, negative when early) over the tasks that
//! fired; p99 is the nearest-rank 99th percentile. The chart series cuts the due-time
//! range into `SERIES_POINTS` equal buckets and keeps each bucket's mean and max.
//! Peak stored is the most tasks waiting at once, from (enter, leave) intervals; a task
//! that leaves at the same millisecond another enters is not counted twice.

use super::StrategyResult;

/// Buckets in a lateness-over-due-time series.
pub const SERIES_POINTS: u64 = 60;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Lateness {
    pub mean_ms: f64,
    pub p99_ms: i64,
    pub max_ms: i64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeriesPoint {
    /// Start of the bucket (due time).
    pub due_ms: u64,
    pub mean_ms: f64,
    pub max_ms: i64,
}

/// What a strategy run gathers; `into_result` turns it into the common figures.
#[derive(Default)]
pub(crate) struct Tally {
    pub tasks: u64,
    /// (due_ms, lateness_ms) of every task that fired, first firing only.
    pub fired: Vec<(u64, i64)>,
    pub rows_scanned: u64,
    pub broker_objects: u64,
    pub peak_stored: u64,
    pub work: u64,
    pub facts: Vec<(&'static str, u64)>,
}

impl Tally {
    pub fn new(tasks: u64) -> Tally {
        Tally {
            tasks,
            fired: Vec::with_capacity(tasks as usize),
            ..Tally::default()
        }
    }

    pub fn fire(&mut self, due_ms: u64, at_ms: u64) {
        self.fired.push((due_ms, at_ms as i64 - due_ms as i64));
    }

    pub fn into_result(
        self,
        name: &'static str,
        params: String,
        work_unit: &'static str,
    ) -> StrategyResult {
        let mut late: Vec<i64> = self.fired.iter().map(|(_, l)| *l).collect();
        late.sort_unstable();
        let delivered = late.len() as u64;
        let lateness = if late.is_empty() {
            Lateness::default()
        } else {
            Lateness {
                mean_ms: late.iter().map(|l| *l as f64).sum::<f64>() / late.len() as f64,
                // The one p99 rule (nearest rank, in integers) the run result uses too.
                p99_ms: late[crate::lateness::p99_index(late.len())],
                max_ms: *late.last().expect("non-empty"),
            }
        };
        StrategyResult {
            name,
            params,
            not_applicable: None,
            tasks: self.tasks,
            delivered,
            lost: self.tasks.saturating_sub(delivered),
            early: late.iter().take_while(|l| **l < 0).count() as u64,
            lateness,
            rows_scanned: self.rows_scanned,
            broker_objects: self.broker_objects,
            peak_stored: self.peak_stored,
            work_per_task: if self.tasks == 0 {
                0.0
            } else {
                self.work as f64 / self.tasks as f64
            },
            work_unit,
            series: series(&self.fired),
            facts: self.facts,
        }
    }
}

impl StrategyResult {
    /// A strategy that cannot run this workload: the reason, and no figures.
    pub(crate) fn not_applicable(
        name: &'static str,
        params: String,
        tasks: u64,
        why: String,
    ) -> StrategyResult {
        let mut r = Tally::new(0).into_result(name, params, "");
        r.tasks = tasks;
        r.not_applicable = Some(why);
        r
    }
}

fn series(fired: &[(u64, i64)]) -> Vec<SeriesPoint> {
    let (Some(lo), Some(hi)) = (
        fired.iter().map(|f| f.0).min(),
        fired.iter().map(|f| f.0).max(),
    ) else {
        return Vec::new();
    };
    let width = ((hi - lo) / SERIES_POINTS + 1).max(1);
    let n = ((hi - lo) / width + 1) as usize;
    let mut sum = vec![0f64; n];
    let mut count = vec![0u64; n];
    let mut max = vec![i64::MIN; n];
    for (due, late) in fired {
        let i = ((due - lo) / width) as usize;
        sum[i] += *late as f64;
        count[i] += 1;
        max[i] = max[i].max(*late);
    }
    (0..n)
        .filter(|i| count[*i] > 0)
        .map(|i| SeriesPoint {
            due_ms: lo + i as u64 * width,
            mean_ms: sum[i] / count[i] as f64,
            max_ms: max[i],
        })
        .collect()
}

/// The most intervals `[enter, leave)` open at once.
pub(crate) fn peak_overlap(intervals: impl Iterator<Item = (u64, u64)>) -> u64 {
    let mut edges: Vec<(u64, i8)> = Vec::new();
    for (enter, leave) in intervals {
        if leave > enter {
            edges.push((enter, 1));
            edges.push((leave, -1));
        }
    }
    // At equal times, leaving (-1) sorts before entering (+1).
    edges.sort_unstable();
    let (mut now, mut peak) = (0i64, 0i64);
    for (_, d) in edges {
        now += i64::from(d);
        peak = peak.max(now);
    }
    peak as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lateness_mean_p99_max_and_lost() {
        let mut t = Tally::new(101);
        for i in 0..100u64 {
            t.fire(1_000 * i, 1_000 * i + i); // lateness 0..99
        }
        let r = t.into_result("x", String::new(), "ops");
        assert_eq!(r.delivered, 100);
        assert_eq!(r.lost, 1);
        assert_eq!(r.lateness.max_ms, 99);
        assert_eq!(r.lateness.p99_ms, 98);
        assert!((r.lateness.mean_ms - 49.5).abs() < 1e-9);
        assert!(r.series.len() <= SERIES_POINTS as usize + 1);
        assert_eq!(r.series.iter().map(|p| p.max_ms).max(), Some(99));
    }

    #[test]
    fn peak_counts_touching_intervals_once() {
        assert_eq!(peak_overlap([(0, 10), (10, 20), (5, 15)].into_iter()), 2);
        assert_eq!(peak_overlap([(0, 0)].into_iter()), 0);
    }
}
