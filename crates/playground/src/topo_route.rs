//! How an edge of the topology runs between its two boxes, where its label sits, and
//! where a message flying along it is at a moment (`at`).
//!
//! - `b` to the right of `a` (the wide layout): a curve from side to side.
//! - `b` below `a` in the phone's top-to-bottom layout: a curve from bottom to top.
//! - `b` below and to the left of `a` in the wide layout: the edge crosses into the next
//!   band of a wrapped layout (`topo::layout_wrapped`). A diagonal curve there cuts
//!   through whatever sits between (at 800 px the sandbox's DLX edge crossed the delayed
//!   exchange and its label covered "messages_delayed"), so it runs through the gaps
//!   instead: out of `a`'s right side into the gap beside its column, down that gap,
//!   along the gap above `b`'s band, and into `b`'s top; its label sits on the run along
//!   the band gap, where no box is. A route through boxes that were dragged into the
//!   way falls back to the curve.
//! - Anything else (a dead-letter cycle pointing back): a loop around both boxes.
//!
//! ```text
//!  band 0:  [publisher] → [delay.exchange] → [delay.queue] ─┐
//!                         [delayed.exchange]                │ (gap beside the column)
//!           ┌─────────────────── DLX ───────────────────────┘ (band gap)
//!  band 1:  ↓
//!          [dlx.exchange] → [dlx.queue] → [closer]
//! ```

/// A box: x, y, width, height.
pub type Rect = (f64, f64, f64, f64);
pub type Point = (f64, f64);

/// How far the gap route keeps from a box it passes (drawing units).
const CLEARANCE: f64 = 4.0;
/// How far out of `a`'s right side the route turns down.
const SIDE_OUT: f64 = 22.0;
/// How far left of `b` the route comes down when it enters `b` from the side (inside the
/// drawing's margin for a box in the first column: `topo::MARGIN` is 16).
const LEFT_IN: f64 = 10.0;
/// How far above `b`'s top the route runs along the band gap.
const ABOVE_TARGET: f64 = 16.0;
/// Points a curve is checked at for boxes in its way.
const CURVE_SAMPLES: u32 = 48;
/// The label's baseline above the run it names.
const LABEL_LIFT: f64 = 5.0;

#[derive(Clone, Debug, PartialEq)]
pub enum Route {
    /// A cubic Bézier: start, two control points, end.
    Curve([Point; 4]),
    /// Straight runs through the gaps, with the index of the run that carries the label.
    Lines(Vec<Point>, usize),
}

/// Where an edge's label goes: position and SVG `text-anchor`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Label {
    pub x: f64,
    pub y: f64,
    pub anchor: &'static str,
}

fn crosses(seg: (Point, Point), r: &Rect) -> bool {
    let (x0, x1) = (seg.0 .0.min(seg.1 .0), seg.0 .0.max(seg.1 .0));
    let (y0, y1) = (seg.0 .1.min(seg.1 .1), seg.0 .1.max(seg.1 .1));
    let (rx, ry, rw, rh) = *r;
    x1 >= rx - CLEARANCE
        && x0 <= rx + rw + CLEARANCE
        && y1 >= ry - CLEARANCE
        && y0 <= ry + rh + CLEARANCE
}

/// The run through the gaps from `a` to `b` (b below and left of a), if no box other than
/// the two is in its way. The run along the band gap goes as low as it can: just above
/// `b`, or above whichever box of `b`'s band stands taller in its way.
fn through_gaps(a: Rect, b: Rect, others: &[Rect]) -> Option<Route> {
    let (ax, ay, aw, ah) = a;
    let (bx, by, bw, bh) = b;
    let start = (ax + aw, ay + ah / 2.0);
    let side = ax + aw + SIDE_OUT;
    let entry = bx + bw / 2.0;
    let mut runs: Vec<f64> = std::iter::once(by)
        .chain(others.iter().map(|r| r.1).filter(|&top| top < by))
        .map(|top| top - ABOVE_TARGET)
        .filter(|&y| y > ay + ah + CLEARANCE)
        .collect();
    delaylab_engine::sort::sort_by(&mut runs, |x, y| y.total_cmp(x));
    let (left, mid) = (bx - LEFT_IN, by + bh / 2.0);
    runs.into_iter().find_map(|run| {
        let out = [start, (side, start.1), (side, run)];
        // Into `b`'s top, or (a box above it in its column) down the gap on its left
        // into its side.
        let top = vec![(entry, run), (entry, by)];
        let side_in = vec![(left, run), (left, mid), (bx, mid)];
        [top, side_in].into_iter().find_map(|tail| {
            let r = Route::Lines(out.iter().copied().chain(tail).collect(), 2);
            // The first leg starts at `a`'s border and the last ends at `b`'s: only the
            // other boxes can be in the way.
            (!r.hits(others)).then_some(r)
        })
    })
}

