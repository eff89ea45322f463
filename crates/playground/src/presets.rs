//! A scenario's texts for the gallery and the what-to-watch panel, in the UI language:
//! Chinese from [`crate::presets_zh`], English from the scenario file as the fallback.

use delaylab_engine::scenario::Scenario;

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
    fn an_empty_watch_is_nothing_to_show() {
        let t = preset_texts(Lang::En, &meta("custom", "Mine", "  "));
        assert!(!t.has_watch());
        assert!(preset_texts(Lang::En, &meta("custom", "Mine", "the head")).has_watch());
    }
}
