//! The Chinese texts of the presets (name, description, what to watch), of their reported
//! failures, of their checks' labels and of the UI words' tables, as the page reads them
//! (issue 29 item 10).
//!
//! They are written in `presets_zh.rs`, `presets_field_zh.rs`, `checks_zh.rs`,
//! `checks_field_zh.rs` and the Chinese column of the `words!` tables
//! (`i18n::tables`); natively (the tests, the command line) they are read from there.
//! In the browser those tables were a fifth of the start-up wasm's data (about 27 KB
//! gzipped) that a reader of the English page never shows, and wasm chunks cannot hold
//! data (the splitter moves functions only): so the browser build does not link them, and
//! the page fetches the same texts as data, `zh-texts.json` (written by [`export`] from
//! the tables; `tests/zh_texts.rs` fails when the committed file is not what they give),
//! and hands them to [`install`]. Until then (or if the fetch fails) a lookup finds
//! nothing and the English text shows, as for a preset without a Chinese text.

use serde_json::Value;

/// A preset's (name, description, what to watch) in Simplified Chinese.
pub fn preset(id: &str) -> Option<(&'static str, &'static str, &'static str)> {
    #[cfg(not(target_arch = "wasm32"))]
    return crate::presets_zh::texts(id);
    #[cfg(target_arch = "wasm32")]
    return installed(|t| t.preset(id));
}

/// A reported failure's (what users saw, the broker rule) in Simplified Chinese.
pub fn report(id: &str) -> Option<(&'static str, &'static str)> {
    #[cfg(not(target_arch = "wasm32"))]
    return crate::presets_field_zh::report(id);
    #[cfg(target_arch = "wasm32")]
    return installed(|t| t.report(id));
}

/// The Chinese text of a preset check's English `label`.
pub fn check_label(en: &str) -> Option<&'static str> {
    #[cfg(not(target_arch = "wasm32"))]
    return crate::checks_zh::label(en);
    #[cfg(target_arch = "wasm32")]
    return installed(|t| t.check_label(en));
}

/// The Chinese of UI word `key`, whose table's Chinese column has `table_zh` (`words!`):
/// natively that; in the browser, whose tables have none, the fetched `words`.
pub fn word(key: &str, table_zh: &'static str) -> Option<&'static str> {
    #[cfg(not(target_arch = "wasm32"))]
    return {
        let _ = key;
        Some(table_zh)
    };
    #[cfg(target_arch = "wasm32")]
    return {
        let _ = table_zh;
        installed(|t| t.word(key))
    };
}

/// The texts as the page holds them once fetched: the file's JSON, checked, looked up as
/// it is (no maps of its own: the wasm holds serde_json's already). Installed (leaked)
/// once per page, so that the lookups give `&'static str` as the tables do.
#[derive(Debug, Default, PartialEq)]
pub struct ZhTexts {
    v: Value,
}

impl ZhTexts {
    /// Reads what [`export`] wrote.
    pub fn from_json(text: &str) -> Result<ZhTexts, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        for (key, n) in [("presets", 3), ("reports", 2), ("checks", 0), ("words", 0)] {
            let m = v
                .get(key)
                .and_then(Value::as_object)
                .ok_or_else(|| format!("{key}: missing"))?;
            for (id, x) in m {
                let ok = match x {
                    Value::String(_) => n == 0,
                    Value::Array(a) => a.len() == n && a.iter().all(Value::is_string),
                    _ => false,
                };
                if !ok {
                    return Err(format!("{id}: not {n} strings"));
                }
            }
        }
        Ok(ZhTexts { v })
    }

    fn strings<'a>(&'a self, key: &str, id: &str) -> Option<Vec<&'a str>> {
        let a = self.v[key].get(id)?.as_array()?;
        Some(a.iter().filter_map(Value::as_str).collect())
    }

    pub fn preset(&self, id: &str) -> Option<(&str, &str, &str)> {
        let s = self.strings("presets", id)?;
        Some((s.first()?, s.get(1)?, s.get(2)?))
    }

    pub fn report(&self, id: &str) -> Option<(&str, &str)> {
        let s = self.strings("reports", id)?;
        Some((s.first()?, s.get(1)?))
    }

    pub fn check_label(&self, en: &str) -> Option<&str> {
        self.v["checks"].get(en)?.as_str()
    }

    /// A UI word's Chinese, by its key (`crate::i18n::word`).
    pub fn word(&self, key: &str) -> Option<&str> {
        self.v["words"].get(key)?.as_str()
    }
}

