//! `delaylab replay SCENARIO --amqp URL [--time-scale F]`: the same scenario on a live
//! RabbitMQ, reported in the JSON of `delaylab run` so that `delaylab diff` can compare.
//!
//! How the run maps onto AMQP (the assumptions the simulation makes):
//!
//! - One connection does everything the scenario's actions do (declare, delete, purge,
//!   basic.get, publish in confirm mode; confirms, returns and nacks are collected
//!   before the next action, or up to 500 in flight when publishes come back to back,
//!   and a publish with a malformed `expiration` is always sent alone). When the broker
//!   closes its channel (a 406 for a bad `expiration`, a 404, ...) the error is recorded
//!   and a new channel is opened; a connection error (503) reconnects it.
//! - Each consumer has a connection of its own with one channel (`basic.qos` =
//!   prefetch, `global` as its `global_qos` says; no-ack for `ack: "auto"`), attached
//!   at `from` and closed at `to` (closing requeues what they hold). Each delivery is held `handle` ms, then acked, rejected
//!   (requeue=false) or nacked with requeue, following the outcome plan.
//! - Names get a unique prefix (`names.rs`; which strings are names is the engine's
//!   `scenario::rename`: exchange and queue names, and every routing or binding key
//!   that names a scenario queue, so routing stays what it was) and are mapped back in
//!   the output; every
//!   duration is multiplied by `--time-scale`, and the times in the output divided by
//!   it again. Each message carries a header `x-delaylab-id` so its publish time is
//!   known at delivery; the header is removed from the output.
//! - What the broker drops cannot be seen: `dropped` stays empty. `final.queues` holds
//!   each queue's depth (passive declare: ready; unacked: what the replay's consumers
//!   hold) so that drops show up there.
//! - Everything declared is deleted at the end, also on Ctrl-C / SIGTERM.
//!
//! Modules, one concept each: [`recording`] (what is recorded while it runs, shared by
//! the tasks), [`session`] (the actions' connection and channel, reopened after errors;
//! the clean-up), [`actions`] (publishing with confirms, declare, delete, purge, get),
//! [`consumers`] (one task per consumer), [`output`] (the run contract it prints),
//! [`names`] (unique names and `--time-scale`), [`convert`] (AMQP values <-> JSON).
//! This file holds the command and the timeline: topology at 0, consumers, then the
//! timed actions in the simulation's order.

mod actions;
mod consumers;
mod convert;
pub mod names;
mod output;
mod recording;
mod session;

/// The header that carries a message's replay id (calibrate puts it on its messages too).
pub use recording::ID_HEADER;

use std::process::ExitCode;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::Value;

use delaylab_engine::report;
use delaylab_engine::scenario::rename::Rename;
use delaylab_engine::scenario::{ActionKind, Declare, ExchangeDef, Scenario};

use actions::{act, declare, flush};
use consumers::{attach, consume};
use names::{Names, Scale};
use recording::{Rec, Shared};
pub use session::redact;
use session::{cleanup, connect, Actions, REPLY_SUCCESS};

/// Extra real time to wait after the scenario's end for the broker's last steps.
const GRACE_UNTIL: Duration = Duration::from_millis(25);
const GRACE_IDLE: Duration = Duration::from_millis(300);
/// Confirms in flight are collected before an action when it is due later than this
/// (else a dense stream of publishes keeps up to `actions::MAX_IN_FLIGHT` in flight).
const FLUSH_SLACK: Duration = Duration::from_millis(3);

/// `--check`'s exit status when the scenario is not for this broker (plugin, node actions,
/// not written for the version): a conformance run skips it, saying why.
const NOT_FOR_THIS_BROKER: u8 = 3;

