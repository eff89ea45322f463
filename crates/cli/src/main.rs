//! `delaylab`: run delaylab scenarios from the command line.
//!
//! ```text
//! delaylab run SCENARIO.json [--format json|text] [--trace FILE.jsonl]
//! delaylab bench [--messages N] [--topology dlx-per-message|dlx-per-queue|plugin|qq-delivery-time]... [--runs K] [--format json] [--max-ratio R] [--max-bytes B]
//! delaylab replay SCENARIO.json --amqp URL [--time-scale F] [--broker V] | --check
//! delaylab calibrate --amqp URL [--out FILE] [--broker V] [--queue-type classic|quorum]
//! delaylab diff A.json B.json [--tolerance-ms N] [--unordered QUEUE]...
//! delaylab export definitions SCENARIO.json [--output FILE]
//! delaylab export code --lang java|spring|python|node|go|rust SCENARIO.json --out DIR [--comments en|zh]
//! delaylab link SCENARIO.json [--base URL]
//! delaylab compare WORKLOAD.json [--strategies a,b,...] [--count N] [--format json|text] [--timing]
//! delaylab test SCENARIO.json... [--broker V]... [--costs M] [--amqp URL] [--format text|tap|junit|json]
//! ```

mod alloc;
mod bench;
mod bench_cmd;
mod broker;
mod calibrate;
mod compare;
mod costs;
mod cpu;
mod diff;
mod export;
mod export_code;
mod link;
mod replay;
mod run;
mod test;
mod test_report;

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

#[global_allocator]
static ALLOC: alloc::Counting = alloc::Counting;

#[derive(Parser)]
#[command(
    name = "delaylab",
    version,
    about = "Simulate RabbitMQ delayed messaging (DLX + TTL, delayed-message exchange) in virtual time"
)]
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
        /// RabbitMQ version profile (3.10, 3.13, 4.0, 4.1, 4.2, 4.3, 4.4), overriding the file's `broker`.
        #[arg(long)]
        broker: Option<String>,
        /// Broker costs: ideal, measured, or a cost file from `calibrate` (overrides the scenario's `costs`).
        #[arg(long)]
        costs: Option<String>,
    },
    /// Measure the engine: N delayed messages through each topology, run to completion.
    Bench {
        #[arg(long, default_value_t = 1_000_000)]
        messages: u64,
        /// The topology to measure (repeatable); without it, every topology.
        #[arg(long, value_enum)]
        topology: Vec<bench::Topology>,
        #[arg(long, default_value_t = 42)]
        seed: u64,
        /// Run the engine and the floor this many times each and report the fastest of
        /// each (a busy machine only ever makes a run slower).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20))]
        runs: u32,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Broker costs: ideal, measured, or a cost file from `calibrate`.
        #[arg(long, default_value = "ideal")]
        costs: String,
        /// Fail (exit 1) if a topology's engine takes more than this many times the
        /// floor's CPU time.
        #[arg(long)]
        max_ratio: Option<f64>,
        /// Fail (exit 1) if a topology's peak heap per waiting message is over this many bytes.
        #[arg(long)]
        max_bytes: Option<f64>,
    },
    /// Run a scenario on a live RabbitMQ and print the same JSON as `run`.
    Replay {
        /// Scenario JSON file (`-` reads standard input).
        scenario: String,
        /// The broker, e.g. amqp://guest:guest@127.0.0.1:5672/%2F
        #[arg(long, required_unless_present = "check")]
        amqp: Option<String>,
        /// Multiply every duration (times, TTLs, handle times) by F; the output is in scenario ms.
        #[arg(long, default_value_t = 1.0)]
        time_scale: f64,
        /// The version of the broker replayed against (3.10, ..., 4.3), overriding the
        /// file's `broker`; the output's results are compared with a run on that profile.
        #[arg(long)]
        broker: Option<String>,
        /// Only say whether the scenario is for a live broker of this version (exit 0,
        /// printing the node settings it needs, `set_env KEY TERM`) or why not (exit 3).
        #[arg(long)]
        check: bool,
    },
    /// Measure a live RabbitMQ (publish, dead-letter and delivery rates, a round trip) and write a cost file.
    Calibrate {
        /// The broker, e.g. amqp://guest:guest@127.0.0.1:5672/%2F
        #[arg(long)]
        amqp: String,
        /// Write the cost profile here (else to standard output).
        #[arg(long)]
        out: Option<String>,
        /// The version of the broker measured (3.10, ..., 4.3): the figures not measured
        /// are that version's built-in `measured` ones.
        #[arg(long)]
        broker: Option<String>,
        /// The queue type measured: classic (the default) or quorum.
        #[arg(long, default_value = "classic")]
        queue_type: String,
    },
    /// Compare two results (e.g. `run` against `replay`); exit 0 agree, 1 differ, 2 bad input.
    Diff {
        a: String,
        b: String,
        /// How far apart two times may be and still agree.
        #[arg(long, default_value_t = 50)]
        tolerance_ms: u64,
        /// A queue whose order of deliveries is not compared (repeatable): where the broker
        /// sets no order, e.g. at-least-once dead letters a quorum queue retries.
        #[arg(long = "unordered", value_name = "QUEUE")]
        unordered: Vec<String>,
    },
    /// Every delay strategy (polling, stores, timing wheel, DLX variants, plugin) on one workload.
    Compare {
        /// Workload JSON file (see README, "Workload files").
        workload: String,
        /// Comma-separated strategy names (default: all nine).
        #[arg(long)]
        strategies: Option<String>,
        /// Override the workload's task count.
        #[arg(long)]
        count: Option<u64>,
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Print each strategy's wall time to standard error.
        #[arg(long)]
        timing: bool,
        /// RabbitMQ version profile the broker strategies run on (default 3.10).
        #[arg(long)]
        broker: Option<String>,
        /// Broker costs for the broker strategies: ideal, measured, or a cost file.
        #[arg(long, default_value = "ideal")]
        costs: String,
    },
    /// Run scenarios and evaluate their `checks` on each version they are written for;
    /// exit 0 all passed, 1 one failed, 2 bad input.
    Test {
        /// Scenario files (or share links).
        #[arg(required = true)]
        files: Vec<String>,
        /// A RabbitMQ version to run on; repeat for several (default: each scenario's
        /// `versions`, or its `broker`). With --amqp: the live broker's version.
        #[arg(long = "broker")]
        brokers: Vec<String>,
        /// Broker costs: ideal, measured, or a cost file from `calibrate`.
        #[arg(long)]
        costs: Option<String>,
        /// Run on this live broker through `replay` instead of the simulation.
        #[arg(long)]
        amqp: Option<String>,
        /// With --amqp: multiply every duration by F (as `replay --time-scale`).
        #[arg(long, default_value_t = 1.0)]
        time_scale: f64,
        #[arg(long, value_enum, default_value = "text")]
        format: test_report::TestFormat,
    },
    /// Print the scenario's share link (the playground's "Copy link"), alone on one line.
    Link {
        /// Scenario JSON file (`-` reads standard input).
        scenario: String,
        /// Where the playground is served.
        #[arg(long, default_value = link::DEFAULT_BASE)]
        base: String,
    },
    /// Export a scenario for a real broker.
    Export {
        #[command(subcommand)]
        what: ExportCmd,
    },
}

