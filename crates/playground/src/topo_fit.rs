//! How big the topology is drawn in its frame: scaled to the frame's width, but never
//! so small its labels cannot be read (then the frame scrolls sideways) nor blown up
//! past a comfortable size (then it is centred). The height follows: the page scrolls,
//! the drawing is not squeezed into a fixed height.
//!
//! Worked example (drawing units are the layout's, `topo::COL_W` = 272 per column):
//!
//! ```text
//! head-of-line (6 ranks, 1,584 x 260) in a 1,100 px frame (a 1440 px screen):
//!   1100 / 1584 = 0.69 < MIN_READABLE_SCALE -> 0.85: 1,346 x 221 px, the frame scrolls
//! sandbox (4 ranks, 1,040 x 400) in the same frame: 1.06 -> 1,100 x 423 px
//! one queue (300 x 150) in the same frame: 3.67 > MAX_SCALE -> 1.5: 450 x 225, centred
//! ```

/// Screen px per drawing unit below which the smallest text (11 units: a node's info
/// line, an edge's label) falls under about 9.5 px.
pub const MIN_READABLE_SCALE: f64 = 0.85;
/// Screen px per drawing unit above which a small drawing looks blown up.
pub const MAX_SCALE: f64 = 1.5;
/// Zoom steps (each press multiplies or divides the size) and their bounds.
pub const ZOOM_STEP: f64 = 1.25;
pub const MIN_ZOOM: f64 = 0.25;
pub const MAX_ZOOM: f64 = 8.0;

/// How many ranks fit side by side in a frame `frame_w` px wide at a readable scale,
/// for boxes at most `node_w` wide (at least 2; unbounded before the frame is known).
pub fn columns_for(frame_w: f64, node_w: f64) -> usize {
    if frame_w <= 0.0 {
        return usize::MAX;
    }
    let room = frame_w / MIN_READABLE_SCALE - 2.0 * crate::topo::MARGIN - node_w;
    ((room / crate::topo::COL_W).floor().max(0.0) as usize + 1).max(2)
}

/// How many boxes at most `node_w` wide stand side by side in one line of the phone's
/// top-to-bottom layout in a frame `frame_w` px wide, at a readable scale (at least 1;
/// unbounded before the frame is known). A 390 px phone (a ~350 px frame) fits one.
pub fn per_line_for(frame_w: f64, node_w: f64) -> usize {
    if frame_w <= 0.0 {
        return usize::MAX;
    }
    // The vertical layout: 20 units before the first box, 28 between two, plus the margin.
    let room = frame_w / MIN_READABLE_SCALE - 2.0 * crate::topo::MARGIN - 20.0 - node_w;
    ((room / (node_w + 28.0)).floor().max(0.0) as usize + 1).max(1)
}

/// The size of the drawn SVG in CSS px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    pub scale: f64,
    pub width_px: f64,
    pub height_px: f64,
}

impl Fit {
    /// Wider than its frame: the frame scrolls sideways.
    pub fn scrolls(&self, frame_w: f64) -> bool {
        self.width_px > frame_w + 0.5
    }
}

/// The drawing (`view_w` x `view_h` units) in a frame `frame_w` px wide, zoomed by
/// `zoom` (1 = fitted).
pub fn fit(view_w: f64, view_h: f64, frame_w: f64, zoom: f64) -> Fit {
    let view_w = view_w.max(1.0);
    let view_h = view_h.max(1.0);
    let to_width = if frame_w > 0.0 { frame_w / view_w } else { 1.0 };
    let scale = to_width.clamp(MIN_READABLE_SCALE, MAX_SCALE) * zoom.clamp(MIN_ZOOM, MAX_ZOOM);
    Fit {
        scale,
        width_px: (view_w * scale).round(),
        height_px: (view_h * scale).round(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_at_1440_and_in_an_embed() {
        // ~1,100 px frame on a 1440 px screen, 192-unit boxes: 4 ranks per band.
        assert_eq!(columns_for(1100.0, 192.0), 4);
        assert_eq!(columns_for(1170.0, 192.0), 5);
        assert_eq!(columns_for(2000.0, 192.0), 8);
        assert_eq!(columns_for(100.0, 192.0), 2);
        assert_eq!(columns_for(0.0, 192.0), usize::MAX);
        // Four ranks drawn in 1,100 px stay readable.
        let w = 3.0 * crate::topo::COL_W + 192.0 + 2.0 * crate::topo::MARGIN;
        assert!(fit(w, 300.0, 1100.0, 1.0).scale >= MIN_READABLE_SCALE);
    }

    #[test]
    fn a_phone_line_holds_one_box_a_tablet_two() {
        assert_eq!(per_line_for(350.0, 192.0), 1);
        assert_eq!(per_line_for(520.0, 192.0), 2);
        assert_eq!(per_line_for(10.0, 192.0), 1);
        assert_eq!(per_line_for(0.0, 192.0), usize::MAX);
        // One box and its margins fit 350 px at a readable scale.
        let w = 20.0 + 192.0 + 2.0 * crate::topo::MARGIN;
        assert!(fit(w, 900.0, 350.0, 1.0).width_px <= 350.0);
    }

    #[test]
    fn a_wide_drawing_stays_readable_and_scrolls() {
        let f = fit(1584.0, 260.0, 1100.0, 1.0);
        assert_eq!(f.scale, MIN_READABLE_SCALE);
        assert_eq!((f.width_px, f.height_px), (1346.0, 221.0));
        assert!(f.scrolls(1100.0));
    }

    #[test]
    fn a_drawing_that_fits_takes_the_frames_width() {
        let f = fit(1040.0, 400.0, 1100.0, 1.0);
        assert_eq!(f.width_px, 1100.0);
        assert_eq!(f.height_px, 423.0);
        assert!(!f.scrolls(1100.0));
    }

    #[test]
    fn a_small_drawing_is_not_blown_up() {
        let f = fit(300.0, 150.0, 1100.0, 1.0);
        assert_eq!(f.scale, MAX_SCALE);
        assert_eq!(f.width_px, 450.0);
    }

    #[test]
    fn zoom_multiplies_within_bounds_and_a_phone_keeps_text_readable() {
        let base = fit(600.0, 900.0, 358.0, 1.0);
        assert_eq!(
            base.scale, MIN_READABLE_SCALE,
            "390 px phone, a 600-unit row"
        );
        assert!(base.scale * 11.0 >= 9.0);
        let z = fit(600.0, 900.0, 358.0, ZOOM_STEP);
        assert!((z.scale - base.scale * ZOOM_STEP).abs() < 1e-9);
        assert_eq!(
            fit(600.0, 900.0, 358.0, 100.0).scale,
            MIN_READABLE_SCALE * MAX_ZOOM
        );
        assert_eq!(
            fit(0.0, 0.0, 0.0, 1.0).width_px,
            1.0,
            "no frame yet: drawn at 1:1"
        );
    }
}
