//! `delaylab bench`: N messages with random delays (1 s to 2 h) published over 10
//! virtual minutes through one topology, run to completion.
//!
//! Publishes are fed one at a time through `Sim::handle`, so the bench holds no
//! scenario plan: what the heap holds is the broker's state. The floor is a bare
//! `BinaryHeap` doing one push and one pop per message with the same due times.
//!
//! The topologies are the ones `delaylab compare` runs (`strategies::delay_scenario`):
//! `dlx-per-message` one wait queue with per-message TTL, `dlx-per-queue` one TTL queue
//! per level of `LEVELS_MS` (a delay rounded up to its level), `plugin` the delayed
//! exchange, `qq-delivery-time` RabbitMQ 4.4's quorum queue holding each message until
//! its `x-opt-delivery-time` (the due queue itself); each delivers to `delay.due`,
//! consumed with auto-ack.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::rc::Rc;
use std::time::Instant;

use delaylab_engine::amqp::delivery_time::DELIVERY_TIME_HEADER;
use delaylab_engine::costs::CostMode;
use delaylab_engine::rng::Rng;
use delaylab_engine::scenario::{ActionKind, Properties, PublishSpec, Scenario};
use delaylab_engine::strategies::{
    delay_scenario, wait_queue, DelayTopology, DELAYED_EXCHANGE, DUE_QUEUE, WAIT_QUEUE,
};
use delaylab_engine::value::{FieldValue, Table};
use delaylab_engine::{Command, Progress, Sim};
use serde_json::json;

use crate::alloc;
use crate::cpu;

const PUBLISH_WINDOW_MS: u64 = 600_000;
const MIN_DELAY_MS: u64 = 1_000;
const MAX_DELAY_MS: u64 = 7_200_000;
/// dlx-per-queue: one wait queue per level; a delay is rounded up to a level.
const LEVELS_MS: [u64; 10] = [
    1_000, 5_000, 10_000, 30_000, 60_000, 300_000, 600_000, 1_800_000, 3_600_000, 7_200_000,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Topology {
    DlxPerMessage,
    DlxPerQueue,
    Plugin,
    /// RabbitMQ 4.4: one quorum queue, each message held until its `x-opt-delivery-time`.
    QqDeliveryTime,
}

pub struct Figures {
    pub wall_ms: f64,
    pub floor_wall_ms: f64,
    /// The same spans in this thread's CPU time: what a run costs whatever else the
    /// machine runs (time spent waiting for a core is not counted).
    pub cpu_ms: f64,
    pub floor_cpu_ms: f64,
    /// Each run's engine CPU time over its own floor's (the floor measured just before
    /// and just after the engine, averaged): what the bound is checked against, the
    /// lowest of them.
    pub cpu_ratios: Vec<f64>,
    pub events: u64,
    pub delivered: u64,
    pub peak_bytes: usize,
    pub peak_waiting: u64,
    /// How many runs the wall times are the best of.
    pub runs: u32,
}

/// `runs` runs; the fastest engine wall time and, separately, the fastest floor (load on
/// the machine only adds time, so the minimum is the best estimate of each). The other
/// figures are the same in every run (the simulation is deterministic).
///
/// The ratio a bound is held to is each run's own (engine over the floor measured
/// around it), the lowest of the runs: the floor's best of 5 moved 226-455 ms between
/// runs of one build on the machine CI uses (a heap of 16 MB popped at random: memory
/// latency the host's other tenants share), and the fastest floor of one run over the
/// fastest engine of another failed a 2.5x guard with the engine unchanged. Measured
/// back to back, both see the same machine.
pub fn best_of(runs: u32, n: u64, topology: Topology, seed: u64, costs: &CostMode) -> Figures {
    alloc::keep_freed_memory();
    let mut best = run(n, topology, seed, costs);
    for _ in 1..runs {
        let f = run(n, topology, seed, costs);
        assert_eq!(
            (f.events, f.delivered),
            (best.events, best.delivered),
            "a deterministic run changed"
        );
        best.wall_ms = best.wall_ms.min(f.wall_ms);
        best.floor_wall_ms = best.floor_wall_ms.min(f.floor_wall_ms);
        best.cpu_ms = best.cpu_ms.min(f.cpu_ms);
        best.floor_cpu_ms = best.floor_cpu_ms.min(f.floor_cpu_ms);
        best.cpu_ratios.extend(f.cpu_ratios);
    }
    best.runs = runs;
    best
}

pub fn run(n: u64, topology: Topology, seed: u64, costs: &CostMode) -> Figures {
    let delays = draw_delays(n, seed);
    let (floor_wall_ms, floor_cpu_ms) = floor(&delays);
    let mut scenario = scenario_for(topology);
    scenario.costs = costs.clone();
    let base = alloc::current_bytes();
    alloc::reset_peak();
    let start = Instant::now();
    let start_cpu = cpu::thread_ms();
    let mut sim = Sim::new(&scenario);
    let (mut events, mut delivered, mut peak_waiting) = (0u64, 0u64, 0u64);
    let mut drain = |sim: &mut Sim| {
        while let Some(e) = sim.poll_event() {
            events += 1;
            delivered += u64::from(matches!(
                e.kind,
                delaylab_engine::EventKind::Delivered { .. }
            ));
        }
    };
    let mut publisher = Publisher::new(topology);
    for (i, delay) in delays.iter().enumerate() {
        let at = i as u64 * PUBLISH_WINDOW_MS / n.max(1);
        let spec = publisher.publish(i, at, *delay);
        sim.handle(at, Command::Run(ActionKind::Publish(spec)));
        peak_waiting = peak_waiting.max(sim.live_copies());
        drain(&mut sim);
    }
    while let Some(t) = sim.next_timer_ms() {
        while sim.advance(t) == Progress::More {
            drain(&mut sim);
        }
        drain(&mut sim);
    }
    let wall_ms = start.elapsed().as_secs_f64() * 1000.0;
    let cpu_ms = cpu::thread_ms() - start_cpu;
    let peak_bytes = alloc::peak_bytes().saturating_sub(base);
    drop(sim);
    let (after_wall_ms, after_cpu_ms) = floor(&delays);
    let around_cpu_ms = (floor_cpu_ms + after_cpu_ms) / 2.0;
    Figures {
        wall_ms,
        floor_wall_ms: floor_wall_ms.min(after_wall_ms),
        cpu_ms,
        floor_cpu_ms: floor_cpu_ms.min(after_cpu_ms),
        cpu_ratios: vec![cpu_ms / around_cpu_ms.max(1e-9)],
        events,
        delivered,
        peak_bytes,
        peak_waiting,
        runs: 1,
    }
}

fn draw_delays(n: u64, seed: u64) -> Vec<u64> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| rng.range_u64(MIN_DELAY_MS, MAX_DELAY_MS))
        .collect()
}

