//! `measured` mode against broker-costs.md section 3, the delayed-message plugin 3.10.2:
//! x-delay uniform 2,000-10,000 ms, one direct delayed exchange, one queue, one consumer
//! (manual ack, prefetch 1,000), a publisher with confirms and a window of 1,000
//! unconfirmed messages. Lateness is counted as the document counts it: delivery time -
//! (the client's publish time + x-delay), so it includes the time a message waits in
//! the publisher's window. Prints the model's figures beside the measured ones.
//!
//! ```text
//! N        measured p50 / p99 (ms)        model must give p99 within +-35 % of the
//! 20,000   62-83 / 99-133                  measured range's middle
//! 100,000  1,892-3,068 / 2,689-3,849
//! ```
//!
//! The same holds where users see it: `delaylab compare --costs measured` and the
//! playground's strategy comparison (`strategies::BrokerRun`, whose publisher has the same
//! window), on `scenarios/workloads/plugin-backlog.json` (100,000 tasks in 17 s) and on
//! 20,000 tasks sent faster than the channel takes them (the window then fills, as in the
//! measured run; at the 100,000 preset's pace the channel keeps up and 20,000 are on time
//! to a few ms: the 99-133 ms measured are the window's wait in the broker's channel).

use delaylab_engine::costs::CostMode;
use delaylab_engine::rng::Rng;
use delaylab_engine::scenario::{
    AckMode, ActionKind, BindingDef, ConsumerSpec, ExchangeDef, Outcome, OutcomePlan, PublishSpec,
    QueueDef, Scenario,
};
use delaylab_engine::strategies::{self, Config, Workload};
use delaylab_engine::value::{FieldValue, Table};
use delaylab_engine::{Command, EventKind, Progress, Sim};

const WINDOW: u64 = 1_000;
const TOLERANCE: f64 = 0.35;

fn scenario() -> Scenario {
    let mut s = Scenario::empty("plugin table");
    s.costs = CostMode::Measured;
    let mut x = ExchangeDef::new("delayed", "x-delayed-message");
    x.arguments
        .insert("x-delayed-type", FieldValue::str("direct"));
    s.topology.exchanges.push(x);
    s.topology.queues.push(QueueDef::new("due"));
    s.topology
        .bindings
        .push(BindingDef::queue("delayed", "due", "due"));
    s.consumers.push(ConsumerSpec {
        name: "app".into(),
        queue: "due".into(),
        ack: AckMode::Manual,
        prefetch: 1_000,
        global_qos: false,
        handle_ms: 0,
        outcome: OutcomePlan::Fixed(Outcome::Ack),
        from_ms: 0,
        to_ms: None,
        client: Default::default(),
    });
    s
}

struct Figures {
    p50: u64,
    p99: u64,
    max: u64,
    deciles: Vec<u64>,
    publish_per_s: f64,
}

/// Publishes `n` messages through a window of `WINDOW` unconfirmed, runs to the end.
fn run(n: usize, seed: u64) -> Figures {
    let mut rng = Rng::new(seed);
    let delays: Vec<u64> = (0..n).map(|_| rng.range_u64(2_000, 10_000)).collect();
    let mut sim = Sim::new(&scenario());
    let mut sent_ms = vec![0u64; n];
    let mut late: Vec<(u64, u64)> = Vec::with_capacity(n); // (due, lateness)
    let (mut sent, mut confirmed, mut last_confirm) = (0usize, 0u64, 0u64);
    let mut t = 0u64;
    loop {
        while sent < n && (sent as u64) < confirmed + WINDOW {
            let mut headers = Table::new();
            headers.insert("x-delay", FieldValue::Int(delays[sent] as i64));
            let spec = PublishSpec {
                exchange: "delayed".into(),
                routing_key: "due".into(),
                body: sent.to_string(),
                properties: delaylab_engine::scenario::Properties {
                    headers,
                    ..Default::default()
                },
                mandatory: false,
            };
            sent_ms[sent] = t;
            sim.handle(t, Command::Run(ActionKind::Publish(spec)));
            sent += 1;
        }
        let Some(next) = sim.next_timer_ms() else {
            break;
        };
        t = t.max(next);
        loop {
            let more = sim.advance(t) == Progress::More;
            while let Some(e) = sim.poll_event() {
                match e.kind {
                    EventKind::Confirmed { .. } => {
                        confirmed += 1;
                        last_confirm = e.t_ms;
                    }
                    EventKind::Delivered { msg, .. } => {
                        let i = msg.body.parse::<usize>().unwrap();
                        let due = sent_ms[i] + delays[i];
                        late.push((due, e.t_ms.saturating_sub(due)));
                    }
                    _ => {}
                }
            }
            if !more {
                break;
            }
        }
    }
    assert_eq!(late.len(), n, "every message delivered");
    late.sort_unstable();
    let deciles = late
        .chunks(n.div_ceil(10))
        .map(|c| {
            let mut l: Vec<u64> = c.iter().map(|x| x.1).collect();
            l.sort_unstable();
            l[l.len() / 2]
        })
        .collect();
    let mut l: Vec<u64> = late.iter().map(|x| x.1).collect();
    l.sort_unstable();
    let pct = |p: usize| l[(l.len() * p).div_ceil(100).max(1) - 1];
    Figures {
        p50: pct(50),
        p99: pct(99),
        max: l[l.len() - 1],
        deciles,
        publish_per_s: n as f64 / (last_confirm.max(1) as f64 / 1000.0),
    }
}

