//! A scenario's texts for the gallery and the what-to-watch panel, in the UI language:
//! Chinese from [`crate::presets_zh`], English from the scenario file as the fallback.

use delaylab_engine::scenario::duration::duration_from_json;
use delaylab_engine::scenario::Scenario;
use serde_json::Value;

use crate::i18n::Lang;
use crate::presets_zh;

#[derive(Clone, Debug, PartialEq)]
pub struct PresetMeta {
    pub id: String,
    pub name: String,
    pub description: String,
    pub watch: String,
    pub until_ms: Option<u64>,
}

impl PresetMeta {
    pub fn of(id: &str, s: &Scenario) -> PresetMeta {
        PresetMeta {
            id: id.to_string(),
            name: s.name.clone(),
            description: s.description.clone(),
            watch: s.watch.clone(),
            until_ms: s.until_ms,
        }
    }

    /// A preset's gallery entry read from its JSON text without loading the scenario:
    /// the page lists every preset at start, and the loader's full check of each
    /// (topology, consumers, actions) is not needed to show a name; it runs when one is
    /// loaded. Equal to [`PresetMeta::of`] on the loaded scenario (a test checks every
    /// preset); Err for a text that is not JSON or has one of these fields of the wrong
    /// type (the loader's limits apply when it loads).
    pub fn of_text(id: &str, text: &str) -> Result<PresetMeta, String> {
        // A `Value`, not a derived struct: the app's wasm already holds serde_json's code
        // for it, a derive would add its own.
        let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let text_field = |key: &str| match v.get(key) {
            None => Ok(String::new()),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(_) => Err(format!("{key}: not a string")),
        };
        let until_ms = v
            .get("until")
            .map(duration_from_json)
            .transpose()
            .map_err(|e| format!("until: {e}"))?;
        Ok(PresetMeta {
            id: id.to_string(),
            name: text_field("name")?,
            description: text_field("description")?,
            watch: text_field("watch")?,
            until_ms,
        })
    }
}

/// (name, description, what to watch) in `lang`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresetTexts {
    pub name: String,
    pub description: String,
    pub watch: String,
}

impl PresetTexts {
    /// Nothing to watch: the panel shows no what-to-watch line at all.
    pub fn has_watch(&self) -> bool {
        !self.watch.trim().is_empty()
    }
}

/// A preset's texts in `lang`.
pub fn preset_texts(lang: Lang, m: &PresetMeta) -> PresetTexts {
    let (name, description, watch) = presets_zh::pick(
        lang == Lang::Zh,
        &m.id,
        (m.name.clone(), m.description.clone(), m.watch.clone()),
    );
    PresetTexts {
        name,
        description,
        watch,
    }
}

/// The loaded scenario's texts in `lang`; an edited preset ("custom") keeps its
/// preset's Chinese texts while its name is unchanged.
pub fn loaded_texts(lang: Lang, loaded: &PresetMeta, presets: &[PresetMeta]) -> PresetTexts {
    let id = presets
        .iter()
        .find(|p| p.name == loaded.name)
        .map_or_else(|| loaded.id.clone(), |p| p.id.clone());
    preset_texts(
        lang,
        &PresetMeta {
            id,
            ..loaded.clone()
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(id: &str, name: &str, watch: &str) -> PresetMeta {
        PresetMeta {
            id: id.into(),
            name: name.into(),
            description: "d".into(),
            watch: watch.into(),
            until_ms: None,
        }
    }

    #[test]
    fn an_edited_preset_keeps_its_presets_texts_while_named_the_same() {
        let presets = vec![meta("head-of-line-blocking", "Head-of-line blocking", "w")];
        let edited = meta("custom", "Head-of-line blocking", "w");
        let en = loaded_texts(Lang::En, &edited, &presets);
        assert_eq!(en.name, "Head-of-line blocking");
        let zh = loaded_texts(Lang::Zh, &edited, &presets);
        assert_eq!(zh, preset_texts(Lang::Zh, &presets[0]));
    }

    #[test]
    fn a_gallery_entry_read_from_the_text_equals_the_loaded_scenarios() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files = vec![root.join("src/app/sandbox.json")];
        for e in std::fs::read_dir(root.join("scenarios")).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "json") {
                files.push(p);
            }
        }
        assert!(files.len() > 10, "presets not found: {files:?}");
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            let id = f.file_stem().unwrap().to_string_lossy();
            let loaded = delaylab_engine::scenario::load_str(&text)
                .unwrap_or_else(|e| panic!("{}: {} {}", f.display(), e.path, e.message));
            assert_eq!(
                PresetMeta::of_text(&id, &text).unwrap(),
                PresetMeta::of(&id, &loaded),
                "{}",
                f.display()
            );
        }
    }

    #[test]
    fn a_gallery_entry_refuses_what_the_loader_refuses_at_its_fields() {
        assert!(PresetMeta::of_text("x", r#"{"name": 3}"#).is_err());
        assert!(PresetMeta::of_text("x", r#"{"until": "1h30m"}"#).is_err());
        assert!(PresetMeta::of_text("x", "{").is_err());
        let m = PresetMeta::of_text("x", r#"{"until": "40m", "topology": {}}"#).unwrap();
        assert_eq!((m.name.as_str(), m.until_ms), ("", Some(2_400_000)));
    }

    #[test]
    fn an_empty_watch_is_nothing_to_show() {
        let t = preset_texts(Lang::En, &meta("custom", "Mine", "  "));
        assert!(!t.has_watch());
        assert!(preset_texts(Lang::En, &meta("custom", "Mine", "the head")).has_watch());
    }
}
