//! The data of the playground's charts: lateness figures with the lateness chart's
//! points, and queue depths sampled over virtual time. Figures come from the engine's
//! one rule ([`LatenessSummary`]); this only thins the series to what a chart can show.

use delaylab_engine::lateness::LatenessSummary;

/// Points the lateness chart draws at most (one per bucket beyond that).
pub const MAX_LATENESS_POINTS: usize = 300;
/// Depth samples kept; beyond, every other one is dropped and the step doubles.
pub const MAX_DEPTH_SAMPLES: usize = 400;

/// One delivery as the playground tracks it: (message id, delivered at ms, lateness ms).
pub type Delivery = (u32, u64, u64);

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub summary: LatenessSummary,
    /// (delivery index, lateness) downsampled for the chart.
    pub points: Vec<(u64, u64)>,
    /// Deliveries the figures cover.
    pub total: u64,
}

impl Stats {
    /// Figures and chart points of every delivery so far, in delivery order.
    pub fn of(delivered: &[Delivery]) -> Stats {
        let lates: Vec<u64> = delivered.iter().map(|d| d.2).collect();
        Stats {
            summary: LatenessSummary::of(&lates),
            points: chart_points(delivered),
            total: delivered.len() as u64,
        }
    }
}

/// Every delivery when they fit, else one point per bucket: its largest lateness (what
/// a learner must not miss), at its own index.
fn chart_points(delivered: &[Delivery]) -> Vec<(u64, u64)> {
    let n = delivered.len();
    if n <= MAX_LATENESS_POINTS {
        return delivered
            .iter()
            .enumerate()
            .map(|(i, d)| (i as u64, d.2))
            .collect();
    }
    (0..MAX_LATENESS_POINTS)
        .map(|b| {
            let lo = b * n / MAX_LATENESS_POINTS;
            let hi = ((b + 1) * n / MAX_LATENESS_POINTS).max(lo + 1).min(n);
            let (i, late) = delivered[lo..hi]
                .iter()
                .enumerate()
                .map(|(i, d)| (lo + i, d.2))
                .max_by_key(|&(_, l)| l)
                .expect("a bucket holds at least one delivery");
            (i as u64, late)
        })
        .collect()
}

/// Ready counts per queue at one virtual time.
pub type DepthSample = (u64, Vec<(String, u64)>);

/// Ready counts per queue sampled over virtual time (for the depth chart).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Depths {
    pub samples: Vec<DepthSample>,
    /// Minimum virtual time between samples; doubles each time the list is thinned.
    pub step: u64,
}

impl Depths {
    /// Adds a sample unless it is not after the last one, or comes within `step` of it
    /// with the same counts. True when added.
    pub fn push(&mut self, t: u64, v: Vec<(String, u64)>) -> bool {
        if let Some((last, lv)) = self.samples.last() {
            if t < last + self.step.max(1) && *lv == v || t <= *last {
                return false;
            }
        }
        self.samples.push((t, v));
        if self.samples.len() > MAX_DEPTH_SAMPLES {
            let mut i = 0;
            self.samples.retain(|_| {
                i += 1;
                i % 2 == 1
            });
            self.step = (self.step.max(1)) * 2;
        }
        true
    }

    /// The queue names in order of first appearance (one line each on the chart).
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = vec![];
        for (_, v) in &self.samples {
            for (n, _) in v {
                if !names.contains(n) {
                    names.push(n.clone());
                }
            }
        }
        names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_are_the_engines_and_points_thin_to_the_worst_per_bucket() {
        let d: Vec<Delivery> = (0..1000u32).map(|i| (i + 1, 0, u64::from(i % 7))).collect();
        let s = Stats::of(&d);
        assert_eq!(s.total, 1000);
        assert_eq!(s.summary.count, 1000);
        assert_eq!(s.summary.max_ms, 6);
        assert_eq!(s.points.len(), MAX_LATENESS_POINTS);
        assert!(s.points.iter().all(|&(i, l)| d[i as usize].2 == l));
        let few = Stats::of(&d[..5]);
        assert_eq!(few.points, vec![(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)]);
    }

    #[test]
    fn depths_skip_repeats_within_a_step_and_thin_when_full() {
        let mut d = Depths {
            step: 10,
            ..Depths::default()
        };
        let v = |n| vec![("q".to_string(), n)];
        assert!(d.push(0, v(1)));
        assert!(!d.push(5, v(1)), "same counts within the step");
        assert!(d.push(5, v(2)), "a change is always kept");
        assert!(!d.push(5, v(3)), "not after the last sample");
        for t in 1..=MAX_DEPTH_SAMPLES as u64 {
            d.push(t * 100, v(t));
        }
        assert!(d.samples.len() <= MAX_DEPTH_SAMPLES);
        assert_eq!(d.step, 20);
        assert_eq!(d.names(), vec!["q".to_string()]);
    }
}
