//! `compare(workloadText, {strategies, count})`: every selected delay strategy on one
//! workload, as `delaylab compare WORKLOAD --format json` prints it, plus the wall time
//! of each strategy (what `--timing` prints). The strategies are the engine's
//! (`strategies::run`); the broker ones run the real `Sim`, so a 1,000,000-task
//! workload through `dlx-per-message`, `dlx-per-queue` and `plugin` is the benchmark
//! the browser test runs in the package and natively.

use delaylab_engine::scenario::LoadError;
use delaylab_engine::strategies::{self, load::MAX_TASKS, report, Workload, NAMES};
use serde_json::{json, Value};

/// What a comparison gives: the CLI's JSON document and each strategy's wall time.
pub struct Compared {
    pub doc: Value,
    pub wall_ms: Vec<(&'static str, f64)>,
}

#[derive(Debug)]
pub enum CompareError {
    Load(LoadError),
    Options(String),
}

/// `names`: strategy names (all nine when `None`); `count` overrides the workload's
/// task count; `clock_ms` is the caller's monotonic clock (the engine has none).
pub fn compare(
    text: &str,
    names: Option<&[String]>,
    count: Option<u64>,
    mut clock_ms: impl FnMut() -> f64,
) -> Result<Compared, CompareError> {
    let mut file = strategies::load_workload_str(text).map_err(CompareError::Load)?;
    if let Some(n) = count {
        if n > MAX_TASKS {
            return Err(CompareError::Options(format!(
                "count {n}: the limit is {MAX_TASKS} (MAX_TASKS)"
            )));
        }
        file.spec.count = n;
    }
    let names: Vec<&str> = match names {
        None => NAMES.to_vec(),
        Some(list) => list.iter().map(String::as_str).collect(),
    };
    if names.is_empty() {
        return Err(CompareError::Options(
            "strategies: no strategy named".into(),
        ));
    }
    let configs = names
        .iter()
        .map(|n| {
            file.config(n).ok_or_else(|| {
                CompareError::Options(format!(
                    "strategies: unknown strategy {n:?}; expected some of: {}",
                    NAMES.join(", ")
                ))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let workload = Workload::generate(&file.spec);
    let mut results = Vec::with_capacity(configs.len());
    let mut wall_ms = Vec::with_capacity(configs.len());
    for c in &configs {
        let t0 = clock_ms();
        results.push(strategies::run(c, &workload));
        wall_ms.push((c.name(), clock_ms() - t0));
    }
    // The document of `delaylab compare --format json` (crates/cli/src/compare.rs).
    let doc = json!({
        "workload": {"name": file.name, "tasks": workload.tasks.len(), "seed": file.spec.seed},
        "strategies": report::to_json(&results),
    });
    Ok(Compared { doc, wall_ms })
}
