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
    costs: Option<delaylab_engine::costs::CostMode>,
) -> ExitCode {
    let scenario = match load(path) {
        Ok(mut s) => {
            if broker.is_some() {
                s.broker = broker; // --broker overrides the file
            }
            if let Some(c) = costs {
                s.costs = c;
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
    let limits = Limits::default();
    let mut rec = Recorder::default();
    // JSON goes out as it is produced: a 200,000-delivery run holds none of them.
    rec.streaming = format == Format::Json;
    rec.with_confirms = true; // `nacked`, compared with replay's by `delaylab diff`
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut stream = DeliveryStream::default();
    let mut lines: Vec<String> = Vec::new();
    let mut hidden = 0u64;
    let mut io_error = None;
    if rec.streaming {
        if let Err(e) = stream.start(
            &mut out,
            &scenario.name,
            scenario.broker.map(|b| b.as_str()),
        ) {
            io_error.get_or_insert(e);
        }
    }
    let sim = report::run_checked(&scenario, limits, |e, sim| {
        rec.on_event(e, sim);
        if rec.streaming {
            for d in rec.deliveries.drain(..) {
                if let Err(err) = stream.item(&mut out, &d) {
                    io_error.get_or_insert(err);
                }
            }
        }
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
        rec.over_budget(&limits)
    });
    let mut result = rec.finish(&scenario, &sim);
    result["stats"]["wall_ms"] =
        serde_json::json!((start.elapsed().as_secs_f64() * 1e6).round() / 1000.0);
    if let Some(err) = io_error.or_else(|| trace_out.as_mut().and_then(|o| o.flush().err())) {
        eprintln!("trace: {err}");
        return ExitCode::from(1);
    }
    let written = match format {
        Format::Json => stream.finish(&mut out, &result),
        Format::Text => (|| {
            writeln!(out, "{}", scenario.name)?;
            for l in &lines {
                writeln!(out, "{l}")?;
            }
            if hidden > 0 {
                writeln!(
                    out,
                    "  ... {hidden} more events (--trace FILE writes them all)"
                )?;
            }
            write!(out, "{}", text::summary(&result))
        })(),
    };
    if let Err(e) = written.and_then(|()| out.flush()) {
        eprintln!("output: {e}");
        return ExitCode::from(1);
    }
    match sim.stopped() {
        Some(stop) => {
            // The result above says so too (`limit_reached`, `stopped`).
            eprintln!("stopped at {}: {stop}", text::clock(stop.at_ms));
            ExitCode::from(STOPPED_BY_LIMIT)
        }
        None => ExitCode::SUCCESS,
    }
}

/// Exit status of a run a limit stopped (its result is still printed in full).
const STOPPED_BY_LIMIT: u8 = 3;

/// Writes the result JSON with its deliveries as they are produced, byte for byte as
/// `serde_json::to_string_pretty` writes the whole result: `scenario` and `deliveries`
/// come first in it, so the rest is written once the run is over.
#[derive(Default)]
struct DeliveryStream {
    written: u64,
}

/// A delivery sits two levels deep (result object, deliveries array).
const ITEM_INDENT: &str = "    ";

impl DeliveryStream {
    /// The keys before `deliveries`, as the report puts them: `scenario`, and `broker`
    /// when the scenario names a version.
    fn start(
        &mut self,
        out: &mut impl Write,
        name: &str,
        broker: Option<&str>,
    ) -> std::io::Result<()> {
        let name = serde_json::to_string(name).expect("a string serializes");
        write!(out, "{{\n  \"scenario\": {name},")?;
        if let Some(b) = broker {
            let b = serde_json::to_string(b).expect("a string serializes");
            write!(out, "\n  \"broker\": {b},")?;
        }
        write!(out, "\n  \"deliveries\": [")
    }

    fn item(&mut self, out: &mut impl Write, d: &serde_json::Value) -> std::io::Result<()> {
        out.write_all(if self.written == 0 { b"\n" } else { b",\n" })?;
        self.written += 1;
        // JSON strings never hold a raw newline, so every line is one of the value's.
        let text = serde_json::to_string_pretty(d).expect("json");
        for (i, line) in text.lines().enumerate() {
            if i > 0 {
                out.write_all(b"\n")?;
            }
            out.write_all(ITEM_INDENT.as_bytes())?;
            out.write_all(line.as_bytes())?;
        }
        Ok(())
    }

    /// The end of the array, then everything after `deliveries` in `result` (whose
    /// `deliveries` is empty: they were written already).
    fn finish(&mut self, out: &mut impl Write, result: &serde_json::Value) -> std::io::Result<()> {
        out.write_all(if self.written == 0 { b"]" } else { b"\n  ]" })?;
        let whole = serde_json::to_string_pretty(result).expect("json");
        let marker = "\"deliveries\": []";
        let at = whole.find(marker).expect("deliveries is the second key") + marker.len();
        writeln!(out, "{}", &whole[at..])
    }
}
