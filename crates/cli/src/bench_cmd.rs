//! `delaylab bench`'s command: which topologies, how the figures are shown, and the
//! bounds a caller holds them to (CI: the bytes; its speed bound is an instruction count,
//! scripts/bench-instructions.sh, which says why).
//!
//! Without `--topology` every topology runs, one after the other, so that their figures
//! sit side by side. `--max-ratio R` fails (exit 1) a topology whose engine took more
//! than R times the floor's CPU time, `--max-bytes B` one whose peak heap per waiting
//! message was over B bytes; each failure is named on stderr.
//!
//! The ratio that is bounded is of CPU time, not wall time: both spans run in the same
//! process, the floor just before and just after the engine in each of `--runs` runs,
//! and a busy machine adds waiting for a core to either wall time at random (a CI
//! runner's neighbours), which CPU time does not count. Each run's ratio is its own
//! (`bench::best_of`); the bound holds the lowest. On an idle machine the CPU and wall
//! ratios agree.
//!
//! ```text
//! delaylab bench --messages 1000000 --runs 5 --max-ratio 2 --max-bytes 250
//! topology         messages runs  engine ms  floor ms  ratio  cpu ratio   events/s  B/waiting
//! dlx-per-message   1000000    5      401.2     389.5   1.03       1.02   19940000      176.4
//! ```

use std::process::ExitCode;

use delaylab_engine::costs::CostMode;
use serde_json::Value;

use crate::bench::{self, Topology};
use crate::Format;

pub struct Options {
    pub messages: u64,
    /// Empty: every topology.
    pub topologies: Vec<Topology>,
    pub seed: u64,
    pub runs: u32,
    pub format: Format,
    pub costs: CostMode,
    pub costs_name: String,
    pub max_ratio: Option<f64>,
    pub max_bytes: Option<f64>,
}

pub fn main(o: Options) -> ExitCode {
    let topologies = if o.topologies.is_empty() {
        <Topology as clap::ValueEnum>::value_variants().to_vec()
    } else {
        o.topologies.clone()
    };
    if o.format == Format::Text {
        println!("{}", header());
    }
    let mut failures = Vec::new();
    for t in topologies {
        let figures = bench::best_of(o.runs, o.messages, t, o.seed, &o.costs);
        let mut report = bench::report(o.messages, t, &figures);
        report["costs"] = Value::from(o.costs_name.as_str());
        match o.format {
            Format::Json => println!("{report}"),
            Format::Text => println!("{}", row(&report)),
        }
        failures.extend(over_bounds(&report, o.max_ratio, o.max_bytes));
    }
    for f in &failures {
        eprintln!("{f}");
    }
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// What in a topology's report is over the bounds, one sentence each.
fn over_bounds(report: &Value, max_ratio: Option<f64>, max_bytes: Option<f64>) -> Vec<String> {
    let name = report["topology"].as_str().unwrap_or("?");
    let mut out = Vec::new();
    let ratio = report["cpu_ratio_to_floor"]
        .as_f64()
        .unwrap_or(f64::INFINITY);
    if let Some(max) = max_ratio.filter(|max| ratio > *max) {
        out.push(format!(
            "{name}: the engine took {ratio:.2}x the floor's CPU time in its best run (bound {max}x; each run: {}; best wall times {:.2}x)",
            report["cpu_ratios"],
            report["ratio_to_floor"].as_f64().unwrap_or(f64::NAN)
        ));
    }
    let bytes = report["bytes_per_waiting_message"]
        .as_f64()
        .unwrap_or(f64::INFINITY);
    if let Some(max) = max_bytes.filter(|max| bytes > *max) {
        out.push(format!(
            "{name}: {bytes:.1} bytes of heap per waiting message at the peak (bound {max})"
        ));
    }
    out
}

fn header() -> String {
    format!(
        "{:<18}{:>9}{:>5}{:>11}{:>10}{:>7}{:>11}{:>12}{:>11}",
        "topology",
        "messages",
        "runs",
        "engine ms",
        "floor ms",
        "ratio",
        "cpu ratio",
        "events/s",
        "B/waiting"
    )
}

fn row(r: &Value) -> String {
    let f = |k: &str| r[k].as_f64().unwrap_or(f64::NAN);
    format!(
        "{:<18}{:>9}{:>5}{:>11.1}{:>10.1}{:>7.2}{:>11.2}{:>12.0}{:>11.1}",
        r["topology"].as_str().unwrap_or("?"),
        r["messages"].as_u64().unwrap_or(0),
        r["runs"].as_u64().unwrap_or(0),
        f("wall_ms"),
        f("floor_wall_ms"),
        f("ratio_to_floor"),
        f("cpu_ratio_to_floor"),
        f("events_per_s"),
        f("bytes_per_waiting_message"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn report(cpu_ratio: f64, bytes: f64) -> Value {
        json!({"topology": "plugin", "cpu_ratio_to_floor": cpu_ratio, "ratio_to_floor": 3.1,
               "bytes_per_waiting_message": bytes})
    }

    #[test]
    fn a_figure_over_its_bound_is_named_and_one_within_is_not() {
        assert!(over_bounds(&report(1.9, 249.0), Some(2.0), Some(250.0)).is_empty());
        let over = over_bounds(&report(2.01, 251.5), Some(2.0), Some(250.0));
        assert_eq!(over.len(), 2, "{over:?}");
        assert!(
            over[0].starts_with("plugin: the engine took 2.01x"),
            "{}",
            over[0]
        );
        assert!(over[1].contains("251.5 bytes") && over[1].contains("bound 250"));
        assert!(over_bounds(&report(9.0, 900.0), None, None).is_empty());
    }

    #[test]
    fn the_table_lines_up() {
        let r = json!({"topology": "dlx-per-message", "messages": 1000000, "runs": 5,
            "wall_ms": 401.2, "floor_wall_ms": 389.5, "ratio_to_floor": 1.03,
            "cpu_ratio_to_floor": 1.02, "events_per_s": 19940000.0,
            "bytes_per_waiting_message": 176.389});
        assert_eq!(header().len(), row(&r).len());
        assert!(row(&r).ends_with("176.4"));
    }
}
