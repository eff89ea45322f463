//! The package's session logic, natively: what the browser test checks against the
//! `delaylab` binary (every preset), checked here against the engine's own report on
//! the small presets, plus the command and refusal paths. Native only: it reads
//! `scenarios/` from disk.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;

use delaylab_engine::report::{self, golden};
use delaylab_engine::scenario::load_str;
use delaylab_engine_js::command;
use delaylab_engine_js::session::{Session, MAX_PENDING_EVENTS};
use serde_json::{json, Value};

fn scenarios_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios")
}

fn preset(stem: &str) -> String {
    std::fs::read_to_string(scenarios_dir().join(format!("{stem}.json"))).expect("preset")
}

/// The result without the one figure that is not the simulation's (wall time).
fn without_wall(mut v: Value) -> Value {
    v["stats"].as_object_mut().expect("stats").remove("wall_ms");
    v
}

/// Presets small enough for a debug build (the 200,000-order one runs in the browser test).
fn small_presets() -> Vec<String> {
    let mut stems: Vec<String> = std::fs::read_dir(scenarios_dir())
        .expect("scenarios/")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".json").map(str::to_string)
        })
        .filter(|s| s != "promotion-burst-200k")
        .collect();
    stems.sort();
    stems
}

/// What `delaylab run --format json` records: the report's result with publisher nacks.
fn cli_result(scenario: &delaylab_engine::scenario::Scenario) -> Value {
    let mut rec = report::Recorder::default();
    rec.with_confirms = true;
    let limits = delaylab_engine::limits::Limits::default();
    let sim = report::run_checked(scenario, limits, |e, sim| {
        rec.on_event(e, sim);
        rec.over_budget(&limits)
    });
    rec.finish(scenario, &sim)
}

#[test]
fn every_small_preset_run_to_end_gives_the_reports_result() {
    let stems = small_presets();
    assert!(stems.len() >= 20, "presets found: {stems:?}");
    for stem in stems {
        let text = preset(&stem);
        let mut s = Session::load(&text, false).expect("a preset loads");
        s.run_to_end();
        let native = cli_result(&load_str(&text).expect("loads"));
        assert_eq!(
            without_wall(s.result(0.0)),
            without_wall(native),
            "{stem}: the package's result differs from `delaylab run`'s"
        );
    }
}

#[test]
fn stepping_in_slices_gives_the_same_result_as_one_run() {
    let text = preset("head-of-line-blocking");
    let mut whole = Session::load(&text, false).expect("loads");
    whole.run_to_end();
    let mut stepped = Session::load(&text, false).expect("loads");
    for minute in 0..=40 {
        stepped.advance_to(minute * 60_000);
    }
    assert_eq!(stepped.now_ms(), 2_400_000);
    assert_eq!(
        without_wall(stepped.result(0.0)),
        without_wall(whole.result(0.0))
    );
}

#[test]
fn drained_events_are_the_golden_trace_lines() {
    let text = preset("head-of-line-blocking");
    let mut s = Session::load(&text, true).expect("loads");
    let mut lines = Vec::new();
    for t in [0, 360_000, 1_800_000, 2_400_000] {
        s.advance_to(t);
        let batch: Vec<Value> = serde_json::from_str(&s.drain_events_json()).expect("json");
        lines.extend(batch.iter().map(Value::to_string));
    }
    let (golden_trace, count) = golden::trace_golden(&load_str(&text).expect("loads"));
    assert_eq!(lines.len() as u64, count);
    assert_eq!(lines.join("\n") + "\n", golden_trace);
    assert_eq!(s.drain_events_json(), "[]", "drained twice");
}

#[test]
fn a_session_without_trace_keeps_no_events() {
    let mut s = Session::load(&preset("head-of-line-blocking"), false).expect("loads");
    s.run_to_end();
    assert_eq!(s.drain_events_json(), "[]");
    assert_eq!(s.dropped_events(), 0);
}

#[test]
fn undrained_events_stop_at_the_cap_and_are_counted() {
    let text = preset("promotion-burst-200k");
    let mut s = Session::load(&text, true).expect("loads");
    s.advance_to(1_000); // the first second publishes ~333 orders: well under the cap
    let first: Vec<Value> = serde_json::from_str(&s.drain_events_json()).expect("json");
    assert!(!first.is_empty() && first.len() < MAX_PENDING_EVENTS);
    assert_eq!(s.dropped_events(), 0);
    s.advance_to(600_000); // every publish: far more events than the cap
    let kept: Vec<Value> = serde_json::from_str(&s.drain_events_json()).expect("json");
    assert_eq!(kept.len(), MAX_PENDING_EVENTS);
    assert!(s.dropped_events() > 0);
}

#[test]
fn a_bad_scenario_names_the_json_path() {
    let bad = json!({"topology": {"queues": [{"name": 7}]}}).to_string();
    let e = Session::load(&bad, true).err().expect("refused");
    assert_eq!(e.path, "topology.queues[0].name");
    assert!(
        e.to_string().starts_with("topology.queues[0].name: "),
        "{e}"
    );
}

fn handle(s: &mut Session, cmd: Value) -> Result<(), delaylab_engine_js::session::Refusal> {
    s.handle(command::parse(&cmd).expect("a well-formed command"))
}

