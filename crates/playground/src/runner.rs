//! The non-reactive side of the playground: one scenario, its simulation, and what the
//! UI keeps from the event stream ([`Track`]).
//!
//! The app owns the clock: it calls [`Runner::advance_to`] with a virtual target time
//! every animation frame (the target comes from [`crate::pacer::Pacer`]); the runner
//! fires what is due, drains the engine's events and returns them digested as a
//! [`Batch`]. A user's repeated publish is one scenario action with `repeat`, scheduled
//! by the engine like the scenario's own (`Sim::schedule_action`): one timer queue.
//!
//! An embed's host page listens through a [`TapHandle`] owned by the app, not by the
//! runner: [`Runner::with_tap`] attaches it before the new simulation's first event, so
//! a restart or a load (a new runner) never has a moment without it.
//!
//! The scenario's checks are evaluated as the run goes ([`PageChecks`], checks_run.rs):
//! fed this runner's events only, and stopped for where they need the broker's state.

use std::sync::atomic::{AtomicU64, Ordering};

use delaylab_engine::scenario::load::{MAX_ACTIONS, MAX_CONSUMERS};
use delaylab_engine::scenario::{Action, ActionKind, ConsumerSpec, Scenario};
use delaylab_engine::{Command, Progress, Sim};

use crate::checks_run::PageChecks;
use crate::host::TapHandle;
use crate::i18n::Lang;
pub use crate::lines::{
    came_back, ex_name, line, message_views, short, span, DeliveryView, Level, LogLine, PropsView,
};
use crate::node_id;
use crate::stats::Depths;
use crate::track::RawNode;
pub use crate::track::{
    Alert, Batch, Entry, Move, MoveKind, PublishTargets, Track, LOG_CAP, TRACK_MSGS,
};

/// Where a frame's run of [`Runner::advance_until_quiet`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// At the target time.
    Target,
    /// The frame's time ran out first.
    OutOfTime,
    /// Nothing is left to happen: the clock stays at the last thing that happened.
    Quiet,
}

pub struct Runner {
    pub scenario: Scenario,
    pub sim: Sim,
    pub track: Track,
    /// The scenario's checks, as this run decides them.
    pub checks: PageChecks,
    /// User inputs written into `scenario` since it was loaded.
    pub recorded: u32,
    /// Every queue's depth after every instant the engine ran (None: not kept, a compare
    /// lane has no depth chart).
    pub depths: Option<Depths>,
    /// What the broker refused while the topology was declared at 0:00 (a 4.3 broker
    /// refusing `x-delayed-message`, a 541 for a transient queue): the page shows them
    /// as it shows a refused publish.
    pub start_alerts: Vec<Alert>,
}

/// Instants run between two looks at the frame's clock (`out_of_time` costs a call to
/// the browser's clock; an instant is a few microseconds).
const INSTANTS_PER_CLOCK_LOOK: u32 = 64;

/// The number of the next runner made in this page (see [`Track::run`]).
static NEXT_RUN: AtomicU64 = AtomicU64::new(1);

impl Runner {
    pub fn new(scenario: Scenario) -> Runner {
        Runner::with_tap(scenario, None)
    }

    /// A runner whose every event, from the topology declarations at t=0 on, also goes
    /// to `tap` (an embed's host page).
    pub fn with_tap(scenario: Scenario, tap: Option<TapHandle>) -> Runner {
        let sim = Sim::new(&scenario);
        let mut track = Track {
            tap,
            run: NEXT_RUN.fetch_add(1, Ordering::Relaxed),
            ..Track::default()
        };
        for a in &scenario.actions {
            if let ActionKind::Publish(p) = &a.kind {
                track.publish_targets.add(&p.exchange, &p.routing_key);
            }
        }
        let checks = PageChecks::new(&scenario);
        let mut r = Runner {
            checks,
            scenario,
            sim,
            track,
            recorded: 0,
            depths: Some(Depths::default()),
            start_alerts: Vec::new(),
        };
        // Topology declarations at t=0 produce events; keep them out of the first frame's
        // animation but in the log, and what the broker refused in the alerts.
        r.start_alerts = r.drain().alerts;
        r.record_depths();
        r
    }

