//! `--costs ideal|measured|FILE` (`run`, `compare`, `bench`): the cost mode to run with,
//! overriding the scenario's `costs` field (see `delaylab_engine::costs`). FILE is a
//! cost profile as `delaylab calibrate` writes it.

use delaylab_engine::costs::{CostMode, CostProfile};

pub fn parse(arg: &str) -> Result<CostMode, String> {
    match arg {
        "ideal" => Ok(CostMode::Ideal),
        "measured" => Ok(CostMode::Measured),
        path => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                format!(
                    "--costs {path}: cannot read: {e} (expected ideal, measured or a cost file)"
                )
            })?;
            let v: serde_json::Value = serde_json::from_str(&text)
                .map_err(|e| format!("--costs {path}: invalid JSON: {e}"))?;
            CostProfile::from_json(&v, "$")
                .map(CostMode::Profile)
                .map_err(|(at, why)| format!("--costs {path}: {at}: {why}"))
        }
    }
}

/// How a mode is named in output.
pub fn name(mode: &CostMode) -> String {
    match mode {
        CostMode::Ideal => "ideal".into(),
        CostMode::Measured => "measured".into(),
        CostMode::Profile(p) => p.source.clone(),
    }
}
