//! The playground's runner with a scenario's checks: it stops where a check reads the
//! broker without changing the run or its pacing, a host page hears each change, a user
//! publish is evaluated as it happens, and a new runner (a restart) starts them again.

use delaylab_engine::checks::Status;
use delaylab_engine::scenario::{load_str, ActionKind, Scenario};
use delaylab_playground::host::Tap;
use delaylab_playground::runner::{Batch, Runner};
use serde_json::{json, Value};

/// The head-of-line pair in seconds: A waits 30 s, B (published at 1 s) 5 s.
const HOL: &str = r#"{"version": 1, "name": "hol", "until": "40s",
  "topology": {"exchanges": [{"name": "dlx", "type": "fanout"}],
    "queues": [{"name": "wait", "arguments": {"x-dead-letter-exchange": "dlx"}}, {"name": "due"}],
    "bindings": [{"source": "dlx", "destination": "due", "routing_key": ""}]},
  "consumers": [{"name": "c", "queue": "due", "ack": "auto"}],
  "actions": [
    {"at": 0, "publish": {"routing_key": "wait", "body": "A", "properties": {"expiration": "30000"}}},
    {"at": "1s", "publish": {"routing_key": "wait", "body": "B", "properties": {"expiration": "5000"}}}],
  "checks": [
    {"name": "b-on-time", "label": "B by 6 s", "delivered": {"body": "B", "by": "6s"}},
    {"name": "overdue", "label": "one overdue at 10 s", "depth": {"queue": "wait", "of": "overdue", "at": "10s", "equals": 1}},
    {"name": "c-sent", "label": "C is delivered", "delivered": {"body": "C"}}]}"#;

fn hol() -> Scenario {
    load_str(HOL).unwrap()
}

fn statuses(r: &Runner) -> Vec<Status> {
    r.checks.states().iter().map(|s| s.status).collect()
}

/// Runs to `ms` in frames that each stop after `per_frame` calls of the time check.
fn run_to(r: &mut Runner, ms: u64, per_frame: u32) -> Batch {
    let mut all = Batch::default();
    loop {
        let mut b = Batch::default();
        let mut calls = 0;
        let reached = r.advance_to(ms, &mut b, || {
            calls += 1;
            calls > per_frame
        });
        all.checks |= b.checks;
        all.events += b.events;
        if reached {
            return all;
        }
    }
}

#[test]
fn a_jump_stops_where_a_check_reads_the_broker_and_reaches_its_target() {
    let mut r = Runner::new(hol());
    run_to(&mut r, 5_000, u32::MAX);
    assert_eq!(statuses(&r), [Status::Pending; 3]);
    // One frame from 5 s to 20 s: still one call, the target reached, the depth read at 10 s.
    let mut b = Batch::default();
    assert!(r.advance_to(20_000, &mut b, || false));
    assert_eq!(r.now(), 20_000);
    assert!(b.checks);
    assert_eq!(statuses(&r)[..2], [Status::Failed, Status::Passed]);
    assert_eq!(r.checks.states()[1].at_ms, Some(10_000));
}

#[test]
fn the_clock_alone_settles_a_window_and_says_so() {
    let mut r = Runner::new(hol());
    run_to(&mut r, 6_000, u32::MAX);
    assert_eq!(statuses(&r)[0], Status::Pending, "B may still come at 6 s");
    // Nothing happens between 6 s and 30 s: no event, and still news.
    let b = run_to(&mut r, 6_500, u32::MAX);
    assert_eq!(b.events, 0);
    assert!(b.checks, "the panel and the host hear it without an event");
    assert_eq!(statuses(&r)[0], Status::Failed);
    assert_eq!(r.checks.states()[0].at_ms, Some(6_000));
}

