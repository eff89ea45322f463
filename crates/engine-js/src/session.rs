//! A running simulation as the package hands it to JavaScript, in plain Rust (no
//! wasm-bindgen here, so the native tests drive exactly what the browser drives).
//!
//! Everything is the engine's: `Sim` runs, `report::Recorder` builds the run contract
//! (`delaylab run --format json`), `report::trace::event_json` writes each event
//! (`delaylab run --trace`). A session only pumps events from the one to the others.
//!
//! ```text
//! let mut s = Session::load(text, true)?;   // the loader's error names the JSON path
//! s.advance_to(360_000);                    // fires everything due by 6:00
//! s.drain_events_json();                    // "[{"t_ms":0,"event":"published",...},...]"
//! s.handle(cmd)?;                           // Err(refusal) when the broker refused it
//! s.run_to_end(); s.result();               // = `delaylab run --format json`
//! s.checks_json();                          // each of the scenario's checks: pending, passed at T, ...
//! ```
//!
//! The scenario's `checks` (`delaylab_engine::checks`) are evaluated as the events come;
//! `advance_to` stops at each time a check reads the broker (a depth at 6:00), as
//! `delaylab test` does, so a check's state is the same here as there.

use delaylab_engine::checks::{json as checks_json, Evaluator, SimState};
use delaylab_engine::report::{trace, Recorder};
use delaylab_engine::scenario::{self, LoadError, Scenario};
use delaylab_engine::snapshot::Snapshot;
use delaylab_engine::{Command, Event, Progress, Sim};
use serde_json::Value;

/// Trace lines a session keeps between two `drainEvents` calls. Past this, further
/// events are counted (`dropped_events`) instead of kept: a page that never drains
/// cannot fill the tab's memory (the 200,000-order preset makes 1.6 million events).
pub const MAX_PENDING_EVENTS: usize = 200_000;

/// What the broker refused: one of the run's `errors` entries (`at_ms`, `code`, `text`,
/// `scope`, and `body` when a message was refused), as the result JSON lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub code: u64,
    pub text: String,
    pub entry: Value,
}

/// The trace lines not drained yet, as one comma-separated run of compact JSON objects
/// (cheap to hold, and one `JSON.parse` on the JavaScript side).
#[derive(Default)]
struct PendingTrace {
    joined: String,
    count: usize,
    dropped: u64,
}

impl PendingTrace {
    fn push(&mut self, e: &Event, sim: &Sim) {
        if self.count >= MAX_PENDING_EVENTS {
            self.dropped += 1;
            return;
        }
        if self.count > 0 {
            self.joined.push(',');
        }
        self.joined.push_str(&trace::event_json(e, sim).to_string());
        self.count += 1;
    }
}

pub struct Session {
    scenario: Scenario,
    sim: Sim,
    rec: Recorder,
    trace: Option<PendingTrace>,
    checks: Evaluator,
}

impl Session {
    /// Loads a scenario file's text. `keep_trace: false` skips the trace lines (a run
    /// measured for speed does the work of `delaylab run` without `--trace`).
    pub fn load(text: &str, keep_trace: bool) -> Result<Session, LoadError> {
        Ok(Session::new(scenario::load_str(text)?, keep_trace))
    }

    pub fn new(scenario: Scenario, keep_trace: bool) -> Session {
        let sim = Sim::new(&scenario);
        // The run contract as `delaylab run` writes it, publisher nacks included.
        let mut rec = Recorder::default();
        rec.with_confirms = true;
        let checks = Evaluator::for_scenario(&scenario);
        let mut s = Session {
            scenario,
            sim,
            rec,
            trace: keep_trace.then(PendingTrace::default),
            checks,
        };
        s.pump(); // the declarations at 0 (a refused queue argument is an error event)
        s
    }

    pub fn now_ms(&self) -> u64 {
        self.sim.now_ms()
    }

    /// The scenario's `until`, if it has one.
    pub fn until_ms(&self) -> Option<u64> {
        self.scenario.until_ms
    }

    pub fn halted(&self) -> bool {
        self.sim.halted()
    }

