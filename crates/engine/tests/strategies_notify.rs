//! `store-notify`: keyspace notifications are lost under memory pressure (a seeded
//! share), never below the threshold; they come at the expire cycle.

mod strategies_common;
use delaylab_engine::strategies::{self, Config};
use strategies_common::*;

#[test]
fn notifications_are_lost_under_pressure_only() {
    let w = workload(20_000, 60_000, mix(&[600_000]), None);
    let pressed = strategies::run(
        &Config::StoreNotify {
            expire_cycle_ms: 100,
            pressure_above: 5_000,
            drop_share: 0.1,
        },
        &w,
    );
    // Above 5,000 keys for the first 15,000 expiries: about 10 % of them are dropped.
    assert!(
        (1_200..1_800).contains(&pressed.lost),
        "lost {}",
        pressed.lost
    );
    assert_eq!(pressed.fact("dropped_under_pressure"), Some(pressed.lost));
    let calm = strategies::run(
        &Config::StoreNotify {
            expire_cycle_ms: 100,
            pressure_above: 20_000,
            drop_share: 0.1,
        },
        &w,
    );
    assert_eq!(calm.lost, 0);
    assert!(calm.lateness.max_ms < 100 && calm.lateness.max_ms >= 0);
}
