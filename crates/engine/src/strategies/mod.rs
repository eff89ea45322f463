//! Every way to do "X thirty minutes later" from the seed articles, run on one workload
//! and measured the same way.
//!
//! A [`Workload`] is N delayed tasks (`created_at_ms`, `delay_ms`), drawn from a spec
//! with the engine's seeded PRNG, plus an optional outage of whatever holds the waiting
//! tasks (the app for the application-side strategies, the broker node for the broker
//! ones). Each strategy turns it into a [`StrategyResult`]:
//!
//! | name              | where tasks wait                       | how it is computed              |
//! |-------------------|----------------------------------------|---------------------------------|
//! | `polling-scan`    | the business table, scanned every P    | exact virtual-time scan         |
//! | `store-poll`      | a sorted set of due times, polled      | exact virtual-time poll         |
//! | `store-notify`    | keys with a TTL, expiry notifications  | exact, seeded drops             |
//! | `timing-wheel`    | an in-memory wheel in the app          | exact Netty tick arithmetic     |
//! | `dlx-per-message` | one TTL queue, per-message expiration  | the engine's [`Sim`](crate::Sim)|
//! | `dlx-per-queue`   | one queue per distinct delay           | the engine's `Sim`              |
//! | `dlx-cascade`     | 2^n-second queues, routed by bits      | the engine's `Sim`              |
//! | `fixed-levels`    | 18 fixed levels (RocketMQ), rounded up | the engine's `Sim`              |
//! | `plugin`          | the delayed-message exchange's store   | the engine's `Sim`              |
//! | `qq-delivery-time`| a 4.4 quorum queue, x-opt-delivery-time| the engine's `Sim` (4.4)        |
//!
//! The broker strategies publish through a real `Sim`, so head-of-line blocking, a
//! restart (`RestartNode`) and a lost node (`LoseNode`) are the simulator's, not a
//! formula's. Nothing reads a clock: same workload, same seed, same numbers.
//!
//! Worked timeline (one task created at 0 with a 90 s delay, `polling-scan` every 1 min):
//! ```text
//! 0       order row inserted (status pending), due at 90 s
//! 60 s    scan 1: 1 row read, not due yet
//! 120 s   scan 2: due since 90 s -> closed; lateness 30 s (< the 60 s period)
//! ```
//! A strategy runs in slices ([`Strategy::step`]) so the browser can keep its tab alive.

mod broker;
mod dlx_cascade;
mod dlx_per_message;
mod dlx_per_queue;
mod fixed_levels;
pub mod load;
mod plugin;
mod polling_scan;
pub mod qq_delivery_time;
pub mod report;
mod stats;
mod store_notify;
mod store_poll;
mod timing_wheel;
pub mod workload;

pub use broker::{
    delay_scenario, wait_queue, DelayTopology, DELAYED_EXCHANGE, DUE_QUEUE, WAIT_QUEUE,
};
pub use load::{load_workload_str, load_workload_value, WorkloadFile};
pub use stats::{Lateness, SeriesPoint};
pub use workload::{DelayMix, Outage, OutageKind, Task, Workload, WorkloadSpec};

/// The strategies, in the order tables list them.
pub const NAMES: [&str; 10] = [
    "polling-scan",
    "store-poll",
    "store-notify",
    "timing-wheel",
    "dlx-per-message",
    "dlx-per-queue",
    "dlx-cascade",
    "fixed-levels",
    "plugin",
    "qq-delivery-time",
];

/// RocketMQ's 18 delay levels: `1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h`.
pub const ROCKETMQ_LEVELS_MS: [u64; 18] = [
    1_000, 5_000, 10_000, 30_000, 60_000, 120_000, 180_000, 240_000, 300_000, 360_000, 420_000,
    480_000, 540_000, 600_000, 1_200_000, 1_800_000, 3_600_000, 7_200_000,
];

/// One strategy's parameters (defaults: [`Config::default_for`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Config {
    /// A scheduled job scans the business table every `period_ms` for due pending rows;
    /// `indexed`: an index on (status, due) means only matching rows are read; `batch`:
    /// at most that many rows handled per run (`LIMIT`). One instance holds the lock.
    PollingScan {
        period_ms: u64,
        indexed: bool,
        batch: Option<u64>,
    },
    /// A sorted set (or indexed table) of due times, polled every `period_ms`.
    StorePoll {
        period_ms: u64,
    },
    /// Keys with a TTL; the app acts on the key-expired notification. Redis expires keys
    /// in a cycle (`expire_cycle_ms`, hz 10); while more than `pressure_above` keys are
    /// stored, a `drop_share` of notifications are lost (seeded draw); notifications
    /// sent while the subscriber is down are lost (pub/sub keeps nothing).
    StoreNotify {
        expire_cycle_ms: u64,
        pressure_above: u64,
        drop_share: f64,
    },
    /// Netty's HashedWheelTimer: `tick_ms`, `wheel_size` buckets; long delays take rounds.
    TimingWheel {
        tick_ms: u64,
        wheel_size: u64,
    },
    DlxPerMessage,
    /// One queue per distinct delay of the workload, at most `max_queues`.
    DlxPerQueue {
        max_queues: u64,
    },
    /// Queues of 2^n seconds, n in 0..levels; `None`: enough levels for the longest delay.
    DlxCascade {
        levels: Option<u32>,
    },
    /// Delays rounded up to the next level (a delay above the last level is clamped to it).
    FixedLevels {
        levels_ms: Vec<u64>,
    },
    Plugin,
    /// One 4.4 quorum queue, each task published with its `x-opt-delivery-time`.
    QuorumDeliveryTime,
}