    /// Events the engine has raised so far (a limit-reached note not counted).
    pub fn events_so_far(&self) -> u64 {
        self.sim.events_so_far()
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Hands every waiting engine event to the recorder and the trace.
    fn pump(&mut self) {
        while let Some(e) = self.sim.poll_event() {
            self.rec.on_event(&e, &self.sim);
            self.checks.on_event(&e, &self.sim);
            if let Some(t) = self.trace.as_mut() {
                t.push(&e, &self.sim);
            }
        }
    }

    /// Fires everything due at or before `ms` (the clock never goes back: an earlier
    /// `ms` means now), draining the engine's event slices as they fill.
    /// Stops on the way at each time a check reads the broker's state.
    pub fn advance_to(&mut self, ms: u64) {
        loop {
            let stop = self.checks.next_stop_ms().filter(|&s| s < ms);
            let target = stop.unwrap_or(ms);
            while self.sim.advance(target) == Progress::More {
                self.pump();
            }
            self.pump();
            if !self.sim.halted() {
                self.checks.observe(&SimState::new(&self.sim));
            }
            if stop.is_none() || self.sim.halted() {
                return;
            }
        }
    }

    /// Runs to the scenario's `until`, or, without one, until nothing is left to happen:
    /// the same stops as `delaylab run` (`report::run_with`).
    pub fn run_to_end(&mut self) {
        match self.scenario.until_ms {
            Some(until) => self.advance_to(until),
            None => {
                while let Some(t) = self.sim.next_timer_ms() {
                    self.advance_to(t);
                }
                // A check's time after the last thing that happens (the state stays).
                while let Some(t) = self.checks.next_stop_ms().filter(|_| !self.sim.halted()) {
                    self.advance_to(t);
                }
            }
        }
        self.checks.finish(&SimState::new(&self.sim));
    }

    /// Each of the scenario's checks and its state now, in the scenario's order
    /// (`delaylab_engine::checks::json`): `id`, `label`, `kind`, `status` (pending,
    /// passed, failed, undecided), `at_ms`, `seen`, `msg`, `body`, `expected`, `text`.
    pub fn checks_json(&self) -> Value {
        checks_json::states_json(self.checks.checks(), self.checks.states())
    }

    /// The checks' evaluator (its `revision()` changes whenever a state does).
    pub fn checks(&self) -> &Evaluator {
        &self.checks
    }

    /// Applies a command now, then fires what it made due at this same instant (a
    /// consumer's attach), so a refusal is known when this returns: the first error
    /// the broker raised while doing it. Its events are in the trace either way.
    pub fn handle(&mut self, cmd: Command) -> Result<(), Refusal> {
        let now = self.sim.now_ms();
        self.advance_to(now);
        let before = self.rec.errors.len();
        self.sim.handle(now, cmd);
        self.advance_to(now);
        match self.rec.errors.get(before) {
            None => Ok(()),
            Some(entry) => Err(Refusal {
                code: entry["code"].as_u64().unwrap_or_default(),
                text: entry["text"].as_str().unwrap_or_default().to_string(),
                entry: entry.clone(),
            }),
        }
    }

    /// The trace lines since the last call, as a JSON array (`[]` without a trace).
    pub fn drain_events_json(&mut self) -> String {
        match self.trace.as_mut() {
            None => "[]".to_string(),
            Some(t) => {
                t.count = 0;
                format!("[{}]", std::mem::take(&mut t.joined))
            }
        }
    }

    /// Events not kept because `MAX_PENDING_EVENTS` waited undrained.
    pub fn dropped_events(&self) -> u64 {
        self.trace.as_ref().map_or(0, |t| t.dropped)
    }

    /// The run so far as `delaylab run --format json` prints it, with `stats.wall_ms`
    /// the time the caller says the engine worked.
    pub fn result(&self, wall_ms: f64) -> Value {
        let mut result = self.rec.result(&self.scenario, &self.sim);
        // Rounded to the microsecond as the CLI rounds it.
        result["stats"]["wall_ms"] = serde_json::json!((wall_ms * 1000.0).round() / 1000.0);
        result
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot::of(&self.sim)
    }
}
