//! The way off the delayed-message plugin, side by side (issue 27 item 4): the same
//! order-timeout workload (the plugin presets' mixed delays in one stream) three ways,
//! each on its own RabbitMQ version, with a node lost halfway; and each way's cost at the
//! workload's scale, from the strategy comparison's own figures.
//!
//! The lanes are presets (Compare topologies' lanes, `crate::compare`): each preset
//! names its `broker`, so each lane runs on its own version, and a share link keeps the
//! three preset ids. The scale figures are `delaylab_engine::strategies` run on
//! `scenarios/workloads/off-the-plugin.json`, as `delaylab compare` runs it (the same
//! file, the same functions), in slices the page paces.
//!
//! ```text
//! lane                               0:10..9:00       15:00 node lost   30:00, 33:00
//! plugin on 4.2 (x-delayed-message)  C F B E on time  A, D dropped      never
//! quorum wait queue per delay, 4.3   C F B E on time  A, D kept         A, D on time
//! quorum queue + delivery time, 4.4  C F B E on time  A, D kept (held)  A, D on time
//! ```

use delaylab_engine::strategies::{
    self, Comparison, Config, StrategyResult, Workload, WorkloadFile,
};
use delaylab_engine::version::BrokerVersion;

/// The three lanes, in the order they are shown: the plugin's last version, then the
/// two ways that replace it.
pub const LANES: [&str; 3] = [
    "off-plugin-1-plugin-4-2",
    "off-plugin-2-wait-queues-4-3",
    "off-plugin-3-delivery-time-4-4",
];

/// The workload at scale (`delaylab compare scenarios/workloads/off-the-plugin.json`).
pub const WORKLOAD: &str = include_str!("../../../scenarios/workloads/off-the-plugin.json");
/// Its path, as the page names it.
pub const WORKLOAD_FILE: &str = "scenarios/workloads/off-the-plugin.json";

/// The strategy of each lane in the strategy comparison, and the version it stands for.
pub const WAYS: [(&str, BrokerVersion); 3] = [
    ("plugin", BrokerVersion::V4_2),
    ("dlx-per-queue", BrokerVersion::V4_3),
    ("qq-delivery-time", BrokerVersion::V4_4),
];

/// Whether `ids` (a compare link's lanes) are the off-the-plugin comparison.
pub fn is_off_plugin(ids: &[String]) -> bool {
    ids.len() == LANES.len() && ids.iter().zip(LANES).all(|(a, b)| a == b)
}

/// The lanes' ids, as compare mode takes them.
pub fn lane_ids() -> Vec<String> {
    LANES.iter().map(|s| s.to_string()).collect()
}

/// The workload file, read by the engine's loader.
pub fn workload_file() -> WorkloadFile {
    strategies::load_workload_str(WORKLOAD).expect("the off-the-plugin workload loads")
}

/// One way's figures at scale: its strategy, the version it stands for, the versions it
/// works on (`strategies::works_on`), and the result once computed (`None` while it runs,
/// or when this build's strategy comparison has no such strategy: `missing`).
#[derive(Clone, Debug, PartialEq)]
pub struct CostRow {
    pub strategy: &'static str,
    pub version: BrokerVersion,
    pub works_on: Vec<BrokerVersion>,
    pub missing: bool,
    pub result: Option<StrategyResult>,
}

/// The scale comparison to run (in slices: `Comparison::step`) and its rows, results
/// empty; the rows of strategies this build lacks are `missing`.
pub fn scale(file: &WorkloadFile) -> (Comparison, Vec<CostRow>) {
    let rows: Vec<CostRow> = WAYS
        .iter()
        .map(|(name, version)| CostRow {
            strategy: name,
            version: *version,
            works_on: BrokerVersion::ALL
                .into_iter()
                .filter(|v| strategies::works_on(name, *v))
                .collect(),
            missing: file.config(name).is_none(),
            result: None,
        })
        .collect();
    let configs: Vec<Config> = WAYS.iter().filter_map(|(n, _)| file.config(n)).collect();
    (
        Comparison::new(Workload::generate(&file.spec), configs),
        rows,
    )
}

/// The rows with the comparison's results so far, matched by strategy name.
pub fn with_results(rows: &[CostRow], results: &[StrategyResult]) -> Vec<CostRow> {
    rows.iter()
        .map(|r| CostRow {
            result: results.iter().find(|x| x.name == r.strategy).cloned(),
            ..r.clone()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::{run_to_end, LaneKey};
    use delaylab_engine::scenario::load_str;

    fn preset(id: &str) -> delaylab_engine::scenario::Scenario {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../scenarios")
            .join(format!("{id}.json"));
        load_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    }

    #[test]
    fn each_lane_runs_on_its_own_version_and_only_the_plugin_loses_orders_with_the_node() {
        let want = [
            (BrokerVersion::V4_2, 4, 2),
            (BrokerVersion::V4_3, 6, 0),
            (BrokerVersion::V4_4, 6, 0),
        ];
        for (id, (version, delivered, lost)) in LANES.into_iter().zip(want) {
            let s = preset(id);
            assert_eq!(s.broker_version(), version, "{id}");
            assert_eq!(s.written_for(), [version], "{id}");
            let row = run_to_end(LaneKey::Preset(id.into()), s);
            assert_eq!(
                row.stats.summary.count, delivered,
                "{id}: {:?}",
                row.deliveries
            );
            assert_eq!(row.stats.summary.max_ms, 0, "{id}: every delivery on time");
            assert_eq!(row.lost, lost, "{id}");
        }
        assert!(is_off_plugin(&lane_ids()));
        assert!(!is_off_plugin(&lane_ids()[..2]));
    }

    #[test]
    fn the_scale_rows_are_the_strategy_comparisons_figures() {
        let mut file = workload_file();
        assert_eq!(file.spec.count, 20_000);
        file.spec.count = 300; // the full run is the CLI's and the page's
        let (mut cmp, rows) = scale(&file);
        while !cmp.step(u64::MAX) {}
        let rows = with_results(&rows, &cmp.results);
        let w = Workload::generate(&file.spec);
        for r in rows.iter().filter(|r| !r.missing) {
            let whole = strategies::run(&file.config(r.strategy).unwrap(), &w);
            assert_eq!(r.result.as_ref(), Some(&whole), "{}", r.strategy);
            assert!(r.works_on.contains(&r.version), "{}", r.strategy);
        }
        let plugin = &rows[0];
        assert!(!plugin.works_on.contains(&BrokerVersion::V4_3));
        assert!(!plugin.missing && !rows[1].missing);
    }
}
