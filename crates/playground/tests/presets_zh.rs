//! Every preset of the gallery has Simplified Chinese texts (`delaylab_playground::presets_zh`), and
//! they keep RabbitMQ's and the topology's names untranslated.

use delaylab_playground::presets_zh;

use std::fs;

/// (id, name, description, watch) of the sandbox and every scenarios/*.json.
fn presets() -> Vec<(String, String, String, String)> {
    // The workspace root: the presets and the sandbox are the app's files.
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut files: Vec<_> = fs::read_dir(format!("{root}/scenarios"))
        .expect("scenarios/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = vec![];
    let sandbox = std::path::PathBuf::from(format!("{root}/src/app/sandbox.json"));
    for p in std::iter::once(sandbox).chain(files) {
        let id = if p.ends_with("src/app/sandbox.json") {
            "sandbox".to_string()
        } else {
            p.file_stem().unwrap().to_string_lossy().into_owned()
        };
        let v: serde_json::Value = serde_json::from_str(&fs::read_to_string(&p).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
        out.push((id, s("name"), s("description"), s("watch")));
    }
    out
}

#[test]
fn every_preset_has_chinese_texts() {
    let missing: Vec<String> = presets()
        .into_iter()
        .filter(|p| presets_zh::texts(&p.0).is_none())
        .map(|p| p.0)
        .collect();
    assert!(
        missing.is_empty(),
        "presets without Chinese texts in src/app/presets_zh.rs: {missing:?}"
    );
}

/// Dotted names (order.delay.queue, x-death is not dotted) of a text.
fn dotted(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_'))
        .map(|t| t.trim_end_matches('.'))
        .filter(|t| t.starts_with(|c: char| c.is_ascii_alphabetic()) && t.contains('.'))
        .collect()
}

#[test]
fn chinese_texts_keep_the_names_and_are_chinese() {
    for (id, _, desc, watch) in presets() {
        let Some((zn, zd, zw)) = presets_zh::texts(&id) else {
            continue;
        };
        for (en, zh) in [(&desc, zd), (&watch, zw)] {
            for name in dotted(en) {
                assert!(
                    zh.contains(name),
                    "{id}: '{name}' is in the English text but not the Chinese one"
                );
            }
        }
        for t in [zn, zd, zw] {
            assert!(
                t.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{id}: not Chinese: {t}"
            );
        }
    }
}

#[test]
fn english_is_the_fallback() {
    let en = ("N".to_string(), "D".to_string(), "W".to_string());
    assert_eq!(presets_zh::pick(true, "no-such-preset", en.clone()), en);
    assert_eq!(
        presets_zh::pick(false, "head-of-line-blocking", en.clone()),
        en
    );
    assert_eq!(
        presets_zh::pick(true, "head-of-line-blocking", en).0,
        "队头阻塞"
    );
}
