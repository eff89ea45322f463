//! Every preset carries its lesson as checks (`checks`) and the versions it holds on
//! (`versions`), and the checks pass on each of those versions. `delaylab test
//! scenarios/*.json` (a step of scripts/test.sh) runs them all, the 200,000-order
//! presets included; here the small ones, so `cargo test` catches a broken lesson too.

use std::path::Path;

use delaylab_engine::checks::{run::run, text, Status};
use delaylab_engine::limits::Limits;
use delaylab_engine::scenario::load_str;

#[test]
fn every_preset_states_its_lesson_and_holds_on_its_versions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut failures = Vec::new();
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "json") {
            continue;
        }
        seen += 1;
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let s = load_str(&text).unwrap_or_else(|e| panic!("{stem}: {e}"));
        if s.checks.is_empty() {
            failures.push(format!("{stem}: no checks"));
        }
        if s.versions.is_empty() {
            failures.push(format!("{stem}: no versions"));
        }
        let keys: Vec<String> = serde_json::from_str::<serde_json::Value>(&text)
            .unwrap()
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        if keys.last().map(String::as_str) != Some("checks") {
            failures.push(format!("{stem}: checks is not the file's last field"));
        }
        if stem.contains("200k") {
            continue; // minutes in a debug build: the CI step runs them
        }
        for v in s.written_for() {
            let mut on = s.clone();
            on.broker = Some(v);
            let (_, ev) = run(&on, Limits::default(), |_, _| {});
            for (i, (c, st)) in ev.checks().iter().zip(ev.states()).enumerate() {
                // A check with versions of its own is expected on those only.
                if st.status != Status::Passed && s.check_applies(i, v) {
                    failures.push(format!(
                        "{stem} on {v}: {}: {}",
                        c.id(i),
                        text::outcome(c, st)
                    ));
                }
            }
        }
    }
    assert!(seen >= 20, "presets found: {seen}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
