//! The geometry of the playground's two charts (the lateness of every delivery, the
//! queue depths over time), as numbers for an SVG `viewBox` of [`WIDTH`] x [`HEIGHT`]:
//! the views only draw what this computes.

use crate::stats::{Depths, Stats};

pub const WIDTH: f64 = 640.0;
pub const HEIGHT: f64 = 150.0;
/// The plot area: x from [`PLOT_LEFT`] over [`PLOT_WIDTH`], y up from [`BASELINE`] over
/// [`PLOT_HEIGHT`]. The axes are drawn a little outside it.
pub const PLOT_LEFT: f64 = 70.0;
pub const PLOT_WIDTH: f64 = 556.0;
pub const BASELINE: f64 = 120.0;
pub const PLOT_HEIGHT: f64 = 106.0;
/// Dash patterns of the depth lines, one per queue in turn (colour is never the only
/// signal).
pub const DASHES: [&str; 5] = ["", "8 4", "3 3", "12 4 3 4", "1 4"];

/// x of a fraction (0..=1) of the time or index axis.
pub fn x(frac: f64) -> f64 {
    PLOT_LEFT + PLOT_WIDTH * frac
}

/// y of a fraction (0..=1) of the value axis.
pub fn y(frac: f64) -> f64 {
    BASELINE - PLOT_HEIGHT * frac
}

/// One dot of the lateness chart.
#[derive(Clone, Debug, PartialEq)]
pub struct LatenessDot {
    pub x: f64,
    pub y: f64,
    /// A first delivery that came late.
    pub late: bool,
    /// A retry (drawn apart: never an on-time dot).
    pub retry: bool,
    pub msg: u32,
    pub ms: u64,
}

/// The lateness chart's dots: one per delivery (or per bucket), centred in its slot; a
/// retry stands at the time since its message's first delivery.
pub fn lateness_dots(s: &Stats) -> Vec<LatenessDot> {
    let n = s.total.max(1) as f64;
    let max = s.chart_max_ms().max(1) as f64;
    s.points
        .iter()
        .map(|p| LatenessDot {
            x: x((p.index as f64 + 0.5) / n),
            y: y(p.ms as f64 / max),
            late: !p.retry && p.ms > 0,
            retry: p.retry,
            msg: p.msg,
            ms: p.ms,
        })
        .collect()
}

/// One queue's line of the depth chart.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthLine {
    pub queue: String,
    /// SVG `points`: "x,y " pairs.
    pub points: String,
    /// Index into the line styles (`d0`..`d4`) and [`DASHES`].
    pub style: usize,
}

/// The depth chart: its lines, the largest depth and the time axis's end.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthChart {
    pub lines: Vec<DepthLine>,
    pub max: u64,
    pub t0_ms: u64,
    pub t1_ms: u64,
}

/// The depth chart up to `now_ms` (the axis reaches the clock even when nothing changed
/// lately): each queue's line is a staircase, one bucket at a time: up or down to the
/// bucket's extremes at its start (every step in it is kept), then flat at its last value
/// to the next bucket. Never a slope between two samples.
pub fn depth_chart(d: &Depths, now_ms: u64) -> DepthChart {
    let t0 = 0;
    let t1 = d.t_ms.max(now_ms).max(t0 + 1);
    let max = d.max().max(1);
    let px = |t: u64| x((t.min(t1) - t0) as f64 / (t1 - t0) as f64);
    let py = |v: u64| y(v as f64 / max as f64);
    let lines = d
        .series
        .iter()
        .enumerate()
        .map(|(i, series)| {
            let mut pts: Vec<(f64, f64)> = Vec::new();
            let mut push = |p: (f64, f64)| {
                if pts.last() != Some(&p) {
                    pts.push(p);
                }
            };
            let mut prev: Option<u64> = None;
            let last_k = series.buckets.iter().rposition(Option::is_some);
            for (k, b) in series.buckets.iter().enumerate() {
                let Some(b) = b else {
                    prev = None;
                    continue;
                };
                let start = k as u64 * d.bucket_ms;
                // The queue's line ends at its last bucket, or at the clock if it lives.
                let end = if Some(k) == last_k && series_live_at_end(d, series) {
                    t1
                } else {
                    start + d.bucket_ms
                };
                let x0 = px(start);
                if let Some(p) = prev {
                    push((x0, py(p)));
                }
                // Within the bucket: its extremes, in the order that ends at `last`.
                let (first, second) = if b.last == b.min {
                    (b.max, b.min)
                } else {
                    (b.min, b.max)
                };
                push((x0, py(first)));
                push((x0, py(second)));
                push((x0, py(b.last)));
                push((px(end), py(b.last)));
                prev = Some(b.last);
            }
            let points: String = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1} ")).collect();
            DepthLine {
                queue: series.queue.clone(),
                points,
                style: i % DASHES.len(),
            }
        })
        .collect();
    DepthChart {
        lines,
        max,
        t0_ms: t0,
        t1_ms: t1,
    }
}

