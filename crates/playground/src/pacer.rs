//! The playground's clock, without a browser: wall time and speed in, the virtual time
//! to run the engine to out. The app calls [`Pacer::target`] once per animation frame
//! with `performance.now()`, runs the engine towards it for at most
//! [`FRAME_BUDGET_MS`] of wall time, and tells the pacer where it got
//! ([`Pacer::reached`] / [`Pacer::behind`]).
//!
//! Rules:
//! - Playing, virtual time is `base.virt + (wall - base.wall) * speed`: the base is taken
//!   again whenever play starts or the speed changes ([`Pacer::rebase`]), so a change
//!   never jumps the clock.
//! - A seek ([`Pacer::seek`]) wins over playing: the target is the seek's time until it
//!   is reached, then the clock pauses or plays as the seek asked ([`AfterSeek`]).
//! - A scenario's `until` stops play there, unless play started at or after it (then the
//!   learner chose to go on).
//! - Without an `until`, play stops when nothing is left to happen
//!   ([`Pacer::stops_when_quiet`], [`Pacer::quiet`]): the app runs the engine with
//!   `Runner::advance_until_quiet`, which stops at the last thing that happened, as
//!   `delaylab run` does; the page says so ([`Pacer::quiet_at`]) until the clock moves.
//! - Behind (the engine needs more than a frame): the base follows the engine, so the
//!   clock never runs away from what is drawn.
//!
//! Timeline (1000x, from 0:00, the engine always keeping up):
//!
//! ```text
//! wall 0 ms     play       base = (0, 0)
//! wall 16 ms    target 16,000       engine reaches 0:16
//! wall 500 ms   speed 10x  base = (500, 500,000)
//! wall 600 ms   target 501,000      = 500,000 + 100 * 10
//! ```

/// Wall time the engine may use in one frame before the frame is drawn.
pub const FRAME_BUDGET_MS: f64 = 10.0;
/// Slowest and fastest speeds (virtual ms per wall ms).
pub const MIN_SPEED: f64 = 1.0;
pub const MAX_SPEED: f64 = 100_000.0;
/// The furthest a target goes (about 31,700 years: far beyond any limit, still exact in
/// a u64 and an f64).
const MAX_TARGET_MS: f64 = 1e15;

/// What the clock does once a seek has arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterSeek {
    /// Stay paused at the time reached: the Jump box, Step, the host API's `seek` (the
    /// learner looks at that moment; Play goes on from it).
    Pause,
    /// Play (autoplay with a start time).
    Play,
}

/// Wall and virtual time at the moment play (or the current speed) began.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClockBase {
    pub wall_ms: f64,
    pub virt_ms: u64,
}

/// What a frame's run reached, as the caller tells the pacer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// Nothing to do (paused, no seek).
    Idle,
    /// Still on the way (playing, or seeking, and not there yet).
    Moving,
    /// A seek arrived; the clock now pauses or plays as asked.
    SeekDone(AfterSeek),
    /// Play reached the scenario's `until` and stopped.
    ReachedUntil,
    /// Play stopped: nothing is left to happen (a scenario without `until`).
    Quiet,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Pacer {
    playing: bool,
    speed: f64,
    base: ClockBase,
    seek_to: Option<u64>,
    after_seek: AfterSeek,
    until_ms: Option<u64>,
    /// Where play stopped because nothing was left to happen, until the clock moves.
    quiet_at: Option<u64>,
}

impl Default for Pacer {
    fn default() -> Self {
        Pacer::new(None)
    }
}

impl Pacer {
    pub fn new(until_ms: Option<u64>) -> Pacer {
        Pacer {
            playing: false,
            speed: MIN_SPEED,
            base: ClockBase::default(),
            seek_to: None,
            after_seek: AfterSeek::Pause,
            until_ms,
            quiet_at: None,
        }
    }

    pub fn playing(&self) -> bool {
        self.playing
    }

    pub fn speed(&self) -> f64 {
        self.speed
    }

    /// The time a seek is running to, if one is.
    pub fn seeking_to(&self) -> Option<u64> {
        self.seek_to
    }

    /// True while the clock moves by itself (playing or seeking).
    pub fn busy(&self) -> bool {
        self.playing || self.seek_to.is_some()
    }

    pub fn until_ms(&self) -> Option<u64> {
        self.until_ms
    }

    /// The time play stopped at because nothing was left to happen (cleared when the
    /// clock is moved again: play, a seek, a restart).
    pub fn quiet_at(&self) -> Option<u64> {
        self.quiet_at
    }

