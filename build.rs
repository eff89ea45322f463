//! Embeds every scenarios/*.json as a preset of the playground's gallery; links the
//! browser build with its relocations (for the splitter).
//!
//! Embedded are the presets a first screen offers (issue 29 item 10): the gallery's cards
//! it shows, the list's first files by name through `head-of-line-blocking`
//! ([`LAST_FIRST_SCREEN`]; a click on one loads it at once, without a round trip), and
//! the lanes compare mode loads at once ([`COMPARED`]). Every other preset is listed, not
//! embedded: the start-up wasm holds its gallery entry only (`FETCHED_PRESETS`: the fields
//! `PresetMeta::of_text` reads that its card shows, or the field section's start), and
//! the page fetches the file itself (`scenarios/ID.json`, index.html copies the folder)
//! when one is opened or compared (src/app/compare.rs fetches a lane's file first): the
//! cards below the list's fold, and the gallery's "From the field" (a `report`: a
//! reported failure or its fix), whose texts the field section alone reads
//! (`FIELD_TEXTS`). Embedded without its layout (`compact`).
use std::{env, fs, path::PathBuf};

/// The last file of the gallery's cards a first screen shows (the list is in file-name
/// order after the sandbox; at 1440x900 its first ten cards show, this one the tenth: the
/// card the load-time test clicks, tests/browser/firstload.test.mjs).
const LAST_FIRST_SCREEN: &str = "head-of-line-blocking.json";

/// The presets compare mode loads as lanes from a first screen's link (the watch panel's
/// "Compare it on RabbitMQ 4.2", `off_plugin::LANES`): embedded, so that they start at
/// once; `compare::SETS`' lanes are within the first screen's. (Fetching them too was
/// 1.3 KB less gzipped, for a round trip on that link.)
const COMPARED: [&str; 3] = [
    "off-plugin-1-plugin-4-2",
    "off-plugin-2-wait-queues-4-3",
    "off-plugin-3-delivery-time-4-4",
];

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
    let mut field_texts = String::from("/// (file stem, what users saw, the broker rule) of every reported failure, sorted by file name.\npub static FIELD_TEXTS: &[(&str, &str, &str)] = &[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let stem = f.file_stem().unwrap().to_string_lossy();
        let text = fs::read_to_string(f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy();
        if let Some((saw, rule)) = field_texts_of(&text) {
            field_texts.push_str(&format!("    ({stem:?}, {saw:?}, {rule:?}),\n"));
        }
        let embedded = *name <= *LAST_FIRST_SCREEN || COMPARED.contains(&&*stem);
        match gallery_entry(&text, embedded) {
            Some(entry) => fetched.push_str(&format!("    ({stem:?}, {entry:?}),\n")),
            None => out.push_str(&format!("    ({stem:?}, {:?}),\n", compact(&text))),
        }
    }
    out.push_str("];\n");
    fetched.push_str("];\n");
    field_texts.push_str("];\n");
    out.push_str(&fetched);
    out.push_str(&field_texts);
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

/// A fetched preset's gallery entry: its `name`, `until`, `broker`, `versions` and
/// `report` (less what users saw and the rule: [`field_texts_of`]), and a card's
/// `description` (a field preset has no card: the field section shows its report); what `PresetMeta::of_text` reads, less what shows once it is
/// loaded. None for a preset embedded whole: one a first screen offers (`embedded`), or a
/// text that is not a JSON object (the app's loader reports what is wrong with it).
fn gallery_entry(text: &str, embedded: bool) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let o = v.as_object()?;
    let field = o.contains_key("report");
    if embedded && !field {
        return None;
    }
    let keys: &[&str] = if field {
        &["name", "until", "broker", "versions", "report"]
    } else {
        &["name", "description", "until", "broker", "versions"]
    };
    let mut entry: serde_json::Map<String, serde_json::Value> = keys
        .iter()
        .filter_map(|k| Some((k.to_string(), o.get(*k)?.clone())))
        .collect();
    // What users saw and the rule are `FIELD_TEXTS`', which only the field section reads.
    if let Some(report) = entry.get_mut("report").and_then(|r| r.as_object_mut()) {
        report.remove("saw");
        report.remove("rule");
    }
    Some(serde_json::Value::Object(entry).to_string())
}

/// A reported failure's (what users saw, the broker rule), its `report`'s `saw` and
/// `rule`: the field section's texts (`FIELD_TEXTS`), out of the gallery entry that the
/// start-up wasm holds, so that they go with the section's chunk.
fn field_texts_of(text: &str) -> Option<(String, String)> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    let r = v.get("report")?;
    Some((
        r.get("saw")?.as_str()?.into(),
        r.get("rule")?.as_str()?.into(),
    ))
}