#[test]
fn refusals_carry_rabbitmqs_code_and_text() {
    let mut s = Session::load(&preset("head-of-line-blocking"), true).expect("loads");
    s.advance_to(60_000);
    let r = handle(
        &mut s,
        json!({"publish": {"exchange": "order.delay.exchange", "routing_key": "order.create",
                           "body": "C", "properties": {"expiration": "abc"}}}),
    )
    .expect_err("a bad expiration is refused");
    assert_eq!(r.code, 406);
    assert_eq!(
        r.text,
        "PRECONDITION_FAILED - invalid expiration 'abc': no_integer"
    );
    assert_eq!(r.entry["at_ms"], 60_000);

    let r = handle(
        &mut s,
        json!({"publish": {"exchange": "no.such.exchange", "routing_key": "k", "body": "D"}}),
    )
    .expect_err("an unknown exchange is refused");
    assert_eq!(r.code, 404, "{}", r.text);

    let r = handle(
        &mut s,
        json!({"add_consumer": {"name": "late", "queue": "no.such.queue", "ack": "auto"}}),
    )
    .expect_err("a consumer on a missing queue is refused");
    assert_eq!(r.code, 404);
    assert!(r.text.contains("no.such.queue"), "{}", r.text);
}

#[test]
fn commands_act_as_the_playground_does() {
    let mut s = Session::load(&preset("head-of-line-blocking"), false).expect("loads");
    s.advance_to(120_000);
    // A third order through the wait queue, and a second closer that auto-acks.
    handle(
        &mut s,
        json!({"publish": {"exchange": "order.delay.exchange", "routing_key": "order.create",
                           "body": "C", "properties": {"expiration": "60000"}}}),
    )
    .expect("accepted");
    handle(&mut s, json!({"stop_consumer": "closer"})).expect("stopped");
    let snap = s.snapshot();
    let q = snap.queue("order.delay.queue").expect("queue");
    assert_eq!(q.ready, 3);
    assert!(snap
        .consumers
        .iter()
        .any(|c| c.name == "closer" && c.stopped));
    handle(
        &mut s,
        json!({"add_consumer": {"name": "closer-2", "queue": "order.dlx.queue", "ack": "auto"}}),
    )
    .expect("added");
    s.run_to_end();
    let result = s.result(0.0);
    let bodies: Vec<(&str, &str)> = result["deliveries"]
        .as_array()
        .expect("deliveries")
        .iter()
        .map(|d| (d["body"].as_str().unwrap(), d["consumer"].as_str().unwrap()))
        .collect();
    // Head-of-line: C (1 min, published at 2:00) waits behind A (30 min) like B.
    assert_eq!(
        bodies,
        [("A", "closer-2"), ("B", "closer-2"), ("C", "closer-2")]
    );
}

#[test]
fn the_snapshot_shows_b_overdue_behind_a_at_six_minutes() {
    let mut s = Session::load(&preset("head-of-line-blocking"), false).expect("loads");
    s.advance_to(360_000);
    let snap = delaylab_engine_js::snapshot_json::to_json(&s.snapshot());
    assert_eq!(snap["now_ms"], 360_000);
    let q = snap["queues"]
        .as_array()
        .expect("queues")
        .iter()
        .find(|q| q["name"] == "order.delay.queue")
        .expect("the wait queue");
    assert_eq!(q["ready"], 2);
    assert_eq!(q["overdue"], 1);
    let head = q["head"].as_array().expect("head");
    assert_eq!(head[0]["body"], "A");
    assert_eq!(head[0]["remaining_ms"], 1_800_000 - 360_000);
    assert_eq!(head[1]["body"], "B");
    assert_eq!(
        head[1]["overdue_ms"], 0,
        "B's 5 minutes ended at 6:00 exactly"
    );
    assert_eq!(snap["consumers"][0]["name"], "closer");
}

/// A scenario's checks, as the package reports them after a run and while it goes on:
/// the same states as `delaylab test` (`checks::run`), a depth read at its own time
/// although the page jumps past it.
#[test]
fn checks_are_reported_as_delaylab_test_reports_them() {
    let text = r#"{"version": 1, "name": "hol", "until": "40s",
      "topology": {"exchanges": [{"name": "dlx", "type": "fanout"}],
        "queues": [{"name": "wait", "arguments": {"x-dead-letter-exchange": "dlx"}}, {"name": "due"}],
        "bindings": [{"source": "dlx", "destination": "due", "routing_key": ""}]},
      "consumers": [{"name": "c", "queue": "due", "ack": "auto"}],
      "actions": [
        {"at": 0, "publish": {"routing_key": "wait", "body": "A", "properties": {"expiration": "30000"}}},
        {"at": 0, "publish": {"routing_key": "wait", "body": "B", "properties": {"expiration": "5000"}}}],
      "checks": [
        {"name": "b-on-time", "label": "B by 6 s", "delivered": {"body": "B", "by": "6s"}},
        {"label": "one overdue at 10 s", "depth": {"queue": "wait", "of": "overdue", "at": "10s", "equals": 1}},
        {"label": "B 25 s late", "lateness": {"body": "B", "equals": "25s"}}]}"#;
    let mut s = Session::load(text, false).unwrap();
    let status = |s: &Session| -> Vec<String> {
        s.checks_json()
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["status"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(status(&s), ["pending", "pending", "pending"]);
    s.advance_to(20_000); // past 10 s in one jump: the depth is read at 10 s all the same
    assert_eq!(status(&s), ["failed", "passed", "pending"]);
    let c = &s.checks_json()[1];
    assert_eq!(
        (c["at_ms"].clone(), c["seen"].clone()),
        (json!(10_000), json!({"kind": "count", "value": 1}))
    );
    s.run_to_end();
    assert_eq!(status(&s), ["failed", "passed", "passed"]);
    let (_, ev) = delaylab_engine::checks::run::run(
        &load_str(text).unwrap(),
        delaylab_engine::limits::Limits::default(),
        |_, _| {},
    );
    let cli = delaylab_engine::checks::json::states_json(ev.checks(), ev.states());
    assert_eq!(s.checks_json(), cli);
    assert_eq!(s.checks_json()[0]["msg"], json!(2));
}
