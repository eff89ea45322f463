//! `delaylab compare`: the JSON shape the issue names, the strategy selection, and the
//! one-line errors with exit status 2.

use std::process::Command;

use serde_json::Value;

fn workload(name: &str) -> String {
    format!(
        "{}/../../scenarios/workloads/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn compare(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_delaylab"))
        .arg("compare")
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
fn json_has_one_entry_per_strategy_with_the_named_fields() {
    let path = workload("reminder-ladder.json");
    let (code, out, err) = compare(&[&path, "--format", "json", "--count", "300"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).expect("json");
    let list = doc["strategies"].as_array().expect("strategies list");
    let names: Vec<&str> = list.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, delaylab_engine::strategies::NAMES.to_vec());
    for s in list {
        for key in ["mean", "p99", "max"] {
            assert!(
                s["lateness_ms"][key].is_number(),
                "{}: lateness_ms.{key}",
                s["name"]
            );
        }
        for key in ["lost", "rows_scanned", "broker_objects", "peak_stored"] {
            assert!(s[key].is_u64(), "{}: {key}", s["name"]);
        }
        assert!(s["work_per_task"].is_number());
    }
    assert_eq!(doc["workload"]["tasks"], 300);
    let wheel = list.iter().find(|s| s["name"] == "timing-wheel").unwrap();
    assert!(
        wheel["lost"].as_u64().unwrap() > 0,
        "the restart costs the wheel its tasks"
    );
}

#[test]
fn strategies_can_be_selected_and_text_is_a_table() {
    let path = workload("reminder-ladder.json");
    let (code, out, _) = compare(&[
        &path,
        "--strategies",
        "plugin,polling-scan",
        "--count",
        "50",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[1].starts_with("strategy") && lines[1].contains("p99"));
    assert!(lines[2].starts_with("plugin ") && lines[3].starts_with("polling-scan "));
    assert_eq!(lines.len(), 4);
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    let path = workload("reminder-ladder.json");
    let (code, _, err) = compare(&[&path, "--strategies", "cron"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown strategy \"cron\""), "{err}");
    let bad = std::env::temp_dir().join("delaylab-compare-bad.json");
    std::fs::write(
        &bad,
        r#"{"workload": {"count": 10, "delays": [{"delay": "soon"}]}}"#,
    )
    .unwrap();
    let (code, _, err) = compare(&[bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("workload.delays[0].delay: invalid duration \"soon\""),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1);
}
