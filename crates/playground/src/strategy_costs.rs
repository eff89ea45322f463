//! The strategy comparison's switch "exact rules | with RabbitMQ's speed (3.10.8, 2 cores)"
//! (issue 16 item 4): which cost mode the broker strategies run with.
//!
//! The engine owns the cost model (`delaylab_engine::costs`); this only names the two
//! choices the page offers and builds the workload the way `delaylab compare --costs`
//! does (`crates/cli/src/compare.rs`: `Workload::generate`, then `costs` set), so the
//! page's figures are the CLI's, computed by the same engine functions.
//!
//! ```text
//! exact rules  -> CostMode::Ideal:    the plugin releases at the due ms, a burst of
//!                                      expiries is dead-lettered in one ms (p99 0)
//! measured     -> CostMode::Measured: the plugin's one process releases ~1 due-ms key per
//!                                      ~1 ms tick (drift once backlogged); dead-lettering
//!                                      and deliveries take time (the drain)
//! ```

use delaylab_engine::costs::CostMode;
use delaylab_engine::strategies::{Workload, WorkloadFile};

/// The two cost modes the strategy comparison offers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CostChoice {
    /// The rules alone: a broker that takes no time (`ideal`).
    #[default]
    Exact,
    /// RabbitMQ 3.10.8 on 2 cores as broker-costs.md measured it (`measured`).
    Measured,
}

impl CostChoice {
    /// In the order the switch shows them.
    pub const ALL: [CostChoice; 2] = [CostChoice::Exact, CostChoice::Measured];

    /// The engine's cost mode for this choice.
    pub fn mode(self) -> CostMode {
        match self {
            CostChoice::Exact => CostMode::Ideal,
            CostChoice::Measured => CostMode::Measured,
        }
    }

    /// The `--costs` value that gives the same figures on the command line.
    pub fn cli_name(self) -> &'static str {
        match self {
            CostChoice::Exact => "ideal",
            CostChoice::Measured => "measured",
        }
    }

    /// The key of the choice's label (the page's words: `strategies_text.rs`).
    pub fn label_key(self) -> &'static str {
        match self {
            CostChoice::Exact => "costs_exact",
            CostChoice::Measured => "costs_measured",
        }
    }

    /// The key of the note beside the figures, saying which mode they come from.
    pub fn note_key(self) -> &'static str {
        match self {
            CostChoice::Exact => "costs_note_exact",
            CostChoice::Measured => "costs_note_measured",
        }
    }

    /// Reads a choice back from [`CostChoice::cli_name`] (the switch's value).
    pub fn parse(s: &str) -> Option<CostChoice> {
        CostChoice::ALL.into_iter().find(|c| c.cli_name() == s)
    }
}

