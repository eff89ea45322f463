//! The code exporter (crates/export) as a wasm module of its own (`pkg-export/`, built by
//! `bash scripts/build-js.sh`), which the playground imports when its "Export code" menu
//! first opens (src/app/panels/export_code.rs): the six generators and their runtime texts
//! are not in the app's first download (issue 13 item 5).
//!
//! ```js
//! import init, { exportCode } from './pkg-export/delaylab_export.js';
//! await init();
//! const out = JSON.parse(exportCode(scenarioJson, 'python', 'en'));
//! // {files: [{path, contents, executable}], left_out: [...]}; throws Error("topology...: ...")
//! ```

use delaylab_engine::scenario;
use delaylab_export::{export, wire, CommentLang, Language, Options};
use wasm_bindgen::prelude::*;

/// `scenario_json` (the scenario format) as a program in `lang` (`java`, `python`, ...,
/// as `delaylab export code --lang`) with comments in `comments` (`en`, `zh`): the
/// export as [`wire::to_json`] writes it, or what is wrong with the input.
pub fn export_json(scenario_json: &str, lang: &str, comments: &str) -> Result<String, String> {
    let language = Language::parse(lang).ok_or_else(|| {
        let known: Vec<&str> = delaylab_export::LANGUAGES.iter().map(|l| l.0).collect();
        format!(
            "lang: unknown language {lang:?} (one of {})",
            known.join(", ")
        )
    })?;
    let comments = CommentLang::parse(comments)
        .ok_or_else(|| format!("comments: unknown comment language {comments:?} (en or zh)"))?;
    let s = scenario::load_str(scenario_json).map_err(|e| format!("scenario: {e}"))?;
    Ok(wire::to_json(&export(&s, &Options { language, comments })))
}

/// [`export_json`] for JavaScript: throws an `Error` naming the problem.
#[wasm_bindgen(js_name = exportCode)]
pub fn export_code(scenario_json: &str, lang: &str, comments: &str) -> Result<String, JsError> {
    export_json(scenario_json, lang, comments).map_err(|e| JsError::new(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ORDER_TIMEOUT: &str = include_str!("../../../scenarios/order-timeout-queue-ttl.json");

    #[test]
    fn exports_what_the_exporter_writes() {
        let s = scenario::load_str(ORDER_TIMEOUT).unwrap();
        for &(name, language) in delaylab_export::LANGUAGES {
            for c in [CommentLang::En, CommentLang::Zh] {
                let text = export_json(ORDER_TIMEOUT, name, c.as_str()).unwrap();
                let want = export(
                    &s,
                    &Options {
                        language,
                        comments: c,
                    },
                );
                assert!(!want.files.is_empty(), "{name}");
                assert_eq!(wire::from_json(&text).unwrap(), want, "{name} {c:?}");
            }
        }
    }

    #[test]
    fn bad_input_names_the_problem() {
        let e = export_json(ORDER_TIMEOUT, "cobol", "en").unwrap_err();
        assert!(e.starts_with("lang: unknown language \"cobol\""), "{e}");
        let e = export_json(ORDER_TIMEOUT, "java", "fr").unwrap_err();
        assert!(e.starts_with("comments:"), "{e}");
        let e = export_json(r#"{"version": 1, "topology": 3}"#, "java", "en").unwrap_err();
        assert!(e.starts_with("scenario: ") && e.contains("topology"), "{e}");
    }
}
