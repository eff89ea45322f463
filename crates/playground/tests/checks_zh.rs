//! Every preset check's label has a Simplified Chinese text (`checks_zh::label`), and it
//! keeps the bodies and RabbitMQ's names of the English one.

use std::fs;

use delaylab_playground::checks_zh;

/// (preset, label) of every check in scenarios/*.json.
fn labels() -> Vec<(String, String)> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios");
    let mut files: Vec<_> = fs::read_dir(root)
        .expect("scenarios/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = vec![];
    for p in files {
        let v: serde_json::Value = serde_json::from_str(&fs::read_to_string(&p).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        for c in v["checks"].as_array().into_iter().flatten() {
            let id = p.file_stem().unwrap().to_string_lossy().into_owned();
            out.push((id, c["label"].as_str().unwrap_or("").to_string()));
        }
    }
    out
}

#[test]
fn every_preset_check_has_a_chinese_label() {
    let all = labels();
    assert!(all.len() > 50, "the presets have checks");
    let missing: Vec<String> = all
        .iter()
        .filter(|(_, l)| checks_zh::label(l).is_none())
        .map(|(p, l)| format!("{p}: {l:?}"))
        .collect();
    assert!(
        missing.is_empty(),
        "no Chinese label:\n{}",
        missing.join("\n")
    );
}

#[test]
fn a_chinese_label_keeps_the_names_and_figures() {
    // Bodies, queue names, headers, reasons, codes and figures (a word with a digit, an
    // underscore or a dot, an x- header, a word in capitals) are in the Chinese label too.
    const PLAIN: &[&str] = &[
        "is", "at", "the", "and", "with", "not", "to", "of", "a", "s", "ms", "min", "h",
    ];
    for (p, en) in labels() {
        let Some(zh) = checks_zh::label(&en) else {
            continue;
        };
        for word in en.split(|c: char| !(c.is_ascii_alphanumeric() || "-_.:*\"+".contains(c))) {
            let w = word.trim_matches(['.', ':']);
            // An ordinal (21st) is said with its number (第 21 次).
            let w = ["st", "nd", "rd", "th"]
                .iter()
                .find_map(|x| {
                    w.strip_suffix(x)
                        .filter(|n| n.chars().all(|c| c.is_ascii_digit()))
                })
                .unwrap_or(w);
            let named = w.chars().any(|c| c.is_ascii_digit())
                || w.contains(['_', '.'])
                || w.starts_with("x-")
                || w.chars().all(|c| c.is_ascii_uppercase() || c == '_') && w.len() > 1;
            if named && !PLAIN.contains(&w) {
                assert!(zh.contains(w), "{p}: {en:?} -> {zh:?} lost {w:?}");
            }
        }
    }
}

#[test]
fn an_unknown_label_has_none() {
    assert_eq!(checks_zh::label("my own check"), None);
}