/// The workload of `file` as `delaylab compare --costs <choice>` builds it.
pub fn workload(file: &WorkloadFile, choice: CostChoice) -> Workload {
    let mut w = Workload::generate(&file.spec);
    w.costs = choice.mode();
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use delaylab_engine::strategies::{self, load_workload_str, Comparison, StrategyResult};

    const PROMOTION: &str = include_str!("../../../scenarios/workloads/promotion-burst.json");
    /// Small enough for a debug test, dense enough that the plugin's timer tick and the
    /// dead-letter drain move the figures.
    const SMALL_COUNT: u64 = 4_000;
    const SMALL_OVER_MS: u64 = 2_000;
    const BROKER: [&str; 4] = ["dlx-per-message", "dlx-per-queue", "dlx-cascade", "plugin"];

    fn small() -> WorkloadFile {
        let mut f = load_workload_str(PROMOTION).expect("the preset loads");
        f.spec.count = SMALL_COUNT;
        f.spec.over_ms = SMALL_OVER_MS;
        f
    }

    /// What the page does: one `Comparison`, stepped in small slices.
    fn page(f: &WorkloadFile, choice: CostChoice) -> Vec<StrategyResult> {
        let configs = BROKER.iter().filter_map(|n| f.config(n)).collect();
        let mut c = Comparison::new(workload(f, choice), configs);
        while !c.step(512) {}
        c.results
    }

    /// What `delaylab compare --costs <mode>` does (crates/cli/src/compare.rs).
    fn cli(f: &WorkloadFile, mode: CostMode) -> Vec<StrategyResult> {
        let mut w = Workload::generate(&f.spec);
        w.costs = mode;
        BROKER
            .iter()
            .filter_map(|n| f.config(n))
            .map(|c| strategies::run(&c, &w))
            .collect()
    }

    #[test]
    fn measured_figures_are_the_clis_and_differ_from_ideal_where_the_plugin_drifts() {
        let f = small();
        let measured = page(&f, CostChoice::Measured);
        assert_eq!(measured, cli(&f, CostMode::Measured));
        let ideal = page(&f, CostChoice::Exact);
        assert_eq!(ideal, cli(&f, CostMode::Ideal));
        let by =
            |rs: &[StrategyResult], n: &str| rs.iter().find(|r| r.name == n).expect("ran").clone();
        let (pi, pm) = (by(&ideal, "plugin"), by(&measured, "plugin"));
        assert_eq!(pi.lateness.p99_ms, 0, "exact rules: the plugin is on time");
        assert!(
            pm.lateness.p99_ms > 0 && pm.lateness.max_ms > pi.lateness.max_ms,
            "measured: the plugin's tick and inserts make it late ({:?})",
            pm.lateness
        );
        assert_eq!(pm.delivered, pi.delivered, "costs move times, not outcomes");
        for m in &measured {
            // Publishes taken late by the channel (ingress) are still matched to their
            // own task: nothing fires before it is due.
            assert!(
                m.early == 0 && m.lateness.mean_ms >= 0.0,
                "{}: {:?}",
                m.name,
                m.lateness
            );
        }
        for n in ["dlx-per-message", "dlx-per-queue"] {
            let (i, m) = (by(&ideal, n), by(&measured, n));
            assert!(
                m.lateness.max_ms > i.lateness.max_ms,
                "{n}: dead-lettering and delivery take time ({:?} vs {:?})",
                m.lateness,
                i.lateness
            );
        }
    }

    #[test]
    fn the_plugin_drifts_seconds_behind_a_fast_publisher() {
        // plugin-backlog at half size and the same publish rate (50,000 in 8.5 s).
        let mut f = load_workload_str(include_str!(
            "../../../scenarios/workloads/plugin-backlog.json"
        ))
        .expect("the preset loads");
        f.spec.count /= 2;
        f.spec.over_ms /= 2;
        let plugin = f.config("plugin").expect("plugin");
        let ideal = strategies::run(&plugin, &workload(&f, CostChoice::Exact));
        let measured = strategies::run(&plugin, &workload(&f, CostChoice::Measured));
        assert_eq!(ideal.lateness.max_ms, 0);
        // Publishes the channel takes late (ingress) are matched to their own task, so
        // nothing fires before it is due, and the lateness is the drift's.
        assert!(
            measured.early == 0 && measured.lateness.mean_ms >= 0.0,
            "{:?}",
            measured.lateness
        );
        assert!(
            measured.lateness.p99_ms > 1_000,
            "one due-ms per tick, serialised with inserts: {:?}",
            measured.lateness
        );
    }

    #[test]
    fn choices_round_trip_and_name_the_engines_modes() {
        for c in CostChoice::ALL {
            assert_eq!(CostChoice::parse(c.cli_name()), Some(c));
        }
        assert_eq!(CostChoice::parse("fast"), None);
        assert!(CostChoice::Exact.mode().is_ideal());
        assert_eq!(CostChoice::Measured.mode(), CostMode::Measured);
        assert_eq!(CostChoice::default(), CostChoice::Exact);
    }
}