pub fn main(
    path: &str,
    url: Option<&str>,
    time_scale: f64,
    broker: Option<delaylab_engine::version::BrokerVersion>,
    check: bool,
) -> ExitCode {
    let scenario = match crate::run::load(path) {
        Ok(mut s) => {
            if broker.is_some() {
                s.broker = broker; // the version of the broker given, as `run --broker`
            }
            s
        }
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if check {
        return check_only(path, &scenario, time_scale);
    }
    let Some(url) = url else {
        eprintln!("--amqp URL is needed (or --check)");
        return ExitCode::from(2);
    };
    match live(&scenario, url, time_scale) {
        Ok(result) => {
            println!("{}", serde_json::to_string_pretty(&result).expect("json"));
            ExitCode::SUCCESS
        }
        Err(Failure::BadInput(e)) => {
            eprintln!("{path}: {e}");
            ExitCode::from(2)
        }
        Err(Failure::Interrupted { prefix }) => {
            eprintln!("interrupted; removed what was declared (prefix {prefix})");
            ExitCode::from(130)
        }
        Err(Failure::Run(e)) => {
            eprintln!("replay: {e}");
            ExitCode::from(1)
        }
    }
}

/// Why a replay gave no result.
pub enum Failure {
    /// The scenario cannot run on a live broker, or an option is bad (exit status 2).
    BadInput(String),
    /// Ctrl-C / SIGTERM: what was declared is removed (exit status 130).
    Interrupted { prefix: String },
    /// The broker or the connection failed (exit status 1).
    Run(String),
}

/// Replays `scenario` on the broker at `url` and returns the run contract's JSON (what
/// `delaylab replay` prints; `delaylab test --amqp` evaluates the checks on it).
pub fn live(scenario: &Scenario, url: &str, time_scale: f64) -> Result<Value, Failure> {
    if !(time_scale.is_finite() && time_scale > 0.0) {
        return Err(Failure::BadInput(format!(
            "--time-scale must be a positive number, got {time_scale}"
        )));
    }
    if let Some(why) = unsupported(scenario) {
        return Err(Failure::BadInput(format!(
            "cannot replay on a live broker: {why}"
        )));
    }
    let names = Names::random().rename(scenario);
    // Where the renaming could route differently (topic patterns naming a queue): said,
    // not hidden, so a difference in `diff` can be read.
    for c in names.caveats(scenario) {
        eprintln!("replay: warning: {c}");
    }
    let scale = Scale(time_scale);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Failure::Run(format!("cannot start the async runtime: {e}")))?;
    let started = Instant::now();
    let outcome = rt.block_on(async {
        let run = replay(scenario, url, names.clone(), scale);
        let outcome = tokio::select! {
            r = run => r,
            _ = interrupted() => Err("interrupted".to_string()),
        };
        if let Err(e) = cleanup(url, &names).await {
            eprintln!("cleanup: {e} (names start with {})", names.prefix());
        }
        outcome
    });
    rt.shutdown_timeout(Duration::from_millis(500));
    match outcome {
        Ok(mut result) => {
            output::set_wall_ms(&mut result, started.elapsed());
            Ok(result)
        }
        Err(e) if e == "interrupted" => Err(Failure::Interrupted {
            prefix: names.prefix().to_string(),
        }),
        Err(e) => Err(Failure::Run(e)),
    }
}

/// `--check`: whether the scenario is one to replay on a live broker of its version
/// (exit 0) or not (exit [`NOT_FOR_THIS_BROKER`], the reason on stderr), and on stdout the
/// node settings the replay needs, one `set_env KEY ERLANG-TERM` line each (the caller
/// applies them with `rabbitmqctl eval 'application:set_env(rabbit, KEY, TERM).'`).
fn check_only(path: &str, scenario: &Scenario, time_scale: f64) -> ExitCode {
    if !(time_scale.is_finite() && time_scale > 0.0) {
        eprintln!("--time-scale must be a positive number, got {time_scale}");
        return ExitCode::from(2);
    }
    let scale = Scale(time_scale);
    let v = scenario.broker_version();
    let why = if !scenario.written_for().contains(&v) {
        let list: Vec<&str> = scenario.written_for().iter().map(|v| v.as_str()).collect();
        Some(format!(
            "written for RabbitMQ {} only (`versions`)",
            list.join(", ")
        ))
    } else {
        unsupported(scenario)
    };
    if let Some(why) = why {
        eprintln!("{path}: not for a live RabbitMQ {v}: {why}");
        return ExitCode::from(NOT_FOR_THIS_BROKER);
    }
    for (key, term) in node_settings(scenario, scale) {
        println!("set_env {key} {term}");
    }
    ExitCode::SUCCESS
}

/// The node-wide settings a scenario assumes that are not RabbitMQ's defaults, as
/// `rabbit` application keys and Erlang terms: `consumer_timeout` (D21; the scenario's
/// `consumer_timeout`, scaled like every duration).
pub fn node_settings(scenario: &Scenario, scale: Scale) -> Vec<(&'static str, String)> {
    use delaylab_engine::scenario::ConsumerTimeoutSetting;
    match scenario.consumer_timeout {
        ConsumerTimeoutSetting::Default => Vec::new(),
        // `{consumer_timeout, undefined}` turns it off (rabbit_channel.erl get_consumer_timeout/0).
        ConsumerTimeoutSetting::Off => vec![("consumer_timeout", "undefined".into())],
        ConsumerTimeoutSetting::After { timeout_ms } => vec![(
            "consumer_timeout",
            scale.ms_i64(timeout_ms as i64).to_string(),
        )],
    }
}