    /// Whether this frame's run should stop when nothing is left to happen: playing (no
    /// seek on its way) a scenario that has no `until` to stop at.
    pub fn stops_when_quiet(&self) -> bool {
        self.playing && self.seek_to.is_none() && self.until_ms.is_none()
    }

    /// The frame's run found nothing left to happen at `now_ms`: play stops there.
    pub fn quiet(&mut self, now_ms: u64) -> Arrival {
        self.playing = false;
        self.quiet_at = Some(now_ms);
        Arrival::Quiet
    }

    /// A new scenario (or a restart): paused, no seek; the speed stays.
    pub fn reset(&mut self, until_ms: Option<u64>) {
        self.playing = false;
        self.seek_to = None;
        self.after_seek = AfterSeek::Pause;
        self.until_ms = until_ms;
        self.quiet_at = None;
    }

    /// Play (from the engine's `now_ms`) or pause; an explicit choice cancels a play
    /// promised after a seek.
    pub fn set_playing(&mut self, on: bool, wall_ms: f64, now_ms: u64) {
        self.after_seek = AfterSeek::Pause;
        if on {
            self.quiet_at = None;
        }
        if on {
            self.rebase(wall_ms, now_ms);
        }
        self.playing = on;
    }

    /// Stops play (a limit was reached) without touching a pending seek's promise.
    pub fn stop(&mut self) {
        self.playing = false;
    }

    /// The speed, clamped to [`MIN_SPEED`]..=[`MAX_SPEED`]; virtual time goes on from
    /// the engine's `now_ms` at the new speed.
    pub fn set_speed(&mut self, speed: f64, wall_ms: f64, now_ms: u64) -> f64 {
        self.rebase(wall_ms, now_ms);
        self.speed = speed.clamp(MIN_SPEED, MAX_SPEED);
        self.speed
    }

    /// Virtual time runs from here.
    pub fn rebase(&mut self, wall_ms: f64, now_ms: u64) {
        self.base = ClockBase {
            wall_ms,
            virt_ms: now_ms,
        };
    }

    /// Starts a seek to `ms` (the caller restarts the engine first when `ms` is in its
    /// past); play stops until it arrives.
    pub fn seek(&mut self, ms: u64, after: AfterSeek) {
        self.playing = false;
        self.quiet_at = None;
        self.seek_to = Some(ms);
        self.after_seek = after;
    }

    /// The virtual time to run the engine to in this frame; None when paused.
    pub fn target(&self, wall_ms: f64) -> Option<u64> {
        if let Some(j) = self.seek_to {
            return Some(j);
        }
        if !self.playing {
            return None;
        }
        let b = self.base;
        let t = b.virt_ms as f64 + (wall_ms - b.wall_ms).max(0.0) * self.speed;
        let t = t.min(MAX_TARGET_MS) as u64;
        Some(match self.until_ms {
            Some(u) if b.virt_ms < u => t.min(u),
            _ => t,
        })
    }

    /// The frame's run got to the target; `now_ms` is the engine's clock.
    pub fn reached(&mut self, wall_ms: f64, now_ms: u64) -> Arrival {
        if self.seek_to.take().is_some() {
            let after = std::mem::replace(&mut self.after_seek, AfterSeek::Pause);
            if after == AfterSeek::Play || self.playing {
                // Asked to play on arrival, or Play was pressed during the seek.
                self.playing = true;
                self.rebase(wall_ms, now_ms);
                return Arrival::SeekDone(AfterSeek::Play);
            }
            return Arrival::SeekDone(AfterSeek::Pause);
        }
        if !self.playing {
            return Arrival::Idle;
        }
        match self.until_ms {
            Some(u) if now_ms >= u && self.base.virt_ms < u => {
                self.playing = false;
                Arrival::ReachedUntil
            }
            _ => Arrival::Moving,
        }
    }

