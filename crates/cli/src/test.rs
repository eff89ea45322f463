//! `delaylab test FILE... [--broker V]... [--costs M] [--amqp URL] [--format F]`: runs
//! each scenario on each version it is written for (`versions`, or the `--broker`s
//! given) and evaluates its `checks` (`delaylab_engine::checks`); with `--amqp`, once on
//! that live broker through `replay`, the checks read from what it did.
//!
//! A check is expected on the versions of its own `versions`, else on the scenario's
//! (or on the `--broker`s given); on another version it is run and reported as not
//! expected there (`n/a`, counted with the skipped), never as a failure.
//!
//! Exit status: 0 when every check passed (a check a live broker cannot decide is
//! reported as skipped, not passed, and does not fail the run); 1 when one failed (or
//! could not be decided because the run stopped on a limit); 2 on bad input (a file
//! that does not load, a bad option), before anything runs.

use std::process::ExitCode;
use std::time::Instant;

use delaylab_engine::checks::{self, live, CheckState, Status};
use delaylab_engine::costs::CostMode;
use delaylab_engine::limits::Limits;
use delaylab_engine::report::text::clock;
use delaylab_engine::scenario::Scenario;
use delaylab_engine::version::BrokerVersion;

use crate::replay;
use crate::test_report::{self, TestFormat};

/// One scenario on one version (simulated or live), with its checks' states.
pub struct Run {
    /// The file (or link) as given on the command line.
    pub file: String,
    pub scenario: Scenario,
    pub version: BrokerVersion,
    /// The live broker (password hidden), when `--amqp` ran it.
    pub live: Option<String>,
    pub states: Vec<CheckState>,
    /// Said beside the run: stopped on a limit, no checks, not replayable.
    pub note: Option<String>,
    pub wall_ms: f64,
}

/// How a check counts in the summary and the exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    Fail,
    /// A live broker cannot decide it.
    Skip,
    /// Not expected on this run's version (the check's `versions`, else the scenario's):
    /// evaluated and shown, never a failure.
    NotExpected,
}

pub fn verdict(s: &CheckState) -> Verdict {
    if !s.expected_here {
        return Verdict::NotExpected;
    }
    match s.status {
        Status::Passed => Verdict::Pass,
        Status::Undecided if s.undecided.as_ref().is_some_and(|u| u.is_live()) => Verdict::Skip,
        // Pending after a finished run cannot happen; a stopped run's undecided check fails.
        Status::Failed | Status::Undecided | Status::Pending => Verdict::Fail,
    }
}

pub struct Options<'a> {
    pub files: &'a [String],
    pub brokers: &'a [String],
    pub costs: Option<&'a str>,
    pub amqp: Option<&'a str>,
    pub time_scale: f64,
    pub format: TestFormat,
}

pub fn main(o: Options) -> ExitCode {
    let runs = match inputs(&o) {
        Ok(inputs) => run_all(inputs, &o),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let runs = match runs {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    print!("{}", test_report::write(o.format, &runs));
    let failed = runs
        .iter()
        .flat_map(|r| &r.states)
        .any(|s| verdict(s) == Verdict::Fail);
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

struct Input {
    file: String,
    scenario: Scenario,
    versions: Vec<BrokerVersion>,
}

/// Every option and file checked before anything runs (bad input exits 2 at once).
fn inputs(o: &Options) -> Result<Vec<Input>, String> {
    let mut brokers = Vec::new();
    for b in o.brokers {
        let v = crate::broker::parse(Some(b))?.expect("a value was given");
        if !brokers.contains(&v) {
            brokers.push(v);
        }
    }
    if o.amqp.is_some() && brokers.len() > 1 {
        return Err(
            "--amqp runs on one live broker: give at most one --broker (its version)".into(),
        );
    }
    let costs: Option<CostMode> = o.costs.map(crate::costs::parse).transpose()?;
    let mut out = Vec::new();
    for f in o.files {
        let mut s = crate::run::load(f)?;
        if let Some(c) = &costs {
            s.costs = c.clone();
        }
        let versions = match (&o.amqp, brokers.is_empty()) {
            (Some(_), true) => vec![s.broker_version()],
            (_, false) => brokers.clone(),
            (None, true) => s.written_for(),
        };
        out.push(Input {
            file: f.clone(),
            scenario: s,
            versions,
        });
    }
    Ok(out)
}

fn run_all(inputs: Vec<Input>, o: &Options) -> Result<Vec<Run>, String> {
    let mut runs = Vec::new();
    for input in inputs {
        for &v in &input.versions {
            let mut s = input.scenario.clone();
            if s.broker.is_some() || v != BrokerVersion::default() {
                s.broker = Some(v);
            }
            if !o.brokers.is_empty() {
                // `--broker` says which versions the scenario is to hold on: a check
                // without `versions` of its own is expected on them.
                s.versions = input.versions.clone();
                s.versions.sort();
            }
            let run = match o.amqp {
                None => simulate(&input.file, s, v),
                Some(url) => on_live_broker(&input.file, s, v, url, o.time_scale)?,
            };
            runs.push(run);
        }
    }
    Ok(runs)
}

fn simulate(file: &str, s: Scenario, version: BrokerVersion) -> Run {
    let start = Instant::now();
    let (states, note) = if s.checks.is_empty() {
        (Vec::new(), Some("no checks".to_string()))
    } else {
        let (sim, ev) = checks::run::run(&s, Limits::default(), |_, _| {});
        let note = sim
            .stopped()
            .map(|st| format!("the run stopped at {}: {st}", clock(st.at_ms)));
        (ev.states().to_vec(), note)
    };
    Run {
        file: file.to_string(),
        scenario: s,
        version,
        live: None,
        states,
        note,
        wall_ms: start.elapsed().as_secs_f64() * 1000.0,
    }
}

fn on_live_broker(
    file: &str,
    s: Scenario,
    version: BrokerVersion,
    url: &str,
    time_scale: f64,
) -> Result<Run, String> {
    let start = Instant::now();
    let (ev, note) = match replay::live(&s, url, time_scale) {
        Ok(result) => (live::evaluate(&s.checks, &result), None),
        // The checks say it, one by one; the run goes on with the next file.
        Err(replay::Failure::BadInput(why)) => (live::not_replayable(&s.checks, &why), Some(why)),
        Err(replay::Failure::Interrupted { prefix }) => {
            return Err(format!(
                "interrupted; removed what was declared (prefix {prefix})"
            ))
        }
        Err(replay::Failure::Run(e)) => return Err(format!("{file}: replay: {e}")),
    };
    let ev = ev.expected_on(&s, version);
    Ok(Run {
        file: file.to_string(),
        scenario: s,
        version,
        live: Some(replay::redact(url)),
        states: ev.states().to_vec(),
        note,
        wall_ms: start.elapsed().as_secs_f64() * 1000.0,
    })
}
