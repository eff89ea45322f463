//! The scenario's checks as the playground runs it: the engine's incremental
//! [`Evaluator`], fed the current runner's events only (a restart, a seek back or a load
//! makes a new runner, so the checks start again with it), and told where the clock is.
//!
//! What the runner does for it ([`crate::runner::Runner::advance_to`]):
//! - stops its run at [`PageChecks::stop_by`]: a time a check reads the broker's state
//!   (`Evaluator::next_stop_ms`: a depth at 6:00) or the scenario's `until`, where the
//!   checks are finished. A stop is one more boundary of the frame's run, like the depth
//!   chart's samples: the target the pacer asked for is unchanged, so pacing is too;
//! - calls [`PageChecks::arrived`] once everything due at the time it stopped at has
//!   fired: a check due now reads the broker, a window that ended before now is settled
//!   (a pending "B by 6:00" fails once the clock is past 6:00 without B), and at `until`
//!   (or when a limit stopped the run) every check is decided.
//!
//! A user's publish or consumer command at the current time is only more events: the
//! checks take them in like the scenario's own. After `until` the states stay as the run
//! decided them (as `delaylab test`, which runs to `until`): a learner who plays on sees
//! the scenario's verdict, not a new one.
//!
//! ```text
//! head-of-line, check "B delivered by 6:00", play at 1000x:
//!   frame … 5:59.8  pending
//!   frame → 6:00.4  arrived(6:00.4): the window ended at 6:00 without B -> failed at 6:00
//!   frame → 30:00   B delivered (already failed; the figure seen becomes 30:00)
//!   frame → 40:00   stop at until: finished, nothing pending
//! ```

use std::cell::OnceCell;

use crate::checks_elsewhere::{self, Elsewhere};
use delaylab_engine::checks::{json as checks_json, CheckState, Evaluator, SimState};
use delaylab_engine::scenario::Scenario;
use delaylab_engine::{Event, Sim};
use serde_json::Value;

/// The checks of one runner's run.
pub struct PageChecks {
    /// None when the scenario has none: nothing is fed, nothing stops the run.
    ev: Option<Evaluator>,
    until_ms: Option<u64>,
    /// The revision last reported ([`PageChecks::take_changed`]); None: never reported.
    reported: Option<u64>,
    /// The scenario as the run began, kept only when a check is not expected on its
    /// version: where it is expected is worked out when first asked ([`Self::elsewhere`]:
    /// the Checks panel), so the version impacts it reads are not start-up code.
    elsewhere_of: Option<Box<Scenario>>,
    /// Per check, where it is expected when not on this run's version.
    elsewhere: OnceCell<Vec<Option<Elsewhere>>>,
}

impl PageChecks {
    pub fn new(scenario: &Scenario) -> PageChecks {
        PageChecks {
            ev: (!scenario.checks.is_empty()).then(|| Evaluator::for_scenario(scenario)),
            until_ms: scenario.until_ms,
            reported: None,
            elsewhere_of: checks_elsewhere::any(scenario).then(|| Box::new(scenario.clone())),
            elsewhere: OnceCell::new(),
        }
    }

    /// Per check, in the scenario's order: where it is expected, when not on the version
    /// this run is on (empty when the scenario has no checks).
    pub fn elsewhere(&self) -> &[Option<Elsewhere>] {
        self.elsewhere.get_or_init(|| match &self.elsewhere_of {
            Some(s) => checks_elsewhere::of_scenario(s),
            None => vec![None; self.checks().len()],
        })
    }

    pub fn is_empty(&self) -> bool {
        self.ev.is_none()
    }

    /// The checks, in the scenario's order (empty when it has none).
    pub fn checks(&self) -> &[delaylab_engine::checks::Check] {
        self.ev.as_ref().map_or(&[], |e| e.checks())
    }

    /// Each check's state, in the scenario's order.
    pub fn states(&self) -> &[CheckState] {
        self.ev.as_ref().map_or(&[], |e| e.states())
    }

    /// True once the run has decided every check (its `until`, or a limit stopped it).
    pub fn is_finished(&self) -> bool {
        self.ev.as_ref().is_some_and(Evaluator::is_finished)
    }

    /// The scenario's `until` (the checks that need the run's end are decided there).
    pub fn until_ms(&self) -> Option<u64> {
        self.until_ms
    }

    /// The first time from `now_ms` to `target` where the run must stop for the checks
    /// (a time already behind the clock is not one: the run cannot go back to it).
    pub fn stop_by(&self, now_ms: u64, target: u64) -> Option<u64> {
        let ev = self.ev.as_ref().filter(|e| !e.is_finished())?;
        let stop = match (ev.next_stop_ms(), self.until_ms) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        stop.filter(|&t| now_ms <= t && t <= target)
    }

    /// One engine event of this runner's run, in order.
    pub fn on_event(&mut self, e: &Event, sim: &Sim) {
        if let Some(ev) = self.ev.as_mut() {
            ev.on_event(e, sim);
        }
    }

    /// Everything due at `sim.now_ms()` has fired and been fed: read what is due now,
    /// settle what the clock settles, and finish at `until` or on a stopped run.
    pub fn arrived(&mut self, sim: &Sim) {
        let Some(ev) = self.ev.as_mut().filter(|e| !e.is_finished()) else {
            return;
        };
        let state = SimState::new(sim);
        if sim.halted() || self.until_ms.is_some_and(|u| sim.now_ms() >= u) {
            ev.finish(&state);
        } else {
            ev.observe(&state);
        }
    }

