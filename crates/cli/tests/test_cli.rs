//! `delaylab test`: one line per check, the exit status (0 all passed, 1 one failed, 2
//! bad input), each version a scenario is written for, and JUnit XML a CI can read
//! (parsed here by roxmltree, an XML reader of its own), TAP 13 and JSON.

use std::process::Command;

use serde_json::Value;

fn delaylab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_delaylab"))
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Head-of-line blocking in 40 s: A (TTL 30 s) and B (TTL 5 s) in one wait queue; B
/// is delivered with A at 30 s, 25 s late. `checks` is spliced in.
fn scenario(checks: &str, extra: &str) -> String {
    format!(
        r#"{{"version": 1, "name": "hol", "until": "40s"{extra},
 "topology": {{"exchanges": [{{"name": "dlx", "type": "fanout"}}],
   "queues": [{{"name": "wait", "arguments": {{"x-dead-letter-exchange": "dlx"}}}}, {{"name": "due"}}],
   "bindings": [{{"source": "dlx", "destination": "due", "routing_key": ""}}]}},
 "consumers": [{{"name": "c", "queue": "due", "ack": "auto"}}],
 "actions": [
   {{"at": 0, "publish": {{"routing_key": "wait", "body": "A", "properties": {{"expiration": "30000"}}}}}},
   {{"at": 0, "publish": {{"routing_key": "wait", "body": "B", "properties": {{"expiration": "5000"}}}}}}],
 "checks": {checks}}}"#
    )
}

const GOOD: &str = r#"[
  {"name": "b-late", "label": "B is delivered with A, at 30 s", "delivered": {"body": "B", "at": "30s"}},
  {"label": "B waits 25 s behind A", "lateness": {"body": "B", "equals": "25s"}},
  {"label": "one overdue message at 10 s", "depth": {"queue": "wait", "of": "overdue", "at": "10s", "equals": 1}}
]"#;

/// A check that does not hold: B is not delivered by 6 s.
const BROKEN: &str = r#"[
  {"name": "b-late", "label": "B is delivered with A, at 30 s", "delivered": {"body": "B", "at": "30s"}},
  {"name": "b-on-time", "label": "B is delivered by 0:06 <on time> & early", "delivered": {"body": "B", "by": "6s"}}
]"#;

