//! Head-of-line blocking is the simulator's: one queue with mixed per-message TTLs
//! releases short delays late; one queue per delay, the cascade and the plugin do not.

mod strategies_common;
use strategies_common::*;

#[test]
fn mixed_delays_in_one_queue_are_late_but_not_in_a_queue_per_delay() {
    let w = workload(2_000, 120_000, mix(&[5_000, 60_000, 600_000]), None);
    let one = run("dlx-per-message", &w);
    assert_eq!(one.lost, 0);
    assert!(
        one.lateness.max_ms > 500_000,
        "a 5 s task behind a 10 min one: max {}",
        one.lateness.max_ms
    );
    assert!(one.lateness.mean_ms > 0.0);
    for name in ["dlx-per-queue", "dlx-cascade", "plugin"] {
        let r = run(name, &w);
        assert_eq!(
            (r.lost, r.lateness.max_ms, r.lateness.p99_ms),
            (0, 0, 0),
            "{name}"
        );
        assert_eq!(r.delivered, 2_000, "{name}");
    }
}

#[test]
fn one_delay_in_one_queue_is_on_time() {
    let w = workload(1_000, 60_000, mix(&[30_000]), None);
    assert_eq!(run("dlx-per-message", &w).lateness.max_ms, 0);
}

#[test]
fn the_cascade_rounds_up_to_seconds_and_hops_once_per_bit() {
    // 1.5 s -> 2 s (one hop), 7 s -> three hops.
    let w = workload(100, 10_000, mix(&[1_500, 7_000]), None);
    let r = run("dlx-cascade", &w);
    assert_eq!(r.lateness.max_ms, 500);
    assert_eq!(r.fact("levels"), Some(3));
    assert_eq!(
        r.broker_objects,
        3 * 4 + 3,
        "3 levels x (exchange, queue, 2 bindings) + deliver, due, binding"
    );
    let short = run("dlx-cascade", &workload(100, 10_000, mix(&[1_000]), None));
    assert!(
        r.work_per_task > short.work_per_task,
        "more 1 bits, more hops"
    );
}
