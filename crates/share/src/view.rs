//! The view options carried by a link next to the scenario, as a small JSON object
//! that omits every default: `{}` is the default view, `{"speed":1000.0,"lang":"zh"}`
//! opens at 1000x in Chinese.
//!
//! Reading is strict (unknown keys and wrong types are errors naming `view.KEY`), so a
//! mistyped or tampered option is reported rather than silently ignored.

use serde_json::{json, Map, Value};

use crate::LinkError;

/// Most topology variant names a compare view may list.
pub const MAX_COMPARE: usize = 16;
/// Most panel names an embed may list.
pub const MAX_PANELS: usize = 32;
/// Longest compare or panel name.
pub const MAX_VIEW_NAME_BYTES: usize = 255;
/// Fastest speed a link may ask for (virtual ms per wall ms); the app clamps further.
pub const MAX_SPEED: f64 = 1e9;
/// The languages the app has (`Lang` in src/app/i18n.rs).
pub const LANGS: [&str; 2] = ["en", "zh"];

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ViewOptions {
    /// Virtual ms per wall ms.
    pub speed: Option<f64>,
    pub autoplay: bool,
    /// Jump here after loading.
    pub start_ms: Option<u64>,
    /// Compare mode: topology variant names; empty = off.
    pub compare: Vec<String>,
    /// `"en"` or `"zh"`.
    pub lang: Option<String>,
    pub read_only: bool,
    /// Embed: which panels show (empty = the default set).
    pub panels: Vec<String>,
}

/// The options as JSON, defaults left out. A speed that is not a finite number has
/// no JSON spelling and is left out too (the link then opens at the default speed).
pub fn to_value(v: &ViewOptions) -> Value {
    let mut m = Map::new();
    if let Some(n) = v.speed.and_then(serde_json::Number::from_f64) {
        m.insert("speed".into(), Value::Number(n));
    }
    if v.autoplay {
        m.insert("autoplay".into(), json!(true));
    }
    if let Some(t) = v.start_ms {
        m.insert("start_ms".into(), json!(t));
    }
    if !v.compare.is_empty() {
        m.insert("compare".into(), json!(v.compare));
    }
    if let Some(l) = &v.lang {
        m.insert("lang".into(), json!(l));
    }
    if v.read_only {
        m.insert("read_only".into(), json!(true));
    }
    if !v.panels.is_empty() {
        m.insert("panels".into(), json!(v.panels));
    }
    Value::Object(m)
}

fn bad(key: &str, message: impl Into<String>) -> LinkError {
    LinkError::InvalidView {
        path: format!("view.{key}"),
        message: message.into(),
    }
}

fn names(key: &str, v: &Value, max: usize) -> Result<Vec<String>, LinkError> {
    let Value::Array(items) = v else {
        return Err(bad(key, "expected a list of names"));
    };
    if items.len() > max {
        return Err(bad(
            key,
            format!("{} names; the limit is {max}", items.len()),
        ));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, x)| match x.as_str() {
            Some(s) if s.len() <= MAX_VIEW_NAME_BYTES => Ok(s.to_string()),
            Some(_) => Err(bad(
                &format!("{key}[{i}]"),
                format!("longer than {MAX_VIEW_NAME_BYTES} bytes"),
            )),
            None => Err(bad(&format!("{key}[{i}]"), "expected a name (a string)")),
        })
        .collect()
}

fn flag(key: &str, v: &Value) -> Result<bool, LinkError> {
    v.as_bool()
        .ok_or_else(|| bad(key, "expected true or false"))
}

/// Reads the options back; the inverse of [`to_value`].
pub fn from_value(v: &Value) -> Result<ViewOptions, LinkError> {
    let Value::Object(m) = v else {
        return Err(LinkError::InvalidView {
            path: "view".into(),
            message: "expected an object".into(),
        });
    };
    let mut out = ViewOptions::default();
    for (key, x) in m {
        match key.as_str() {
            "speed" => match x.as_f64() {
                Some(s) if s > 0.0 && s <= MAX_SPEED => out.speed = Some(s),
                _ => {
                    return Err(bad(
                        key,
                        format!("expected a speed above 0 and at most {MAX_SPEED}"),
                    ))
                }
            },
            "autoplay" => out.autoplay = flag(key, x)?,
            "start_ms" => match x.as_u64() {
                Some(t) if t <= delaylab_engine::scenario::load::MAX_DURATION_MS => {
                    out.start_ms = Some(t)
                }
                _ => return Err(bad(key, "expected a time in ms within 366 days")),
            },
            "compare" => out.compare = names(key, x, MAX_COMPARE)?,
            "lang" => match x.as_str() {
                Some(l) if LANGS.contains(&l) => out.lang = Some(l.to_string()),
                _ => return Err(bad(key, "expected \"en\" or \"zh\"")),
            },
            "read_only" => out.read_only = flag(key, x)?,
            "panels" => out.panels = names(key, x, MAX_PANELS)?,
            _ => return Err(bad(key, "unknown view option")),
        }
    }
    Ok(out)
}