impl Config {
    pub fn default_for(name: &str) -> Option<Config> {
        Some(match name {
            "polling-scan" => Config::PollingScan {
                period_ms: 60_000,
                indexed: false,
                batch: None,
            },
            "store-poll" => Config::StorePoll { period_ms: 1_000 },
            "store-notify" => Config::StoreNotify {
                expire_cycle_ms: 100,
                pressure_above: 100_000,
                drop_share: 0.02,
            },
            "timing-wheel" => Config::TimingWheel {
                tick_ms: 100,
                wheel_size: 512,
            },
            "dlx-per-message" => Config::DlxPerMessage,
            "dlx-per-queue" => Config::DlxPerQueue { max_queues: 64 },
            "dlx-cascade" => Config::DlxCascade { levels: None },
            "fixed-levels" => Config::FixedLevels {
                levels_ms: ROCKETMQ_LEVELS_MS.to_vec(),
            },
            "plugin" => Config::Plugin,
            "qq-delivery-time" => Config::QuorumDeliveryTime,
            _ => return None,
        })
    }

    pub fn name(&self) -> &'static str {
        match self {
            Config::PollingScan { .. } => "polling-scan",
            Config::StorePoll { .. } => "store-poll",
            Config::StoreNotify { .. } => "store-notify",
            Config::TimingWheel { .. } => "timing-wheel",
            Config::DlxPerMessage => "dlx-per-message",
            Config::DlxPerQueue { .. } => "dlx-per-queue",
            Config::DlxCascade { .. } => "dlx-cascade",
            Config::FixedLevels { .. } => "fixed-levels",
            Config::Plugin => "plugin",
            Config::QuorumDeliveryTime => qq_delivery_time::NAME,
        }
    }
}

/// What one strategy did with the workload.
#[derive(Clone, Debug, PartialEq)]
pub struct StrategyResult {
    pub name: &'static str,
    /// The parameters used, for people (`"period 1m, not indexed"`).
    pub params: String,
    /// Set when the strategy cannot run this workload (e.g. too many distinct delays
    /// for one queue each); every figure is then zero.
    pub not_applicable: Option<String>,
    pub tasks: u64,
    pub delivered: u64,
    /// Tasks that never fired (lost with a restart, a dropped notification, a lost node).
    pub lost: u64,
    /// Tasks that fired before their due time (a delay above the last fixed level).
    pub early: u64,
    /// Fired time minus due time, over delivered tasks (negative when early).
    pub lateness: Lateness,
    /// Database rows (or sorted-set members) read to find due tasks.
    pub rows_scanned: u64,
    /// Exchanges + queues + bindings to declare on the broker.
    pub broker_objects: u64,
    /// Waiting tasks (rows, keys, timeouts or broker messages) at the peak.
    pub peak_stored: u64,
    /// Work per delayed task, in `work_unit`s.
    pub work_per_task: f64,
    /// `"rows"`, `"ops"`, `"visits"` or `"events"` (simulator events).
    pub work_unit: &'static str,
    /// Lateness over due time, for a chart.
    pub series: Vec<SeriesPoint>,
    /// Strategy-specific figures a verdict quotes (`period_ms`, `max_rows_per_run`, ...).
    pub facts: Vec<(&'static str, u64)>,
}

impl StrategyResult {
    pub fn fact(&self, key: &str) -> Option<u64> {
        self.facts.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }
}

/// A strategy run in slices: `step` until it returns true, then read `result`.
pub trait Strategy {
    fn name(&self) -> &'static str;
    /// Does about `budget` units of work (tasks or simulator events); true when done.
    fn step(&mut self, budget: u64) -> bool;
    /// The figures; meaningful once `step` returned true.
    fn result(&self) -> StrategyResult;
}

/// Builds the runner of one strategy for a workload.
pub fn build(config: &Config, workload: &Workload) -> Box<dyn Strategy> {
    // The one-shot models own a copy of the tasks (they run later, in a slice); the
    // broker strategies turn them into a scenario at once and need no copy.
    let w = || workload.clone();
    match config.clone() {
        Config::PollingScan {
            period_ms,
            indexed,
            batch,
        } => {
            let w = w();
            OneShot::boxed("polling-scan", move || {
                polling_scan::compute(&w, period_ms, indexed, batch)
            })
        }
        Config::StorePoll { period_ms } => {
            let w = w();
            OneShot::boxed("store-poll", move || store_poll::compute(&w, period_ms))
        }
        Config::StoreNotify {
            expire_cycle_ms,
            pressure_above,
            drop_share,
        } => {
            let w = w();
            OneShot::boxed("store-notify", move || {
                store_notify::compute(&w, expire_cycle_ms, pressure_above, drop_share)
            })
        }
        Config::TimingWheel {
            tick_ms,
            wheel_size,
        } => {
            let w = w();
            OneShot::boxed("timing-wheel", move || {
                timing_wheel::compute(&w, tick_ms, wheel_size)
            })
        }
        Config::DlxPerMessage => Box::new(dlx_per_message::new(workload)),
        Config::DlxPerQueue { max_queues } => dlx_per_queue::new(workload, max_queues),
        Config::DlxCascade { levels } => Box::new(dlx_cascade::new(workload, levels)),
        Config::FixedLevels { levels_ms } => Box::new(fixed_levels::new(workload, &levels_ms)),
        Config::Plugin => plugin::new(workload),
        Config::QuorumDeliveryTime => qq_delivery_time::new(workload),
    }
}

/// Whether a strategy can run on RabbitMQ `version` at all: `plugin` only where the
/// delayed-message plugin runs (no build for 4.3: rabbitmq-versions.md D27, archived
/// January 2026, last release v4.2.0 for 4.2); `qq-delivery-time` only where quorum
/// queues read `x-opt-delivery-time` (4.4, D34); every other one everywhere.
pub fn works_on(name: &str, version: crate::version::BrokerVersion) -> bool {
    let p = version.profile();
    match name {
        "plugin" => p.delayed_plugin,
        qq_delivery_time::NAME => p.quorum_delivery_time,
        _ => true,
    }
}

/// The versions a strategy runs on, oldest first.
pub fn works_on_versions(name: &str) -> Vec<crate::version::BrokerVersion> {
    crate::version::BrokerVersion::ALL
        .into_iter()
        .filter(|v| works_on(name, *v))
        .collect()
}

/// The tables' "works on" cell: `3.10-4.4`, `3.10-4.2`, `4.4` (each strategy's versions
/// are one run of consecutive profiles).
pub fn works_on_text(name: &str) -> String {
    let v = works_on_versions(name);
    match (v.first(), v.last()) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        (Some(a), Some(b)) => format!("{a}-{b}"),
        _ => "-".to_string(),
    }
}

