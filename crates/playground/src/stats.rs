//! The data of the playground's charts: lateness figures with the lateness chart's
//! points, and queue depths sampled over virtual time. Figures come from the engine's
//! one rule ([`LatenessSummary`]); this only thins the series to what a chart can show.

use delaylab_engine::lateness::LatenessSummary;
use delaylab_engine::report::lateness::Delivery;

/// Points the lateness chart draws at most (one per bucket beyond that).
pub const MAX_LATENESS_POINTS: usize = 300;
/// Time buckets of the depth chart at most; beyond, neighbours merge (min and max kept).
pub const MAX_DEPTH_BUCKETS: usize = 400;

/// One delivery as the playground tracks it: which message, when, and whether it was its
/// first delivery (on time or late) or a retry (the engine's `Lateness::delivery`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivered {
    pub msg: u32,
    pub t_ms: u64,
    /// The message's lateness so far (`Lateness::of`, the run contract's `late_ms`).
    pub late_ms: u64,
    pub kind: Delivery,
}

impl Delivered {
    /// What the chart plots: the lateness of a first delivery, the time since the first
    /// delivery for a retry.
    pub fn ms(&self) -> u64 {
        match self.kind {
            Delivery::First { late_ms } => late_ms,
            Delivery::Retry { since_first_ms } => since_first_ms,
        }
    }

    pub fn is_retry(&self) -> bool {
        matches!(self.kind, Delivery::Retry { .. })
    }
}

/// One point of the lateness chart: the delivery's index, message, value and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    pub index: u64,
    pub msg: u32,
    pub ms: u64,
    pub retry: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// The run contract's lateness figures of every delivery (the engine's rule, the
    /// CLI's `lateness_ms`): a retry adds a delivery with its message's lateness so far.
    pub summary: LatenessSummary,
    /// Every delivery, downsampled for the chart.
    pub points: Vec<Point>,
    /// Deliveries the chart covers (first deliveries and retries).
    pub total: u64,
    /// Retries: deliveries of a message already delivered and not handled since.
    pub retries: u64,
    /// The longest time a retried message has gone unhandled since its first delivery.
    pub retry_max_ms: u64,
}

impl Stats {
    /// Figures and chart points of every delivery so far, in delivery order.
    pub fn of(delivered: &[Delivered]) -> Stats {
        let lates: Vec<u64> = delivered.iter().map(|d| d.late_ms).collect();
        let retries = delivered.iter().filter(|d| d.is_retry());
        Stats {
            summary: LatenessSummary::of(&lates),
            points: chart_points(delivered),
            total: delivered.len() as u64,
            retries: retries.clone().count() as u64,
            retry_max_ms: retries.map(Delivered::ms).max().unwrap_or(0),
        }
    }

    /// The chart's top: the largest value it plots.
    pub fn chart_max_ms(&self) -> u64 {
        self.summary.max_ms.max(self.retry_max_ms)
    }
}

/// Every delivery when they fit, else one point per bucket: its largest value (what a
/// learner must not miss), at its own index.
fn chart_points(delivered: &[Delivered]) -> Vec<Point> {
    let point = |i: usize, d: &Delivered| Point {
        index: i as u64,
        msg: d.msg,
        ms: d.ms(),
        retry: d.is_retry(),
    };
    let n = delivered.len();
    if n <= MAX_LATENESS_POINTS {
        return delivered
            .iter()
            .enumerate()
            .map(|(i, d)| point(i, d))
            .collect();
    }
    (0..MAX_LATENESS_POINTS)
        .map(|b| {
            let lo = b * n / MAX_LATENESS_POINTS;
            let hi = ((b + 1) * n / MAX_LATENESS_POINTS).max(lo + 1).min(n);
            delivered[lo..hi]
                .iter()
                .enumerate()
                .map(|(i, d)| point(lo + i, d))
                .max_by_key(|p| p.ms)
                .expect("a bucket holds at least one delivery")
        })
        .collect()
}

/// One time bucket of a queue's depth: the least and the most ready messages it held
/// during the bucket, and what it held at the bucket's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bucket {
    pub min: u64,
    pub max: u64,
    pub last: u64,
}

impl Bucket {
    fn at(v: u64) -> Bucket {
        Bucket {
            min: v,
            max: v,
            last: v,
        }
    }

    fn add(&mut self, v: u64) {
        self.min = self.min.min(v);
        self.max = self.max.max(v);
        self.last = v;
    }

