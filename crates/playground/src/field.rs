//! "From the field": the public reports the presets replay (`scenarios/field-*.json`, a
//! scenario's `report`), as the gallery lists them: the report's project, date and
//! links, what users saw and the broker rule behind it (in the UI language), and the
//! preset with the fix, one click away.

use serde_json::Value;

use delaylab_engine::scenario::{FieldReport, ReportedFailure};

use crate::i18n::Lang;
use crate::presets::{preset_texts, PresetMeta};

/// One reported failure, ready to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldEntry {
    /// The failure's preset.
    pub id: String,
    /// Its name in the UI language.
    pub name: String,
    pub project: String,
    /// `YYYY-MM-DD`, as reported.
    pub date: String,
    /// The report first, then related threads: (address, short label such as
    /// `rabbitmq-server#2007`).
    pub links: Vec<(String, String)>,
    /// What users saw, one sentence, in the UI language.
    pub saw: String,
    /// The broker rule in words, in the UI language.
    pub rule: String,
    /// The preset with the fix, and its name in the UI language (`None`: the fix preset
    /// named by the report is not among the presets).
    pub fix: Option<(String, String)>,
    /// The versions the failure preset is written for (what a reader may switch to).
    pub versions: Vec<delaylab_engine::version::BrokerVersion>,
}

/// Whether a preset belongs in "From the field" rather than the main list: a reported
/// failure or the fix of one.
pub fn is_field(m: &PresetMeta) -> bool {
    m.report.is_some()
}

/// The field's entries in `lang`, oldest report first (the order the failures were met).
/// `english` gives a failure's (what users saw, the rule) by preset id where its gallery
/// entry has none (the browser's: build.rs keeps them apart, for the field section's
/// chunk); else the report's own show.
pub fn entries(
    lang: Lang,
    presets: &[PresetMeta],
    english: impl Fn(&str) -> Option<(&'static str, &'static str)>,
) -> Vec<FieldEntry> {
    let mut out: Vec<FieldEntry> = presets
        .iter()
        .filter_map(|m| match &m.report {
            Some(FieldReport::Failure(r)) => Some(entry(lang, m, r, presets, &english)),
            _ => None,
        })
        .collect();
    delaylab_engine::sort::sort_by(&mut out, |a, b| (&a.date, &a.id).cmp(&(&b.date, &b.id)));
    out
}

fn entry(
    lang: Lang,
    m: &PresetMeta,
    r: &ReportedFailure,
    presets: &[PresetMeta],
    english: &impl Fn(&str) -> Option<(&'static str, &'static str)>,
) -> FieldEntry {
    let (saw, rule) = match (lang, crate::zh_texts::report(&m.id)) {
        (Lang::Zh, Some((saw, rule))) => (saw.to_string(), rule.to_string()),
        _ => match english(&m.id) {
            Some((saw, rule)) if r.saw.is_empty() => (saw.to_string(), rule.to_string()),
            _ => (r.saw.clone(), r.rule.clone()),
        },
    };
    let fix = presets
        .iter()
        .find(|p| p.id == r.fix)
        .map(|p| (p.id.clone(), preset_texts(lang, p).name));
    FieldEntry {
        id: m.id.clone(),
        name: preset_texts(lang, m).name,
        project: r.project.clone(),
        date: r.date.clone(),
        links: r.links.iter().map(|l| (l.clone(), link_label(l))).collect(),
        saw,
        rule,
        fix,
        versions: m.written_for(),
    }
}

/// `https://github.com/rabbitmq/rabbitmq-server/issues/2007` -> `rabbitmq-server#2007`;
/// an address of another shape is shown without its scheme.
pub fn link_label(url: &str) -> String {
    let rest = url.trim_start_matches("https://");
    let parts: Vec<&str> = rest.split('/').collect();
    match parts.as_slice() {
        ["github.com", _owner, repo, "issues" | "pull" | "discussions", n, ..] => {
            format!("{repo}#{n}")
        }
        _ => rest.trim_end_matches('/').to_string(),
    }
}