fn check(n: usize, measured_p50: (u64, u64), measured_p99: (u64, u64)) {
    let f = run(n, 16);
    println!(
        "plugin, {n} messages: model p50 {} / p99 {} / max {} ms, publish {:.0} msg/s; \
         measured p50 {}-{} / p99 {}-{} ms; model p50 by due-time decile {:?}",
        f.p50,
        f.p99,
        f.max,
        f.publish_per_s,
        measured_p50.0,
        measured_p50.1,
        measured_p99.0,
        measured_p99.1,
        f.deciles
    );
    let middle = (measured_p99.0 + measured_p99.1) as f64 / 2.0;
    let ratio = f.p99 as f64 / middle;
    assert!(
        (ratio - 1.0).abs() <= TOLERANCE,
        "{n}: model p99 {} ms is {ratio:.2}x the measured middle {middle} ms",
        f.p99
    );
}

#[test]
fn twenty_thousand_stays_flat() {
    check(20_000, (62, 83), (99, 133));
}

#[test]
fn a_hundred_thousand_drifts() {
    check(100_000, (1_892, 3_068), (2_689, 3_849));
}

/// The plugin's p99 in `delaylab compare WORKLOAD --costs measured`, with `count` tasks
/// created over `over_ms`.
fn compare_p99(count: u64, over_ms: u64) -> i64 {
    let text = include_str!("../../../scenarios/workloads/plugin-backlog.json");
    let mut f = strategies::load_workload_str(text).expect("the preset loads");
    f.spec.count = count;
    f.spec.over_ms = over_ms;
    let mut w = Workload::generate(&f.spec);
    w.costs = CostMode::Measured;
    let r = strategies::run(&Config::Plugin, &w);
    assert_eq!(r.delivered, count, "costs move times, not outcomes");
    println!(
        "compare, plugin, {count} tasks over {over_ms} ms: p99 {} ms, mean {:.0} ms",
        r.lateness.p99_ms, r.lateness.mean_ms
    );
    r.lateness.p99_ms
}

fn within(what: &str, p99: i64, measured_p99: (u64, u64)) {
    let middle = (measured_p99.0 + measured_p99.1) as f64 / 2.0;
    let ratio = p99 as f64 / middle;
    assert!(
        (ratio - 1.0).abs() <= TOLERANCE,
        "{what}: p99 {p99} ms is {ratio:.2}x the measured middle {middle} ms"
    );
}

#[test]
fn compare_plugin_backlog_drifts_as_measured() {
    within(
        "plugin-backlog, 100,000 in 17 s",
        compare_p99(100_000, 17_000),
        (2_689, 3_849),
    );
}

#[test]
fn compare_twenty_thousand_sent_faster_than_the_channel() {
    within("20,000 sent in 1 s", compare_p99(20_000, 1_000), (99, 133));
    // At the preset's pace (5.9k/s) the channel keeps up: no window wait, on time.
    assert!(compare_p99(20_000, 3_400) < 20);
}
