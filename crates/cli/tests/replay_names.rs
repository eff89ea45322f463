//! `delaylab replay` says where its unique-prefix renaming could route differently from
//! the simulation (a topic pattern matching a queue whose name is itself a pattern),
//! before it connects; a scenario whose keys name queues on direct, default and topic
//! exchanges (`#.vip` against the key `vip`) has nothing to say. No broker is needed: the URL points at a closed port, so the replay stops
//! with a connection error after the warnings.

use std::process::Command;

fn root(p: &str) -> String {
    format!("{}/../../{p}", env!("CARGO_MANIFEST_DIR"))
}

/// A port nobody listens on (tcpmux, privileged and unused here).
const CLOSED: &str = "amqp://guest:guest@127.0.0.1:1/%2F";

fn replay(path: &str) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_delaylab"))
        .args(["replay", path, "--amqp", CLOSED])
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn warns_about_topic_patterns_that_renaming_changes() {
    let dir = std::env::temp_dir().join(format!("delaylab-replay-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("topic.json");
    std::fs::write(
        &path,
        r##"{"version": 1, "name": "t", "until": "100ms", "topology": {
            "exchanges": [{"name": "t", "type": "topic"}],
            "queues": [{"name": "work"}, {"name": "a.*"}],
            "bindings": [{"source": "t", "destination": "work", "routing_key": "a.#"},
                         {"source": "t", "destination": "work", "routing_key": "#.work"}]}}"##,
    )
    .unwrap();
    let (code, err) = replay(path.to_str().unwrap());
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 1, "{err}");
    let warnings: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("replay: warning:"))
        .collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(
        warnings[0].contains("topology.bindings[0]: topic pattern 'a.#' on 't'")
            && warnings[0].contains("'a.*'"),
        "{err}"
    );
    assert!(err.contains("cannot connect"), "{err}");
}

#[test]
fn queue_name_keys_need_no_warning() {
    for case in [
        "tests/conformance/x05-queue-name-keys.json",
        "tests/conformance/x03-topic-headers-e2e-routing.json",
    ] {
        let (code, err) = replay(&root(case));
        assert_eq!(code, 1, "{case}: {err}");
        assert!(!err.contains("warning"), "{case}: {err}");
        assert!(err.contains("cannot connect"), "{case}: {err}");
    }
}