async fn interrupted() {
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => return std::future::pending().await,
            };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Why a scenario cannot run on a stock broker of its version (Debian has no
/// delayed-message plugin, and a replay does not stop the user's node).
///
/// The plugin: where the version's profile runs it (3.10 to 4.2), a live broker without
/// it would refuse what the simulation accepts, so there is nothing to compare; 4.3 has
/// no plugin build (D27), so simulation and broker both refuse `x-delayed-message` as an
/// unknown exchange type, and that is compared.
pub fn unsupported(s: &Scenario) -> Option<String> {
    let v = s.broker_version();
    let needs_plugin = v.profile().delayed_plugin;
    let plugin = |x: &ExchangeDef| {
        needs_plugin && x.kind == delaylab_engine::amqp::exchange_args::DELAYED_TYPE
    };
    if let Some(x) = s.topology.exchanges.iter().find(|x| plugin(x)) {
        return Some(format!(
            "exchange '{}' needs the delayed-message plugin (x-delayed-message), which RabbitMQ {v} runs in the simulation but Debian's package does not ship; the plugin rules are checked against the simulation only",
            x.name
        ));
    }
    for (i, a) in s.actions.iter().enumerate() {
        match &a.kind {
            ActionKind::Declare(Declare::Exchange(x)) if plugin(x) => {
                return Some(format!("actions[{i}] declares the delayed-message exchange '{}' (plugin not in Debian's RabbitMQ {v})", x.name));
            }
            ActionKind::RestartNode { .. } => {
                return Some(format!(
                    "actions[{i}] restarts the node; a replay does not stop the broker it is given"
                ));
            }
            ActionKind::Upgrade { .. } => {
                return Some(format!(
                    "actions[{i}] upgrades the node; a replay does not change the broker it is given"
                ));
            }
            ActionKind::LoseNode => {
                return Some(format!(
                    "actions[{i}] loses the node; a replay cannot take a broker node away"
                ));
            }
            _ => {}
        }
    }
    None
}

async fn replay(
    scenario: &Scenario,
    url: &str,
    names: Rename,
    scale: Scale,
) -> Result<Value, String> {
    // How long to run: `until`, or as long as the simulation finds something to do.
    let (end_ms, grace) = match scenario.until_ms {
        Some(u) => (u, GRACE_UNTIL),
        None => {
            let sim = report::run(scenario);
            (sim["stats"]["end_ms"].as_u64().unwrap_or(0), GRACE_IDLE)
        }
    };
    let shared = Arc::new(Shared {
        names: names.clone(),
        scale,
        t0: OnceLock::new(),
        start_ms: OnceLock::new(),
        rec: Mutex::new(Rec::new(scenario)),
    });
    let mut actions = Actions::open(url).await?;
    let mut consumer_conns = Vec::with_capacity(scenario.consumers.len());
    for _ in &scenario.consumers {
        consumer_conns.push(Arc::new(connect(url).await?));
    }

    // t = 0: the topology, then the consumers that attach at once.
    let t = &scenario.topology;
    for x in &t.exchanges {
        declare(&shared, &mut actions, &Declare::Exchange(x.clone())).await?;
    }
    for q in &t.queues {
        declare(&shared, &mut actions, &Declare::Queue(q.clone())).await?;
    }
    for b in &t.bindings {
        declare(&shared, &mut actions, &Declare::Binding(b.clone())).await?;
    }
    let mut early = Vec::new();
    for (c, conn) in scenario.consumers.iter().zip(&consumer_conns) {
        early.push(if c.from_ms == 0 {
            Some(attach(&shared, conn, c).await)
        } else {
            None
        });
    }
    shared.t0.set(tokio::time::Instant::now()).expect("t0 once");
    let wall_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    shared.start_ms.set(wall_ms).expect("start once");
    let mut tasks = Vec::new();
    for (((i, c), pre), conn) in scenario
        .consumers
        .iter()
        .enumerate()
        .zip(early)
        .zip(&consumer_conns)
    {
        tasks.push(tokio::spawn(consume(
            shared.clone(),
            conn.clone(),
            i,
            c.clone(),
            pre,
        )));
    }

    // The timed actions, in (time, order) as the simulation fires them.
    let mut plan: Vec<(u64, usize, u32)> = Vec::new();
    for (i, a) in scenario.actions.iter().enumerate() {
        let (count, every) = a.repeat.map_or((1, 0), |r| (r.count, r.every_ms));
        for run in 0..count {
            let at = a.at_ms.saturating_add(u64::from(run).saturating_mul(every));
            if at <= end_ms {
                plan.push((at, i, run));
            }
        }
    }
    plan.sort_by_key(|&(at, i, run)| (at, run > 0, i, run));
    for (at, i, run) in plan {
        let due = shared.at(at);
        // Confirms are collected whenever there is time before the next action; a
        // dense stream of publishes keeps up to MAX_IN_FLIGHT in flight.
        if !actions.pending.is_empty() && due > tokio::time::Instant::now() + FLUSH_SLACK {
            flush(&shared, &mut actions).await?;
        }
        tokio::time::sleep_until(due).await;
        act(&shared, &mut actions, &scenario.actions[i].kind, run).await?;
    }
    flush(&shared, &mut actions).await?;
    tokio::time::sleep_until(shared.at(end_ms) + grace).await;

    // The end: depths first (consumers still attached), then stop everything.
    let end_at = shared.now_ms();
    let queues = &names.names().queues;
    let depths = output::depths(&shared, &mut actions, scenario, queues).await?;
    for t in &tasks {
        t.abort();
    }
    for conn in &consumer_conns {
        if conn.status().connected() {
            let _ = conn.close(REPLY_SUCCESS, "OK".into()).await;
        }
    }
    let _ = actions.conn.close(REPLY_SUCCESS, "OK".into()).await;
    let end = output::End {
        end_ms,
        measured_at_ms: end_at,
    };
    Ok(output::contract(
        scenario, &shared, depths, end, url, &names, scale,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_plugin_and_node_scenarios() {
        let load = |s: &str| delaylab_engine::scenario::load_str(s).expect("loads");
        let plugin = load(
            r#"{"version": 1, "name": "p", "topology": {"exchanges": [{"name": "d", "type": "x-delayed-message", "arguments": {"x-delayed-type": "direct"}}]}}"#,
        );
        assert!(unsupported(&plugin)
            .unwrap()
            .contains("delayed-message plugin"));
        let restart =
            load(r#"{"version": 1, "name": "r", "actions": [{"at": 0, "restart_node": {}}]}"#);
        assert!(unsupported(&restart).unwrap().contains("restarts the node"));
        let plain =
            load(r#"{"version": 1, "name": "ok", "topology": {"queues": [{"name": "q"}]}}"#);
        assert!(unsupported(&plain).is_none());
        // 4.3 has no plugin: the broker and the simulation both refuse the exchange type.
        let mut on_4_3 = plugin.clone();
        on_4_3.broker = Some(delaylab_engine::version::BrokerVersion::V4_3);
        assert!(unsupported(&on_4_3).is_none());
        on_4_3.broker = Some(delaylab_engine::version::BrokerVersion::V4_0);
        assert!(unsupported(&on_4_3)
            .unwrap()
            .contains("RabbitMQ 4.0 runs in the simulation"));
    }

    #[test]
    fn broker_sh_expects_the_releases_the_profiles_were_checked_on() {
        // scripts/lib/broker.sh says "a new broker version to check" when a node reports
        // another release than its profile's: its table must be the engine's.
        use delaylab_engine::version::BrokerVersion;
        let sh = include_str!("../../../../scripts/lib/broker.sh");
        let table = sh
            .lines()
            .find(|l| l.trim_start().starts_with("case \"$1\" in 3.10)"))
            .expect("broker_checked_release's table");
        let live: Vec<BrokerVersion> = BrokerVersion::ALL
            .into_iter()
            .filter(|v| v.live_checked())
            .collect();
        for v in &live {
            let entry = format!("{}) echo {} ;;", v.as_str(), v.patch_release());
            assert!(table.contains(&entry), "broker.sh lacks `{entry}`: {table}");
        }
        assert_eq!(table.matches(";;").count(), live.len() + 1, "{table}");
    }

    #[test]
    fn node_settings_carry_the_consumer_timeout() {
        let load = |s: &str| delaylab_engine::scenario::load_str(s).expect("loads");
        let none = load(r#"{"version": 1, "name": "d"}"#);
        assert!(node_settings(&none, Scale(1.0)).is_empty());
        let short = load(r#"{"version": 1, "name": "s", "consumer_timeout": "3s"}"#);
        assert_eq!(
            node_settings(&short, Scale(2.0)),
            [("consumer_timeout", "6000".to_string())]
        );
        let off = load(r#"{"version": 1, "name": "o", "consumer_timeout": false}"#);
        assert_eq!(
            node_settings(&off, Scale(1.0)),
            [("consumer_timeout", "undefined".to_string())]
        );
    }
}
