//! `delaylab compare WORKLOAD`: every selected delay strategy on one workload, as an
//! aligned table or as `{"workload": {...}, "strategies": [...]}`.
//!
//! The workload file format is `delaylab_engine::strategies::load` (README: "Workload
//! files"). A file that does not load, or an unknown strategy name, exits with status 2
//! and one line naming the problem. `--timing` prints each strategy's wall time to
//! standard error (the output itself stays deterministic).

use std::process::ExitCode;
use std::time::Instant;

use delaylab_engine::strategies::{self, report, Config, Workload, NAMES};
use serde_json::json;

use crate::Format;

pub fn main(
    path: &str,
    selected: Option<&str>,
    count: Option<u64>,
    format: Format,
    timing: bool,
    broker: Option<delaylab_engine::version::BrokerVersion>,
    costs: delaylab_engine::costs::CostMode,
) -> ExitCode {
    match compare(path, selected, count, format, timing, broker, costs) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

fn compare(
    path: &str,
    selected: Option<&str>,
    count: Option<u64>,
    format: Format,
    timing: bool,
    broker: Option<delaylab_engine::version::BrokerVersion>,
    costs: delaylab_engine::costs::CostMode,
) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read: {e}"))?;
    let mut file = strategies::load_workload_str(&text).map_err(|e| format!("{path}: {e}"))?;
    if let Some(n) = count {
        if n > strategies::load::MAX_TASKS {
            return Err(format!(
                "--count {n}: the limit is {} (MAX_TASKS)",
                strategies::load::MAX_TASKS
            ));
        }
        file.spec.count = n;
    }
    let configs = configs(&file, selected)?;
    let mut workload = Workload::generate(&file.spec);
    workload.broker = broker;
    workload.costs = costs;
    let total = Instant::now();
    let mut results = Vec::new();
    for c in &configs {
        let start = Instant::now();
        results.push(strategies::run(c, &workload));
        if timing {
            eprintln!(
                "{:<16} {:>9.1} ms",
                c.name(),
                start.elapsed().as_secs_f64() * 1000.0
            );
        }
    }
    if timing {
        eprintln!(
            "{:<16} {:>9.1} ms",
            "total",
            total.elapsed().as_secs_f64() * 1000.0
        );
    }
    Ok(match format {
        Format::Json => {
            let doc = json!({
                "workload": {"name": file.name, "tasks": workload.tasks.len(), "seed": file.spec.seed},
                "strategies": report::to_json(&results),
            });
            format!("{doc}\n")
        }
        Format::Text => format!(
            "{} ({} tasks)\n{}",
            file.name,
            workload.tasks.len(),
            report::text_table(&results)
        ),
    })
}

fn configs(file: &strategies::WorkloadFile, selected: Option<&str>) -> Result<Vec<Config>, String> {
    let names: Vec<&str> = match selected {
        None => NAMES.to_vec(),
        Some(list) => list
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect(),
    };
    if names.is_empty() {
        return Err("--strategies: no strategy named".into());
    }
    names
        .iter()
        .map(|n| {
            file.config(n).ok_or_else(|| {
                format!(
                    "--strategies: unknown strategy {n:?}; expected some of: {}",
                    NAMES.join(", ")
                )
            })
        })
        .collect()
}