fn file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("delaylab-test-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn passing_checks_exit_0_on_every_version_named() {
    let f = file(
        "good.json",
        &scenario(GOOD, r#", "versions": ["3.10", "4.3"]"#),
    );
    let (code, out, err) = delaylab(&["test", &f]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(" on RabbitMQ 3.10: hol"), "{out}");
    assert!(out.contains(" on RabbitMQ 4.3: hol"), "{out}");
    assert!(
        out.contains("  pass  b-late: B is delivered with A, at 30 s: passed at 0:00:30.000"),
        "{out}"
    );
    assert!(
        out.ends_with("2 run(s), 6 check(s): 6 passed, 0 failed, 0 skipped\n"),
        "{out}"
    );
    // --broker chooses instead.
    let (code, out, _) = delaylab(&["test", &f, "--broker", "4.0"]);
    assert_eq!(code, 0);
    assert!(
        out.contains(" on RabbitMQ 4.0: hol") && !out.contains("3.10"),
        "{out}"
    );
}

#[test]
fn a_broken_check_fails_with_a_clear_line() {
    let f = file("broken.json", &scenario(BROKEN, ""));
    let (code, out, err) = delaylab(&["test", &f]);
    assert_eq!(code, 1, "{out}{err}");
    let line = out
        .lines()
        .find(|l| l.contains("b-on-time"))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(
        line,
        "  FAIL  b-on-time: B is delivered by 0:06 <on time> & early: failed at 0:00:06.000: \
         saw B delivered at 0:00:30.000; expected B delivered by 0:00:06.000 (message #2, B)"
    );
    assert!(out.contains("1 run(s), 2 check(s): 1 passed, 1 failed, 0 skipped"));
}

#[test]
fn bad_input_exits_2_naming_the_problem() {
    let f = file(
        "bad.json",
        &scenario(r#"[{"label": "x", "delivered": {"queue": "nope"}}]"#, ""),
    );
    let (code, out, err) = delaylab(&["test", &f]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "nothing runs: {out}");
    assert!(
        err.contains("checks[0].delivered.queue: the scenario has no queue \"nope\""),
        "{err}"
    );
    let good = file("good2.json", &scenario(GOOD, ""));
    let (code, _, err) = delaylab(&["test", &good, "--broker", "9.9"]);
    assert_eq!(code, 2);
    assert!(err.contains("--broker: unknown RabbitMQ version"), "{err}");
    let (code, _, err) = delaylab(&[
        "test", &good, "--amqp", "amqp://x", "--broker", "3.10", "--broker", "4.3",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("at most one --broker"), "{err}");
    let (code, _, _) = delaylab(&["test", "/nonexistent.json"]);
    assert_eq!(code, 2);
}

#[test]
fn junit_is_valid_xml_with_a_test_case_per_check() {
    let good = file(
        "j-good.json",
        &scenario(GOOD, r#", "versions": ["3.10", "4.3"]"#),
    );
    let broken = file("j-broken.json", &scenario(BROKEN, ""));
    let (code, out, err) = delaylab(&["test", &good, &broken, "--format", "junit"]);
    assert_eq!(code, 1, "{err}");
    let doc = roxmltree::Document::parse(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(root.attribute("tests"), Some("8"));
    assert_eq!(root.attribute("failures"), Some("1"));
    let suites: Vec<_> = root
        .children()
        .filter(|n| n.has_tag_name("testsuite"))
        .collect();
    assert_eq!(suites.len(), 3, "one per scenario and version");
    assert!(suites[1]
        .attribute("name")
        .unwrap()
        .contains("on RabbitMQ 4.3"));
    let cases: Vec<_> = suites[2]
        .children()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0].attribute("classname"), Some("j-broken@3.10"));
    assert!(
        cases[0].children().all(|n| !n.is_element()),
        "passed: no child"
    );
    assert_eq!(
        cases[1].attribute("name"),
        Some("b-on-time: B is delivered by 0:06 <on time> & early")
    );
    let failure = cases[1]
        .children()
        .find(|n| n.has_tag_name("failure"))
        .expect("a failure");
    assert!(failure
        .attribute("message")
        .unwrap()
        .starts_with("failed at 0:00:06.000: saw B delivered at 0:00:30.000"));
    assert!(failure
        .text()
        .unwrap()
        .contains("expected: B delivered by 0:00:06.000"));
}

#[test]
fn tap_13_and_json() {
    let broken = file("t-broken.json", &scenario(BROKEN, ""));
    let (code, out, _) = delaylab(&["test", &broken, "--format", "tap"]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "TAP version 13");
    assert_eq!(lines[1], "1..2");
    assert!(lines.contains(&"ok 1 - t-broken@3.10 b-late: B is delivered with A, at 30 s"));
    assert!(lines
        .contains(&"not ok 2 - t-broken@3.10 b-on-time: B is delivered by 0:06 <on time> & early"));
    assert!(lines.contains(&"  at_ms: 6000"), "{out}");
    let (_, out, _) = delaylab(&["test", &broken, "--format", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["passed"].as_u64(), v["failed"].as_u64()),
        (Some(1), Some(1))
    );
    let c = &v["runs"][0]["checks"][1];
    assert_eq!(c["status"], "failed");
    assert_eq!(c["at_ms"], 6000);
    assert_eq!(c["seen"], serde_json::json!({"kind": "at", "ms": 30000}));
    assert_eq!(c["msg"], 2);
}

/// A poison message in a quorum queue, its consumer nacking with requeue every second:
/// on 4.0 the default delivery limit (20) drops it at its 21st return; on 4.3 a nack is
/// not counted, so it loops to the end. Each check states one version's outcome.
fn poison(versions: &str) -> String {
    format!(
        r#"{{"version": 1, "name": "poison", "broker": "4.0", "versions": {versions}, "until": "40s",
 "topology": {{"queues": [{{"name": "work", "arguments": {{"x-queue-type": "quorum"}}}}]}},
 "consumers": [{{"name": "w", "queue": "work", "ack": "manual", "handle": "1s", "outcome": "requeue"}}],
 "actions": [{{"at": 0, "publish": {{"routing_key": "work", "body": "P"}}}}],
 "checks": [
  {{"name": "dropped-4-0", "label": "Dropped at its 21st return", "versions": ["4.0"], "failure": true,
    "dropped": {{"body": "P", "reason": "delivery_limit"}}}},
  {{"name": "loops-4-3", "label": "Never dropped: a nack is not counted", "versions": ["4.3"],
    "dropped": {{"body": "P", "never": true}}}},
  {{"name": "first", "label": "Delivered at 0:00", "delivered": {{"body": "P", "at": 0}}}}]}}"#
    )
}

#[test]
fn a_check_not_expected_on_a_version_is_shown_but_never_fails() {
    let f = file("poison.json", &poison(r#"["4.0", "4.3"]"#));
    let (code, out, err) = delaylab(&["test", &f]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("  pass  dropped-4-0: Dropped at its 21st return: the failure, reproduced: passed at 0:00:21.000"),
        "{out}"
    );
    assert!(
        out.contains("  n/a   loops-4-3: Never dropped: a nack is not counted: not expected on 4.0 (expected on 4.3): failed at 0:00:21.000"),
        "{out}"
    );
    assert!(
        out.contains("  n/a   dropped-4-0: Dropped at its 21st return: not expected on 4.3 (expected on 4.0): "),
        "{out}"
    );
    assert!(out.contains("  pass  loops-4-3: "), "{out}");
    assert!(
        out.ends_with("2 run(s), 6 check(s): 4 passed, 0 failed, 2 skipped (2 not expected on the version run)\n"),
        "{out}"
    );
    let (_, out, _) = delaylab(&["test", &f, "--format", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["not_expected"], 2);
    let on_4_3 = &v["runs"][1]["checks"];
    assert_eq!(on_4_3[0]["expected_here"], false);
    assert_eq!(on_4_3[0]["failure"], true);
    assert_eq!(on_4_3[0]["versions"], serde_json::json!(["4.0"]));
    assert!(on_4_3[1].get("expected_here").is_none(), "expected here");
    let (_, out, _) = delaylab(&["test", &f, "--format", "junit"]);
    assert!(out.contains("skipped=\"2\""), "{out}");
}

#[test]
fn a_check_versions_must_be_among_the_scenarios() {
    let f = file("poison-bad.json", &poison(r#"["4.0"]"#));
    let (code, _, err) = delaylab(&["test", &f]);
    assert_eq!(code, 2);
    assert!(
        err.contains("checks[1].versions[0]: \"4.3\" is not one of the versions the scenario is written for (\"4.0\")"),
        "{err}"
    );
}
