//! A scenario's texts for the gallery and the what-to-watch panel, in the UI language:
//! Chinese from [`crate::presets_zh`], English from the scenario file as the fallback.

use delaylab_engine::scenario::duration::duration_from_json;
use delaylab_engine::scenario::{FieldReport, Scenario};
use delaylab_engine::version::BrokerVersion;
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
    /// The file's `broker` (absent: 3.10) and `versions` (what it is written for).
    pub broker: Option<BrokerVersion>,
    pub versions: Vec<BrokerVersion>,
    /// The public report it replays, or the failure it fixes (`report`; `crate::field`).
    pub report: Option<FieldReport>,
}

/// The preset a fresh visit opens: the sandbox.
pub const SANDBOX_ID: &str = "sandbox";

impl PresetMeta {
    pub fn of(id: &str, s: &Scenario) -> PresetMeta {
        PresetMeta {
            id: id.to_string(),
            name: s.name.clone(),
            description: s.description.clone(),
            watch: s.watch.clone(),
            until_ms: s.until_ms,
            broker: s.broker,
            versions: s.versions.clone(),
            report: s.report.clone(),
        }
    }

    /// The version the preset opens on when its link names none: its file's `broker`
    /// (absent: 3.10, so old links and files mean what they meant), except the sandbox,
    /// the first scenario of a fresh visit, which opens on the newest version checked
    /// against a live broker (it is written for every version).
    pub fn opens_on(&self) -> BrokerVersion {
        if self.id == SANDBOX_ID {
            BrokerVersion::newest_live_checked()
        } else {
            self.broker.unwrap_or_default()
        }
    }

    /// The versions it is written for, oldest first (`Scenario::written_for`).
    pub fn written_for(&self) -> Vec<BrokerVersion> {
        if self.versions.is_empty() {
            vec![self.broker.unwrap_or_default()]
        } else {
            self.versions.clone()
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
        let version = |v: &Value, key: &str| {
            v.as_str()
                .and_then(BrokerVersion::parse)
                .ok_or_else(|| format!("{key}: not a RabbitMQ version"))
        };
        let broker = v.get("broker").map(|b| version(b, "broker")).transpose()?;
        let mut versions = match v.get("versions") {
            None => Vec::new(),
            Some(Value::Array(a)) => a
                .iter()
                .map(|x| version(x, "versions"))
                .collect::<Result<_, _>>()?,
            Some(_) => return Err("versions: not a list".into()),
        };
        delaylab_engine::sort::sort(&mut versions);
        Ok(PresetMeta {
            id: id.to_string(),
            name: text_field("name")?,
            description: text_field("description")?,
            watch: text_field("watch")?,
            until_ms,
            broker,
            versions,
            report: crate::field::report_of_json(v.get("report"))?,
        })
    }
}

/// A preset named in the address: `#head-of-line-blocking` (on the version it opens on)
/// or `#fix-delayed-plugin@4.3` (on that version).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresetRef {
    pub id: String,
    pub version: Option<BrokerVersion>,
}

impl PresetRef {
    /// Reads a fragment (with or without `#`); `None` when the part after `@` is not a
    /// version (the fragment is then not a preset reference).
    pub fn parse(fragment: &str) -> Option<PresetRef> {
        let f = fragment.trim_start_matches('#');
        match f.split_once('@') {
            None => Some(PresetRef {
                id: f.to_string(),
                version: None,
            }),
            Some((id, v)) => Some(PresetRef {
                id: id.to_string(),
                version: Some(BrokerVersion::parse(v)?),
            }),
        }
    }

    /// The fragment for preset `m` shown on `on`: its name, and the version unless it is
    /// the one the preset opens on. The sandbox on its own version has none (a fresh
    /// visit's address stays bare).
    pub fn fragment(m: &PresetMeta, on: BrokerVersion) -> String {
        match (m.id == SANDBOX_ID, on == m.opens_on()) {
            (true, true) => String::new(),
            (false, true) => format!("#{}", m.id),
            (_, false) => format!("#{}@{}", m.id, on.as_str()),
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
            broker: None,
            versions: vec![],
            report: None,
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
    fn a_preset_reference_names_the_version_unless_it_is_the_presets_own() {
        use BrokerVersion::*;
        let r = PresetRef::parse("#fix-delayed-plugin@4.3").unwrap();
        assert_eq!(
            (r.id.as_str(), r.version),
            ("fix-delayed-plugin", Some(V4_3))
        );
        assert_eq!(
            PresetRef::parse("head-of-line-blocking").unwrap().version,
            None
        );
        assert_eq!(
            PresetRef::parse("#x@4.4").unwrap().version,
            Some(V4_4),
            "4.4 is a version a link may name"
        );
        assert_eq!(PresetRef::parse("#x@4.5"), None);
        let hol = meta("head-of-line-blocking", "H", "w");
        assert_eq!(hol.opens_on(), V3_10, "no broker: 3.10, as old links meant");
        assert_eq!(PresetRef::fragment(&hol, V3_10), "#head-of-line-blocking");
        assert_eq!(
            PresetRef::fragment(&hol, V4_3),
            "#head-of-line-blocking@4.3"
        );
        let sandbox = meta(SANDBOX_ID, "S", "w");
        assert_eq!(sandbox.opens_on(), BrokerVersion::newest_live_checked());
        assert_eq!(PresetRef::fragment(&sandbox, sandbox.opens_on()), "");
        let other = if sandbox.opens_on() == V4_3 {
            V3_10
        } else {
            V4_3
        };
        assert_eq!(
            PresetRef::fragment(&sandbox, other),
            format!("#sandbox@{other}")
        );
    }

    #[test]
    fn an_empty_watch_is_nothing_to_show() {
        let t = preset_texts(Lang::En, &meta("custom", "Mine", "  "));
        assert!(!t.has_watch());
        assert!(preset_texts(Lang::En, &meta("custom", "Mine", "the head")).has_watch());
    }
}
