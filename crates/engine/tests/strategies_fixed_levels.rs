//! `fixed-levels`: a delay is rounded up to the next of RocketMQ's 18 levels; the
//! lateness is exactly that rounding.

mod strategies_common;
use delaylab_engine::strategies::ROCKETMQ_LEVELS_MS;
use strategies_common::*;

#[test]
fn lateness_is_the_rounding_up_to_the_next_level() {
    // 45 s -> 1 min, 15 min -> 20 min, 30 min -> 30 min.
    let w = workload(900, 300_000, mix(&[45_000, 900_000, 1_800_000]), None);
    let r = run("fixed-levels", &w);
    let rounding: Vec<i64> = w
        .tasks
        .iter()
        .map(|t| {
            (*ROCKETMQ_LEVELS_MS
                .iter()
                .find(|l| **l >= t.delay_ms)
                .unwrap()
                - t.delay_ms) as i64
        })
        .collect();
    let mean = rounding.iter().sum::<i64>() as f64 / rounding.len() as f64;
    assert_eq!(r.lost, 0);
    assert_eq!(r.lateness.max_ms, 300_000);
    assert!(
        (r.lateness.mean_ms - mean).abs() < 1e-6,
        "{} vs {mean}",
        r.lateness.mean_ms
    );
    assert_eq!(
        r.broker_objects,
        18 + 3,
        "18 level queues + due queue, dlx, binding"
    );
}

#[test]
fn a_delay_above_the_last_level_fires_early() {
    let w = workload(10, 1_000, mix(&[3 * 3_600_000]), None);
    let r = run("fixed-levels", &w);
    assert_eq!(r.early, 10);
    assert_eq!(r.lateness.max_ms, -3_600_000);
    assert_eq!(r.fact("clamped_to_last_level"), Some(10));
}
