//! An [`Export`] as JSON text, the form it crosses the JavaScript boundary in: the
//! playground loads the exporter (crates/export-js, `pkg-export/`) only when its "Export
//! code" menu opens, so that the generators stay out of the app's first download; the
//! package writes with [`to_json`], the app reads with [`from_json`] (this module only,
//! which pulls no generator in).
//!
//! ```json
//! {"files": [{"path": "run.sh", "contents": "...", "executable": true}], "left_out": ["..."]}
//! ```

use serde_json::{json, Value};

use crate::{Export, File};

/// The export as `{"files": [{path, contents, executable}], "left_out": [...]}`.
pub fn to_json(e: &Export) -> String {
    let files: Vec<Value> = e
        .files
        .iter()
        .map(|f| json!({"path": f.path, "contents": f.contents, "executable": f.executable}))
        .collect();
    json!({"files": files, "left_out": e.left_out}).to_string()
}

/// What [`to_json`] wrote, or what is wrong with it (its JSON path).
pub fn from_json(text: &str) -> Result<Export, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("export JSON: {e}"))?;
    let list = |key: &str| {
        v.get(key)
            .and_then(Value::as_array)
            .ok_or_else(|| format!("export JSON: `{key}` is not a list"))
    };
    let files = list("files")?
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let text = |key: &str| {
                f.get(key)
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .ok_or_else(|| format!("export JSON: files[{i}].{key} is not a string"))
            };
            Ok(File {
                path: text("path")?,
                contents: text("contents")?,
                executable: f
                    .get("executable")
                    .and_then(Value::as_bool)
                    .ok_or_else(|| {
                        format!("export JSON: files[{i}].executable is not a boolean")
                    })?,
            })
        })
        .collect::<Result<Vec<File>, String>>()?;
    let left_out = list("left_out")?
        .iter()
        .enumerate()
        .map(|(i, l)| {
            l.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("export JSON: left_out[{i}] is not a string"))
        })
        .collect::<Result<Vec<String>, String>>()?;
    Ok(Export { files, left_out })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_to_json_writes_from_json_reads_back() {
        let e = Export {
            files: vec![
                File::new("Scenario.java", "// \"quoted\" 中文\n".into()),
                File::script("run.sh", "#!/bin/sh\n".into()),
            ],
            left_out: vec!["restart_node at 1s".into()],
        };
        assert_eq!(from_json(&to_json(&e)).unwrap(), e);
        let empty = Export {
            files: vec![],
            left_out: vec![],
        };
        assert_eq!(from_json(&to_json(&empty)).unwrap(), empty);
    }

    #[test]
    fn bad_json_names_the_problem() {
        assert!(from_json("nope").unwrap_err().starts_with("export JSON:"));
        assert_eq!(
            from_json(
                r#"{"files": [{"path": "a", "contents": 1, "executable": false}], "left_out": []}"#
            )
            .unwrap_err(),
            "export JSON: files[0].contents is not a string"
        );
        assert_eq!(
            from_json(r#"{"files": []}"#).unwrap_err(),
            "export JSON: `left_out` is not a list"
        );
    }
}
