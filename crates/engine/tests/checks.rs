//! Scenario checks (`crate::checks`): each kind passing and failing on a small run with
//! a known timeline, decided at the right moment as the run goes on, read on a live
//! broker's replay result, and saved and loaded back unchanged.
//!
//! The timeline of `hol()` (head-of-line blocking, `lateness.rs`'s worked example):
//!
//! ```text
//! t=0     A (TTL 30 s) and B (TTL 5 s) into `wait`, which dead-letters to `due`
//! t=5 s   B's TTL passes; B waits behind A (overdue)
//! t=30 s  A expires, then B (25 s late); both dead-lettered (expired), delivered to c
//! t=40 s  the end
//! ```

use delaylab_engine::checks::run::run;
use delaylab_engine::checks::spec::{Bound, Check, CheckKind, DepthMeasure, DepthTarget};
use delaylab_engine::checks::state_source::SimState;
use delaylab_engine::checks::{live, CheckState, Evaluator, Seen, Status, Undecided};
use delaylab_engine::limits::Limits;
use delaylab_engine::scenario::{load_str, load_value, save, Scenario};
use delaylab_engine::Progress;
use serde_json::{json, Value};

fn hol(checks: Value) -> Scenario {
    load_value(&json!({
        "version": 1, "name": "hol", "until": "40s",
        "topology": {
            "exchanges": [{"name": "dlx", "type": "fanout"}],
            "queues": [{"name": "wait", "arguments": {"x-dead-letter-exchange": "dlx"}}, {"name": "due"}],
            "bindings": [{"source": "dlx", "destination": "due", "routing_key": ""}]},
        "consumers": [{"name": "c", "queue": "due", "ack": "auto"}],
        "actions": [
            {"at": 0, "publish": {"routing_key": "wait", "body": "A", "properties": {"expiration": "30000"}}},
            {"at": 0, "publish": {"routing_key": "wait", "body": "B", "properties": {"expiration": "5000"}}}],
        "checks": checks
    }))
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Runs with the checks and returns each check's state.
fn states(s: &Scenario) -> Vec<CheckState> {
    let (_, ev) = run(s, Limits::default(), |_, _| {});
    assert!(ev.is_finished());
    ev.states().to_vec()
}

fn one(check: Value) -> CheckState {
    let mut c = check;
    c["label"] = json!("the check");
    states(&hol(json!([c]))).remove(0)
}

fn passed_at(s: &CheckState, at_ms: u64) {
    assert_eq!((s.status, s.at_ms), (Status::Passed, Some(at_ms)), "{s:?}");
}

fn failed_at(s: &CheckState, at_ms: u64) {
    assert_eq!((s.status, s.at_ms), (Status::Failed, Some(at_ms)), "{s:?}");
}

#[test]
fn delivered_at_by_within_and_never() {
    passed_at(
        &one(json!({"delivered": {"body": "B", "at": "30s"}})),
        30_000,
    );
    passed_at(
        &one(json!({"delivered": {"body": "B", "within": ["29s", "31s"], "consumer": "c"}})),
        30_000,
    );
    passed_at(
        &one(json!({"delivered": {"body_matches": "?", "queue": "due"}})),
        30_000,
    );
    // Not by 5 s: false from 5 s, and the delivery seen after it is shown beside it.
    let s = one(json!({"delivered": {"body": "B", "by": "5s"}}));
    failed_at(&s, 5_000);
    assert_eq!(s.seen, Seen::At(30_000));
    assert_eq!((s.msg, s.body.as_deref()), (Some(2), Some("B")));
    // Never delivered by 29 s: true once 29 s has passed without one.
    passed_at(
        &one(json!({"delivered": {"body": "B", "by": "29s", "never": true}})),
        29_000,
    );
    failed_at(
        &one(json!({"delivered": {"body": "B", "never": true}})),
        30_000,
    );
    // No such body at all: false at the end, nothing seen.
    let s = one(json!({"delivered": {"body": "C"}}));
    failed_at(&s, 40_000);
    assert_eq!(s.seen, Seen::Nothing);
    // Headers as the consumer sees them.
    passed_at(
        &one(
            json!({"delivered": {"body": "B", "headers": {"x-death": [{"reason": "expired", "count": 1, "queue": "wait"}],
                                                             "x-first-death-queue": "wait"}}}),
        ),
        30_000,
    );
    failed_at(
        &one(json!({"delivered": {"body": "B", "headers": {"x-death": [{"count": 2}]}}})),
        40_000,
    );
}

#[test]
fn other_happenings() {
    passed_at(
        &one(json!({"enqueued": {"body": "B", "queue": "due", "at": "30s"}})),
        30_000,
    );
    passed_at(
        &one(json!({"dead_lettered": {"body": "B", "queue": "wait", "reason": "expired"}})),
        30_000,
    );
    passed_at(
        &one(json!({"dead_lettered": {"reason": "maxlen", "never": true}})),
        40_000,
    );
    passed_at(&one(json!({"dropped": {"never": true}})), 40_000);
    passed_at(&one(json!({"error": {"never": true}})), 40_000);
    failed_at(&one(json!({"returned": {"code": 312}})), 40_000);
}

#[test]
fn counts_decide_as_soon_as_they_can() {
    passed_at(
        &one(json!({"count": {"of": "delivered", "equals": 2}})),
        40_000,
    );
    // At most 1 fails at the second delivery, with that message.
    let s = one(json!({"count": {"of": "delivered", "consumer": "c", "at_most": 1}}));
    failed_at(&s, 30_000);
    assert_eq!(
        (s.seen.clone(), s.body.as_deref()),
        (Seen::Count(2), Some("B"))
    );
    passed_at(
        &one(json!({"count": {"of": "enqueued", "at_least": 3}})),
        30_000,
    );
    passed_at(
        &one(
            json!({"count": {"of": "dead_lettered", "reason": "expired", "by": "29s", "equals": 0}}),
        ),
        29_000,
    );
}

#[test]
fn order_of_deliveries() {
    passed_at(
        &one(json!({"order": {"bodies": ["A", "B"], "consumer": "c"}})),
        30_000,
    );
    let s = one(json!({"order": {"bodies": ["B", "A"]}}));
    failed_at(&s, 30_000);
    assert_eq!(
        s.seen,
        Seen::Order {
            position: 0,
            got: Some("A".into())
        }
    );
    let s = one(json!({"order": {"bodies": ["A", "B", "A"]}}));
    failed_at(&s, 40_000);
    assert_eq!(
        s.seen,
        Seen::Order {
            position: 2,
            got: None
        }
    );
}

#[test]
fn lateness_is_the_run_results() {
    // The same figures as the result's late_ms and lateness_ms.
    let result = delaylab_engine::report::run(&hol(json!([])));
    assert_eq!(result["deliveries"][1]["late_ms"], json!(25_000));
    assert_eq!(result["lateness_ms"]["p99"], json!(25_000));
    passed_at(
        &one(json!({"lateness": {"body": "B", "equals": "25s"}})),
        30_000,
    );
    passed_at(
        &one(json!({"lateness": {"body": "A", "at_most": "0s"}})),
        30_000,
    );
    let s = one(json!({"lateness": {"of": "max", "at_most": "1s"}}));
    failed_at(&s, 30_000);
    assert_eq!((s.seen.clone(), s.msg), (Seen::Duration(25_000), Some(2)));
    passed_at(
        &one(json!({"lateness": {"of": "p99", "equals": "25s"}})),
        40_000,
    );
    let s = one(json!({"lateness": {"of": "p50", "at_least": "1s"}}));
    failed_at(&s, 40_000);
    assert_eq!(s.seen, Seen::Duration(0), "rank 1 of 2: A's 0");
    failed_at(
        &one(json!({"lateness": {"body": "C", "at_most": "1s"}})),
        40_000,
    );
}

#[test]
fn depths_are_read_where_the_run_stops() {
    passed_at(
        &one(json!({"depth": {"queue": "wait", "of": "ready", "at": "10s", "equals": 2}})),
        10_000,
    );
    passed_at(
        &one(json!({"depth": {"queue": "wait", "of": "overdue", "at": "10s", "equals": 1}})),
        10_000,
    );
    passed_at(
        &one(json!({"depth": {"queue": "wait", "of": "overdue", "at": "4999ms", "equals": 0}})),
        4_999,
    );
    let s = one(json!({"depth": {"queue": "wait", "of": "ready", "equals": 2}}));
    failed_at(&s, 40_000);
    assert_eq!(s.seen, Seen::Count(0), "at the end");
}

#[test]
fn states_change_as_the_clock_moves() {
    let s = hol(json!([
        {"label": "B by 5 s", "delivered": {"body": "B", "by": "5s"}},
        {"label": "B at 30 s", "delivered": {"body": "B", "at": "30s"}},
        {"label": "one overdue at 10 s", "depth": {"queue": "wait", "of": "overdue", "at": "10s", "equals": 1}}
    ]));
    let mut sim = delaylab_engine::Sim::new(&s);
    let mut ev = Evaluator::new(&s.checks);
    let step = |sim: &mut delaylab_engine::Sim, ev: &mut Evaluator, to: u64| {
        while sim.advance(to) == Progress::More {}
        while let Some(e) = sim.poll_event() {
            ev.on_event(&e, sim);
        }
        ev.observe(&SimState::new(sim));
    };
    step(&mut sim, &mut ev, 0);
    assert!(ev.states().iter().all(CheckState::is_pending));
    assert_eq!(ev.next_stop_ms(), Some(10_000));
    step(&mut sim, &mut ev, 10_000);
    let st: Vec<Status> = ev.states().iter().map(|s| s.status).collect();
    assert_eq!(st, [Status::Failed, Status::Pending, Status::Passed]);
    assert_eq!(ev.next_stop_ms(), None);
    let r = ev.revision();
    step(&mut sim, &mut ev, 20_000);
    assert_eq!(ev.revision(), r, "nothing changed");
    step(&mut sim, &mut ev, 40_000);
    ev.finish(&SimState::new(&sim));
    passed_at(&ev.states()[1], 30_000);
}

#[test]
fn a_stop_passed_by_is_said_not_guessed() {
    let s = hol(
        json!([{"label": "x", "depth": {"queue": "wait", "of": "ready", "at": "10s", "equals": 2}}]),
    );
    let mut sim = delaylab_engine::Sim::new(&s);
    let mut ev = Evaluator::new(&s.checks);
    while sim.advance(40_000) == Progress::More {}
    while let Some(e) = sim.poll_event() {
        ev.on_event(&e, &sim);
    }
    ev.finish(&SimState::new(&sim));
    assert_eq!(ev.states()[0].status, Status::Undecided);
    assert_eq!(
        ev.states()[0].undecided,
        Some(Undecided::MissedStop { at_ms: 10_000 })
    );
}

#[test]
fn a_run_stopped_by_a_limit_leaves_pending_checks_undecided() {
    let s = hol(json!([
        {"label": "early", "delivered": {"body": "B", "by": "1s", "never": true}},
        {"label": "later", "dropped": {"never": true}}
    ]));
    let limits = Limits {
        max_events: 12,
        ..Limits::default()
    };
    let (sim, ev) = run(&s, limits, |_, _| {});
    assert!(sim.stopped().is_some());
    let stopped = ev.states()[1].clone();
    assert_eq!(stopped.status, Status::Undecided, "{stopped:?}");
    assert!(matches!(
        stopped.undecided,
        Some(Undecided::RunStopped { .. })
    ));
}

#[test]
fn order_lab_figures_are_the_tallys() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scenarios/orders-naive-closes-paid.json"
    ))
    .unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["checks"] = json!([
        {"label": "no paid order closed", "orders": {"of": "paid_closed", "equals": 0}},
        {"label": "40 created by 10 min", "orders": {"of": "created", "at": "10m", "equals": 40}},
        {"label": "closed late", "orders": {"of": "close_lateness_max", "at_most": "1s"}}
    ]);
    let s = load_value(&v).unwrap();
    let result = delaylab_engine::report::run(&s);
    let paid_closed = result["orders"]["paid_closed"].as_u64().unwrap();
    assert!(paid_closed > 0);
    let st = states(&s);
    // Read where the run ends, naming the first message that closed a paid order.
    failed_at(&st[0], 45 * 60_000);
    assert_eq!(st[0].seen, Seen::Count(paid_closed));
    assert!(
        st[0]
            .body
            .as_deref()
            .is_some_and(|b| b.starts_with("order-")),
        "{:?}",
        st[0]
    );
    passed_at(&st[1], 10 * 60_000);
    assert_eq!(st[2].status, Status::Passed, "{:?}", st[2]);
}

