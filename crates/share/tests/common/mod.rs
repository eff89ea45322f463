//! Shared by the share tests: the preset files and a canonical run result.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use delaylab_engine::scenario::{load_str, Scenario};
use serde_json::Value;

pub const BASE: &str = "https://delaylab.example/";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// (id, scenario) of the sandbox and every preset in scenarios/, sorted by id.
pub fn presets() -> Vec<(String, Scenario)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("scenarios"))
        .expect("scenarios/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files.insert(0, root().join("src/app/sandbox.json"));
    files
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).expect("read preset");
            let s = load_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p.file_stem().unwrap().to_string_lossy().into_owned(), s)
        })
        .collect()
}

pub fn preset(id: &str) -> Scenario {
    presets()
        .into_iter()
        .find(|(k, _)| k == id)
        .unwrap_or_else(|| panic!("no preset {id}"))
        .1
}

/// The run result, without the wall-clock figure (the only part that varies).
pub fn result(s: &Scenario) -> Value {
    let mut v = delaylab_engine::report::run(s);
    if let Some(stats) = v.get_mut("stats").and_then(|x| x.as_object_mut()) {
        stats.remove("wall_ms");
    }
    v
}
