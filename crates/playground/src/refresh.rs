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
//!   [`STATS_FAST_BELOW`] deliveries, once per [`STATS_EVERY_HEAVY_MS`] above.

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
        let due = !(busy && heavy && since(self.snapshot_at, wall_ms) < SNAPSHOT_EVERY_MS);
        if !due {
            self.snapshot_stale = true;
        }
        due
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
        let due = self.log_dirty && (!busy || since(self.log_at, wall_ms) > LOG_EVERY_MS);
        if due {
            self.log_dirty = false;
            self.log_at = Some(wall_ms);
        }
        due
    }

    /// Whether to recompute the figures of `deliveries` now (then they count as done).
    pub fn stats_due(&mut self, busy: bool, deliveries: u64, wall_ms: f64) -> bool {
        let since = since(self.stats_at, wall_ms);
        let due = !busy
            || (deliveries < STATS_FAST_BELOW && since > STATS_EVERY_MS)
            || since > STATS_EVERY_HEAVY_MS;
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
