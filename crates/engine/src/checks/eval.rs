//! The evaluator: a scenario's checks, fed a run's events in order, answering per check
//! pending / passed at T / failed at T (`CheckState`) at any moment of the run.
//!
//! ```text
//! let mut ev = Evaluator::for_scenario(&scenario);  // each check expected here or not
//! loop {                                       // the caller's run loop
//!     let stop = ev.next_stop_ms();            // a depth or order-lab check's time
//!     sim.advance(min(target, stop));          // (in slices)
//!     while let Some(e) = sim.poll_event() { ev.on_event(&e, &sim); }
//!     ev.observe(&SimState::new(&sim));        // the state at the stop; the clock settles windows
//! }
//! ev.finish(&SimState::new(&sim));             // the run is over: nothing stays pending
//! ev.states()                                  // [CheckState; n], in the scenario's order
//! ```
//!
//! It only reads: events, and the state at the times it asks for (`state_source`); the
//! simulation never knows it is there, so checks change no trace. Memory: per check a
//! few words, a percentile check one (lateness, message) pair per selected delivery, a
//! `Lateness` entry per message when a lateness check exists (as `report::Recorder`),
//! and the messages themselves (shared, one pointer each) for the bodies of happenings
//! that name a message by id only. Every list is bounded by the run's own limits.

use std::rc::Rc;

use super::obs::Obs;
use super::spec::{Check, CheckKind, Happening};
use super::state::{CheckState, Undecided};
use super::state_source::BrokerState;
use super::track::{undecided, Track};
use crate::event::{Event, EventKind};
use crate::message::Message;
use crate::report::lateness::Lateness;
use crate::scenario::Scenario;
use crate::sim::Sim;
use crate::version::BrokerVersion;

pub struct Evaluator {
    checks: Vec<Check>,
    tracks: Vec<Track>,
    states: Vec<CheckState>,
    /// Happens and count checks, by happening (`Happening::ALL` order).
    by_what: [Vec<usize>; 6],
    /// Order and lateness checks (deliveries only).
    on_delivery: Vec<usize>,
    /// The lateness rule of the run result, fed the same events (only when needed).
    late: Option<Lateness>,
    /// Published messages by id - 1 (ids are dense from 1), for the bodies of events
    /// that carry an id only.
    messages: Vec<Rc<Message>>,
    /// The earliest time a pending check is settled by the clock alone (`u64::MAX`: none).
    next_deadline_ms: u64,
    /// Bumped whenever a state changes (a view redraws on change).
    revision: u64,
    finished: bool,
}

fn index(w: Happening) -> usize {
    Happening::ALL
        .iter()
        .position(|x| *x == w)
        .expect("every happening is in ALL")
}

impl Evaluator {
    pub fn new(checks: &[Check]) -> Evaluator {
        let tracks: Vec<Track> = checks.iter().map(|c| Track::new(&c.kind)).collect();
        let states = tracks
            .iter()
            .map(|t| CheckState {
                seen: t.initial_seen(),
                ..CheckState::pending()
            })
            .collect();
        let mut by_what: [Vec<usize>; 6] = Default::default();
        let mut on_delivery = Vec::new();
        let mut lateness = false;
        for (i, c) in checks.iter().enumerate() {
            match &c.kind {
                CheckKind::Happens { what, .. } | CheckKind::Count { what, .. } => {
                    by_what[index(*what)].push(i)
                }
                CheckKind::Order { .. } => on_delivery.push(i),
                CheckKind::Lateness { .. } => {
                    on_delivery.push(i);
                    lateness = true;
                }
                CheckKind::Depth { .. } | CheckKind::Orders { .. } => {}
            }
        }
        let mut ev = Evaluator {
            checks: checks.to_vec(),
            tracks,
            states,
            by_what,
            on_delivery,
            late: lateness.then(Lateness::default),
            messages: Vec::new(),
            next_deadline_ms: u64::MAX,
            revision: 0,
            finished: false,
        };
        ev.recompute_deadline();
        ev
    }

    /// Marks which checks are expected on `v`, the version `s` runs on here
    /// (`Scenario::check_applies`): the others are evaluated all the same and reported as
    /// not expected there. `s` is the scenario these checks came from.
    pub fn expected_on(mut self, s: &Scenario, v: BrokerVersion) -> Evaluator {
        debug_assert_eq!(
            s.checks.len(),
            self.checks.len(),
            "the scenario's own checks"
        );
        for (i, st) in self.states.iter_mut().enumerate() {
            st.expected_here = s.check_applies(i, v);
        }
        self
    }

    /// The evaluator of `s`'s checks, each marked expected or not on the version `s`
    /// runs on ([`Evaluator::expected_on`]).
    pub fn for_scenario(s: &Scenario) -> Evaluator {
        Evaluator::new(&s.checks).expected_on(s, s.broker_version())
    }

    pub fn checks(&self) -> &[Check] {
        &self.checks
    }

    /// Each check's state, in the scenario's order.
    pub fn states(&self) -> &[CheckState] {
        &self.states
    }

    /// Changes whenever a state does.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The earliest time at which a pending check reads the broker's state (`depth`,
    /// `orders` with `at`): the caller stops its run there and calls [`observe`]
    /// before feeding any later event. `None`: no such stop is left.
    ///
    /// [`observe`]: Evaluator::observe
    pub fn next_stop_ms(&self) -> Option<u64> {
        self.tracks
            .iter()
            .zip(&self.states)
            .filter(|(_, s)| s.is_pending())
            .filter_map(|(t, _)| match t {
                Track::State { at_ms, .. } => *at_ms,
                _ => None,
            })
            .min()
    }

