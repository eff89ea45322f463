//! Restarts and lost nodes: the broker keeps durable queues and the plugin's store over
//! a restart; an in-memory wheel loses everything waiting; a lost node takes the
//! plugin's store with it; keyspace notifications sent while the app is down are lost.

mod strategies_common;
use strategies_common::*;

const DELAYS: [u64; 3] = [10_000, 120_000, 900_000];

#[test]
fn dlx_strategies_and_the_plugin_lose_nothing_on_restart() {
    let w = workload(1_500, 600_000, mix(&DELAYS), restart(300_000, 30_000));
    assert!(waiting_at(&w, 300_000) > 100);
    for name in [
        "dlx-per-message",
        "dlx-per-queue",
        "dlx-cascade",
        "fixed-levels",
        "plugin",
    ] {
        let r = run(name, &w);
        assert_eq!(r.lost, 0, "{name}");
        assert_eq!(r.delivered, 1_500, "{name}");
    }
    // Something was held back by the downtime.
    assert!(run("dlx-per-queue", &w).lateness.max_ms > 0);
}

#[test]
fn the_wheel_loses_every_waiting_task_on_restart() {
    let w = workload(1_500, 600_000, mix(&DELAYS), restart(300_000, 30_000));
    let r = run("timing-wheel", &w);
    let waiting = waiting_at(&w, 300_000);
    // A task due within the last tick before the restart is also still in the wheel.
    assert!(
        r.lost >= waiting && r.lost <= waiting + 10,
        "lost {} waiting {waiting}",
        r.lost
    );
    assert_eq!(r.fact("lost_on_restart"), Some(r.lost));
    assert_eq!(
        run(
            "timing-wheel",
            &workload(1_500, 600_000, mix(&DELAYS), None)
        )
        .lost,
        0
    );
}

#[test]
fn the_plugin_loses_its_store_with_its_node_but_not_on_restart() {
    let lost_node = workload(1_500, 600_000, mix(&DELAYS), lose(300_000));
    let r = run("plugin", &lost_node);
    assert_eq!(r.lost, waiting_at(&lost_node, 300_000));
    assert!(r.lost > 0);
    let restarted = workload(1_500, 600_000, mix(&DELAYS), restart(300_000, 0));
    assert_eq!(run("plugin", &restarted).lost, 0);
    // The app-side stores survive the app's node.
    assert_eq!(run("store-poll", &lost_node).lost, 0);
    assert_eq!(run("polling-scan", &lost_node).lost, 0);
}

#[test]
fn notifications_sent_while_the_app_is_down_are_lost() {
    let w = workload(1_500, 600_000, mix(&DELAYS), restart(300_000, 30_000));
    let r = run("store-notify", &w);
    assert!(r.lost > 0);
    assert_eq!(
        r.fact("lost_while_down"),
        Some(r.lost),
        "no pressure with the default threshold"
    );
}

/// RabbitMQ 4.4's quorum queue with x-opt-delivery-time (issue 27): its held messages
/// are replicated queue state, so a lost node loses none (the plugin loses its store);
/// a restart delays what fell due while the node was down, nothing more. Mixed delays:
/// each is released at its own time, so without an outage every task is on time.
#[test]
fn the_quorum_queue_delivery_time_keeps_its_held_messages_through_a_lost_node() {
    let lost_node = workload(1_500, 600_000, mix(&DELAYS), lose(300_000));
    let qq = run("qq-delivery-time", &lost_node);
    assert_eq!((qq.lost, qq.delivered), (0, 1_500), "{qq:?}");
    assert_eq!(qq.lateness.max_ms, 0, "released at their own times");
    assert_eq!(qq.broker_objects, 1, "one quorum queue");
    assert!(run("plugin", &lost_node).lost > 0);
    let restarted = workload(1_500, 600_000, mix(&DELAYS), restart(300_000, 30_000));
    let r = run("qq-delivery-time", &restarted);
    assert_eq!(r.lost, 0);
    assert!(
        r.lateness.max_ms > 0 && r.lateness.max_ms <= 30_000,
        "due during the downtime: released when the node is back ({} ms)",
        r.lateness.max_ms
    );
    let calm = workload(1_500, 600_000, mix(&DELAYS), None);
    assert_eq!(run("qq-delivery-time", &calm).lateness.max_ms, 0);
}

/// On a comparison that names a version before 4.4 it does not apply, saying why; one
/// that names none runs it on 4.4, the version the row names.
#[test]
fn the_quorum_queue_delivery_time_needs_4_4() {
    use delaylab_engine::version::BrokerVersion;
    let mut w = workload(100, 60_000, mix(&DELAYS), None);
    assert!(run("qq-delivery-time", &w).not_applicable.is_none());
    w.broker = Some(BrokerVersion::V4_3);
    let r = run("qq-delivery-time", &w);
    assert!(
        r.not_applicable
            .as_deref()
            .is_some_and(|why| why.contains("from RabbitMQ 4.4") && why.contains("on 4.3")),
        "{r:?}"
    );
    w.broker = Some(BrokerVersion::V4_4);
    assert_eq!(run("qq-delivery-time", &w).delivered, 100);
}
