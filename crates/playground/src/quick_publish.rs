//! The publish buttons next to a scenario's what-to-watch: the first thing a learner does
//! in a scenario made to publish into (one without publishes of its own) is publish, so
//! the control comes to the text that says so. One button per wait queue (a queue with
//! `x-message-ttl` and a dead-letter exchange) an exchange routes to, read from the
//! broker's state (the snapshot), not from the scenario file.
//!
//! ```text
//! order.delay.exchange --30m--> order.delay.30m (TTL 30m, DLX)   button "30m"
//!                      --5m---> order.delay.5m  (TTL 5m, DLX)    button "5m"
//! ```

use delaylab_engine::scenario::{ActionKind, Properties, PublishSpec, Scenario};
use delaylab_engine::snapshot::Snapshot;

/// Buttons at most (a topology of many wait queues offers its first ones).
pub const MAX_BUTTONS: usize = 6;

/// One button: publish through `exchange` with `routing_key` into `queue`'s wait.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuickPublish {
    pub exchange: String,
    pub routing_key: String,
    pub queue: String,
    pub ttl_ms: u64,
}

impl QuickPublish {
    /// The publish, with body `body`, persistent (an order should survive a restart).
    pub fn action(&self, body: String) -> ActionKind {
        ActionKind::Publish(PublishSpec {
            exchange: self.exchange.clone(),
            routing_key: self.routing_key.clone(),
            body,
            properties: Properties {
                delivery_mode: Some(2),
                ..Properties::default()
            },
            mandatory: false,
        })
    }
}

/// Whether `s`, as loaded, is made to publish into: it publishes nothing by itself (its
/// lesson needs the learner's input). Asked once per load, so the learner's own
/// publishes, recorded into the scenario, do not take the buttons away.
pub fn made_to_publish_into(s: &Scenario) -> bool {
    !s.actions
        .iter()
        .any(|a| matches!(a.kind, ActionKind::Publish(_)))
}

/// The buttons in the state `snap`, longest wait first.
pub fn buttons(snap: &Snapshot) -> Vec<QuickPublish> {
    let mut out: Vec<QuickPublish> = snap
        .exchanges
        .iter()
        .filter(|x| !x.name.is_empty() && !x.is_delayed())
        .flat_map(|x| {
            x.bindings
                .iter()
                .filter(|b| !b.to_exchange)
                .filter_map(|b| {
                    let q = snap.queue(&b.destination)?;
                    let ttl_ms = q.message_ttl_ms.filter(|_| q.dlx.is_some())?;
                    Some(QuickPublish {
                        exchange: x.name.clone(),
                        routing_key: b.routing_key.clone(),
                        queue: q.name.clone(),
                        ttl_ms,
                    })
                })
        })
        .collect();
    out.sort_by(|a, b| b.ttl_ms.cmp(&a.ttl_ms).then(a.queue.cmp(&b.queue)));
    out.truncate(MAX_BUTTONS);
    out
}

/// The body of the `n`th message published (0-based): A, B, ..., Z, then order-27, ...
pub fn body(n: usize) -> String {
    match u8::try_from(n).ok().filter(|n| *n < 26) {
        Some(i) => char::from(b'A' + i).to_string(),
        None => format!("order-{}", n + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use delaylab_engine::scenario::load_str;
    use delaylab_engine::Sim;

    fn sandbox() -> Scenario {
        load_str(include_str!("../../../src/app/sandbox.json")).unwrap()
    }

    #[test]
    fn the_sandbox_offers_one_button_per_wait_queue_longest_first() {
        let s = sandbox();
        assert!(made_to_publish_into(&s));
        let b = buttons(&Snapshot::of(&Sim::new(&s)));
        let v: Vec<(&str, &str, u64)> = b
            .iter()
            .map(|q| (q.routing_key.as_str(), q.queue.as_str(), q.ttl_ms))
            .collect();
        assert_eq!(
            v,
            [
                ("30m", "order.delay.30m", 1_800_000),
                ("5m", "order.delay.5m", 300_000),
                ("10s", "order.delay.10s", 10_000)
            ]
        );
        assert!(b.iter().all(|q| q.exchange == "order.delay.exchange"));
    }

    #[test]
    fn a_scenario_that_publishes_by_itself_offers_none() {
        let s = load_str(include_str!(
            "../../../scenarios/head-of-line-blocking.json"
        ))
        .unwrap();
        assert!(!made_to_publish_into(&s));
    }

    #[test]
    fn bodies_are_letters_then_numbers() {
        assert_eq!(
            (body(0), body(2), body(25)),
            ("A".into(), "C".into(), "Z".into())
        );
        assert_eq!(body(26), "order-27");
    }
}
