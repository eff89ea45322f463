//! Same workload, same seed: the same numbers, for every strategy; and the workload
//! presets in `scenarios/workloads/` load and run.

mod strategies_common;
use std::fs;
use std::path::Path;

use delaylab_engine::strategies::{self, Comparison, Workload, NAMES};
use strategies_common::*;

#[test]
fn same_seed_same_numbers() {
    let a = workload(
        1_000,
        120_000,
        mix(&[5_000, 60_000, 600_000]),
        restart(60_000, 10_000),
    );
    let b = workload(
        1_000,
        120_000,
        mix(&[5_000, 60_000, 600_000]),
        restart(60_000, 10_000),
    );
    assert_eq!(a, b);
    for name in NAMES {
        assert_eq!(run(name, &a), run(name, &b), "{name}");
    }
    let mut spec_c = strategies::WorkloadSpec {
        seed: 6,
        count: 1_000,
        over_ms: 120_000,
        delays: mix(&[5_000, 60_000, 600_000]),
        outage: None,
    };
    let c = Workload::generate(&spec_c);
    spec_c.seed = 5;
    assert_ne!(c, Workload::generate(&spec_c), "another seed, other tasks");
}

#[test]
fn sliced_runs_give_the_same_results_as_one_call() {
    let w = workload(800, 60_000, mix(&[5_000, 300_000]), restart(30_000, 5_000));
    let configs: Vec<_> = NAMES
        .iter()
        .map(|n| strategies::Config::default_for(n).unwrap())
        .collect();
    let mut cmp = Comparison::new(w.clone(), configs);
    let mut slices = 0;
    while !cmp.step(64) {
        slices += 1;
        assert!(slices < 100_000);
    }
    assert!(slices > NAMES.len() * 2, "small budgets take many slices");
    let whole: Vec<_> = NAMES.iter().map(|n| run(n, &w)).collect();
    assert_eq!(cmp.results, whole);
}

#[test]
fn workload_presets_load_and_run() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/workloads");
    let mut seen = 0;
    for entry in fs::read_dir(&dir).expect("scenarios/workloads") {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        let mut file = strategies::load_workload_str(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            !file.name.is_empty() && !file.description.is_empty(),
            "{}",
            path.display()
        );
        file.spec.count = file.spec.count.min(300); // the full runs are the CLI's
        let w = Workload::generate(&file.spec);
        for name in NAMES {
            let r = strategies::run(&file.config(name).unwrap(), &w);
            assert_eq!(r.tasks, w.tasks.len() as u64, "{}: {name}", path.display());
        }
        seen += 1;
    }
    assert!(seen >= 3);
}
