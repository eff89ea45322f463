//! `qq-delivery-time`: RabbitMQ 4.4's quorum queues hold a message published with
//! `x-opt-delivery-time` until that time (version notes D34-D43, `sim/hold.rs`). One
//! durable quorum queue, the due queue itself: the application publishes each task to
//! it with its due time and consumes it there. No wait queue, no dead-lettering, no
//! plugin.
//!
//! Held messages are kept by (time, arrival) and released by an exact timer, so a short
//! delay is never held up by a long one; they are replicated queue state, so a restart
//! releases what fell due while the node was down as soon as it is back, and the loss
//! of a node loses nothing (unlike the plugin's store). The rules are read in
//! RabbitMQ's source (no 4.4 broker was run); with `--costs measured` the broker costs
//! are 4.3.6's quorum queue's (the nearest measured release).
//!
//! It runs on 4.4 only: before it, the header is an ordinary one and every task would
//! fire at once. A comparison that names no version runs it on 4.4 (the row's version);
//! one on an older version (`compare --broker 4.3`) lists it as not applicable.
//! ```text
//! 0 s    publish A (x-opt-delivery-time 30:00), B (0:10) to delay.due (quorum)
//! 10 s   B released and delivered: on time
//! 30 m   A released and delivered: on time
//! ```
//! Objects: one queue.

use super::broker::{delay_scenario, persistent, BrokerRun, DelayTopology, Plan, DUE_QUEUE};
use super::workload::Workload;
use super::{OneShot, Strategy, StrategyResult};
use crate::amqp::delivery_time::DELIVERY_TIME_HEADER;
use crate::value::{FieldValue, Table};
use crate::version::BrokerVersion;

pub(crate) const NAME: &str = "qq-delivery-time";

/// The version the row is named for, when the comparison names none.
pub const VERSION: BrokerVersion = BrokerVersion::V4_4;

pub(crate) fn new(w: &Workload) -> Box<dyn Strategy> {
    let params = "one quorum queue, x-opt-delivery-time (RabbitMQ 4.4)".to_string();
    let version = w.broker.unwrap_or(VERSION);
    if !super::works_on(NAME, version) {
        let why = format!(
            "quorum queues hold a message until its x-opt-delivery-time from RabbitMQ 4.4; \
             on {version} the header is an ordinary one and every task would fire at once"
        );
        return OneShot::ready(StrategyResult::not_applicable(
            NAME,
            params,
            w.tasks.len() as u64,
            why,
        ));
    }
    let plan = Plan {
        name: NAME,
        params,
        scenario: delay_scenario(NAME, DelayTopology::QuorumDeliveryTime),
        publish: Box::new(|task, _remaining| {
            // A time, not a delay: the task's due time (virtual 0:00 is the epoch).
            let mut headers = Table::new();
            headers.insert(DELIVERY_TIME_HEADER, FieldValue::Int(task.due_ms() as i64));
            persistent("", DUE_QUEUE, None, headers)
        }),
        facts: Vec::new(),
    };
    let mut w = w.clone();
    w.broker = Some(version);
    Box::new(BrokerRun::new(plan, &w))
}
