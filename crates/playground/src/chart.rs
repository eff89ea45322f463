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
    pub late: bool,
}

/// The lateness chart's dots: one per delivery (or per bucket), centred in its slot.
pub fn lateness_dots(s: &Stats) -> Vec<LatenessDot> {
    let n = s.total.max(1) as f64;
    let max = s.summary.max_ms.max(1) as f64;
    s.points
        .iter()
        .map(|&(i, l)| LatenessDot {
            x: x((i as f64 + 0.5) / n),
            y: y(l as f64 / max),
            late: l > 0,
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

pub fn depth_chart(d: &Depths) -> DepthChart {
    let t0 = 0;
    let t1 = d.samples.last().map_or(1, |s| s.0).max(t0 + 1);
    let max = d
        .samples
        .iter()
        .flat_map(|s| s.1.iter().map(|x| x.1))
        .max()
        .unwrap_or(0)
        .max(1);
    let lines = d
        .names()
        .into_iter()
        .enumerate()
        .map(|(i, n)| {
            let points: String = d
                .samples
                .iter()
                .filter_map(|(t, v)| v.iter().find(|x| x.0 == n).map(|x| (t, x.1)))
                .map(|(t, r)| {
                    let px = x((t - t0) as f64 / (t1 - t0) as f64);
                    let py = y(r as f64 / max as f64);
                    format!("{px:.1},{py:.1} ")
                })
                .collect();
            DepthLine {
                queue: n,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dots_span_the_plot_and_mark_late_ones() {
        let s = Stats::of(&[(1, 0, 0), (2, 0, 500)]);
        let dots = lateness_dots(&s);
        assert_eq!(dots.len(), 2);
        assert_eq!(
            (dots[0].x, dots[0].y, dots[0].late),
            (x(0.25), BASELINE, false)
        );
        assert_eq!((dots[1].y, dots[1].late), (BASELINE - PLOT_HEIGHT, true));
    }

    #[test]
    fn one_line_per_queue_scaled_to_the_largest_depth() {
        let mut d = Depths::default();
        d.push(0, vec![("a".into(), 0), ("b".into(), 4)]);
        d.push(1000, vec![("a".into(), 2), ("b".into(), 0)]);
        let c = depth_chart(&d);
        assert_eq!((c.max, c.t1_ms), (4, 1000));
        assert_eq!(c.lines.len(), 2);
        assert_eq!(c.lines[1].points, "70.0,14.0 626.0,120.0 ");
        assert_eq!(c.lines[1].style, 1);
    }
}