/// The floor: a bare binary heap pushing every due time and popping them all. Not
/// inlined, so that a profile tells its instructions from the engine's.
#[inline(never)]
fn floor(delays: &[u64]) -> (f64, f64) {
    let start = Instant::now();
    let start_cpu = cpu::thread_ms();
    let mut heap = BinaryHeap::with_capacity(delays.len());
    let n = delays.len().max(1) as u64;
    for (i, d) in delays.iter().enumerate() {
        heap.push(Reverse((i as u64 * PUBLISH_WINDOW_MS / n + d, i as u64)));
    }
    let mut last = 0;
    while let Some(Reverse((t, _))) = heap.pop() {
        assert!(t >= last);
        last = t;
    }
    let cpu_ms = cpu::thread_ms() - start_cpu;
    (start.elapsed().as_secs_f64() * 1000.0, cpu_ms)
}

fn scenario_for(t: Topology) -> Scenario {
    let topology = match t {
        Topology::DlxPerMessage => DelayTopology::PerMessageTtl,
        Topology::DlxPerQueue => DelayTopology::PerTtlQueues(&LEVELS_MS),
        Topology::Plugin => DelayTopology::DelayedExchange,
        Topology::QqDeliveryTime => DelayTopology::QuorumDeliveryTime,
    };
    delay_scenario("bench", topology)
}

/// The client: builds each publish as a program would, from what it prepared once (the
/// names it publishes to, one shared header key), so that the figures are the engine's
/// and not string formatting's. Each publish still owns its strings and its header
/// table, as `Command::Run` takes them.
struct Publisher {
    topology: Topology,
    exchange: &'static str,
    /// The routing key of each publish; dlx-per-queue: one per level of `LEVELS_MS`.
    routing_keys: Vec<String>,
    delay_key: Rc<str>,
    digits: itoa::Buffer,
}

impl Publisher {
    fn new(topology: Topology) -> Publisher {
        let (exchange, routing_keys) = match topology {
            Topology::DlxPerMessage => ("", vec![WAIT_QUEUE.to_string()]),
            Topology::DlxPerQueue => ("", LEVELS_MS.iter().map(|l| wait_queue(*l)).collect()),
            Topology::Plugin => (DELAYED_EXCHANGE, vec![DUE_QUEUE.to_string()]),
            Topology::QqDeliveryTime => ("", vec![DUE_QUEUE.to_string()]),
        };
        let delay_key = match topology {
            Topology::QqDeliveryTime => DELIVERY_TIME_HEADER,
            _ => "x-delay",
        };
        Publisher {
            topology,
            exchange,
            routing_keys,
            delay_key: Rc::from(delay_key),
            digits: itoa::Buffer::new(),
        }
    }

