//! `plugin`: the delayed-message exchange (`x-delayed-message`, `x-delay` header). The
//! plugin keeps waiting messages in a store on one node, in due order, and routes each
//! at its due time: no head-of-line blocking and no queue per delay.
//!
//! The store survives a restart (overdue messages go out at once when the node is
//! back), but it is not replicated: when its node is lost, every waiting message is
//! lost with it.
//! It runs on RabbitMQ 3.10 to 4.2 only: the plugin was archived in January 2026, its
//! last release (v4.2.0) needs 4.2, and 4.3 removed Mnesia, which it stores in
//! (rabbitmq-versions.md D27). On a 4.3 workload (`compare --broker 4.3`) it is not
//! applicable.
//! ```text
//! 0 s    publish with x-delay 30 m: held in the store (messages_delayed 1)
//! 10 m   the node is lost: the message is gone
//! ```

use super::broker::{
    delay_scenario, persistent, BrokerRun, DelayTopology, Plan, DELAYED_EXCHANGE, DUE_QUEUE,
};
use super::workload::Workload;
use crate::value::{FieldValue, Table};

pub(crate) fn new(w: &Workload) -> Box<dyn super::Strategy> {
    let version = w.broker.unwrap_or_default();
    if !super::works_on("plugin", version) {
        let r = super::StrategyResult::not_applicable(
            "plugin",
            "x-delayed-message exchange".into(),
            w.tasks.len() as u64,
            super::PLUGIN_GONE.into(),
        );
        return super::OneShot::ready(r);
    }
    let scenario = delay_scenario("plugin", DelayTopology::DelayedExchange);
    let plan = Plan {
        name: "plugin",
        params: "x-delayed-message exchange".into(),
        scenario,
        publish: Box::new(|_task, remaining_ms| {
            let mut headers = Table::new();
            headers.insert("x-delay", FieldValue::Int(remaining_ms as i64));
            persistent(DELAYED_EXCHANGE, DUE_QUEUE, None, headers)
        }),
        facts: Vec::new(),
    };
    Box::new(BrokerRun::new(plan, w))
}