#[derive(Subcommand)]
enum ExportCmd {
    /// The topology as a definitions.json for `rabbitmqctl import_definitions`.
    Definitions {
        scenario: String,
        /// Write here instead of standard output.
        #[arg(long, short)]
        output: Option<String>,
    },
    /// The scenario as a runnable program, with DIR/run.sh AMQP_URL [TIME_SCALE].
    Code {
        #[arg(long)]
        lang: String,
        scenario: String,
        #[arg(long)]
        out: String,
        /// The comments' language.
        #[arg(long, default_value = "en")]
        comments: String,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let broker_opt = match &cli.command {
        Cmd::Run { broker, .. }
        | Cmd::Replay { broker, .. }
        | Cmd::Compare { broker, .. }
        | Cmd::Calibrate { broker, .. } => broker.as_deref(),
        _ => None,
    };
    let broker = match broker::parse(broker_opt) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match cli.command {
        Cmd::Run {
            scenario,
            format,
            trace,
            costs,
            ..
        } => {
            let costs = match costs.as_deref().map(costs::parse).transpose() {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(2);
                }
            };
            run::main(&scenario, format, trace.as_deref(), broker, costs)
        }
        Cmd::Bench {
            messages,
            topology,
            seed,
            runs,
            format,
            costs,
            max_ratio,
            max_bytes,
        } => {
            let mode = match costs::parse(&costs) {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(2);
                }
            };
            bench_cmd::main(bench_cmd::Options {
                messages,
                topologies: topology,
                seed,
                runs,
                format,
                costs_name: costs::name(&mode),
                costs: mode,
                max_ratio,
                max_bytes,
            })
        }
        Cmd::Replay {
            scenario,
            amqp,
            time_scale,
            check,
            ..
        } => replay::main(&scenario, amqp.as_deref(), time_scale, broker, check),
        Cmd::Calibrate {
            amqp,
            out,
            queue_type,
            ..
        } => {
            match calibrate::QueueType::parse(&queue_type) {
                Some(qt) => calibrate::main(&amqp, out.as_deref(), broker.unwrap_or_default(), qt),
                None => {
                    eprintln!("--queue-type: unknown queue type {queue_type:?}; expected classic or quorum");
                    ExitCode::from(2)
                }
            }
        }
        Cmd::Diff {
            a,
            b,
            tolerance_ms,
            unordered,
        } => diff::main(&a, &b, tolerance_ms, &unordered),
        Cmd::Compare {
            workload,
            strategies,
            count,
            format,
            timing,
            costs,
            ..
        } => match costs::parse(&costs) {
            Ok(costs) => compare::main(
                &workload,
                strategies.as_deref(),
                count,
                format,
                timing,
                broker,
                costs,
            ),
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(2)
            }
        },
        Cmd::Link { scenario, base } => link::main(&scenario, &base),
        Cmd::Test {
            files,
            brokers,
            costs,
            amqp,
            time_scale,
            format,
        } => test::main(test::Options {
            files: &files,
            brokers: &brokers,
            costs: costs.as_deref(),
            amqp: amqp.as_deref(),
            time_scale,
            format,
        }),
        Cmd::Export {
            what: ExportCmd::Definitions { scenario, output },
        } => export::main(&scenario, output.as_deref()),
        Cmd::Export {
            what:
                ExportCmd::Code {
                    lang,
                    scenario,
                    out,
                    comments,
                },
        } => export_code::main(&scenario, &lang, &out, &comments),
    }
}
