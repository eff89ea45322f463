//! Embeds every scenarios/*.json as a preset of the playground's gallery; links the
//! browser build with its relocations (for the splitter).
//!
//! A preset with a `report` (the gallery's "From the field": a reported failure or its
//! fix) is listed, not embedded (issue 29 item 10): the start-up wasm holds its gallery
//! entry only (`FETCHED_PRESETS`: the fields `PresetMeta::of_text` reads that the field
//! section shows), and the page fetches the file itself (`scenarios/ID.json`, index.html
//! copies the folder) when one is opened. The gallery's own presets stay embedded: a
//! click on one loads it at once, without a round trip. Embedded without its layout
//! (`compact`).
use std::{env, fs, path::PathBuf};

fn main() {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let dir = root.join("scenarios");
    println!("cargo:rerun-if-changed=scenarios");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut out = String::from("/// (file stem, scenario JSON) of every embedded preset, sorted by file name.\npub static PRESETS: &[(&str, &str)] = &[\n");
    let mut fetched = String::from("/// (file stem, gallery entry as JSON) of every preset fetched when opened, sorted by file name.\npub static FETCHED_PRESETS: &[(&str, &str)] = &[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let stem = f.file_stem().unwrap().to_string_lossy();
        let text = fs::read_to_string(f).unwrap();
        match field_entry(&text) {
            Some(entry) => fetched.push_str(&format!("    ({stem:?}, {entry:?}),\n")),
            None => out.push_str(&format!("    ({stem:?}, {:?}),\n", compact(&text))),
        }
    }
    out.push_str("];\n");
    fetched.push_str("];\n");
    out.push_str(&fetched);
    fs::write(
        PathBuf::from(env::var("OUT_DIR").unwrap()).join("presets.rs"),
        out,
    )
    .unwrap();
    // The browser build is split into a start-up module and chunks loaded when needed
    // (scripts/build-app.sh, wasm_split_cli_support): the splitter reads the linker's
    // relocations to move code and data between modules.
    if env::var("TARGET").is_ok_and(|t| t == "wasm32-unknown-unknown") {
        println!("cargo:rustc-link-arg-bins=--emit-relocs");
    }
}

/// A preset's JSON without its layout (the same values, keys in the same order: serde_json
/// keeps both), 20% fewer bytes in the start-up module (2.5 KB gzipped over all presets);
/// a text that is not JSON as it is (the app's loader says what is wrong with it).
fn compact(text: &str) -> String {
    serde_json::from_str::<serde_json::Value>(text)
        .map_or_else(|_| text.to_string(), |v| v.to_string())
}

/// A field preset's gallery entry: its `name`, `until`, `broker`, `versions` and `report`
/// (what `PresetMeta::of_text` reads, less the description and what to watch, which show
/// once it is loaded); None for a preset without a `report` (or not an object: the app's
/// loader reports what is wrong with it).
fn field_entry(text: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let o = v.as_object()?;
    o.get("report")?;
    let entry: serde_json::Map<String, serde_json::Value> =
        ["name", "until", "broker", "versions", "report"]
            .iter()
            .filter_map(|k| Some((k.to_string(), o.get(*k)?.clone())))
            .collect();
    Some(serde_json::Value::Object(entry).to_string())
}
