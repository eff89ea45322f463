//! `delaylab`: run delaylab scenarios from the command line.
//!
//! ```text
//! delaylab run SCENARIO.json [--format json|text] [--trace FILE.jsonl]
//! delaylab bench --messages N --topology dlx-per-message|dlx-per-queue|plugin [--format json]
//! ```

mod alloc;
mod bench;
mod run;

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

#[global_allocator]
static ALLOC: alloc::Counting = alloc::Counting;

#[derive(Parser)]
#[command(name = "delaylab", version, about = "Simulate RabbitMQ delayed messaging (DLX + TTL, delayed-message exchange) in virtual time")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Json,
    Text,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run a scenario file to its end and print what happened.
    Run {
        /// Scenario JSON file (`-` reads standard input).
        scenario: String,
        #[arg(long, value_enum, default_value = "json")]
        format: Format,
        /// Write every engine event as one JSON line to this file.
        #[arg(long)]
        trace: Option<String>,
    },
    /// Measure the engine: N delayed messages through one topology, run to completion.
    Bench {
        #[arg(long, default_value_t = 1_000_000)]
        messages: u64,
        #[arg(long, value_enum)]
        topology: bench::Topology,
        #[arg(long, default_value_t = 42)]
        seed: u64,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Cmd::Run { scenario, format, trace } => run::main(&scenario, format, trace.as_deref()),
        Cmd::Bench { messages, topology, seed, format } => {
            let figures = bench::run(messages, topology, seed);
            let report = bench::report(messages, topology, &figures);
            match format {
                Format::Json => println!("{report}"),
                Format::Text => println!("{}", serde_json::to_string_pretty(&report).expect("json")),
            }
            ExitCode::SUCCESS
        }
    }
}
