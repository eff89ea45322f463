//! Compare mode's model: the lanes (each its own [`Runner`] of one scenario), what a lane
//! shows, and a lane run headless to its end. The Leptos view (src/app/compare.rs) only
//! holds signals and draws these.
//!
//! A lane is either a preset (compare topologies: the same workload through different
//! topologies) or the loaded scenario on a broker version (compare versions: its
//! `broker` overridden, as the version selector and `delaylab run --broker` do). Which
//! is which travels in a share link's `compare` list as a [`LaneKey`]: a preset's id, or
//! `@` and a version (`@4.0`) for "the link's own scenario on 4.0".
//!
//! ```text
//! compare versions, poison-message preset (broker 4.0), lanes 3.10 | 4.0:
//! 0:00  published           | published
//! 0:20  21st delivery       | 21st delivery, x-delivery-count 20
//! 0:21  redelivered again   | nack -> dead-lettered (delivery_limit), inspector has it
//! 0:30  still looping       | worker idle
//! ```

use delaylab_engine::report::text::clock;
use delaylab_engine::scenario::Scenario;
use delaylab_engine::snapshot::Snapshot;
use delaylab_engine::version::BrokerVersion;

use crate::runner::{short, span, Batch, Runner};
use crate::stats::Stats;

/// At most this many lanes (each is a whole simulation).
pub const MAX_LANES: usize = 4;
/// Chips shown per queue, deliveries shown per lane.
pub const LANE_CHIPS: usize = 8;
pub const LANE_DELIVERIES: usize = 6;
/// What starts a version lane's key in a link (`@4.0`); no preset id starts with it.
const VERSION_MARK: char = '@';

/// What a lane runs: a preset, or the loaded scenario on a broker version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LaneKey {
    Preset(String),
    Version(BrokerVersion),
}

impl LaneKey {
    /// As a share link's `compare` list carries it: `head-of-line-blocking`, `@4.0`.
    pub fn key(&self) -> String {
        match self {
            LaneKey::Preset(id) => id.clone(),
            LaneKey::Version(v) => format!("{VERSION_MARK}{}", v.as_str()),
        }
    }

    /// Reads [`LaneKey::key`] back; a mark before an unknown version is no lane.
    pub fn parse(s: &str) -> Option<LaneKey> {
        match s.strip_prefix(VERSION_MARK) {
            Some(v) => BrokerVersion::parse(v).map(LaneKey::Version),
            None => Some(LaneKey::Preset(s.to_string())),
        }
    }

    /// A name for markup (`data-testid="lane-{slug}"`): the preset's id, `ver-4.0`.
    pub fn slug(&self) -> String {
        match self {
            LaneKey::Preset(id) => id.clone(),
            LaneKey::Version(v) => format!("ver-{}", v.as_str()),
        }
    }

    pub fn version(&self) -> Option<BrokerVersion> {
        match self {
            LaneKey::Version(v) => Some(*v),
            LaneKey::Preset(_) => None,
        }
    }
}

/// The scenario on version `v`: its `broker` overridden, left absent for 3.10 (what an
/// absent `broker` means) as the version selector writes it.
pub fn on_version(s: &Scenario, v: BrokerVersion) -> Scenario {
    Scenario {
        broker: (v != BrokerVersion::default()).then_some(v),
        ..s.clone()
    }
}

/// The two versions compare versions starts with for a scenario on `own`, oldest first:
/// the live-checked baseline (3.10) beside `own`; for a 3.10 scenario, the next version
/// whose rules differ from 3.10's. The poison-message preset (4.0) gets 3.10 | 4.0.
pub fn default_pair(own: BrokerVersion) -> [BrokerVersion; 2] {
    let base = BrokerVersion::default();
    if own != base {
        return [base, own];
    }
    let next = BrokerVersion::ALL
        .into_iter()
        .find(|v| *v > base && v.profile() != base.profile())
        .unwrap_or(BrokerVersion::V4_3);
    [base, next]
}

/// One lane: its key, the scenario it runs (to start over from) and its simulation.
pub struct Lane {
    pub key: LaneKey,
    pub scenario: Scenario,
    pub runner: Runner,
    /// Lateness figures of the first `.1` deliveries: recomputed (a sort) only when a
    /// delivery was added, not on every redraw.
    stats: (Stats, usize),
}