    /// Two neighbours as one (the earlier first).
    fn merge(a: Option<Bucket>, b: Option<Bucket>) -> Option<Bucket> {
        match (a, b) {
            (Some(a), Some(b)) => Some(Bucket {
                min: a.min.min(b.min),
                max: a.max.max(b.max),
                last: b.last,
            }),
            (a, None) => a,
            (None, b) => b,
        }
    }
}

/// One queue's depth over time, bucket `k` covering `[k, k+1) x bucket_ms`; `None`
/// before the queue existed (or after it went away).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    pub queue: String,
    pub buckets: Vec<Option<Bucket>>,
    /// The queue was in the last record (its depth carries on until the next change).
    live: bool,
}

/// Ready counts per queue over virtual time. A queue's depth is a step function: it
/// changes only when something happens, and holds in between. Each change is recorded
/// ([`Depths::record`], after every instant the engine ran), so no change is lost
/// between two samples; time is cut into at most [`MAX_DEPTH_BUCKETS`] buckets that keep
/// their min, max and last value, and when the run outgrows them, neighbours merge and
/// the bucket doubles: every step stays visible at any zoom.
///
/// ```text
/// bucket 10 s: t=0 A, B, C published -> 3; 0:10 C expires -> 2; 5:00 B -> 1
///   [0,10s) min 0 max 3 last 3   [10s,20s) min 2 max 3 last 2 ... [5:00,5:10) min 1 max 2 last 1
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Depths {
    pub bucket_ms: u64,
    pub series: Vec<Series>,
    /// The latest time recorded.
    pub t_ms: u64,
    /// Bumped by every record that changed something (a view redraws on it).
    pub rev: u64,
}

/// The first bucket width: fine enough for a few seconds' scenario.
pub const FIRST_BUCKET_MS: u64 = 100;

impl Default for Depths {
    fn default() -> Self {
        Depths {
            bucket_ms: FIRST_BUCKET_MS,
            series: Vec::new(),
            t_ms: 0,
            rev: 0,
        }
    }
}