#[test]
fn stopping_for_checks_changes_no_event() {
    // The presets' events, run as `report::run_with` runs them and stopped at many times.
    for name in [
        "head-of-line-blocking",
        "plugin-node-restart",
        "orders-reminder-then-close",
    ] {
        let text = std::fs::read_to_string(format!(
            "{}/../../scenarios/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let mut s = load_str(&text).unwrap();
        let until = s.until_ms.unwrap();
        let queue = s.topology.queues[0].name.clone();
        s.checks = (1..40)
            .map(|k| Check {
                name: None,
                label: "x".into(),
                kind: CheckKind::Depth {
                    target: DepthTarget::Queue(queue.clone()),
                    measure: DepthMeasure::Overdue,
                    at_ms: Some(until * k / 40),
                    bound: Bound::Range {
                        at_least: Some(0),
                        at_most: None,
                    },
                },
                versions: Vec::new(),
                failure: false,
            })
            .collect();
        let mut plain = Vec::new();
        delaylab_engine::report::run_with(&s, Limits::default(), |e, sim| {
            plain.push(delaylab_engine::report::trace::event_json(e, sim).to_string())
        });
        let mut stopped = Vec::new();
        let (_, ev) = run(&s, Limits::default(), |e, sim| {
            stopped.push(delaylab_engine::report::trace::event_json(e, sim).to_string())
        });
        assert_eq!(plain, stopped, "{name}");
        assert!(
            ev.states().iter().all(|st| st.status == Status::Passed),
            "{name}"
        );
    }
}

#[test]
fn a_live_replay_decides_what_it_can_see_and_says_what_it_cannot() {
    let s = hol(json!([
        {"label": "B at 30 s", "delivered": {"body": "B", "within": ["29s", "31s"]}},
        {"label": "order", "order": {"bodies": ["A", "B"]}},
        {"label": "x-death", "delivered": {"body": "B", "headers": {"x-death": [{"reason": "expired"}]}}},
        {"label": "no error", "error": {"never": true}},
        {"label": "no drop", "dropped": {"never": true}},
        {"label": "late", "lateness": {"body": "B", "equals": "25s"}},
        {"label": "empty at the end", "depth": {"queue": "wait", "of": "ready", "equals": 0}},
        {"label": "overdue", "depth": {"queue": "wait", "of": "overdue", "at": "10s", "equals": 1}}
    ]));
    let replayed = json!({
        "deliveries": [
            {"body": "A", "queue": "due", "consumer": "c", "delivered_at_ms": 30_004, "headers": {"x-death": [{"reason": "expired", "count": 1}]}},
            {"body": "B", "queue": "due", "consumer": "c", "delivered_at_ms": 30_005, "headers": {"x-death": [{"reason": "expired", "count": 1}]}}
        ],
        "dropped": [], "returned": [], "errors": [],
        "final": {"queues": {"wait": {"ready": 0, "unacked": 0}, "due": {"ready": 0, "unacked": 0}}},
        "stats": {"end_ms": 40_000}
    });
    let ev = live::evaluate(&s.checks, &replayed);
    let st: Vec<Status> = ev.states().iter().map(|s| s.status).collect();
    use Status::*;
    assert_eq!(
        st,
        [Passed, Passed, Passed, Passed, Undecided, Undecided, Passed, Undecided]
    );
    assert!(ev.states()[4].undecided.as_ref().unwrap().is_live());
    let text = delaylab_engine::checks::text::outcome(&s.checks[4], &ev.states()[4]);
    assert!(text.contains("drops a message silently"), "{text}");
}

#[test]
fn checks_save_and_load_unchanged() {
    let s = hol(json!([
        {"name": "b", "label": "every field", "delivered": {"body": "B", "queue": "due", "consumer": "c",
            "headers": {"x-death": [{"count": 1}]}, "within": ["1s", "39s"]}},
        {"label": "2", "enqueued": {"body_matches": "*", "at": 1500}},
        {"label": "3", "dead_lettered": {"queue": "wait", "reason": "delivery_limit", "never": true}},
        {"label": "4", "dropped": {"reason": "plugin_removed", "by": "10s"}},
        {"label": "5", "returned": {"code": 312}},
        {"label": "6", "error": {"code": 406, "body": "A"}},
        {"label": "7", "count": {"of": "error", "code": 406, "at_least": 1, "at_most": 3}},
        {"label": "8", "order": {"bodies": ["A", "B"], "queue": "due"}},
        {"label": "9", "lateness": {"of": "p50", "body_matches": "*", "consumer": "c", "at_most": "1500ms"}},
        {"label": "10", "lateness": {"body": "A", "equals": 0}},
        {"label": "11", "depth": {"queue": "wait", "of": "unacked", "at": "3s", "equals": 0}}
    ]));
    let saved = save::to_value(&s);
    assert_eq!(saved["checks"][1]["enqueued"]["at"], json!("1500ms"));
    assert_eq!(saved["checks"][8]["lateness"]["at_most"], json!("1500ms"));
    assert_eq!(load_value(&saved).unwrap(), s);
    assert_eq!(load_str(&save::to_string_pretty(&s)).unwrap(), s);
    let keys: Vec<&String> = saved.as_object().unwrap().keys().collect();
    assert_eq!(
        keys.last().map(|k| k.as_str()),
        Some("checks"),
        "written last"
    );
}
