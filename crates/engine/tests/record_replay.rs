//! A user's command at virtual time T (the playground: pause, Step to T, press Publish)
//! and the same action written into the scenario at T (the recorded session, replayed by
//! a link or Restart) give the same trace, even when a broker timer falls at T too:
//! scenario actions fire after every broker timer of their millisecond (timers.rs).

mod common;

use common::{acker, dlx_topology, publish};
use delaylab_engine::report::trace::event_json;
use delaylab_engine::scenario::load_value;
use delaylab_engine::sim::{Command, Progress, Sim};
use serde_json::{json, Value};

const TTL_MS: u64 = 1_800_000;
const END_MS: u64 = 2_000_000;

/// m1 waits 30 min in `wait`, then dead-letters to `due`, consumed at once.
fn scenario(extra_actions: &[Value]) -> Value {
    let mut actions = vec![publish("0s", "", "wait", "m1", json!({}))];
    actions.extend_from_slice(extra_actions);
    json!({
        "version": 1, "name": "record-replay", "until": "40m",
        "topology": dlx_topology(json!({"x-message-ttl": TTL_MS})),
        "consumers": [acker("app", "due")],
        "actions": actions
    })
}

/// Runs to `t_ms`, collecting every event as trace JSON.
fn run_to(sim: &mut Sim, t_ms: u64, out: &mut Vec<Value>) {
    loop {
        let progress = sim.advance(t_ms);
        while let Some(e) = sim.poll_event() {
            out.push(event_json(&e, sim));
        }
        if progress == Progress::Idle {
            return;
        }
    }
}

#[test]
fn a_command_at_a_timers_millisecond_replays_as_the_same_action() {
    let m2 = publish("30m", "", "due", "m2", json!({}));
    let recorded = load_value(&scenario(std::slice::from_ref(&m2))).expect("loads");
    let action = recorded.actions.last().expect("m2").kind.clone();

    // Live: the clock reaches 30:00 (m1 expires, is dead-lettered and delivered), then
    // the user publishes m2 at 30:00.
    let mut live = Sim::new(&load_value(&scenario(&[])).expect("loads"));
    let mut live_events = vec![];
    run_to(&mut live, TTL_MS, &mut live_events);
    live.handle(TTL_MS, Command::Run(action));
    run_to(&mut live, END_MS, &mut live_events);

    // Replay: m2 is an action of the scenario at 30:00, armed at load.
    let mut replay = Sim::new(&recorded);
    let mut replay_events = vec![];
    run_to(&mut replay, END_MS, &mut replay_events);

    let bodies = |evs: &[Value]| -> Vec<String> {
        evs.iter()
            .filter(|e| e["event"] == "delivered")
            .map(|e| format!("{}@{}", e["msg"], e["t_ms"]))
            .collect()
    };
    assert_eq!(
        bodies(&live_events),
        vec!["1@1800000", "2@1800000"],
        "m1 (expired at 30:00) before m2"
    );
    assert_eq!(
        replay_events, live_events,
        "the replay is the live session, event for event"
    );
}
