//! `dlx-cascade`: a binary cascade of TTL queues, 2^n seconds at level n, as some
//! client libraries build it (NServiceBus's delay levels). The delay in whole seconds
//! is written in binary into the routing key, one word per level from the top
//! (`0.1.1.due` is 3 s with 3 levels); at each level a topic exchange sends the message
//! into that level's queue when its bit is 1, or straight on to the next level when it
//! is 0. A level queue's TTL dead-letters to the next level's exchange with the same
//! routing key, so the message hops down the cascade and leaves level 0 to the due queue.
//! ```text
//! 3 levels (1 s, 2 s, 4 s); delay 3 s -> key 0.1.1.due, published to cascade.L2
//! 0 s  L2: bit 0 -> L1: bit 1 -> queue cascade.q1 (TTL 2 s)
//! 2 s  expires, dead-letters to L0: bit 1 -> cascade.q0 (TTL 1 s)
//! 3 s  expires, dead-letters to cascade.deliver -> delay.due: on time
//! ```
//! Every queue has one TTL, so there is no head-of-line blocking; the delay is rounded
//! up to whole seconds; work grows with the number of 1 bits (hops).

use super::broker::{base_scenario, persistent, BrokerRun, Plan, DUE_QUEUE};
use super::workload::Workload;
use crate::scenario::{BindingDef, ExchangeDef, QueueDef};
use crate::value::{FieldValue, Table};

const DELIVER_EXCHANGE: &str = "cascade.deliver";
/// Levels needed for any delay the plugin or a queue TTL can hold (2^32 s).
pub const MAX_LEVELS: u32 = 32;

fn exchange(level: u32) -> String {
    format!("cascade.L{level}")
}

/// Bindings match one word: `*.*.1.#` is "bit 0 of 3 levels is 1".
fn pattern(levels: u32, level: u32, bit: char) -> String {
    format!("{}{bit}.#", "*.".repeat((levels - 1 - level) as usize))
}

/// The routing key of a delay of `seconds` with `levels` levels (clamped to the largest).
pub(crate) fn routing_key(levels: u32, seconds: u64) -> String {
    let max = (1u64 << levels) - 1;
    let s = seconds.min(max);
    let mut key: String = (0..levels)
        .rev()
        .map(|n| if s >> n & 1 == 1 { "1." } else { "0." })
        .collect();
    key.push_str("due");
    key
}

/// The fewest levels that hold `max_delay_ms` (rounded up to seconds), at least 1.
pub(crate) fn levels_for(max_delay_ms: u64) -> u32 {
    let s = max_delay_ms.div_ceil(1000);
    (64 - s.leading_zeros()).clamp(1, MAX_LEVELS)
}

pub(crate) fn new(w: &Workload, levels: Option<u32>) -> BrokerRun {
    let levels = levels
        .unwrap_or_else(|| levels_for(w.max_delay_ms()))
        .clamp(1, MAX_LEVELS);
    let mut scenario = base_scenario("dlx-cascade");
    let topo = &mut scenario.topology;
    topo.exchanges
        .push(ExchangeDef::new(DELIVER_EXCHANGE, "topic"));
    topo.bindings
        .push(BindingDef::queue(DELIVER_EXCHANGE, DUE_QUEUE, "#"));
    for n in 0..levels {
        let next = if n == 0 {
            DELIVER_EXCHANGE.to_string()
        } else {
            exchange(n - 1)
        };
        let queue = format!("cascade.q{n}");
        topo.exchanges.push(ExchangeDef::new(&exchange(n), "topic"));
        topo.queues.push(
            QueueDef::new(&queue)
                .with_arg("x-message-ttl", FieldValue::Int((1i64 << n) * 1000))
                .with_arg("x-dead-letter-exchange", FieldValue::str(&next)),
        );
        topo.bindings.push(BindingDef::queue(
            &exchange(n),
            &queue,
            &pattern(levels, n, '1'),
        ));
        topo.bindings.push(super::broker::e2e(
            &exchange(n),
            &next,
            &pattern(levels, n, '0'),
        ));
    }
    let top = exchange(levels - 1);
    let clamped = w
        .tasks
        .iter()
        .filter(|t| t.delay_ms.div_ceil(1000) > (1u64 << levels) - 1)
        .count() as u64;
    let plan = Plan {
        name: "dlx-cascade",
        params: format!("{levels} levels of 2^n s"),
        scenario,
        publish: Box::new(move |_task, remaining_ms| {
            persistent(
                &top,
                &routing_key(levels, remaining_ms.div_ceil(1000)),
                None,
                Table::new(),
            )
        }),
        facts: vec![("levels", u64::from(levels)), ("clamped_to_top", clamped)],
    };
    BrokerRun::new(plan, w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_patterns() {
        assert_eq!(routing_key(3, 3), "0.1.1.due");
        assert_eq!(routing_key(3, 100), "1.1.1.due");
        assert_eq!(pattern(3, 0, '1'), "*.*.1.#");
        assert_eq!(pattern(3, 2, '0'), "0.#");
        assert_eq!(levels_for(7_200_000), 13); // 7200 s < 8192
        assert_eq!(levels_for(0), 1);
    }
}