/// The route of an edge from box `a` to box `b`; `vertical` is the phone's layout;
/// `others` are the other boxes drawn (a route through the gaps must miss them).
pub fn route(a: Rect, b: Rect, vertical: bool, others: &[Rect]) -> Route {
    let (ax, ay, aw, ah) = a;
    let (bx, by, bw, bh) = b;
    let s = (ax + aw, ay + ah / 2.0);
    let e = (bx, by + bh / 2.0);
    if e.0 >= s.0 + 10.0 {
        let dx = ((e.0 - s.0) / 2.0).max(30.0);
        let curve = Route::Curve([s, (s.0 + dx, s.1), (e.0 - dx, e.1), e]);
        if !curve.hits(others) {
            return curve;
        }
        // Past a box in between (an edge that skips ranks): along the source's row to
        // the gap before `b`, or out into the gap after `a` and along `b`'s row.
        let before_b = e.0 - SIDE_OUT;
        let after_a = s.0 + SIDE_OUT;
        let along_source = Route::Lines(vec![s, (before_b, s.1), (before_b, e.1), e], 0);
        let along_target = Route::Lines(vec![s, (after_a, s.1), (after_a, e.1), e], 2);
        return [along_source, along_target]
            .into_iter()
            .find(|r| !r.hits(others))
            .unwrap_or(curve);
    }
    let below = by >= ay + ah + 10.0;
    if below && !vertical {
        if let Some(r) = through_gaps(a, b, others) {
            return r;
        }
    }
    let (s, e) = ((ax + aw / 2.0, ay + ah), (bx + bw / 2.0, by));
    if e.1 >= s.1 + 10.0 {
        let dy = ((e.1 - s.1) / 2.0).max(20.0);
        let curve = Route::Curve([s, (s.0, s.1 + dy), (e.0, e.1 - dy), e]);
        if !curve.hits(others) {
            return curve;
        }
        // Past a box in between: down the source's column to the gap above `b`, or
        // across the gap under `a` and down `b`'s column.
        let above_b = e.1 - ABOVE_TARGET;
        let under_a = s.1 + ABOVE_TARGET;
        let down_source = Route::Lines(vec![s, (s.0, above_b), (e.0, above_b), e], 0);
        let down_target = Route::Lines(vec![s, (s.0, under_a), (e.0, under_a), e], 2);
        // Boxes stacked in one column (a phone's line holds one box): out of `a`'s side,
        // down a lane beside the boxes in between, into `b`'s side.
        let between = |r: &&Rect| r.1 < by && r.1 + r.3 > ay + ah;
        let right = others
            .iter()
            .filter(between)
            .map(|r| r.0 + r.2)
            .fold((ax + aw).max(bx + bw), f64::max)
            + SIDE_OUT;
        let (a_mid, b_mid) = (ay + ah / 2.0, by + bh / 2.0);
        let lane = Route::Lines(
            vec![
                (ax + aw, a_mid),
                (right, a_mid),
                (right, b_mid),
                (bx + bw, b_mid),
            ],
            1,
        );
        return [down_source, down_target, lane]
            .into_iter()
            .find(|r| !r.hits(others))
            .unwrap_or(curve);
    }
    // A back edge: loop to the right of both boxes, out of the side and back in.
    let right = (ax + aw).max(bx + bw) + 60.0;
    let (s, e) = ((ax + aw, ay + ah / 2.0), (bx + bw, by + bh / 2.0));
    Route::Curve([s, (right, s.1), (right, e.1), e])
}