/// Why `plugin` cannot run on a version without the plugin (its `not_applicable`).
pub const PLUGIN_GONE: &str = "the delayed-message plugin cannot run on RabbitMQ 4.3 \
    (Mnesia removed; the plugin was archived in January 2026, its last release v4.2.0 runs on 4.2)";

/// A strategy computed in one slice: the application-side models are exact sweeps over
/// the tasks, fast enough not to need slicing (a few ms for 200,000 tasks natively).
pub(crate) struct OneShot {
    name: &'static str,
    work: Option<Box<dyn FnOnce() -> StrategyResult>>,
    result: Option<StrategyResult>,
}

impl OneShot {
    pub fn boxed(
        name: &'static str,
        work: impl FnOnce() -> StrategyResult + 'static,
    ) -> Box<dyn Strategy> {
        Box::new(OneShot {
            name,
            work: Some(Box::new(work)),
            result: None,
        })
    }

    /// A result known without running (a strategy that is not applicable).
    pub fn ready(result: StrategyResult) -> Box<dyn Strategy> {
        Box::new(OneShot {
            name: result.name,
            work: None,
            result: Some(result),
        })
    }
}

impl Strategy for OneShot {
    fn name(&self) -> &'static str {
        self.name
    }

    fn step(&mut self, _budget: u64) -> bool {
        if let Some(work) = self.work.take() {
            self.result = Some(work());
        }
        true
    }

    fn result(&self) -> StrategyResult {
        self.result.clone().expect("step first")
    }
}

/// Runs one strategy to the end in one call (the CLI and tests).
pub fn run(config: &Config, workload: &Workload) -> StrategyResult {
    let mut s = build(config, workload);
    while !s.step(u64::MAX) {}
    s.result()
}

/// Runs several strategies one after the other, in slices (the playground).
pub struct Comparison {
    workload: Workload,
    pending: std::collections::VecDeque<Config>,
    current: Option<Box<dyn Strategy>>,
    pub results: Vec<StrategyResult>,
}

impl Comparison {
    pub fn new(workload: Workload, configs: Vec<Config>) -> Comparison {
        Comparison {
            workload,
            pending: configs.into(),
            current: None,
            results: Vec::new(),
        }
    }

    /// The strategy being run now, if any.
    pub fn running(&self) -> Option<&'static str> {
        self.current
            .as_ref()
            .map(|s| s.name())
            .or_else(|| self.pending.front().map(|c| c.name()))
    }

    /// Does about `budget` units of work; true once every strategy has a result.
    pub fn step(&mut self, budget: u64) -> bool {
        let Some(s) = self.current.as_mut() else {
            let Some(config) = self.pending.pop_front() else {
                return true;
            };
            // Building a broker topology is a slice of its own.
            self.current = Some(build(&config, &self.workload));
            return false;
        };
        if s.step(budget) {
            self.results.push(s.result());
            self.current = None;
        }
        self.current.is_none() && self.pending.is_empty()
    }
}