/// A preset file's `report`, read from its JSON without loading the scenario (the
/// gallery lists presets before any is loaded; `PresetMeta::of_text`). The loader
/// (`delaylab_engine::scenario`) validates it when the preset loads; a test checks both
/// read every preset alike. Err for a field of the wrong type. What users saw and the
/// rule may be absent (empty): a browser's gallery entry leaves them out (build.rs).
pub fn report_of_json(v: Option<&Value>) -> Result<Option<FieldReport>, String> {
    let Some(v) = v else { return Ok(None) };
    let text = |k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("report.{k}: not a string"))
    };
    let text_or_none = |k: &str| match v.get(k) {
        None => Ok(String::new()),
        Some(_) => text(k),
    };
    if v.get("fixes").is_some() {
        return Ok(Some(FieldReport::Fix {
            fixes: text("fixes")?,
        }));
    }
    let links = v
        .get("links")
        .and_then(Value::as_array)
        .ok_or("report.links: not a list")?
        .iter()
        .map(|l| {
            l.as_str()
                .map(str::to_string)
                .ok_or_else(|| "report.links: not a list of addresses".to_string())
        })
        .collect::<Result<_, _>>()?;
    Ok(Some(FieldReport::Failure(ReportedFailure {
        project: text("project")?,
        date: text("date")?,
        links,
        saw: text_or_none("saw")?,
        rule: text_or_none("rule")?,
        fix: text("fix")?,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn presets() -> Vec<PresetMeta> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
        let mut out = Vec::new();
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "json") {
                let id = p.file_stem().unwrap().to_string_lossy().into_owned();
                out.push(PresetMeta::of_text(&id, &std::fs::read_to_string(&p).unwrap()).unwrap());
            }
        }
        out
    }

    #[test]
    fn every_reported_failure_has_its_fix_and_every_fix_its_failure() {
        let ps = presets();
        let entries = entries(Lang::En, &ps, |_| None);
        assert!(entries.len() >= 10, "seven listed reports and three more");
        for e in &entries {
            let (fix, _) = e
                .fix
                .as_ref()
                .unwrap_or_else(|| panic!("{}: no fix preset", e.id));
            let f = ps.iter().find(|p| &p.id == fix).unwrap();
            assert_eq!(
                f.report,
                Some(FieldReport::Fix {
                    fixes: e.id.clone()
                }),
                "{fix} names {} back",
                e.id
            );
            assert!(!e.links.is_empty() && e.links[0].0.starts_with("https://"));
        }
        for p in ps.iter().filter(|p| is_field(p)) {
            if let Some(FieldReport::Fix { fixes }) = &p.report {
                assert!(
                    entries.iter().any(|e| &e.id == fixes),
                    "{}: fixes {fixes}?",
                    p.id
                );
            }
        }
        let dates: Vec<&str> = entries.iter().map(|e| e.date.as_str()).collect();
        let mut sorted = dates.clone();
        sorted.sort();
        assert_eq!(dates, sorted, "oldest first");
    }

    #[test]
    fn every_entry_has_chinese_words() {
        let ps = presets();
        for (en, zh) in entries(Lang::En, &ps, |_| None)
            .iter()
            .zip(entries(Lang::Zh, &ps, |_| None))
        {
            assert_ne!(en.saw, zh.saw, "{}: saw in Chinese", en.id);
            assert_ne!(en.rule, zh.rule, "{}: rule in Chinese", en.id);
            assert_ne!(en.name, zh.name, "{}: name in Chinese", en.id);
            assert!(zh
                .saw
                .chars()
                .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)));
        }
    }

    #[test]
    fn link_labels_name_the_repository_and_number() {
        assert_eq!(
            link_label("https://github.com/rabbitmq/rabbitmq-server/issues/2007"),
            "rabbitmq-server#2007"
        );
        assert_eq!(
            link_label("https://github.com/spring-projects/spring-amqp/pull/3559"),
            "spring-amqp#3559"
        );
        assert_eq!(
            link_label("https://www.rabbitmq.com/docs/ttl/"),
            "www.rabbitmq.com/docs/ttl"
        );
    }

    #[test]
    fn a_report_of_the_wrong_shape_is_an_error_not_a_panic() {
        assert!(report_of_json(Some(&serde_json::json!({"fixes": 3}))).is_err());
        assert!(report_of_json(Some(&serde_json::json!({"project": "p"}))).is_err());
        assert_eq!(report_of_json(None), Ok(None));
        let no_texts = serde_json::json!({"project": "p", "date": "d", "links": [], "fix": "f"});
        assert!(report_of_json(Some(&no_texts)).is_ok());
        let bad_saw =
            serde_json::json!({"project": "p", "date": "d", "links": [], "fix": "f", "saw": 1});
        assert!(report_of_json(Some(&bad_saw)).is_err());
    }

    #[test]
    fn a_gallery_entry_without_its_texts_gets_them_from_the_table_given() {
        let mut ps = presets();
        let Some(m) = ps
            .iter_mut()
            .find(|m| matches!(m.report, Some(FieldReport::Failure(_))))
        else {
            panic!("no reported failure among the presets")
        };
        if let Some(FieldReport::Failure(r)) = &mut m.report {
            (r.saw, r.rule) = (String::new(), String::new());
        }
        let id = m.id.clone();
        let e = entries(Lang::En, &ps, |i| {
            (i == id).then_some(("saw it", "the rule"))
        });
        let e = e.iter().find(|e| e.id == id).unwrap();
        assert_eq!((e.saw.as_str(), e.rule.as_str()), ("saw it", "the rule"));
    }
}