    /// True once after each change of a state (and once at the start of a run with
    /// checks, so a listener hears the all-pending states of a new run).
    pub fn take_changed(&mut self) -> bool {
        let Some(rev) = self.ev.as_ref().map(Evaluator::revision) else {
            return false;
        };
        let changed = self.reported != Some(rev);
        self.reported = Some(rev);
        changed
    }

    /// Every check and its state as JSON (`delaylab_engine::checks::json`: what the
    /// JavaScript package's `checks()` and `delaylab test --format json` give).
    pub fn to_json(&self) -> Value {
        checks_json::states_json(self.checks(), self.states())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use delaylab_engine::checks::Status;
    use delaylab_engine::scenario::load_str;
    use delaylab_engine::Progress;

    /// The head-of-line pair in seconds: A waits 30 s, B (published at 1 s) 5 s.
    pub(crate) const HOL: &str = r#"{"version": 1, "name": "hol", "until": "40s",
      "topology": {"exchanges": [{"name": "dlx", "type": "fanout"}],
        "queues": [{"name": "wait", "arguments": {"x-dead-letter-exchange": "dlx"}}, {"name": "due"}],
        "bindings": [{"source": "dlx", "destination": "due", "routing_key": ""}]},
      "consumers": [{"name": "c", "queue": "due", "ack": "auto"}],
      "actions": [
        {"at": 0, "publish": {"routing_key": "wait", "body": "A", "properties": {"expiration": "30000"}}},
        {"at": "1s", "publish": {"routing_key": "wait", "body": "B", "properties": {"expiration": "5000"}}}],
      "checks": [
        {"name": "b-on-time", "label": "B by 6 s", "delivered": {"body": "B", "by": "6s"}},
        {"label": "one overdue at 10 s", "depth": {"queue": "wait", "of": "overdue", "at": "10s", "equals": 1}},
        {"label": "nothing dead-lettered for its delivery limit", "dead_lettered": {"reason": "delivery_limit", "never": true}}]}"#;

    /// Runs `sim` to `target` as the page's runner does, stopping for the checks.
    pub(crate) fn run_to(sim: &mut Sim, pc: &mut PageChecks, target: u64) {
        loop {
            let stop = pc.stop_by(sim.now_ms(), target).unwrap_or(target);
            while sim.advance(stop) == Progress::More {
                while let Some(e) = sim.poll_event() {
                    pc.on_event(&e, sim);
                }
            }
            while let Some(e) = sim.poll_event() {
                pc.on_event(&e, sim);
            }
            pc.arrived(sim);
            if stop == target {
                return;
            }
        }
    }

    fn statuses(pc: &PageChecks) -> Vec<Status> {
        pc.states().iter().map(|s| s.status).collect()
    }

    #[test]
    fn the_clock_settles_a_window_and_a_jump_still_reads_the_depth_at_its_time() {
        let s = load_str(HOL).unwrap();
        let mut sim = Sim::new(&s);
        let mut pc = PageChecks::new(&s);
        assert!(pc.take_changed(), "a new run with checks is reported once");
        assert!(!pc.take_changed());
        run_to(&mut sim, &mut pc, 5_000);
        assert_eq!(statuses(&pc), [Status::Pending; 3]);
        // Past 6 s, nothing else happening until 30 s: the window is over all the same.
        run_to(&mut sim, &mut pc, 6_001);
        assert_eq!(pc.states()[0].status, Status::Failed);
        assert_eq!(pc.states()[0].at_ms, Some(6_000));
        assert!(pc.take_changed());
        // One jump from 6 s to 20 s: the runner stops at 10 s for the depth.
        assert_eq!(pc.stop_by(sim.now_ms(), 20_000), Some(10_000));
        run_to(&mut sim, &mut pc, 20_000);
        assert_eq!(pc.states()[1].status, Status::Passed);
        assert_eq!(pc.states()[1].at_ms, Some(10_000));
        assert_eq!(
            pc.states()[2].status,
            Status::Pending,
            "a `never` waits for the end"
        );
        assert_eq!(
            pc.stop_by(sim.now_ms(), 60_000),
            Some(40_000),
            "the end is a stop"
        );
        run_to(&mut sim, &mut pc, 60_000);
        assert!(pc.is_finished());
        assert_eq!(pc.states()[2].status, Status::Passed);
        assert_eq!(pc.states()[2].at_ms, Some(40_000));
        assert_eq!(pc.stop_by(0, u64::MAX), None, "nothing left to stop for");
    }

    #[test]
    fn the_states_are_those_of_delaylab_test() {
        let s = load_str(HOL).unwrap();
        let mut sim = Sim::new(&s);
        let mut pc = PageChecks::new(&s);
        // A page's frames: small uneven steps.
        let mut t = 0;
        while t < 45_000 {
            t += 777;
            run_to(&mut sim, &mut pc, t);
        }
        let (_, ev) = delaylab_engine::checks::run::run(&s, Default::default(), |_, _| {});
        assert_eq!(pc.states(), ev.states());
        assert_eq!(
            pc.to_json(),
            checks_json::states_json(ev.checks(), ev.states())
        );
    }

    #[test]
    fn a_scenario_without_checks_stops_nothing_and_reports_nothing() {
        let mut v: Value = serde_json::from_str(HOL).unwrap();
        v.as_object_mut().unwrap().remove("checks");
        let s = delaylab_engine::scenario::load_value(&v).unwrap();
        let mut pc = PageChecks::new(&s);
        assert!(pc.is_empty());
        assert_eq!(pc.stop_by(0, u64::MAX), None);
        assert!(!pc.take_changed());
        assert_eq!(pc.to_json(), serde_json::json!([]));
    }
}
