//! `delaylab run`: the headless run contract of `shared/docs/scenario-format.md`.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::process::ExitCode;
use std::time::Instant;

use delaylab_engine::limits::Limits;
use delaylab_engine::report::{self, text, trace, Recorder};
use delaylab_engine::scenario::{self, Scenario};

use crate::Format;

/// Reads and loads a scenario file, or a share link (`delaylab link`); the error is one
/// line naming the JSON path, or saying what is wrong with the link.
pub fn load(path: &str) -> Result<Scenario, String> {
    if crate::link::is_link(path) {
        return crate::link::load(path);
    }
    let mut src = String::new();
    let read = if path == "-" {
        std::io::stdin().read_to_string(&mut src).map(|_| ())
    } else {
        File::open(path)
            .and_then(|mut f| f.read_to_string(&mut src))
            .map(|_| ())
    };
    read.map_err(|e| format!("{path}: cannot read: {e}"))?;
    scenario::load_str(&src).map_err(|e| format!("{path}: {e}"))
}

pub fn main(
    path: &str,
    format: Format,
    trace_path: Option<&str>,
    broker: Option<delaylab_engine::version::BrokerVersion>,
) -> ExitCode {
    let scenario = match load(path) {
        Ok(mut s) => {
            if broker.is_some() {
                s.broker = broker; // --broker overrides the file
            }
            s
        }
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut trace_out = match trace_path.map(File::create).transpose() {
        Ok(f) => f.map(BufWriter::new),
        Err(e) => {
            eprintln!(
                "{}: cannot write trace: {e}",
                trace_path.unwrap_or_default()
            );
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let mut rec = Recorder::default();
    let mut lines: Vec<String> = Vec::new();
    let mut hidden = 0u64;
    let mut io_error = None;
    let sim = report::run_with(&scenario, Limits::default(), |e, sim| {
        rec.on_event(e, sim);
        if let Some(out) = trace_out.as_mut() {
            if let Err(err) = writeln!(out, "{}", trace::event_json(e, sim)) {
                io_error.get_or_insert(err);
            }
        }
        if format == Format::Text {
            match text::line(e, sim) {
                Some(l) if lines.len() < text::MAX_LINES => lines.push(l),
                Some(_) => hidden += 1,
                None => {}
            }
        }
    });
    let mut result = rec.finish(&scenario, &sim);
    result["stats"]["wall_ms"] =
        serde_json::json!((start.elapsed().as_secs_f64() * 1e6).round() / 1000.0);
    if let Some(err) = io_error.or_else(|| trace_out.as_mut().and_then(|o| o.flush().err())) {
        eprintln!("trace: {err}");
        return ExitCode::from(1);
    }
    match format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&result).expect("json")),
        Format::Text => {
            println!("{}", scenario.name);
            for l in &lines {
                println!("{l}");
            }
            if hidden > 0 {
                println!("  ... {hidden} more events (--trace FILE writes them all)");
            }
            print!("{}", text::summary(&result));
        }
    }
    ExitCode::SUCCESS
}