#[test]
fn the_run_and_its_checks_are_the_same_whatever_the_frames() {
    let s = hol();
    let (_, ev) = delaylab_engine::checks::run::run(&s, Default::default(), |_, _| {});
    for per_frame in [1, 2, 5, u32::MAX] {
        let mut r = Runner::new(s.clone());
        let mut t = 0;
        while t < 45_000 {
            t += 1_337;
            run_to(&mut r, t, per_frame);
        }
        assert_eq!(r.checks.states(), ev.states(), "{per_frame} per frame");
        assert!(r.checks.is_finished());
    }
    // Stopping for the checks changes no event: the same log without them.
    let events = |s: Scenario| {
        let mut r = Runner::new(s);
        run_to(&mut r, 45_000, 3);
        r.track
            .log
            .iter()
            .map(|e| format!("{} {:?}", e.ev.t_ms, e.ev.kind))
            .collect::<Vec<_>>()
    };
    let mut bare = s.clone();
    bare.checks.clear();
    assert_eq!(events(s), events(bare));
}

#[test]
fn a_user_publish_is_evaluated_as_it_happens() {
    let mut r = Runner::new(hol());
    run_to(&mut r, 12_000, u32::MAX);
    assert_eq!(statuses(&r)[2], Status::Pending);
    let ActionKind::Publish(mut p) = hol().actions[0].kind.clone() else {
        unreachable!()
    };
    p.routing_key = "due".into();
    p.body = "C".into();
    p.properties = Default::default();
    let mut b = Batch::default();
    r.run_now(ActionKind::Publish(p), &mut b);
    assert!(b.checks);
    assert_eq!(statuses(&r)[2], Status::Passed);
    assert_eq!(r.checks.states()[2].at_ms, Some(12_000));
    // A restart replays the recorded publish: a new run, its checks from pending.
    let again = Runner::new(r.scenario.clone());
    assert_eq!(statuses(&again), [Status::Pending; 3]);
}

#[test]
fn a_host_hears_all_pending_at_the_start_then_each_change() {
    let tap = Tap::new(false);
    let mut r = Runner::with_tap(hol(), Some(tap.clone()));
    let checks_of = |msgs: Vec<Value>| -> Vec<Vec<(String, String)>> {
        msgs.into_iter()
            .filter(|m| m["type"] == "checks")
            .map(|m| {
                m["checks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| {
                        (
                            c["id"].as_str().unwrap().to_string(),
                            c["status"].as_str().unwrap().to_string(),
                        )
                    })
                    .collect()
            })
            .collect()
    };
    let pending = |id: &str| (id.to_string(), "pending".to_string());
    let all_pending = || {
        [vec![
            pending("b-on-time"),
            pending("overdue"),
            pending("c-sent"),
        ]]
    };
    assert_eq!(checks_of(tap.borrow_mut().take_messages()), all_pending());
    run_to(&mut r, 5_000, u32::MAX);
    assert_eq!(
        checks_of(tap.borrow_mut().take_messages()),
        Vec::<Vec<_>>::new(),
        "no change"
    );
    run_to(&mut r, 11_000, u32::MAX);
    let got = checks_of(tap.borrow_mut().take_messages());
    assert_eq!(got.len(), 1, "one message a frame: the latest states");
    assert_eq!(
        got[0][..2],
        [
            ("b-on-time".to_string(), "failed".to_string()),
            ("overdue".to_string(), "passed".to_string())
        ]
    );
    let last = r.checks.to_json();
    assert_eq!(last[0]["at_ms"], json!(6_000));
    assert_eq!(last[0]["label"], json!("B by 6 s"));
    // A seek back is a new runner with the same tap: all pending again.
    let _r = Runner::with_tap(hol(), Some(tap.clone()));
    assert_eq!(checks_of(tap.borrow_mut().take_messages()), all_pending());
}

#[test]
fn a_scenario_without_checks_sends_no_checks_message() {
    let mut s = hol();
    s.checks.clear();
    let tap = Tap::new(false);
    let mut r = Runner::with_tap(s, Some(tap.clone()));
    run_to(&mut r, 45_000, u32::MAX);
    assert!(tap
        .borrow_mut()
        .take_messages()
        .iter()
        .all(|m| m["type"] != "checks"));
}
