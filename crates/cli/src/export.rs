//! `delaylab export definitions SCENARIO [--output FILE]`: the scenario's topology as a
//! RabbitMQ `definitions.json` (the format of `rabbitmqctl export_definitions` and the
//! management UI), which `rabbitmqctl import_definitions FILE` loads into vhost `/`.
//!
//! The file is built by the engine (`delaylab_engine::scenario::definitions`, shared with
//! the playground's "Export definitions" button); what it leaves out (the built-in
//! exchanges, exclusive queues, the timed actions) is noted on standard error.

use std::process::ExitCode;

use delaylab_engine::scenario::definitions::{export_definitions, export_notes};

pub fn main(path: &str, output: Option<&str>) -> ExitCode {
    let scenario = match crate::run::load(path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let defs = export_definitions(&scenario);
    for n in &export_notes(&scenario) {
        eprintln!("note: {n}");
    }
    let text = serde_json::to_string_pretty(&defs).expect("json") + "\n";
    match output {
        None | Some("-") => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Some(f) => match std::fs::write(f, text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{f}: cannot write: {e}");
                ExitCode::from(1)
            }
        },
    }
}
