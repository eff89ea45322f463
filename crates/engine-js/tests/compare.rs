//! `compare()`: the strategies on a workload, as `delaylab compare --format json`.
#![cfg(not(target_arch = "wasm32"))]

use delaylab_engine::strategies::{self, report, Workload};
use delaylab_engine_js::compare::{compare, CompareError};

const WORKLOAD: &str = include_str!("../../../scenarios/workloads/promotion-burst.json");

#[test]
fn the_selected_strategies_give_the_engines_results_and_a_time_each() {
    let names = vec!["dlx-per-message".to_string(), "plugin".to_string()];
    let mut tick = 0.0;
    let c = compare(WORKLOAD, Some(&names), Some(300), || {
        tick += 1.0;
        tick
    })
    .expect("compares");
    let mut file = strategies::load_workload_str(WORKLOAD).expect("loads");
    file.spec.count = 300;
    let workload = Workload::generate(&file.spec);
    let want: Vec<_> = names
        .iter()
        .map(|n| strategies::run(&file.config(n).expect("known"), &workload))
        .collect();
    assert_eq!(c.doc["strategies"], report::to_json(&want));
    assert_eq!(c.doc["workload"]["tasks"], 300);
    assert_eq!(
        c.wall_ms,
        vec![("dlx-per-message", 1.0), ("plugin", 1.0)],
        "one clock difference per strategy"
    );
}

#[test]
fn bad_options_and_workloads_are_refused() {
    let clock = || 0.0;
    let unknown = vec!["carrier-pigeon".to_string()];
    assert!(matches!(
        compare(WORKLOAD, Some(&unknown), None, clock),
        Err(CompareError::Options(m)) if m.contains("carrier-pigeon")
    ));
    assert!(matches!(
        compare(WORKLOAD, Some(&[]), None, clock),
        Err(CompareError::Options(_))
    ));
    assert!(matches!(
        compare(WORKLOAD, None, Some(strategies::load::MAX_TASKS + 1), clock),
        Err(CompareError::Options(m)) if m.contains("MAX_TASKS")
    ));
    assert!(matches!(
        compare(r#"{"workload": {"count": "many"}}"#, None, None, clock),
        Err(CompareError::Load(e)) if e.path == "workload.count"
    ));
}