    /// The frame ran out of time before the target: playing follows the engine.
    pub fn behind(&mut self, wall_ms: f64, now_ms: u64) -> Arrival {
        if self.playing && self.seek_to.is_none() {
            self.rebase(wall_ms, now_ms);
        }
        Arrival::Moving
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paused_has_no_target() {
        let p = Pacer::new(None);
        assert_eq!(p.target(1234.0), None);
        assert!(!p.busy());
    }

    #[test]
    fn playing_runs_virtual_time_at_speed_from_the_base() {
        let mut p = Pacer::new(None);
        p.set_playing(true, 0.0, 0);
        assert_eq!(p.target(16.0), Some(16));
        p.set_speed(1000.0, 100.0, 100);
        assert_eq!(p.target(116.0), Some(100 + 16_000));
        p.set_speed(10.0, 500.0, 500_000);
        assert_eq!(p.target(600.0), Some(501_000));
        // A wall clock that goes back (another tab's timing) never moves time back.
        assert_eq!(p.target(400.0), Some(500_000));
    }

    #[test]
    fn speed_is_clamped() {
        let mut p = Pacer::new(None);
        assert_eq!(p.set_speed(0.1, 0.0, 0), MIN_SPEED);
        assert_eq!(p.set_speed(1e9, 0.0, 0), MAX_SPEED);
    }

    #[test]
    fn until_stops_play_there_unless_play_started_after_it() {
        let mut p = Pacer::new(Some(60_000));
        p.set_speed(1000.0, 0.0, 0);
        p.set_playing(true, 0.0, 0);
        assert_eq!(p.target(1_000.0), Some(60_000), "capped at until");
        assert_eq!(p.reached(1_000.0, 60_000), Arrival::ReachedUntil);
        assert!(!p.playing());
        // Play again from until: the learner goes on past it.
        p.set_playing(true, 2_000.0, 60_000);
        assert_eq!(p.target(2_010.0), Some(70_000));
        assert_eq!(p.reached(2_010.0, 70_000), Arrival::Moving);
        assert!(p.playing());
    }

    #[test]
    fn a_seek_wins_over_play_and_pauses_or_plays_on_arrival() {
        let mut p = Pacer::new(None);
        p.set_playing(true, 0.0, 0);
        p.seek(360_000, AfterSeek::Pause);
        assert!(!p.playing());
        assert_eq!(p.target(5.0), Some(360_000));
        assert_eq!(p.behind(15.0, 100_000), Arrival::Moving);
        assert_eq!(p.target(30.0), Some(360_000), "still seeking");
        assert_eq!(
            p.reached(40.0, 360_000),
            Arrival::SeekDone(AfterSeek::Pause)
        );
        assert_eq!(p.target(50.0), None);

        p.seek(720_000, AfterSeek::Play);
        assert_eq!(p.reached(60.0, 720_000), Arrival::SeekDone(AfterSeek::Play));
        assert!(p.playing());
        assert_eq!(p.target(70.0), Some(720_010), "plays on from the arrival");
    }

    #[test]
    fn play_pressed_during_a_seek_plays_on_from_the_arrival() {
        let mut p = Pacer::new(None);
        p.seek(10_000, AfterSeek::Pause);
        p.set_playing(true, 1.0, 0);
        assert_eq!(p.target(2.0), Some(10_000), "the seek still wins");
        assert_eq!(p.reached(3.0, 10_000), Arrival::SeekDone(AfterSeek::Play));
        assert_eq!(p.target(4.0), Some(10_001));
    }

    #[test]
    fn without_until_play_stops_when_quiet_and_says_where_until_the_clock_moves() {
        let mut p = Pacer::new(None);
        assert!(!p.stops_when_quiet(), "paused");
        p.set_playing(true, 0.0, 0);
        assert!(p.stops_when_quiet());
        assert_eq!(p.quiet(1_800_100), Arrival::Quiet);
        assert!(!p.playing());
        assert_eq!(p.target(10.0), None);
        assert_eq!(p.quiet_at(), Some(1_800_100));
        p.set_playing(false, 20.0, 1_800_100);
        assert_eq!(p.quiet_at(), Some(1_800_100), "a pause keeps the note");
        p.set_playing(true, 30.0, 1_800_100);
        assert_eq!(p.quiet_at(), None, "play again: time runs on");
        p.quiet(1_800_100);
        p.seek(60_000, AfterSeek::Pause);
        assert_eq!(p.quiet_at(), None);
        assert!(
            !p.stops_when_quiet(),
            "a seek goes exactly where it is asked"
        );
        p.set_playing(true, 40.0, 60_000);
        assert!(!p.stops_when_quiet(), "still seeking");

        let mut u = Pacer::new(Some(60_000));
        u.set_playing(true, 0.0, 0);
        assert!(
            !u.stops_when_quiet(),
            "a scenario's until says where play stops"
        );
    }

    #[test]
    fn behind_while_playing_follows_the_engine() {
        let mut p = Pacer::new(None);
        p.set_speed(100_000.0, 0.0, 0);
        p.set_playing(true, 0.0, 0);
        assert_eq!(p.target(16.0), Some(1_600_000));
        p.behind(16.0, 20_000);
        assert_eq!(p.target(32.0), Some(20_000 + 1_600_000));
    }
}