    /// Sends this runner's events from now on to `tap` too (a host that started
    /// listening after the runner was made).
    pub fn set_tap(&mut self, tap: Option<TapHandle>) {
        self.track.tap = tap;
    }

    /// Without depth samples (a compare lane has no depth chart to feed).
    pub fn without_depth_samples(mut self) -> Runner {
        self.depths = None;
        self
    }

    pub fn now(&self) -> u64 {
        self.sim.now_ms()
    }

    /// The next time something happens by itself (a timer, a scheduled publish included).
    pub fn next_at(&self) -> Option<u64> {
        self.sim.next_timer_ms()
    }

    /// Runs everything due up to `target` unless `out_of_time()` says the frame is over.
    /// Returns true when the clock reached `target`. With depths kept, the engine runs
    /// one instant (the next timer's time) at a time, and every queue's depth is
    /// recorded after each: a depth chart then holds every step, whatever the jump.
    pub fn advance_to(
        &mut self,
        target: u64,
        batch: &mut Batch,
        mut out_of_time: impl FnMut() -> bool,
    ) -> bool {
        let reached = self.run_instants(target, batch, &mut out_of_time);
        // Moves are named once per call: a frame's moves stay one chip per edge.
        self.name_moves(batch);
        reached
    }

    fn run_instants(
        &mut self,
        target: u64,
        batch: &mut Batch,
        out_of_time: &mut impl FnMut() -> bool,
    ) -> bool {
        let mut instants = 0u32;
        loop {
            if self.sim.halted() {
                self.checks_arrived(batch);
                return true;
            }
            // With depths kept, one timer instant at a time (a depth chart holds every
            // step); and a stop where a check reads the broker or the checks end
            // (checks_run.rs).
            let instant = match self.sim.next_timer_ms() {
                Some(t) if self.depths.is_some() && t < target => t,
                _ => target,
            };
            let step = self
                .checks
                .stop_by(self.sim.now_ms(), target)
                .map_or(instant, |c| c.min(instant));
            let progress = self.sim.advance(step);
            self.drain_events(batch);
            if progress == Progress::More {
                if out_of_time() {
                    return false;
                }
                continue;
            }
            self.checks_arrived(batch);
            self.record_depths();
            if step >= target {
                return true;
            }
            instants += 1;
            if instants.is_multiple_of(INSTANTS_PER_CLOCK_LOOK) && out_of_time() {
                return false;
            }
        }
    }

    /// Everything due now has fired: the checks read and settle what is due now.
    fn checks_arrived(&mut self, batch: &mut Batch) {
        self.checks.arrived(&self.sim);
        self.report_checks(batch);
    }

    /// Tells the frame (and a host page) when a check's state changed.
    fn report_checks(&mut self, batch: &mut Batch) {
        if self.checks.take_changed() {
            batch.checks = true;
            if let Some(tap) = &self.track.tap {
                tap.borrow_mut().set_checks(self.checks.to_json());
            }
        }
    }

    /// As [`Runner::advance_to`], for play without an `until`: when the last pending
    /// thing happens on the way to `target`, the clock stops right there
    /// ([`Reach::Quiet`]), as `delaylab run` ends a run when nothing is left to happen
    /// (the engine's `report::run_checked`). With nothing pending at the start, time runs
    /// to `target` (the learner pressed Play on a quiet scenario: to publish later).
    ///
    /// ```text
    /// sandbox, A published at 0:00 with expiration 30 min, play at 1000x
    ///   frame ...      target 29:59.0  -> Target (A's expiry still pending)
    ///   frame n        target 30:15.0  -> A expires, is delivered at 30:00.000 and
    ///                  acked at 30:00.100; nothing pending: Quiet, clock at 30:00.100
    /// ```
    ///
    /// It runs one timer instant at a time (the engine fires everything due at that
    /// instant), so it knows the instant the last one fired.
    pub fn advance_until_quiet(
        &mut self,
        target: u64,
        batch: &mut Batch,
        mut out_of_time: impl FnMut() -> bool,
    ) -> Reach {
        let reach = |done: bool| {
            if done {
                Reach::Target
            } else {
                Reach::OutOfTime
            }
        };
        if self.next_at().is_none() {
            return reach(self.advance_to(target, batch, out_of_time));
        }
        loop {
            if self.sim.halted() {
                return Reach::Target;
            }
            match self.next_at() {
                None => return Reach::Quiet,
                Some(t) if t > target => return reach(self.advance_to(target, batch, out_of_time)),
                Some(t) => {
                    if !self.advance_to(t, batch, &mut out_of_time) || out_of_time() {
                        return Reach::OutOfTime;
                    }
                }
            }
        }
    }