/// `zh-texts.json`: the Chinese texts of presets `ids` and check labels `labels` (every
/// preset file's), from the tables. Sorted, one entry a line, so a change reads as a diff.
#[cfg(not(target_arch = "wasm32"))]
pub fn export(ids: &[String], labels: &[String]) -> String {
    use serde_json::json;
    use std::collections::BTreeMap;
    let mut presets = BTreeMap::new();
    let mut reports = BTreeMap::new();
    let mut checks = BTreeMap::new();
    let words: BTreeMap<&str, Value> = crate::i18n::tables()
        .into_iter()
        .flatten()
        .map(|&(k, _, zh)| (k, json!(zh)))
        .collect();
    for id in ids {
        if let Some((n, d, w)) = crate::presets_zh::texts(id) {
            presets.insert(id.as_str(), json!([n, d, w]));
        }
        if let Some((s, r)) = crate::presets_field_zh::report(id) {
            reports.insert(id.as_str(), json!([s, r]));
        }
    }
    for l in labels {
        if let Some(zh) = crate::checks_zh::label(l) {
            checks.insert(l.as_str(), json!(zh));
        }
    }
    let section = |name: &str, m: &BTreeMap<&str, Value>| {
        let lines: Vec<String> = m
            .iter()
            .map(|(k, v)| format!("  {}: {v}", json!(k)))
            .collect();
        format!("\"{name}\": {{\n{}\n}}", lines.join(",\n"))
    };
    format!(
        "{{\n{},\n{},\n{},\n{}\n}}\n",
        section("presets", &presets),
        section("reports", &reports),
        section("checks", &checks),
        section("words", &words)
    )
}

#[cfg(target_arch = "wasm32")]
thread_local! {
    static INSTALLED: std::cell::RefCell<Option<&'static ZhTexts>> = const { std::cell::RefCell::new(None) };
}

/// Makes the fetched texts the ones the lookups find (the browser build).
#[cfg(target_arch = "wasm32")]
pub fn install(t: ZhTexts) {
    let t: &'static ZhTexts = Box::leak(Box::new(t));
    INSTALLED.with(|i| *i.borrow_mut() = Some(t));
}

/// Whether the texts are in (the page fetches them once).
#[cfg(target_arch = "wasm32")]
pub fn is_installed() -> bool {
    INSTALLED.with(|i| i.borrow().is_some())
}

#[cfg(target_arch = "wasm32")]
fn installed<T>(f: impl FnOnce(&'static ZhTexts) -> Option<T>) -> Option<T> {
    INSTALLED.with(|i| *i.borrow()).and_then(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_export_writes_reads_back() {
        let ids = vec![
            "sandbox".to_string(),
            "field-plugin-delay-limit".to_string(),
        ];
        let labels = vec![
            "A-level is delivered at 30:00".to_string(),
            "mine".to_string(),
        ];
        let t = ZhTexts::from_json(&export(&ids, &labels)).unwrap();
        assert_eq!(t.preset("sandbox"), crate::presets_zh::texts("sandbox"));
        assert!(t.preset("field-plugin-delay-limit").is_some());
        let want = crate::presets_field_zh::report("field-plugin-delay-limit");
        assert_eq!(t.report("field-plugin-delay-limit"), want);
        assert_eq!(t.report("sandbox"), None);
        assert_eq!(
            t.check_label("A-level is delivered at 30:00"),
            Some("A-level 在 30:00 投递")
        );
        // A label without a Chinese text is not written: the English one shows.
        assert_eq!(t.check_label("mine"), None);
        // The UI words' Chinese column.
        assert_eq!(t.word("play"), Some("播放"));
        assert_eq!(t.word("why_story"), Some("它的经历,逐步说明"));
        assert_eq!(t.word("nope"), None);
    }

    #[test]
    fn a_malformed_file_is_refused_with_its_place() {
        assert!(ZhTexts::from_json("nope")
            .unwrap_err()
            .starts_with("not JSON"));
        let e = ZhTexts::from_json(
            r#"{"presets": {"x": ["a"]}, "reports": {}, "checks": {}, "words": {}}"#,
        );
        assert_eq!(e.unwrap_err(), "x: not 3 strings");
        assert_eq!(
            ZhTexts::from_json(r#"{"presets": {}}"#).unwrap_err(),
            "reports: missing"
        );
    }
}