    /// Message `i` (body `order-<i>`), published at `at_ms`, persistent, delayed by
    /// `delay_ms`.
    fn publish(&mut self, i: usize, at_ms: u64, delay_ms: u64) -> PublishSpec {
        let mut properties = Properties {
            delivery_mode: Some(2),
            ..Properties::default()
        };
        let mut key = 0;
        match self.topology {
            Topology::DlxPerMessage => {
                properties.expiration = Some(self.digits.format(delay_ms).to_owned());
            }
            Topology::DlxPerQueue => {
                key = LEVELS_MS
                    .iter()
                    .position(|l| *l >= delay_ms)
                    .unwrap_or(LEVELS_MS.len() - 1);
            }
            Topology::Plugin => {
                let delay = FieldValue::Int(delay_ms as i64);
                properties.headers = Table::from_entries(vec![(self.delay_key.clone(), delay)]);
            }
            // A time: the publish's time plus the delay (virtual 0:00 is the Unix epoch).
            Topology::QqDeliveryTime => {
                let due = FieldValue::Int((at_ms + delay_ms) as i64);
                properties.headers = Table::from_entries(vec![(self.delay_key.clone(), due)]);
            }
        }
        PublishSpec {
            exchange: self.exchange.to_string(),
            routing_key: self.routing_keys[key].clone(),
            body: self.body(i),
            properties,
            mandatory: false,
        }
    }

    /// `order-{i}` in a string of exactly its length, which the message keeps as it is.
    fn body(&mut self, i: usize) -> String {
        let digits = self.digits.format(i);
        let mut body = String::with_capacity("order-".len() + digits.len());
        body.push_str("order-");
        body.push_str(digits);
        body
    }
}

pub fn report(n: u64, t: Topology, f: &Figures) -> serde_json::Value {
    let per_waiting = if f.peak_waiting == 0 {
        0.0
    } else {
        f.peak_bytes as f64 / f.peak_waiting as f64
    };
    json!({
        "topology": clap::ValueEnum::to_possible_value(&t).map_or_else(|| format!("{t:?}"), |v| v.get_name().to_string()),
        "messages": n,
        "runs": f.runs,
        "delivered": f.delivered,
        "wall_ms": round3(f.wall_ms),
        "floor_wall_ms": round3(f.floor_wall_ms),
        "ratio_to_floor": round3(f.wall_ms / f.floor_wall_ms.max(1e-9)),
        "cpu_ms": round3(f.cpu_ms),
        "floor_cpu_ms": round3(f.floor_cpu_ms),
        "cpu_ratio_to_floor": round3(f.cpu_ratios.iter().copied().fold(f64::INFINITY, f64::min)),
        "cpu_ratios": f.cpu_ratios.iter().map(|r| round3(*r)).collect::<Vec<_>>(),
        "events": f.events,
        "events_per_s": (f.events as f64 / (f.wall_ms / 1000.0).max(1e-9)).round(),
        "peak_bytes": f.peak_bytes,
        "peak_waiting": f.peak_waiting,
        "bytes_per_waiting_message": round3(per_waiting),
    })
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounded_ratio_is_the_best_runs_own() {
        // Run 1: a slow engine beside a fast floor; run 2: both slow, the same machine
        // load on each. Min over min would say 600/200 = 3x; each run's own: 2x and 1.5x.
        let f = Figures {
            wall_ms: 600.0,
            floor_wall_ms: 200.0,
            cpu_ms: 600.0,
            floor_cpu_ms: 200.0,
            cpu_ratios: vec![2.0, 1.5],
            events: 10,
            delivered: 5,
            peak_bytes: 1000,
            peak_waiting: 4,
            runs: 2,
        };
        let r = report(5, Topology::Plugin, &f);
        assert_eq!(r["cpu_ratio_to_floor"], 1.5);
        assert_eq!(r["cpu_ratios"], json!([2.0, 1.5]));
        assert_eq!(r["ratio_to_floor"], 3.0);
    }

    #[test]
    fn a_small_run_reports_one_ratio_per_run() {
        let f = best_of(3, 2_000, Topology::QqDeliveryTime, 1, &CostMode::default());
        assert_eq!(f.cpu_ratios.len(), 3);
        assert!(f.cpu_ratios.iter().all(|r| r.is_finite() && *r > 0.0));
        assert_eq!(f.delivered, 2_000);
    }
}
