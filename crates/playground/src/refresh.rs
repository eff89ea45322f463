//! How often the playground redraws what changes fast. The simulation itself advances
//! every frame; redrawing the broker's state, the log and the figures on every frame
//! would cost more than the simulation when traffic is heavy, so each has a pace.
//!
//! Rules (wall ms; "busy" = playing or seeking):
//! - snapshot: every frame in light traffic; in heavy traffic (a frame of more than
//!   [`HEAVY_BATCH_EVENTS`] events, or more than [`HEAVY_LIVE_COPIES`] messages alive
//!   while the log is not empty) at most once per [`SNAPSHOT_EVERY_MS`] (~12 a second),
//!   marked stale meanwhile and taken as soon as the clock stops;
//! - log: at once when not busy, else at most once per [`LOG_EVERY_MS`];
//! - lateness figures: at once when not busy; busy, once per [`STATS_EVERY_MS`] below
//!   [`STATS_FAST_BELOW`] deliveries, once per [`STATS_EVERY_HEAVY_MS`] above;
//! - busy, at most one of those paced redraws per frame (the snapshot first, then the
//!   figures, then the log): the others wait for the next frame. Each costs a frame of
//!   10-30 ms in the 200,000-order preset's release at 1000x; two in one frame dropped
//!   it to 20 frames a second (issue 29 item 10).

/// Events in one frame's batch beyond which traffic is heavy.
pub const HEAVY_BATCH_EVENTS: u64 = 40;
/// Live message copies beyond which traffic is heavy.
pub const HEAVY_LIVE_COPIES: u64 = 5_000;
/// Least wall time between two snapshots in heavy traffic.
pub const SNAPSHOT_EVERY_MS: f64 = 80.0;
/// Least wall time between two log refreshes while busy.
pub const LOG_EVERY_MS: f64 = 700.0;
/// Least wall time between two lateness refreshes while busy, few deliveries.
pub const STATS_EVERY_MS: f64 = 100.0;
/// The same with many deliveries (each refresh sorts them all).
pub const STATS_EVERY_HEAVY_MS: f64 = 500.0;
/// Deliveries below which the figures refresh at the faster pace.
pub const STATS_FAST_BELOW: u64 = 2_000;
/// How long a message's flight along an edge is drawn.
pub const FLIGHT_MS: f64 = 900.0;
/// Flights drawn at once (more moves in a frame are counted on the edge, not drawn).
pub const MAX_FLIGHTS: usize = 48;
/// Broker refusals kept on screen (the newest).
pub const MAX_ALERTS: usize = 6;

/// When each fast-changing view was last refreshed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Refresh {
    snapshot_at: Option<f64>,
    snapshot_stale: bool,
    log_at: Option<f64>,
    log_dirty: bool,
    stats_at: Option<f64>,
    /// The frame (its wall time) that took a paced redraw while busy.
    paced_at: Option<f64>,
    /// The clock was busy in the last frame.
    was_busy: bool,
}

/// Whether traffic is heavy, from one frame's batch and the engine's load.
pub fn heavy(batch_events: u64, log_empty: bool, live_copies: u64) -> bool {
    batch_events > HEAVY_BATCH_EVENTS || (!log_empty && live_copies > HEAVY_LIVE_COPIES)
}

fn since(at: Option<f64>, wall_ms: f64) -> f64 {
    at.map_or(f64::INFINITY, |a| wall_ms - a)
}

impl Refresh {
    /// A new scenario: figures redraw at once.
    pub fn reset(&mut self) {
        self.stats_at = None;
    }

    /// Whether to take a snapshot now; when not, the one shown is marked stale.
    pub fn snapshot_due(&mut self, busy: bool, heavy: bool, wall_ms: f64) -> bool {
        let paced = busy && heavy;
        let due =
            !paced || (since(self.snapshot_at, wall_ms) >= SNAPSHOT_EVERY_MS && self.pace(wall_ms));
        if !due {
            self.snapshot_stale = true;
        }
        due
    }

    /// Whether lists that draw fewer rows while the clock moves may draw them all: the
    /// clock is still in this frame and was in the last. One frame late, so that the frame
    /// answering Pause is not also the one drawing 150 log lines.
    pub fn calm(&mut self, busy: bool) -> bool {
        let calm = !busy && !self.was_busy;
        self.was_busy = busy;
        calm
    }

    /// A paced redraw in the frame of `wall_ms`, if no other took this frame.
    fn pace(&mut self, wall_ms: f64) -> bool {
        if self.paced_at == Some(wall_ms) {
            return false;
        }
        self.paced_at = Some(wall_ms);
        true
    }

    pub fn snapshot_taken(&mut self, wall_ms: f64) {
        self.snapshot_at = Some(wall_ms);
        self.snapshot_stale = false;
    }

