//! `delaylab link` then `delaylab run <link>`: the same result as running the file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn delaylab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_delaylab"))
        .args(args)
        .output()
        .expect("run delaylab")
}

fn preset(name: &str) -> String {
    let p: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(name);
    p.to_string_lossy().into_owned()
}

/// `run`'s JSON without the wall-clock figure.
fn result(arg: &str) -> Value {
    let out = delaylab(&["run", arg]);
    assert!(
        out.status.success(),
        "run {arg}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut v: Value = serde_json::from_slice(&out.stdout).expect("run prints JSON");
    v["stats"].as_object_mut().expect("stats").remove("wall_ms");
    v
}

fn link(file: &str, base: Option<&str>) -> String {
    let mut args = vec!["link", file];
    if let Some(b) = base {
        args.extend(["--base", b]);
    }
    let out = delaylab(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "one line: {text:?}");
    text.trim_end().to_string()
}

#[test]
fn link_then_run_gives_the_same_result_as_the_file() {
    for name in [
        "head-of-line-blocking.json",
        "retry-loop-x-death.json",
        "plugin-node-restart.json",
    ] {
        let file = preset(name);
        let url = link(&file, None);
        assert!(url.starts_with("https://delaylab.example/#v1."), "{url}");
        assert!(url.len() <= 400, "{url}");
        let expected = result(&file);
        assert!(
            !expected["deliveries"].as_array().unwrap().is_empty(),
            "{name} delivers something"
        );
        assert_eq!(result(&url), expected, "{name}: the URL");
        let fragment = url.split_once('#').unwrap().1;
        assert_eq!(result(fragment), expected, "{name}: the bare fragment");
        assert_eq!(
            result(&format!("#{fragment}")),
            expected,
            "{name}: the fragment with #"
        );
    }
}

#[test]
fn base_is_used_and_its_own_fragment_dropped() {
    let url = link(
        &preset("head-of-line-blocking.json"),
        Some("http://127.0.0.1:8080/app/#old"),
    );
    assert!(url.starts_with("http://127.0.0.1:8080/app/#v1."), "{url}");
}

#[test]
fn a_bad_link_exits_2_with_one_clear_line() {
    let url = link(&preset("head-of-line-blocking.json"), None);
    for (bad, says) in [
        (url[..url.len() - 8].to_string(), "cut short"),
        (url.replacen("#v1.", "#v7.", 1), "version 7"),
        (
            "https://delaylab.example/".to_string(),
            "not a delaylab share link",
        ),
        (format!("{url}%"), "cannot be in a link"),
    ] {
        let out = delaylab(&["run", &bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("bad link: ") && err.contains(says),
            "{bad}: {err}"
        );
    }
}

#[test]
fn link_of_a_bad_file_exits_2() {
    let out = delaylab(&["link", "no-such-file.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-file.json"));
}
