//! `--broker V` on run and compare: overrides the file, and a bad value exits 2 with one
//! line naming the option and the allowed values.

use std::process::Command;

use serde_json::Value;

fn root(p: &str) -> String {
    format!("{}/../../{p}", env!("CARGO_MANIFEST_DIR"))
}

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

#[test]
fn run_broker_overrides_the_file() {
    let poison = root("scenarios/poison-message-3-10-vs-4-0.json");
    let (code, out, err) = delaylab(&["run", &poison]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["broker"], "4.0");
    assert_eq!(
        v["final"]["queues"]["orders.parked"]["ready"], 0,
        "inspector took it"
    );
    let (code, out, err) = delaylab(&["run", &poison, "--broker", "3.10"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["broker"], "3.10");
    let parked = v["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["queue"] == "orders.parked")
        .count();
    assert_eq!(parked, 0, "3.10 loops: nothing is dead-lettered");
}

#[test]
fn bad_broker_exits_2_naming_the_option_and_the_versions() {
    let hol = root("scenarios/head-of-line-blocking.json");
    let (code, out, err) = delaylab(&["run", &hol, "--broker", "5.0"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(
        err.trim(),
        "--broker: unknown RabbitMQ version \"5.0\"; expected \"3.10\", \"3.13\", \"4.0\", \"4.1\", \"4.2\" or \"4.3\""
    );
    let w = root("scenarios/workloads/reminder-ladder.json");
    let (code, _, err) = delaylab(&["compare", &w, "--broker", "4"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("--broker: "), "{err}");
}

#[test]
fn a_bad_broker_field_names_its_json_path() {
    let dir = std::env::temp_dir().join(format!("delaylab-broker-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("s.json");
    std::fs::write(&f, r#"{"broker": "4.4"}"#).unwrap();
    let (code, _, err) = delaylab(&["run", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("broker: unknown RabbitMQ version \"4.4\""),
        "{err}"
    );
}

#[test]
fn compare_on_4_3_marks_the_plugin_not_applicable_and_shows_the_column() {
    let w = root("scenarios/workloads/reminder-ladder.json");
    let (code, out, err) = delaylab(&[
        "compare",
        &w,
        "--count",
        "200",
        "--strategies",
        "dlx-per-queue,plugin",
        "--broker",
        "4.3",
    ]);
    assert_eq!(code, 0, "{err}");
    let header = out.lines().find(|l| l.starts_with("strategy")).unwrap();
    assert!(header.contains("works on"), "{out}");
    let plugin = out.lines().find(|l| l.starts_with("plugin")).unwrap();
    assert!(
        plugin.contains("3.10-4.2") && plugin.contains("cannot run on RabbitMQ 4.3"),
        "{plugin}"
    );
    let (code, out, _) = delaylab(&[
        "compare",
        &w,
        "--count",
        "200",
        "--strategies",
        "plugin",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["strategies"][0]["works_on_4_3"], false);
    assert_eq!(
        v["strategies"][0]["works_on"],
        serde_json::json!(["3.10", "3.13", "4.0", "4.1", "4.2"])
    );
    assert!(
        v["strategies"][0].get("not_applicable").is_none(),
        "3.10 runs it"
    );
}
