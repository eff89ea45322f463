//! Lists every scenarios/*.json as a preset of the playground's gallery; links the
//! browser build with its relocations (for the splitter).
//!
//! A preset is listed, not embedded (issue 29 item 10): the start-up wasm holds its
//! gallery entry only (`PRESETS`: the fields `PresetMeta::of_text` reads that the gallery
//! shows), and the page fetches the file itself (`scenarios/ID.json`, index.html copies
//! the folder): the gallery's own presets once the page is first idle (src/app/
//! preset_fetch.rs: a click then loads one at once, as when they were embedded), any
//! preset when it is opened before that, a field preset ("From the field": a `report`)
//! only when opened. The sandbox, loaded at start, is the app's own (src/app/sandbox.json).
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
    let mut out = String::from("/// (file stem, gallery entry as JSON) of every preset, fetched when opened, sorted by file name.\npub static PRESETS: &[(&str, &str)] = &[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let stem = f.file_stem().unwrap().to_string_lossy();
        let text = fs::read_to_string(f).unwrap();
        // A file that is not a JSON object as it is (the app's loader says what is wrong).
        let entry = gallery_entry(&text).unwrap_or(text);
        out.push_str(&format!("    ({stem:?}, {entry:?}),\n"));
    }
    out.push_str("];\n");
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

/// A preset's gallery entry: its `name`, `until`, `broker`, `versions` and, for a field
/// preset, its `report`, else its `description` (what `PresetMeta::of_text` reads that the
/// gallery shows; what to watch shows once it is loaded); None for a file that is not a
/// JSON object.
fn gallery_entry(text: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let o = v.as_object()?;
    let shown = if o.contains_key("report") {
        "report"
    } else {
        "description"
    };
    let entry: serde_json::Map<String, serde_json::Value> =
        ["name", shown, "until", "broker", "versions"]
            .iter()
            .filter_map(|k| Some((k.to_string(), o.get(*k)?.clone())))
            .collect();
    Some(serde_json::Value::Object(entry).to_string())
}
