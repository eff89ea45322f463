//! `zh-texts.json`, the Chinese texts the browser fetches (`zh_texts`), is what the
//! tables give for every preset file and every check label in them. After changing a
//! Chinese text or a preset: `DELAYLAB_UPDATE_ZH=1 cargo test -p delaylab-playground
//! --test zh_texts` writes it anew.

use std::fs;
use std::path::{Path, PathBuf};

use delaylab_playground::zh_texts::{export, ZhTexts};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/zh-texts.json");

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// (ids, check labels) of the sandbox and every scenarios/*.json and workload.
fn presets() -> (Vec<String>, Vec<String>) {
    let root = Path::new(ROOT);
    let mut files = vec![root.join("src/app/sandbox.json")];
    files.extend(json_files(&root.join("scenarios")));
    files.extend(json_files(&root.join("scenarios/workloads")));
    let (mut ids, mut labels) = (vec![], vec![]);
    for p in files {
        let v: serde_json::Value = serde_json::from_str(&fs::read_to_string(&p).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        ids.push(p.file_stem().unwrap().to_string_lossy().into_owned());
        for c in v["checks"].as_array().into_iter().flatten() {
            labels.extend(c["label"].as_str().map(str::to_string));
        }
    }
    (ids, labels)
}

#[test]
fn the_fetched_file_is_what_the_tables_give() {
    let (ids, labels) = presets();
    let want = export(&ids, &labels);
    if std::env::var_os("DELAYLAB_UPDATE_ZH").is_some() {
        fs::write(FILE, &want).unwrap();
    }
    let have = fs::read_to_string(FILE).unwrap_or_default();
    assert!(
        have == want,
        "crates/playground/zh-texts.json is not what presets_zh.rs, presets_field_zh.rs, \
         checks_zh.rs and checks_field_zh.rs give: run DELAYLAB_UPDATE_ZH=1 cargo test -p \
         delaylab-playground --test zh_texts"
    );
    let t = ZhTexts::from_json(&have).expect("it reads back");
    assert_ne!(t, ZhTexts::default());
}
