//! `polling-scan` and `store-poll`: precision bounded by the period; an unindexed scan
//! reads the whole table (done rows included) on every run; an indexed one only what it
//! returns.

mod strategies_common;
use delaylab_engine::strategies::{self, Config};
use strategies_common::*;

#[test]
fn polling_lateness_is_below_the_period() {
    let w = workload(
        3_000,
        600_000,
        mix(&[1_000, 45_000, 90_000, 1_800_000]),
        None,
    );
    for period_ms in [1_000, 15_000, 60_000, 300_000] {
        let r = strategies::run(
            &Config::PollingScan {
                period_ms,
                indexed: false,
                batch: None,
            },
            &w,
        );
        assert_eq!(r.lost, 0);
        assert_eq!(r.delivered, 3_000);
        assert!(
            r.lateness.max_ms < period_ms as i64,
            "period {period_ms}: max {}",
            r.lateness.max_ms
        );
        assert!(r.lateness.max_ms >= 0 && r.early == 0);
        assert!(
            r.lateness.max_ms > period_ms as i64 / 2,
            "a random workload lands across the whole period"
        );
    }
}

/// The oracle: every run at k * period reads every row inserted so far, until all are done.
fn brute_force_rows(w: &delaylab_engine::strategies::Workload, period_ms: u64) -> (u64, u64) {
    let last_due = w.tasks.iter().map(|t| t.due_ms()).max().unwrap();
    let (mut rows, mut runs, mut r) = (0, 0, period_ms);
    loop {
        rows += w.tasks.iter().filter(|t| t.created_at_ms <= r).count() as u64;
        runs += 1;
        if r >= last_due {
            return (rows, runs);
        }
        r += period_ms;
    }
}

#[test]
fn unindexed_scan_reads_the_whole_table_every_run() {
    let w = workload(500, 300_000, mix(&[10_000, 600_000]), None);
    let r = strategies::run(
        &Config::PollingScan {
            period_ms: 60_000,
            indexed: false,
            batch: None,
        },
        &w,
    );
    let (rows, runs) = brute_force_rows(&w, 60_000);
    assert_eq!(r.rows_scanned, rows);
    assert_eq!(r.fact("runs"), Some(runs));
    assert_eq!(
        r.fact("max_rows_per_run"),
        Some(500),
        "the last runs read done rows too"
    );
    let indexed = strategies::run(
        &Config::PollingScan {
            period_ms: 60_000,
            indexed: true,
            batch: None,
        },
        &w,
    );
    assert_eq!(indexed.rows_scanned, 500);
    assert_eq!(
        indexed.lateness, r.lateness,
        "an index changes the cost, not the precision"
    );
}

#[test]
fn a_batch_limit_makes_a_backlog() {
    let w = workload(1_000, 1_000, mix(&[5_000]), None);
    let r = strategies::run(
        &Config::PollingScan {
            period_ms: 10_000,
            indexed: true,
            batch: Some(100),
        },
        &w,
    );
    assert_eq!(r.delivered, 1_000);
    // 100 rows per 10 s run: the last of 1,000 goes out at the 10th run (100 s).
    assert!(r.lateness.max_ms >= 90_000, "max {}", r.lateness.max_ms);
}

#[test]
fn store_poll_is_bounded_by_its_shorter_period_and_survives_a_restart() {
    let w = workload(
        2_000,
        600_000,
        mix(&[30_000, 1_800_000]),
        restart(300_000, 60_000),
    );
    let r = run("store-poll", &w);
    assert_eq!(r.lost, 0);
    assert_eq!(r.rows_scanned, 2_000);
    // Tasks due in the downtime wait for the app: at most the downtime plus one period.
    assert!(
        r.lateness.max_ms < 61_000 && r.lateness.max_ms > 1_000,
        "max {}",
        r.lateness.max_ms
    );
    let calm = run(
        "store-poll",
        &workload(2_000, 600_000, mix(&[30_000, 1_800_000]), None),
    );
    assert!(calm.lateness.max_ms < 1_000);
}