    /// The snapshot shown is behind the engine.
    pub fn snapshot_stale(&self) -> bool {
        self.snapshot_stale
    }

    /// New events for the log.
    pub fn log_changed(&mut self) {
        self.log_dirty = true;
    }

    /// Whether to redraw the log now (then it counts as redrawn).
    pub fn log_due(&mut self, busy: bool, wall_ms: f64) -> bool {
        let due = self.log_dirty
            && (!busy || (since(self.log_at, wall_ms) > LOG_EVERY_MS && self.pace(wall_ms)));
        if due {
            self.log_dirty = false;
            self.log_at = Some(wall_ms);
        }
        due
    }

    /// Whether to recompute the figures of `deliveries` now (then they count as done).
    pub fn stats_due(&mut self, busy: bool, deliveries: u64, wall_ms: f64) -> bool {
        let since = since(self.stats_at, wall_ms);
        let every_ms = if deliveries < STATS_FAST_BELOW {
            STATS_EVERY_MS
        } else {
            STATS_EVERY_HEAVY_MS
        };
        let due = !busy || (since > every_ms && self.pace(wall_ms));
        if due {
            self.stats_at = Some(wall_ms);
        }
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calm_from_the_second_still_frame_on_and_never_while_busy() {
        let mut r = Refresh::default();
        assert!(r.calm(false), "a page that has not played yet");
        assert!(!r.calm(true));
        assert!(!r.calm(false), "the frame answering Pause");
        assert!(r.calm(false));
    }

    #[test]
    fn busy_one_paced_redraw_a_frame_the_others_wait_for_the_next() {
        let mut r = Refresh::default();
        r.log_changed();
        // Frame at 1000 ms: all three are due; the snapshot takes the frame.
        assert!(r.snapshot_due(true, true, 1000.0));
        r.snapshot_taken(1000.0);
        assert!(!r.stats_due(true, 10_000, 1000.0));
        assert!(!r.log_due(true, 1000.0));
        // The next frame: the figures; the log waits again.
        assert!(r.stats_due(true, 10_000, 1016.0));
        assert!(!r.log_due(true, 1016.0));
        assert!(r.log_due(true, 1033.0));
        // Not busy: everything at once, whatever the frame took.
        r.log_changed();
        assert!(r.snapshot_due(false, true, 1050.0));
        assert!(r.stats_due(false, 10_000, 1050.0));
        assert!(r.log_due(false, 1050.0));
        // Light traffic: the snapshot is not paced and takes no frame.
        assert!(r.snapshot_due(true, false, 2000.0));
        assert!(r.stats_due(true, 10_000, 2000.0));
    }

    #[test]
    fn heavy_traffic_paces_snapshots_light_traffic_does_not() {
        let mut r = Refresh::default();
        assert!(
            r.snapshot_due(true, true, 0.0),
            "the first one is always due"
        );
        r.snapshot_taken(0.0);
        assert!(!r.snapshot_due(true, true, 40.0));
        assert!(r.snapshot_stale());
        assert!(
            r.snapshot_due(true, false, 41.0),
            "light traffic: every frame"
        );
        assert!(r.snapshot_due(false, true, 42.0), "paused: every frame");
        assert!(r.snapshot_due(true, true, 81.0));
        r.snapshot_taken(81.0);
        assert!(!r.snapshot_stale());
        assert!(heavy(41, true, 0));
        assert!(!heavy(40, false, 5_000));
        assert!(heavy(0, false, 5_001));
        assert!(
            !heavy(0, true, 1_000_000),
            "an empty log: nothing to fall behind"
        );
    }

    #[test]
    fn the_log_redraws_when_changed_and_paced_while_busy() {
        let mut r = Refresh::default();
        assert!(!r.log_due(false, 0.0), "nothing changed");
        r.log_changed();
        assert!(r.log_due(true, 0.0), "the first redraw is due at once");
        r.log_changed();
        assert!(!r.log_due(true, 500.0));
        assert!(r.log_due(true, 701.0));
        r.log_changed();
        assert!(r.log_due(false, 702.0), "paused: at once");
    }

    #[test]
    fn figures_pace_by_delivery_count_while_busy() {
        let mut r = Refresh::default();
        assert!(r.stats_due(true, 10, 0.0));
        assert!(!r.stats_due(true, 10, 50.0));
        assert!(r.stats_due(true, 10, 101.0));
        assert!(!r.stats_due(true, 5_000, 300.0));
        assert!(r.stats_due(true, 5_000, 602.0));
        assert!(r.stats_due(false, 5_000, 603.0));
        r.reset();
        assert!(r.stats_due(true, 5_000, 604.0));
    }
}
