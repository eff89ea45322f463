//! Lateness figures, one rule for every report: the run result's `lateness_ms`, the
//! strategy comparison's and the playground's live figures, the order lab's close
//! lateness. Plain numbers in, figures out; how late each message is (summed from the
//! sim's events) is `report::lateness`.
//!
//! The p99 is the nearest-rank 99th percentile: sort the n values and take the one of
//! rank ceil(0.99 n), computed in integers (`(99 n).div_ceil(100)`) so that no float
//! rounding moves it. Worked example: 250 deliveries -> rank ceil(247.5) = 248, the
//! 248th smallest; 1 delivery -> rank 1, that one. The p50 (the median a scenario's
//! checks may bound) is the same rule at 50: 4 deliveries -> rank 2, the 2nd smallest.

use serde_json::{json, Value};

/// The 0-based index of the nearest-rank 99th percentile among `n` sorted values
/// (`n` at least 1).
pub fn p99_index(n: usize) -> usize {
    percentile_index(n, 99)
}

/// The 0-based index of the nearest-rank `pct`th percentile (1 to 100) among `n` sorted
/// values (`n` at least 1): rank ceil(pct n / 100), in integers.
pub fn percentile_index(n: usize, pct: usize) -> usize {
    debug_assert!(n > 0, "a percentile of no values");
    debug_assert!((1..=100).contains(&pct), "a percentile from 1 to 100");
    (n * pct).div_ceil(100).clamp(1, n.max(1)) - 1
}

/// Count, mean, p99 and max of lateness values (ms), as the run result reports them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LatenessSummary {
    pub count: u64,
    /// Rounded to 3 decimals (the result's JSON carries it so).
    pub mean_ms: f64,
    /// The median (not in the run result's JSON; a scenario's checks may bound it).
    pub p50_ms: u64,
    pub p99_ms: u64,
    pub max_ms: u64,
}

impl LatenessSummary {
    pub fn of(values: &[u64]) -> LatenessSummary {
        if values.is_empty() {
            return LatenessSummary::default();
        }
        // The ranks by selection, not a sort: linear, where the playground's live figures
        // sorted 200,000 deliveries twice a second in the frames it drew (issue 29).
        let mut v = values.to_vec();
        let n = v.len();
        let (i50, i99) = (percentile_index(n, 50), p99_index(n));
        let sum: u128 = v.iter().map(|x| u128::from(*x)).sum();
        let max_ms = v.iter().copied().max().unwrap_or(0);
        let p99_ms = *v.select_nth_unstable(i99).1;
        // Everything before i99 is now no larger than the p99: the median is among them.
        let p50_ms = if i50 < i99 {
            *v[..i99].select_nth_unstable(i50).1
        } else {
            p99_ms
        };
        LatenessSummary {
            count: n as u64,
            mean_ms: (sum as f64 / n as f64 * 1000.0).round() / 1000.0,
            p50_ms,
            p99_ms,
            max_ms,
        }
    }

    /// `{"count", "mean", "p99", "max"}` (the run contract's `lateness_ms`).
    pub fn to_json(&self) -> Value {
        if self.count == 0 {
            return json!({"count": 0, "mean": 0.0, "p99": 0, "max": 0});
        }
        json!({"count": self.count, "mean": self.mean_ms, "p99": self.p99_ms, "max": self.max_ms})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_by_selection_match_a_sorted_copy() {
        let mut rng = crate::rng::Rng::new(11);
        for n in [1usize, 2, 3, 4, 99, 100, 101, 250, 1_000, 7_777] {
            let values: Vec<u64> = (0..n).map(|_| rng.range_u64(0, 500)).collect();
            let mut sorted = values.clone();
            sorted.sort_unstable();
            let s = LatenessSummary::of(&values);
            assert_eq!(s.p50_ms, sorted[percentile_index(n, 50)], "n {n}");
            assert_eq!(s.p99_ms, sorted[p99_index(n)], "n {n}");
            assert_eq!(s.max_ms, sorted[n - 1], "n {n}");
            assert_eq!(s.count, n as u64);
        }
    }

    #[test]
    fn p99_is_nearest_rank_in_integers() {
        assert_eq!(p99_index(1), 0);
        assert_eq!(p99_index(100), 98);
        assert_eq!(p99_index(101), 99);
        assert_eq!(p99_index(250), 247);
        for n in 1..5_000 {
            let float_rank = ((n as f64) * 0.99).ceil() as usize;
            assert!(p99_index(n) < n);
            assert!(float_rank.abs_diff(p99_index(n) + 1) <= 1, "{n}");
        }
    }

    #[test]
    fn summary_of_values() {
        let s = LatenessSummary::of(&[0, 10, 20, 1000]);
        assert_eq!((s.count, s.p99_ms, s.max_ms), (4, 1000, 1000));
        assert_eq!(s.p50_ms, 10, "rank ceil(0.5 * 4) = 2, the 2nd smallest");
        assert_eq!(LatenessSummary::of(&[7]).p50_ms, 7);
        assert_eq!(LatenessSummary::of(&[3, 1, 2]).p50_ms, 2);
        assert_eq!(s.mean_ms, 257.5);
        assert_eq!(LatenessSummary::of(&[]), LatenessSummary::default());
        assert_eq!(
            LatenessSummary::of(&[]).to_json().to_string(),
            r#"{"count":0,"mean":0.0,"p99":0,"max":0}"#
        );
    }
}