impl Lane {
    pub fn new(key: LaneKey, scenario: Scenario) -> Lane {
        Lane {
            key,
            runner: Runner::new(scenario.clone()).without_depth_samples(),
            scenario,
            stats: (Stats::default(), 0),
        }
    }

    /// Back to 0:00 (the main clock went back).
    pub fn restart(&mut self) {
        *self = Lane::new(self.key.clone(), self.scenario.clone());
    }

    /// Runs to `target` unless `out_of_time()` says the frame is over; true if it moved.
    pub fn follow(&mut self, target: u64, out_of_time: impl FnMut() -> bool) -> bool {
        if self.runner.now() > target {
            self.restart();
        }
        if self.runner.now() >= target {
            return false;
        }
        let mut b = Batch::default();
        self.runner.advance_to(target, &mut b, out_of_time);
        true
    }

    fn stats(&mut self) -> Stats {
        let d = &self.runner.track.delivered;
        if self.stats.1 != d.len() {
            self.stats = (Stats::of(d), d.len());
        }
        self.stats.0.clone()
    }

    /// What the lane's card shows now.
    pub fn view(&mut self) -> LaneView {
        let stats = self.stats();
        let r = &self.runner;
        let snap = Snapshot::of(&r.sim);
        let queues = snap
            .queues
            .iter()
            .map(|q| QueueLine {
                name: q.name.clone(),
                ready: q.ready,
                unacked: q.unacked,
                overdue: q.overdue,
                held: q.held_total,
                held_chips: q
                    .held
                    .iter()
                    .take(LANE_CHIPS)
                    .map(|h| (short(&h.body), h.remaining_ms))
                    .collect(),
                chips: q
                    .head
                    .iter()
                    .take(LANE_CHIPS)
                    .map(|e| (short(&e.body), e.remaining_ms, e.overdue_ms))
                    .collect(),
            })
            .collect();
        let delayed = snap
            .exchanges
            .iter()
            .filter(|x| x.is_delayed())
            .map(|x| {
                let items = snap
                    .delayed
                    .iter()
                    .filter(|d| d.exchange == x.name)
                    .take(LANE_CHIPS)
                    .map(|d| (short(&d.body), d.remaining_ms))
                    .collect();
                (x.name.clone(), x.messages_delayed, items)
            })
            .collect();
        let d = &r.track.delivered;
        let delivered = d[d.len().saturating_sub(LANE_DELIVERIES)..]
            .iter()
            .map(|d| (short(r.track.body(d.msg)), d.t_ms, d.late_ms))
            .collect();
        LaneView {
            key: self.key.clone(),
            name: r.scenario.name.clone(),
            version: r.scenario.broker_version(),
            lost: r.track.lost_with_node,
            now_ms: r.now(),
            queues,
            delayed,
            delivered,
            stats,
            outcome: r.track.tally.clone(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct QueueLine {
    pub name: String,
    pub ready: u64,
    /// Delivered, not yet acked (a consumer holds them).
    pub unacked: u64,
    pub overdue: u64,
    /// Held aside (4.3 delayed retry, 4.4 `x-opt-delivery-time`): counted, and the first
    /// ones (body, released in), the earliest first.
    pub held: u64,
    pub held_chips: Vec<(String, u64)>,
    /// (body, remaining TTL, overdue by) of the first messages, head first.
    pub chips: Vec<(String, Option<u64>, Option<u64>)>,
}

/// A delayed exchange in a lane: (name, messages_delayed, first (body, remaining ms) in due order).
pub type DelayedLine = (String, u64, Vec<(String, u64)>);

#[derive(Clone, Debug, PartialEq)]
pub struct LaneView {
    pub key: LaneKey,
    /// The scenario's own name (a preset lane's title in the page's language is the view's).
    pub name: String,
    /// The version it runs on (a preset lane's own `broker`).
    pub version: BrokerVersion,
    /// Messages lost with the node so far (dropped, `node_lost`).
    pub lost: u64,
    pub now_ms: u64,
    pub queues: Vec<QueueLine>,
    pub delayed: Vec<DelayedLine>,
    /// The last deliveries: (body, at, late).
    pub delivered: Vec<(String, u64, u64)>,
    pub stats: Stats,
    /// What the lane's run did so far, counted from its events.
    pub outcome: crate::outcome::Tally,
}

/// One lane run headless to its end (`until`, or until nothing is left to happen, or a
/// limit stops it): the final figures and deliveries, from the same runner and tracking
/// the live lane uses (the engine's events and [`delaylab_engine::lateness`]'s rule).
#[derive(Clone, Debug, PartialEq)]
pub struct FinalRow {
    pub key: LaneKey,
    pub name: String,
    pub stats: Stats,
    /// Every delivery: (body, at, late).
    pub deliveries: Vec<(String, u64, u64)>,
    /// The limit that stopped the run, if one did.
    pub stopped: Option<String>,
    /// What the run did, counted from its events.
    pub outcome: crate::outcome::Tally,
    /// Messages lost with the node (dropped, `node_lost`).
    pub lost: u64,
    pub version: BrokerVersion,
}

pub fn run_to_end(key: LaneKey, scenario: Scenario) -> FinalRow {
    let mut r = Runner::new(scenario).without_depth_samples();
    let mut stopped = None;
    while let Some(target) = r.scenario.until_ms.or_else(|| r.next_at()) {
        // One batch per slice: what a batch gathers for drawing stays small.
        let mut b = Batch::default();
        let reached = r.advance_to(target, &mut b, || true);
        stopped = b.limit.or(stopped);
        if r.sim.halted() || (reached && r.scenario.until_ms.is_some()) {
            break;
        }
    }
    let t = &r.track;
    FinalRow {
        key,
        name: r.scenario.name.clone(),
        stats: Stats::of(&t.delivered),
        deliveries: t
            .delivered
            .iter()
            .map(|d| (short(t.body(d.msg)), d.t_ms, d.late_ms))
            .collect(),
        stopped,
        outcome: t.tally.clone(),
        lost: t.lost_with_node,
        version: r.scenario.broker_version(),
    }
}

/// `A 0:06:00.000 · B 0:31:00.000 (+24:00.0)`: deliveries for people.
pub fn deliveries_text(d: &[(String, u64, u64)]) -> String {
    d.iter()
        .map(|(b, t, l)| {
            if *l > 0 {
                format!("{b} {} (+{})", clock(*t), span(*l))
            } else {
                format!("{b} {}", clock(*t))
            }
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// As [`deliveries_text`], the first and last `keep` only when there are more, the rest
/// counted in `more` (its `{n}` the count, in the page's words): `A 0:00:00.000 · … 25
/// more … · A 0:00:30.000` (a final table row stays short).
pub fn deliveries_summary(d: &[(String, u64, u64)], keep: usize, more: &str) -> String {
    if d.len() <= 2 * keep {
        return deliveries_text(d);
    }
    format!(
        "{} · … {} … · {}",
        deliveries_text(&d[..keep]),
        more.replace("{n}", &(d.len() - 2 * keep).to_string()),
        deliveries_text(&d[d.len() - keep..])
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use delaylab_engine::scenario::load_str;

    const POISON: &str = include_str!("../../../scenarios/poison-message-3-10-vs-4-0.json");
    const HOL: &str = include_str!("../../../scenarios/head-of-line-blocking.json");

    fn poison() -> Scenario {
        load_str(POISON).expect("the preset loads")
    }

    #[test]
    fn keys_round_trip_and_old_links_stay_presets() {
        for k in [
            LaneKey::Preset("head-of-line-blocking".into()),
            LaneKey::Version(BrokerVersion::V4_0),
            LaneKey::Version(BrokerVersion::V3_10),
        ] {
            assert_eq!(LaneKey::parse(&k.key()), Some(k));
        }
        assert_eq!(LaneKey::Version(BrokerVersion::V4_3).key(), "@4.3");
        assert_eq!(LaneKey::parse("@5.0"), None);
        assert_eq!(
            LaneKey::parse("fix-delayed-plugin"),
            Some(LaneKey::Preset("fix-delayed-plugin".into()))
        );
    }

    #[test]
    fn default_pair_is_the_baseline_beside_the_scenarios_version() {
        let own = poison().broker_version();
        assert_eq!(own, BrokerVersion::V4_0);
        assert_eq!(
            default_pair(own),
            [BrokerVersion::V3_10, BrokerVersion::V4_0]
        );
        let [a, b] = default_pair(BrokerVersion::V3_10);
        assert_eq!(a, BrokerVersion::V3_10);
        assert!(b > a && b.profile() != a.profile());
    }

    #[test]
    fn on_version_overrides_broker_and_keeps_3_10_absent() {
        let s = poison();
        assert_eq!(on_version(&s, BrokerVersion::V3_10).broker, None);
        assert_eq!(
            on_version(&s, BrokerVersion::V4_3).broker,
            Some(BrokerVersion::V4_3)
        );
        assert_eq!(on_version(&s, BrokerVersion::V4_3).actions, s.actions);
    }

    #[test]
    fn poison_message_loops_on_3_10_and_is_parked_after_20_returns_on_4_0() {
        let s = poison();
        let old = run_to_end(
            LaneKey::Version(BrokerVersion::V3_10),
            on_version(&s, BrokerVersion::V3_10),
        );
        let new = run_to_end(
            LaneKey::Version(BrokerVersion::V4_0),
            on_version(&s, BrokerVersion::V4_0),
        );
        // 4.0: 21 deliveries to the worker, then the inspector gets it from orders.parked.
        assert_eq!(new.stats.total, 22, "{:?}", new.deliveries);
        // 3.10: redelivered every second until the end (30 s), never parked.
        assert!(old.stats.total >= 30, "{}", old.stats.total);
        assert!(old.stats.total > new.stats.total);
        assert_eq!(old.stopped, None);
    }

    #[test]
    fn final_figures_are_the_reports() {
        // The headless run gives the run contract's lateness figures (checked against the
        // report's JSON here, in a test only; the app reads the typed rows).
        for (text, v) in [
            (HOL, BrokerVersion::V3_10),
            (POISON, BrokerVersion::V3_10),
            (POISON, BrokerVersion::V4_0),
        ] {
            let s = on_version(&load_str(text).expect("loads"), v);
            let row = run_to_end(LaneKey::Version(v), s.clone());
            let report = delaylab_engine::report::run(&s);
            let l = &report["lateness_ms"];
            assert_eq!(Some(row.stats.summary.count), l["count"].as_u64());
            assert_eq!(Some(row.stats.summary.p99_ms), l["p99"].as_u64());
            assert_eq!(Some(row.stats.summary.max_ms), l["max"].as_u64());
            let at: Vec<u64> = report["deliveries"]
                .as_array()
                .expect("deliveries")
                .iter()
                .filter_map(|d| d["delivered_at_ms"].as_u64())
                .collect();
            assert_eq!(row.deliveries.iter().map(|d| d.1).collect::<Vec<_>>(), at);
        }
    }

    #[test]
    fn a_long_delivery_list_is_cut_to_its_ends() {
        let d: Vec<(String, u64, u64)> = (0..10).map(|i| ("m".into(), i * 1_000, 0)).collect();
        assert_eq!(
            deliveries_summary(&d[..4], 2, "{n} more"),
            deliveries_text(&d[..4])
        );
        let s = deliveries_summary(&d, 2, "{n} more");
        assert!(s.contains("… 6 more …"), "{s}");
        assert!(s.starts_with("m 0:00:00.000 · m 0:00:01.000 · …"), "{s}");
        assert!(s.ends_with("m 0:00:08.000 · m 0:00:09.000"), "{s}");
    }

    #[test]
    fn a_lane_follows_the_clock_and_starts_over_when_it_goes_back() {
        let s = load_str(HOL).expect("loads");
        let mut lane = Lane::new(LaneKey::Preset("head-of-line-blocking".into()), s);
        assert!(lane.follow(390_000, || false));
        assert_eq!(lane.view().now_ms, 390_000);
        assert!(!lane.follow(390_000, || false), "already there");
        lane.follow(1_000, || false);
        assert_eq!(lane.view().now_ms, 1_000, "rebuilt and run forward");
    }
}
