//! The playground's clock on the page: play, pause, speed, seek and the animation-frame
//! loop that advances the engine. The clock's rules (pacing, catching up, seeking) are the
//! native [`Pacer`]'s; this only feeds it wall time and copies its state to the views.
//!
//! Contract of the clock:
//! - Every runner the page shows is made by `Ctx::new_runner` (a load, a restart), which
//!   attaches the host tap (`Ctx::tap`, host_api.rs) before the runner's first event.
//! - Every move of the clock to a chosen time is [`Ctx::seek`]: the Jump box, the Step
//!   button, the host API's `seek`, a share link's or an embed's start time. Back in time
//!   restarts from 0 and replays; forward runs the engine to the time in slices of
//!   [`FRAME_BUDGET_MS`] per animation frame (`Ctx::frame`, paced by
//!   [`Pacer`]); on arrival it plays if asked to ([`AfterSeek`]).
//! - The clock's state is the [`Pacer`]'s; `playing`, `speed` and `jump_to` are its
//!   read-only copies for the views ([`Ctx::sync_clock`] writes them, nothing else does).

use delaylab_playground::pacer::{Pacer, FRAME_BUDGET_MS};
use delaylab_playground::refresh::{Refresh, FLIGHT_MS};
use leptos::prelude::*;

use super::runner::{Batch, Reach};
use super::{perf_now, AfterSeek, Ctx, Stats, MAX_SEEK_MS};

impl Ctx {
    /// Copies the pacer's state into the signals the views read (only what changed).
    pub(super) fn sync_clock(&self) {
        let (playing, speed, seeking, quiet) = self
            .pacer
            .with_value(|p| (p.playing(), p.speed(), p.seeking_to(), p.quiet_at()));
        if self.quiet_at.get_untracked() != quiet {
            self.quiet_at.set(quiet);
        }
        if self.playing.get_untracked() != playing {
            self.playing.set(playing);
        }
        if self.speed.get_untracked() != speed {
            self.speed.set(speed);
        }
        if self.jump_to.get_untracked() != seeking {
            self.jump_to.set(seeking);
        }
    }

    /// Play or pause now; an explicit choice cancels a play promised after a seek.
    pub fn set_playing(&self, on: bool) {
        // Playing runs virtual time from the engine's clock (the snapshot shown may be a
        // few frames behind it when traffic is heavy).
        let now = self.runner.with_value(|r| r.now());
        self.pacer
            .update_value(|p| p.set_playing(on, perf_now(), now));
        self.sync_clock();
    }

    pub fn set_speed(&self, speed: f64) {
        let now = self.runner.with_value(|r| r.now());
        self.pacer.update_value(|p| {
            p.set_speed(speed, perf_now(), now);
        });
        self.sync_clock();
    }

    /// Moves the virtual clock to `ms`; see the module docs. Back in time restarts the
    /// simulation (a new runner, so a host hears the replay from its start) and replays
    /// to `ms`; forward (or after the restart) `frame` runs the engine there over as many
    /// frames as it takes, the clock paused so playing does not fight the jump; then
    /// `after` says whether it plays. False, and nothing done, beyond [`MAX_SEEK_MS`].
    pub fn seek(&self, ms: u64, after: AfterSeek) -> bool {
        if ms > MAX_SEEK_MS {
            return false;
        }
        self.set_playing(false);
        if ms < self.runner.with_value(|r| r.now()) {
            self.restart();
        }
        self.pacer.update_value(|p| p.seek(ms, after));
        self.sync_clock();
        true
    }

    pub(super) fn busy(&self) -> bool {
        self.pacer.with_value(Pacer::busy)
    }

    /// One animation frame: advance the virtual clock, apply the events, then bring the
    /// views that follow the clock up to date in the same frame (so the frame that shows a
    /// seek's arrival also shows its log and figures).
    fn frame(&self) {
        let wall = perf_now();
        self.wall.set(wall);
        self.advance(wall);
        self.settle(wall);
        self.scout_marks(wall);
    }

    /// Runs the engine towards the pacer's target for at most [`FRAME_BUDGET_MS`].
    fn advance(&self, wall: f64) {
        let busy = self.busy();
        let Some(target) = self.pacer.with_value(|p| p.target(wall)) else {
            // Paused: lanes still catch up with a step, a restart or a user publish.
            self.cmp
                .follow(self.runner.with_value(|r| r.now()), wall, false);
            return;
        };
        let deadline = wall + FRAME_BUDGET_MS;
        let seeking = self.pacer.with_value(|p| p.seeking_to().is_some());
        let mut batch = Batch::default();
        // Play without an `until` stops where nothing is left to happen (Pacer's rules).
        let until_quiet = self.pacer.with_value(Pacer::stops_when_quiet);
        let reach = self
            .runner
            .try_update_value(|r| {
                let out_of_time = || perf_now() > deadline;
                if until_quiet {
                    r.advance_until_quiet(target, &mut batch, out_of_time)
                } else if r.advance_to(target, &mut batch, out_of_time) {
                    Reach::Target
                } else {
                    Reach::OutOfTime
                }
            })
            .unwrap_or(Reach::Target);
        if seeking {
            let reached_target = !matches!(reach, Reach::OutOfTime);
            // A jump shows where it arrives, not the way there: its moves before that time
            // are not flown (chips of publishes that ended at 10:00 sat on the edge at
            // 1:00:00). What happens at the arrival time is (a Step's move is).
            let arrived_at = self.runner.with_value(|r| r.now());
            batch
                .moves
                .retain(|m| reached_target && m.at_ms >= arrived_at);
        }
        let now = self.runner.with_value(|r| r.now());
        self.pacer.update_value(|p| {
            let _ = match reach {
                Reach::Target => p.reached(wall, now),
                Reach::OutOfTime => p.behind(wall, now),
                Reach::Quiet => p.quiet(now),
            };
        });
        self.sync_clock();
        self.apply(batch, wall);
        self.cmp.follow(now, wall, busy);
    }

    /// The snapshot, figures and log that were left stale while the clock was busy (or
    /// changed by a publish or a restart while paused), and the flights that are over.
    fn settle(&self, wall: f64) {
        let busy = self.busy();
        let calm = self
            .refresh
            .try_update_value(|f| f.calm(busy))
            .unwrap_or(true);
        if calm != self.calm.get_untracked() {
            self.calm.set(calm);
        }
        if !busy && self.refresh.with_value(Refresh::snapshot_stale) {
            self.refresh_snapshot(wall);
        }
        if !busy
            && self.runner.with_value(|r| r.track.delivered.len() as u64)
                != self.stats.with_untracked(|s| s.total)
        {
            self.stats
                .set(self.runner.with_value(|r| Stats::of(&r.track.delivered)));
        }
        if self
            .refresh
            .try_update_value(|f| f.log_due(busy, wall))
            .unwrap_or(false)
        {
            self.log_rev.update(|r| *r += 1);
        }
        if !self.flights.with_untracked(|f| f.is_empty()) {
            self.flights
                .update(|f| f.retain(|x| wall - x.start < FLIGHT_MS));
        }
        // The chips that waited for their edge (chips.rs), once it is free.
        self.fly(Vec::new(), wall);
    }
}

pub(super) fn frame_loop(ctx: Ctx) {
    ctx.frame();
    // Animation frames, not timers: drawing belongs to the display's refresh, and a
    // hidden tab (which sees none) has nothing to draw. A seek resumes when it shows.
    request_animation_frame(move || frame_loop(ctx));
}