    /// Every queue's ready count now, into the depth chart's record.
    fn record_depths(&mut self) {
        let Some(d) = self.depths.as_mut() else {
            return;
        };
        let syms = self.sim.symbols();
        d.record(
            self.sim.now_ms(),
            self.sim.queues().map(|q| (syms.str(q.name), q.ready_len())),
        );
    }

    /// Writes a user input into the scenario: an action at the time it happened. A share
    /// link, the autosave and a restart then replay the session, not just the preset.
    /// False (and nothing written) when the scenario already has the most actions a
    /// scenario file may have.
    pub fn record(&mut self, action: Action) -> bool {
        if self.scenario.actions.len() >= MAX_ACTIONS {
            return false;
        }
        self.scenario.actions.push(action);
        self.recorded += 1;
        true
    }

    /// A user action at the current virtual time, recorded into the scenario.
    pub fn run_now(&mut self, action: ActionKind, batch: &mut Batch) -> bool {
        let at_ms = self.sim.now_ms();
        let kept = self.record(Action {
            at_ms,
            kind: action.clone(),
            repeat: None,
        });
        self.run_unrecorded(action, batch);
        kept
    }

    /// A user action (a repeated publish) written into the scenario and handed to the
    /// engine, which schedules its runs as timers like the scenario's own actions (`{n}`
    /// in a body is the run number); runs due now happen before this returns. False when
    /// the scenario is full: the action still runs, it is only not written.
    pub fn run_scheduled(&mut self, action: Action, batch: &mut Batch) -> bool {
        if let ActionKind::Publish(p) = &action.kind {
            self.track.publish_targets.add(&p.exchange, &p.routing_key);
        }
        let kept = self.record(action.clone());
        let now = self.sim.now_ms();
        self.sim.schedule_action(now, action);
        self.drain_into(batch);
        self.record_depths();
        kept
    }

    /// A user action now that is already in the scenario.
    pub fn run_unrecorded(&mut self, action: ActionKind, batch: &mut Batch) {
        if let ActionKind::Publish(p) = &action {
            self.track.publish_targets.add(&p.exchange, &p.routing_key);
        }
        let now = self.sim.now_ms();
        self.sim.handle(now, Command::Run(action));
        self.drain_into(batch);
        self.record_depths();
    }

    /// A consumer command (add / stop) at the current virtual time, recorded into the
    /// scenario's consumers (attach time, stop time).
    pub fn command(&mut self, cmd: Command, batch: &mut Batch) {
        let now = self.sim.now_ms();
        self.record_command(&cmd, now);
        self.sim.handle(now, cmd);
        self.drain_into(batch);
        self.record_depths();
    }

    fn record_command(&mut self, cmd: &Command, now: u64) {
        let consumers = &mut self.scenario.consumers;
        match cmd {
            Command::AddConsumer(spec) => {
                if consumers.len() < MAX_CONSUMERS && consumers.iter().all(|c| c.name != spec.name)
                {
                    consumers.push(ConsumerSpec {
                        from_ms: spec.from_ms.max(now),
                        ..spec.clone()
                    });
                    self.recorded += 1;
                }
            }
            Command::StopConsumer(name) => {
                if let Some(c) = consumers.iter_mut().rev().find(|c| c.name == *name) {
                    if c.to_ms.is_none_or(|t| t > now) {
                        c.to_ms = Some(now.max(c.from_ms));
                        self.recorded += 1;
                    }
                }
            }
            Command::Run(_) => {}
        }
    }