impl Depths {
    /// The depth of every queue that exists at `t_ms` (after all that happened then).
    /// Times must not go backwards (an earlier one counts as the latest).
    pub fn record<'a>(&mut self, t_ms: u64, queues: impl IntoIterator<Item = (&'a str, u64)>) {
        let t_ms = t_ms.max(self.t_ms);
        while t_ms / self.bucket_ms >= MAX_DEPTH_BUCKETS as u64 {
            self.halve();
        }
        let k = (t_ms / self.bucket_ms) as usize;
        let before = self.rev;
        let mut seen = vec![false; self.series.len()];
        for (name, v) in queues {
            let i = match self.series.iter().position(|s| s.queue == name) {
                Some(i) => i,
                None => {
                    self.series.push(Series {
                        queue: name.to_string(),
                        buckets: Vec::new(),
                        live: false,
                    });
                    seen.push(false);
                    self.series.len() - 1
                }
            };
            seen[i] = true;
            let s = &mut self.series[i];
            let carried = s.buckets.last().copied().flatten().map(|b| b.last);
            // The value held since the last change fills the buckets in between.
            while s.buckets.len() < k {
                let fill = carried.filter(|_| s.live).map(Bucket::at);
                s.buckets.push(fill);
            }
            match s.buckets.get_mut(k) {
                Some(Some(b)) => {
                    if b.last != v {
                        b.add(v);
                        self.rev += 1;
                    }
                }
                _ => {
                    let mut b = carried.filter(|_| s.live).map_or(Bucket::at(v), Bucket::at);
                    b.add(v);
                    if s.buckets.len() == k {
                        s.buckets.push(Some(b));
                    } else {
                        s.buckets[k] = Some(b);
                    }
                    self.rev += 1;
                }
            }
            s.live = true;
        }
        for (s, seen) in self.series.iter_mut().zip(seen) {
            s.live &= seen;
        }
        if t_ms > self.t_ms && self.rev == before {
            self.rev += 1; // the axis moves on
        }
        self.t_ms = t_ms;
    }

    /// Twice as wide buckets, half as many: neighbours merge, min and max kept.
    fn halve(&mut self) {
        for s in &mut self.series {
            s.buckets = s
                .buckets
                .chunks(2)
                .map(|c| Bucket::merge(c[0], c.get(1).copied().flatten()))
                .collect();
        }
        self.bucket_ms *= 2;
    }

    /// The queue names in order of first appearance (one line each on the chart).
    pub fn names(&self) -> Vec<String> {
        self.series.iter().map(|s| s.queue.clone()).collect()
    }

    /// The largest depth ever recorded.
    pub fn max(&self) -> u64 {
        self.series
            .iter()
            .flat_map(|s| s.buckets.iter().flatten().map(|b| b.max))
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(msg: u32, late_ms: u64) -> Delivered {
        Delivered {
            msg,
            t_ms: 0,
            late_ms,
            kind: Delivery::First { late_ms },
        }
    }

    #[test]
    fn figures_are_the_engines_and_points_thin_to_the_worst_per_bucket() {
        let d: Vec<Delivered> = (0..1000u32)
            .map(|i| first(i + 1, u64::from(i % 7)))
            .collect();
        let s = Stats::of(&d);
        assert_eq!(s.total, 1000);
        assert_eq!(s.summary.count, 1000);
        assert_eq!(s.summary.max_ms, 6);
        assert_eq!(s.points.len(), MAX_LATENESS_POINTS);
        assert!(s.points.iter().all(|p| d[p.index as usize].ms() == p.ms));
        let few = Stats::of(&d[..3]);
        let v: Vec<(u64, u32, u64)> = few.points.iter().map(|p| (p.index, p.msg, p.ms)).collect();
        assert_eq!(v, vec![(0, 1, 0), (1, 2, 1), (2, 3, 2)]);
    }

    #[test]
    fn a_looping_message_is_retries_not_on_time_deliveries() {
        let mut d = vec![first(1, 0)];
        for k in 1..=30u64 {
            d.push(Delivered {
                msg: 1,
                t_ms: k * 1_000,
                late_ms: 0,
                kind: Delivery::Retry {
                    since_first_ms: k * 1_000,
                },
            });
        }
        let s = Stats::of(&d);
        // The run contract's figures count every delivery; the retries are told apart.
        assert_eq!((s.summary.count, s.summary.max_ms), (31, 0));
        assert_eq!((s.retries, s.retry_max_ms, s.total), (30, 30_000, 31));
        assert_eq!(s.points.iter().filter(|p| p.retry).count(), 30);
        assert_eq!(s.chart_max_ms(), 30_000);
    }

    #[test]
    fn depths_are_steps_whose_min_and_max_survive_any_zoom() {
        let mut d = Depths::default();
        // A, B, C into one wait queue at 0; C leaves at 0:10, B at 5:00, A at 30:00.
        d.record(0, [("wait", 3)]);
        d.record(10_000, [("wait", 2)]);
        d.record(300_000, [("wait", 1)]);
        d.record(1_800_000, [("wait", 0)]);
        d.record(5 * 3_600_000, [("wait", 0)]);
        assert!(d.bucket_ms * MAX_DEPTH_BUCKETS as u64 > 5 * 3_600_000);
        let w = d.bucket_ms;
        let s = &d.series[0];
        let at = |t: u64| s.buckets[(t / w) as usize].unwrap();
        assert_eq!(at(0).max, 3, "the first bucket keeps the 3");
        let mid = at(20 * 60_000);
        assert_eq!(
            (mid.min, mid.max, mid.last),
            (1, 1, 1),
            "flat between the steps"
        );
        let drop = at(1_800_000);
        assert_eq!((drop.max, drop.last), (1, 0), "the last step, not a ramp");
        assert_eq!(d.max(), 3);
        assert!(s.buckets.len() <= MAX_DEPTH_BUCKETS);
    }

    #[test]
    fn a_queue_declared_later_starts_then_and_one_gone_stops() {
        let mut d = Depths::default();
        d.record(0, [("a", 1)]);
        d.record(1_000, [("a", 1), ("b", 4)]);
        d.record(2_000, [("b", 4)]);
        d.record(3_000, [("b", 5)]);
        assert_eq!(d.names(), ["a", "b"]);
        let a = &d.series[0].buckets;
        let b = &d.series[1].buckets;
        assert!(b[0].is_none(), "b did not exist at 0");
        assert!(
            a.get(25).copied().flatten().is_none(),
            "a is gone after 2 s"
        );
        assert_eq!(b[25], Some(Bucket::at(4)), "b held 4 between its changes");
        assert_eq!(b[30].map(|x| x.last), Some(5));
        let rev = d.rev;
        d.record(3_000, [("b", 5)]);
        assert_eq!(d.rev, rev, "nothing new");
    }
}