    /// One engine event, in the run's order.
    pub fn on_event(&mut self, e: &Event, sim: &Sim) {
        if self.finished {
            return;
        }
        self.clock(e.t_ms);
        if let Some(l) = self.late.as_mut() {
            l.on_event(&e.kind);
        }
        match &e.kind {
            EventKind::Published { msg, .. } if !self.checks.is_empty() => {
                debug_assert_eq!(msg.id.0 as usize, self.messages.len() + 1, "dense ids");
                self.messages.push(msg.clone());
            }
            _ => {}
        }
        let messages = std::mem::take(&mut self.messages);
        let body_of = |id: u32| {
            messages
                .get((id as usize).wrapping_sub(1))
                .map(|m| &*m.body)
        };
        if let Some(mut o) = Obs::of_event(e, sim, body_of) {
            if o.what == Happening::Delivered {
                o.late_ms = self.late.as_ref().zip(o.msg).map(|(l, id)| l.of(id));
            }
            self.on_obs(&o);
        }
        self.messages = messages;
    }

    /// Something happened at `t_ms`: every event before it has been fed.
    fn clock(&mut self, t_ms: u64) {
        if t_ms > self.next_deadline_ms {
            self.settle(t_ms - 1);
        }
    }

    /// One happening of a live broker's replay, in time order (`checks::live`).
    pub(super) fn feed(&mut self, o: &Obs) {
        if !self.finished {
            self.clock(o.t_ms);
            self.on_obs(o);
        }
    }

    fn on_obs(&mut self, o: &Obs) {
        let w = index(o.what);
        let mut touched = false;
        for k in 0..self.by_what[w].len() {
            let i = self.by_what[w][k];
            touched |= self.tracks[i].on_obs(o, &mut self.states[i]);
        }
        if o.what == Happening::Delivered {
            for k in 0..self.on_delivery.len() {
                let i = self.on_delivery[k];
                touched |= self.tracks[i].on_obs(o, &mut self.states[i]);
            }
        }
        if touched {
            self.revision += 1;
        }
    }

    /// The broker as it is at `state.now_ms()`, every event up to then fed (more may
    /// still come at that same ms, a user's command): reads the checks due now, and
    /// settles what the clock alone settles before now.
    pub fn observe(&mut self, state: &dyn BrokerState) {
        if self.finished {
            return;
        }
        let now = state.now_ms();
        self.read_state(state, |at| at == Some(now));
        if now > 0 {
            self.settle(now - 1);
        }
    }

    /// The run is over at `state.now_ms()` (its `until`, or nothing left to happen, or a
    /// limit stopped it): every check is decided (or undecided, with why).
    pub fn finish(&mut self, state: &dyn BrokerState) {
        if self.finished {
            return;
        }
        let end = state.now_ms();
        let stopped = state.stopped();
        if !stopped {
            self.read_state(state, |at| at.is_none_or(|t| t == end));
        }
        self.settle(end);
        for i in 0..self.states.len() {
            if !self.states[i].is_pending() {
                continue;
            }
            if stopped {
                undecided(&mut self.states[i], Undecided::RunStopped { at_ms: end });
            } else {
                self.tracks[i].on_end(end, &mut self.states[i]);
            }
            self.fill_body(i);
        }
        self.finished = true;
        self.revision += 1;
    }

    /// Marks a check undecided before the run (a live broker cannot show it).
    pub(super) fn set_undecided(&mut self, i: usize, why: Undecided) {
        if self.states[i].is_pending() {
            undecided(&mut self.states[i], why);
            self.revision += 1;
            self.recompute_deadline();
        }
    }

    /// Reads the pending `depth` and `orders` checks whose time `due` accepts.
    fn read_state(&mut self, state: &dyn BrokerState, due: impl Fn(Option<u64>) -> bool) {
        let now = state.now_ms();
        for i in 0..self.checks.len() {
            let Track::State { at_ms, .. } = self.tracks[i] else {
                continue;
            };
            if !self.states[i].is_pending() || !due(at_ms) {
                continue;
            }
            let (reading, durations, msg) = match &self.checks[i].kind {
                CheckKind::Depth {
                    target, measure, ..
                } => (state.depth(target, *measure), false, None),
                CheckKind::Orders { figure, .. } => (
                    state.orders(*figure),
                    figure.is_duration(),
                    state.orders_message(*figure),
                ),
                _ => continue,
            };
            self.tracks[i].on_reading(reading, now, durations, &mut self.states[i]);
            if self.states[i].status == super::state::Status::Failed {
                self.states[i].msg = msg;
                self.fill_body(i);
            }
            self.revision += 1;
        }
        self.recompute_deadline();
    }

    /// Every event up to `through_ms` has been fed: decides what that settles.
    fn settle(&mut self, through_ms: u64) {
        if through_ms < self.next_deadline_ms {
            return;
        }
        for i in 0..self.tracks.len() {
            if self.states[i].is_pending()
                && self.tracks[i]
                    .deadline_ms()
                    .is_some_and(|d| d <= through_ms)
            {
                self.tracks[i].on_deadline(&mut self.states[i]);
                self.fill_body(i);
                self.revision += 1;
            }
        }
        self.recompute_deadline();
    }

    fn recompute_deadline(&mut self) {
        self.next_deadline_ms = self
            .tracks
            .iter()
            .zip(&self.states)
            .filter(|(_, s)| s.is_pending())
            .filter_map(|(t, _)| t.deadline_ms())
            .min()
            .unwrap_or(u64::MAX);
    }

    /// The body of the message concerned, when only its id was known.
    fn fill_body(&mut self, i: usize) {
        let s = &mut self.states[i];
        if let (Some(id), None) = (s.msg, &s.body) {
            s.body = self
                .messages
                .get((id as usize).wrapping_sub(1))
                .map(|m| m.body.to_string());
        }
    }
}
