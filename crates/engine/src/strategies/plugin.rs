//! `plugin`: the delayed-message exchange (`x-delayed-message`, `x-delay` header). The
//! plugin keeps waiting messages in a store on one node, in due order, and routes each
//! at its due time: no head-of-line blocking and no queue per delay.
//!
//! The store survives a restart (overdue messages go out at once when the node is
//! back), but it is not replicated: when its node is lost, every waiting message is
//! lost with it.
//! ```text
//! 0 s    publish with x-delay 30 m: held in the store (messages_delayed 1)
//! 10 m   the node is lost: the message is gone
//! ```

use super::broker::{
    delay_scenario, persistent, BrokerRun, DelayTopology, Plan, DELAYED_EXCHANGE, DUE_QUEUE,
};
use super::workload::Workload;
use crate::value::{FieldValue, Table};

pub(crate) fn new(w: &Workload) -> BrokerRun {
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
    BrokerRun::new(plan, w)
}