    pub fn drain(&mut self) -> Batch {
        let mut b = Batch::default();
        self.drain_into(&mut b);
        b
    }

    fn drain_into(&mut self, batch: &mut Batch) {
        self.drain_events(batch);
        self.name_moves(batch);
    }

    /// The engine's events into the track (the moves kept by node symbol, aggregated).
    fn drain_events(&mut self, batch: &mut Batch) {
        while let Some(e) = self.sim.poll_event() {
            self.checks.on_event(&e, &self.sim);
            self.track.on_event(e, &self.sim, batch);
        }
        self.report_checks(batch);
    }

    /// The aggregated moves as node ids the drawing knows.
    fn name_moves(&mut self, batch: &mut Batch) {
        let syms = self.sim.symbols();
        let node = |n: RawNode| match n {
            RawNode::Publisher => node_id::PUBLISHER.to_string(),
            RawNode::Exchange(x) => node_id::exchange(syms.str(x)),
            RawNode::Queue(q) => node_id::queue(syms.str(q)),
            RawNode::Consumer(c) => {
                node_id::consumer(&c.map_or(node_id::BASIC_GET.to_string(), |c| {
                    self.sim.consumers()[c as usize].spec.name.clone()
                }))
            }
        };
        for (kind, from, to, count, msg, at_ms) in batch.raw_moves.drain(..) {
            batch.moves.push(Move {
                from: node(from),
                to: node(to),
                kind,
                count,
                msg,
                body: short(self.track.body(msg)),
                at_ms,
            });
        }
    }

    /// A log line for people (formatted on demand), its words in `lang`.
    pub fn line(&self, e: &Entry, lang: Lang) -> LogLine {
        line(e, &self.sim, &self.track, lang)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use delaylab_engine::scenario::load_str;

    fn head_of_line() -> Runner {
        Runner::new(
            load_str(include_str!(
                "../../../scenarios/head-of-line-blocking.json"
            ))
            .unwrap(),
        )
    }

    #[test]
    fn a_frame_run_instant_by_instant_still_has_one_chip_per_edge() {
        let mut r = head_of_line();
        let mut b = Batch::default();
        assert!(r.advance_to(120_000, &mut b, || false));
        let publishes: Vec<&Move> = b
            .moves
            .iter()
            .filter(|m| m.kind == MoveKind::Publish)
            .collect();
        assert_eq!(publishes.len(), 1, "{:?}", b.moves);
        assert_eq!(publishes[0].count, 2, "A at 0:00 and B at 1:00");
    }

    #[test]
    fn every_instant_is_recorded_in_the_depths() {
        let mut r = head_of_line();
        let mut b = Batch::default();
        r.advance_to(40 * 60_000, &mut b, || false);
        let d = r.depths.as_ref().unwrap();
        let q = d
            .series
            .iter()
            .find(|s| s.queue == "order.delay.queue")
            .unwrap();
        let at = |t: u64| q.buckets[(t / d.bucket_ms) as usize].unwrap();
        assert_eq!(at(20 * 60_000).last, 2, "A and B wait");
        assert_eq!(at(35 * 60_000).last, 0);
        assert_eq!(d.max(), 2);
        assert!(r.start_alerts.is_empty(), "3.10 declares this topology");
    }

    #[test]
    fn a_declaration_the_broker_refuses_is_an_alert_from_the_start() {
        let mut s = load_str(include_str!("../../../scenarios/fix-delayed-plugin.json")).unwrap();
        s.broker = Some(delaylab_engine::version::BrokerVersion::V4_3);
        let r = Runner::new(s);
        let texts: Vec<(u16, &str)> = r
            .start_alerts
            .iter()
            .map(|a| (a.code, a.text.as_str()))
            .collect();
        assert_eq!(
            texts.first(),
            Some(&(
                406,
                "PRECONDITION_FAILED - unknown exchange type 'x-delayed-message'"
            ))
        );
    }
}