/// Whether the series was in the latest record (its last value holds until now).
fn series_live_at_end(d: &Depths, s: &crate::stats::Series) -> bool {
    let k = (d.t_ms / d.bucket_ms) as usize;
    s.buckets.len() > k && s.buckets[k].is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dots_span_the_plot_and_mark_late_ones() {
        use delaylab_engine::report::lateness::Delivery;
        let d = |msg, late_ms| crate::stats::Delivered {
            msg,
            t_ms: 0,
            late_ms,
            kind: Delivery::First { late_ms },
        };
        let s = Stats::of(&[d(1, 0), d(2, 500)]);
        let dots = lateness_dots(&s);
        assert_eq!(dots.len(), 2);
        assert_eq!(
            (dots[0].x, dots[0].y, dots[0].late),
            (x(0.25), BASELINE, false)
        );
        assert_eq!((dots[1].y, dots[1].late), (BASELINE - PLOT_HEIGHT, true));
    }

    #[test]
    fn one_line_per_queue_drawn_as_steps_to_the_clock() {
        let mut d = Depths::default();
        d.record(0, [("a", 0), ("b", 4)]);
        d.record(1_000, [("a", 2), ("b", 0)]);
        let c = depth_chart(&d, 2_000);
        assert_eq!((c.max, c.t1_ms), (4, 2_000));
        assert_eq!(c.lines.len(), 2);
        // b: 4 from 0 to 1 s, then 0 to the clock (2 s): a vertical drop, no slope.
        let ys = |l: &DepthLine| -> Vec<(String, String)> {
            l.points
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.to_string(), y.to_string())
                })
                .collect()
        };
        let b = ys(&c.lines[1]);
        assert_eq!(
            b.first().unwrap(),
            &(
                format!("{:.1}", x(0.0)),
                format!("{:.1}", BASELINE - PLOT_HEIGHT)
            )
        );
        assert_eq!(
            b.last().unwrap(),
            &(format!("{:.1}", x(1.0)), format!("{:.1}", BASELINE))
        );
        for w in b.windows(2) {
            assert!(
                w[0].0 == w[1].0 || w[0].1 == w[1].1,
                "a slope from {:?} to {:?}",
                w[0],
                w[1]
            );
        }
        assert_eq!(c.lines[1].style, 1);
    }

    #[test]
    fn a_jump_to_five_hours_keeps_3_then_2_flat_until_30_minutes() {
        let mut d = Depths::default();
        d.record(0, [("wait", 3)]);
        d.record(300_000, [("wait", 2)]);
        d.record(1_800_000, [("wait", 0)]);
        d.record(5 * 3_600_000, [("wait", 0)]);
        let c = depth_chart(&d, 5 * 3_600_000);
        let pts: Vec<(f64, f64)> = c.lines[0]
            .points
            .split_whitespace()
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        let level = |v: f64| BASELINE - PLOT_HEIGHT * v / 3.0;
        let at = |t: f64| x(t / (5.0 * 3_600_000.0));
        // Flat at 2 from just after 5:00 to just before 30:00.
        let flat2 = pts
            .iter()
            .filter(|p| (p.1 - level(2.0)).abs() < 0.1)
            .map(|p| p.0);
        let (lo, hi) = flat2.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
        assert!(
            lo <= at(300_000.0) + 1.0 && hi >= at(1_800_000.0) - 1.0,
            "{lo}..{hi}"
        );
        for w in pts.windows(2) {
            assert!(
                (w[0].0 - w[1].0).abs() < 1e-9 || (w[0].1 - w[1].1).abs() < 1e-9,
                "slope {w:?}"
            );
        }
    }
}
