//! `dlx-per-queue`: one wait queue per distinct delay, each with a queue TTL
//! (`x-message-ttl`), dead-lettering to the due queue.
//!
//! Every message in a queue has the same TTL and enters in order, so the head is always
//! the first due: no head-of-line blocking. The cost is one queue (and its declaration,
//! monitoring, ...) per delay: a new delay needs a new queue. A workload with more than
//! `max_queues` distinct delays is not applicable (use `fixed-levels` or `dlx-cascade`).
//! ```text
//! delays 10 s and 30 m: delay.wait.10000 and delay.wait.1800000
//! 0 s   A -> delay.wait.1800000, B -> delay.wait.10000
//! 10 s  B expires at its queue's head: on time
//! ```
//! A task published late (after a restart) still waits its queue's full TTL.

use std::collections::BTreeSet;

use super::broker::{delay_scenario, persistent, wait_queue, BrokerRun, DelayTopology, Plan};
use super::workload::Workload;
use super::{OneShot, Strategy, StrategyResult};
use crate::value::Table;

pub(crate) fn new(w: &Workload, max_queues: u64) -> Box<dyn Strategy> {
    let delays: BTreeSet<u64> = w.tasks.iter().map(|t| t.delay_ms).collect();
    let params = format!("one queue per delay ({} queues)", delays.len());
    if delays.len() as u64 > max_queues {
        let why = format!(
            "{} distinct delays would need {} queues (max_queues {max_queues}); use fixed-levels or dlx-cascade",
            delays.len(),
            delays.len()
        );
        let mut r =
            StrategyResult::not_applicable("dlx-per-queue", params, w.tasks.len() as u64, why);
        // The figure behind the texts, for a reader writing them in another language.
        r.facts.push(("queues_for_delays", delays.len() as u64));
        return OneShot::ready(r);
    }
    let ttls: Vec<u64> = delays.into_iter().collect();
    let plan = Plan {
        name: "dlx-per-queue",
        params,
        scenario: delay_scenario("dlx-per-queue", DelayTopology::PerTtlQueues(&ttls)),
        publish: Box::new(|task, _remaining| {
            persistent("", &wait_queue(task.delay_ms), None, Table::new())
        }),
        facts: vec![("queues_for_delays", ttls.len() as u64)],
    };
    Box::new(BrokerRun::new(plan, w))
}