fn cubic(c: &[Point; 4], t: f64) -> Point {
    let u = 1.0 - t;
    let f = |p: fn(&Point) -> f64| {
        u * u * u * p(&c[0])
            + 3.0 * u * u * t * p(&c[1])
            + 3.0 * u * t * t * p(&c[2])
            + t * t * t * p(&c[3])
    };
    (f(|p| p.0), f(|p| p.1))
}

fn dist(a: Point, b: Point) -> f64 {
    (b.0 - a.0).hypot(b.1 - a.1)
}

impl Route {
    /// Whether it runs through (or too close to) one of `boxes`.
    pub fn hits(&self, boxes: &[Rect]) -> bool {
        match self {
            Route::Lines(p, _) => p
                .windows(2)
                .any(|w| boxes.iter().any(|r| crosses((w[0], w[1]), r))),
            Route::Curve(_) => (1..CURVE_SAMPLES).any(|i| {
                let (x, y) = self.at(f64::from(i) / f64::from(CURVE_SAMPLES));
                boxes.iter().any(|r| {
                    x > r.0 - CLEARANCE
                        && x < r.0 + r.2 + CLEARANCE
                        && y > r.1 - CLEARANCE
                        && y < r.1 + r.3 + CLEARANCE
                })
            }),
        }
    }

    /// The SVG path data.
    pub fn d(&self) -> String {
        match self {
            Route::Curve(c) => format!(
                "M{:.1},{:.1} C{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
                c[0].0, c[0].1, c[1].0, c[1].1, c[2].0, c[2].1, c[3].0, c[3].1
            ),
            Route::Lines(p, _) => {
                let mut d = String::new();
                for (i, (x, y)) in p.iter().enumerate() {
                    d.push_str(&format!("{}{x:.1},{y:.1}", if i == 0 { "M" } else { " L" }));
                }
                d
            }
        }
    }

    /// The point a share `t` (0 to 1) of the way along.
    pub fn at(&self, t: f64) -> Point {
        let t = t.clamp(0.0, 1.0);
        match self {
            Route::Curve(c) => cubic(c, t),
            Route::Lines(p, _) => {
                let total: f64 = p.windows(2).map(|w| dist(w[0], w[1])).sum();
                let mut left = t * total;
                for w in p.windows(2) {
                    let len = dist(w[0], w[1]);
                    if left <= len && len > 0.0 {
                        let k = left / len;
                        return (
                            w[0].0 + (w[1].0 - w[0].0) * k,
                            w[0].1 + (w[1].1 - w[0].1) * k,
                        );
                    }
                    left -= len;
                }
                p.last().copied().unwrap_or_default()
            }
        }
    }

