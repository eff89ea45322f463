//! `dlx-per-message`: one wait queue; each message carries its own TTL (`expiration`)
//! and dead-letters to the due queue when it expires.
//!
//! RabbitMQ expires messages only at the head of a queue, so with mixed delays a long
//! TTL at the head holds back every shorter one behind it (head-of-line blocking):
//! ```text
//! 0 s   publish A (expiration 30 min), then B (expiration 10 s)
//! 10 s  B is due, but A is at the head: B waits
//! 30 m  A expires and dead-letters; B right after it: 29 m 50 s late
//! ```
//! Objects: the dead-letter exchange, the wait and due queues, one binding.

use super::broker::{delay_scenario, persistent, BrokerRun, DelayTopology, Plan, WAIT_QUEUE};
use super::workload::Workload;
use crate::value::Table;

pub(crate) fn new(w: &Workload) -> BrokerRun {
    let scenario = delay_scenario("dlx-per-message", DelayTopology::PerMessageTtl);
    let plan = Plan {
        name: "dlx-per-message",
        params: "one queue, per-message TTL".into(),
        scenario,
        publish: Box::new(|_task, remaining_ms| {
            persistent("", WAIT_QUEUE, Some(remaining_ms), Table::new())
        }),
        facts: vec![("queues_for_delays", 1)],
    };
    BrokerRun::new(plan, w)
}
