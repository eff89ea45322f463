//! Running a scenario with its checks: the simulation stops at each time a check reads
//! the broker's state (`Evaluator::next_stop_ms`), as `report::run_with` runs it
//! otherwise. Stopping changes no event: the engine fires timers in (time, sequence)
//! order whatever the slices it is advanced in (`tests/checks_stops.rs` compares).

use super::eval::Evaluator;
use super::state_source::SimState;
use crate::event::Event;
use crate::limits::Limits;
use crate::scenario::Scenario;
use crate::sim::{Progress, Sim};

/// Runs `scenario` to its end (`until`, or until nothing is left to happen and no
/// check's time is left), handing every event to `on_event` and to the checks.
pub fn run(
    scenario: &Scenario,
    limits: Limits,
    mut on_event: impl FnMut(&Event, &Sim),
) -> (Sim, Evaluator) {
    let mut sim = Sim::with_limits(scenario, limits);
    let mut ev = Evaluator::for_scenario(scenario);
    let mut drain = |sim: &mut Sim, ev: &mut Evaluator| {
        while let Some(e) = sim.poll_event() {
            on_event(&e, sim);
            ev.on_event(&e, sim);
        }
    };
    loop {
        let stop = ev.next_stop_ms();
        let next = match scenario.until_ms {
            Some(until) => Some(stop.map_or(until, |s| s.min(until))),
            None => match (sim.next_timer_ms(), stop) {
                (Some(t), Some(s)) => Some(t.min(s)),
                (t, s) => t.or(s),
            },
        };
        let Some(t) = next else { break };
        while sim.advance(t) == Progress::More {
            drain(&mut sim, &mut ev);
        }
        drain(&mut sim, &mut ev);
        if sim.halted() {
            break;
        }
        if stop == Some(t) {
            ev.observe(&SimState::new(&sim));
        }
        if scenario.until_ms == Some(t) {
            break;
        }
    }
    drain(&mut sim, &mut ev);
    ev.finish(&SimState::new(&sim));
    (sim, ev)
}