    /// Where the label goes: over the middle of a side-to-side curve, beside a
    /// top-to-bottom one, over the middle of the run along the band gap.
    pub fn label(&self) -> Label {
        match self {
            Route::Curve(c) => {
                let mid = cubic(c, 0.5);
                if (c[3].1 - c[0].1).abs() > (c[3].0 - c[0].0).abs() {
                    Label {
                        x: mid.0 + 7.0,
                        y: mid.1 + 4.0,
                        anchor: "start",
                    }
                } else {
                    Label {
                        x: mid.0,
                        y: mid.1 - LABEL_LIFT,
                        anchor: "middle",
                    }
                }
            }
            Route::Lines(p, i) => {
                let (a, b) = (p[*i], p[*i + 1]);
                if (b.1 - a.1).abs() > (b.0 - a.0).abs() {
                    Label {
                        x: a.0 + 7.0,
                        y: (a.1 + b.1) / 2.0 + 4.0,
                        anchor: "start",
                    }
                } else if b.0 < a.0 {
                    // At the corner the run starts from, so two runs along one gap (the
                    // DLX edge and an edge into the band below) keep their labels apart.
                    Label {
                        x: a.0 - 6.0,
                        y: a.1 - LABEL_LIFT,
                        anchor: "end",
                    }
                } else {
                    Label {
                        x: a.0 + 6.0,
                        y: a.1 - LABEL_LIFT,
                        anchor: "start",
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_to_side_and_top_to_bottom_curves_as_before() {
        let a = (20.0, 20.0, 192.0, 58.0);
        let b = (292.0, 30.0, 184.0, 84.0);
        match route(a, b, false, &[]) {
            Route::Curve(c) => {
                assert_eq!(c[0], (212.0, 49.0));
                assert_eq!(c[3], (292.0, 72.0));
            }
            r => panic!("{r:?}"),
        }
        let below = (20.0, 200.0, 184.0, 84.0);
        let r = route(a, below, true, &[]);
        assert!(matches!(r, Route::Curve(_)));
        assert_eq!(r.label().anchor, "start", "beside a vertical edge");
        assert_eq!(r.at(0.0), (116.0, 78.0));
        assert_eq!(r.at(1.0), (112.0, 200.0));
    }

    #[test]
    fn an_edge_into_the_next_band_runs_through_the_gaps_and_labels_the_band_gap() {
        // The sandbox at 800 px (3 ranks a band): delay.queue (band 0, column 2) dead-
        // letters to dlx.exchange (band 1, column 0); delayed.exchange sits in band 0,
        // column 1, second row, right in the diagonal's way.
        let queue = (564.0, 30.0, 184.0, 84.0);
        let delayed = (292.0, 119.0, 192.0, 74.0);
        let dlx = (20.0, 265.0, 192.0, 58.0);
        let r = route(queue, dlx, false, &[delayed]);
        let Route::Lines(p, _) = &r else {
            panic!("{r:?}")
        };
        for w in p.windows(2) {
            assert!(
                !crosses((w[0], w[1]), &delayed),
                "{w:?} crosses the delayed exchange"
            );
        }
        assert_eq!(p[0], (748.0, 72.0), "out of the queue's right side");
        assert_eq!(
            *p.last().unwrap(),
            (116.0, 265.0),
            "into the exchange's top"
        );
        let l = r.label();
        assert!(
            l.y > 193.0 && l.y < 265.0,
            "the label is in the band gap: {l:?}"
        );
        let (dx, dy, dw, dh) = delayed;
        let over_box = l.x > dx && l.x < dx + dw && l.y > dy && l.y < dy + dh;
        assert!(!over_box);
        // The old diagonal went through the box.
        let (s, e) = ((656.0, 114.0), (116.0, 265.0));
        let diagonal_crosses = (0..=20).any(|i| {
            let t = f64::from(i) / 20.0;
            let (x, y) = (s.0 + (e.0 - s.0) * t, s.1 + (e.1 - s.1) * t);
            x > dx && x < dx + dw && y > dy && y < dy + dh
        });
        assert!(diagonal_crosses, "the case the route is for");
    }

    #[test]
    fn a_box_in_the_gap_is_passed_above_and_a_wall_falls_back_to_the_curve() {
        let queue = (564.0, 30.0, 184.0, 84.0);
        let dlx = (20.0, 265.0, 192.0, 58.0);
        let in_the_gap = (300.0, 230.0, 100.0, 30.0);
        match route(queue, dlx, false, &[in_the_gap]) {
            Route::Lines(p, i) => assert_eq!(p[i].1, 230.0 - ABOVE_TARGET),
            r => panic!("{r:?}"),
        }
        let wall = (300.0, 100.0, 100.0, 200.0);
        assert!(matches!(route(queue, dlx, false, &[wall]), Route::Curve(_)));
    }

    #[test]
    fn boxes_stacked_in_one_column_are_passed_by_a_lane_beside_them() {
        let publisher = (56.0, 20.0, 120.0, 48.0);
        let first = (20.0, 140.0, 192.0, 58.0);
        let second = (20.0, 260.0, 192.0, 74.0);
        let r = route(publisher, second, true, &[first]);
        let Route::Lines(p, _) = &r else {
            panic!("{r:?}")
        };
        assert!(!r.hits(&[first]));
        assert_eq!(p[1].0, 212.0 + SIDE_OUT, "beside the widest box in between");
        assert_eq!(r.label().anchor, "start");
    }

    #[test]
    fn a_flight_moves_along_the_runs_at_even_speed() {
        let r = Route::Lines(vec![(0.0, 0.0), (10.0, 0.0), (10.0, 30.0)], 0);
        assert_eq!(r.at(0.0), (0.0, 0.0));
        assert_eq!(r.at(0.25), (10.0, 0.0));
        assert_eq!(r.at(0.5), (10.0, 10.0));
        assert_eq!(r.at(1.0), (10.0, 30.0));
        assert_eq!(r.d(), "M0.0,0.0 L10.0,0.0 L10.0,30.0");
    }
}
