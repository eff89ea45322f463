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
//!
//! Beside them, RabbitMQ 4.4's built-in path: a quorum queue (no TTL of its own) bound
//! from the same kind of exchange, published to with `x-opt-delivery-time` set to now
//! plus each of the wait queues' delays ([`time_paths`]). Each path is labelled with
//! the versions it works on, asked of the engine ([`works_on`]: the same publish run on
//! every version's profile, kept where it is delivered at its time).
//!
//! ```text
//! order.delay.exchange --deliver-at--> order.close.qq (quorum)   buttons 30m 5m 10s
//!   works on 4.4 (x-opt-delivery-time held); on 4.3 delivered at once
//! ```

use delaylab_engine::scenario::{ActionKind, Properties, PublishSpec, Scenario};
use delaylab_engine::snapshot::{QueueView, Snapshot};
use delaylab_engine::version::BrokerVersion;
use delaylab_engine::{Command, EventKind, Sim};

use crate::deliver_at::publish_with_time;
use crate::i18n::{t, Lang};
use crate::i18n_qq44::say;

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
    let mut out: Vec<QuickPublish> = routed(snap)
        .filter_map(|(exchange, routing_key, q)| {
            let ttl_ms = q.message_ttl_ms.filter(|_| q.dlx.is_some())?;
            Some(QuickPublish {
                exchange: exchange.to_string(),
                routing_key: routing_key.to_string(),
                queue: q.name.clone(),
                ttl_ms,
            })
        })
        .collect();
    delaylab_engine::sort::sort_by(&mut out, |a, b| {
        b.ttl_ms.cmp(&a.ttl_ms).then(a.queue.cmp(&b.queue))
    });
    out.truncate(MAX_BUTTONS);
    out
}

/// Every (exchange, routing key, queue) a named exchange other than the plugin's routes
/// to in `snap`: where the form's buttons can publish.
fn routed(snap: &Snapshot) -> impl Iterator<Item = (&str, &str, &QueueView)> {
    snap.exchanges
        .iter()
        .filter(|x| !x.name.is_empty() && !x.is_delayed())
        .flat_map(move |x| {
            x.bindings
                .iter()
                .filter(|b| !b.to_exchange)
                .filter_map(move |b| {
                    let q = snap.queue(&b.destination)?;
                    Some((x.name.as_str(), b.routing_key.as_str(), q))
                })
        })
}

/// A quorum queue a scenario made to publish into can reach with a delivery time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimePath {
    pub exchange: String,
    pub routing_key: String,
    pub queue: String,
}

impl TimePath {
    /// The publish at `now_ms` to be delivered `delay_ms` later (`x-opt-delivery-time`).
    pub fn action(&self, body: String, now_ms: u64, delay_ms: u64) -> ActionKind {
        publish_with_time(
            &self.exchange,
            &self.routing_key,
            body,
            now_ms.saturating_add(delay_ms),
        )
    }
}

/// The quorum queues without a TTL of their own that a named exchange routes to, in
/// `snap`: where a delivery time can hold a message (on a version that reads it).
pub fn time_paths(snap: &Snapshot) -> Vec<TimePath> {
    let mut out: Vec<TimePath> = routed(snap)
        .filter(|(_, _, q)| q.quorum && q.message_ttl_ms.is_none())
        .map(|(exchange, routing_key, q)| TimePath {
            exchange: exchange.to_string(),
            routing_key: routing_key.to_string(),
            queue: q.name.clone(),
        })
        .collect();
    out.truncate(MAX_BUTTONS);
    out
}

/// The delays the time path's buttons offer: the wait queues' (the same orders through
/// both paths), longest first.
pub fn time_delays(waits: &[QuickPublish]) -> Vec<u64> {
    let mut d: Vec<u64> = waits.iter().map(|w| w.ttl_ms).collect();
    d.dedup();
    d
}

/// The versions on which `action`, published at 0:00 into `s`'s topology with its
/// consumers, is first delivered exactly at `due_ms`: the engine's answer to "does this
/// path delay as it means to" on each profile, oldest first.
pub fn works_on(s: &Scenario, action: &ActionKind, due_ms: u64) -> Vec<BrokerVersion> {
    BrokerVersion::ALL
        .into_iter()
        .filter(|v| delivered_at(s, *v, action, due_ms) == Some(due_ms))
        .collect()
}

/// The versions on which every one of `waits` delays as it means to: each wait queue
/// probed once per version ([`works_on`]), oldest first. (The sandbox's first screen
/// asks this at start-up: probing every queue again for each version ran 147 short
/// simulations for its three queues, where 21 tell the same.)
pub fn works_on_every(s: &Scenario, waits: &[QuickPublish]) -> Vec<BrokerVersion> {
    let each: Vec<Vec<BrokerVersion>> = waits
        .iter()
        .map(|w| works_on(s, &w.action("probe".into()), w.ttl_ms))
        .collect();
    BrokerVersion::ALL
        .into_iter()
        .filter(|v| each.iter().all(|on| on.contains(v)))
        .collect()
}

/// "works on every version", "works on 4.4+", "works on 3.10, 4.0": a path's versions
/// ([`works_on`]) in words; `kind` (a queue type) in parentheses after them.
pub fn works_label(versions: &[BrokerVersion], kind: Option<&str>, lang: Lang) -> String {
    let all = BrokerVersion::ALL;
    // Contiguous in the list of versions: a range ("3.10–4.2"), or from one on ("4.4+").
    let at = |v: &BrokerVersion| all.iter().position(|a| a == v);
    let contiguous = versions
        .windows(2)
        .all(|w| at(&w[1]) == at(&w[0]).map(|i| i + 1));
    let words = match (versions.first(), versions.last()) {
        (Some(_), _) if versions == all => t(lang, "works_all").to_string(),
        (Some(first), Some(last)) if contiguous && last == &all[all.len() - 1] => {
            say(lang, "works_from", &[("v", first.as_str())])
        }
        (Some(first), Some(last)) if contiguous && first != last => say(
            lang,
            "works_range",
            &[("from", first.as_str()), ("to", last.as_str())],
        ),
        (Some(_), _) => {
            let list: Vec<&str> = versions.iter().map(|v| v.as_str()).collect();
            say(lang, "works_on", &[("list", &list.join(", "))])
        }
        _ => t(lang, "works_none").to_string(),
    };
    match kind {
        Some(k) if lang == Lang::Zh => format!("{words}({k})"),
        Some(k) => format!("{words} ({k})"),
        None => words,
    }
}

/// When the probe `action` is first delivered on `v`, if by `due_ms`.
fn delivered_at(s: &Scenario, v: BrokerVersion, action: &ActionKind, due_ms: u64) -> Option<u64> {
    let mut probe = Scenario::empty("works on");
    probe.topology = s.topology.clone();
    probe.consumers = s.consumers.clone();
    probe.broker = Some(v);
    let mut sim = Sim::new(&probe);
    sim.handle(0, Command::Run(action.clone()));
    loop {
        while let Some(e) = sim.poll_event() {
            if matches!(e.kind, EventKind::Delivered { .. }) {
                return Some(e.t_ms);
            }
        }
        match sim.next_timer_ms() {
            Some(t) if t <= due_ms && !sim.halted() => {
                sim.advance(t);
            }
            _ => return None,
        }
    }
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
    fn the_sandbox_offers_4_4s_path_beside_the_wait_queues_each_with_its_versions() {
        let s = sandbox();
        let snap = Snapshot::of(&Sim::new(&s));
        let waits = buttons(&snap);
        let paths = time_paths(&snap);
        assert_eq!(
            paths,
            [TimePath {
                exchange: "order.delay.exchange".into(),
                routing_key: "deliver-at".into(),
                queue: "order.close.qq".into(),
            }]
        );
        assert_eq!(time_delays(&waits), [1_800_000, 300_000, 10_000]);
        // The wait queues delay on every version; x-opt-delivery-time only where the
        // profile reads it (4.4): on 4.3 the order is delivered at once.
        for w in &waits {
            let all = works_on(&s, &w.action("A".into()), w.ttl_ms);
            assert_eq!(all, BrokerVersion::ALL, "{}", w.queue);
        }
        assert_eq!(works_on_every(&s, &waits), BrokerVersion::ALL);
        assert_eq!(
            works_on_every(&s, &[]),
            BrokerVersion::ALL,
            "no queue: nothing fails"
        );
        let held = works_on(&s, &paths[0].action("A".into(), 0, 10_000), 10_000);
        assert_eq!(held, [BrokerVersion::V4_4]);
        let mut on_4_3 = s.clone();
        on_4_3.broker = Some(BrokerVersion::V4_3);
        assert_eq!(
            delivered_at(
                &on_4_3,
                BrokerVersion::V4_3,
                &paths[0].action("A".into(), 0, 10_000),
                10_000
            ),
            Some(0),
            "inert on 4.3: delivered at once"
        );
    }

    #[test]
    fn a_paths_versions_in_words() {
        use BrokerVersion::*;
        assert_eq!(
            works_label(&BrokerVersion::ALL, None, Lang::En),
            "works on every version"
        );
        assert_eq!(
            works_label(&[V4_4], Some("quorum queue"), Lang::En),
            "works on 4.4+ (quorum queue)"
        );
        assert_eq!(works_label(&[V4_3, V4_4], None, Lang::Zh), "4.3 及以后可用");
        assert_eq!(
            works_label(&[V3_10, V4_0], None, Lang::En),
            "works on 3.10, 4.0"
        );
        assert_eq!(works_label(&[], None, Lang::En), "on time on no version");
        assert_eq!(
            works_label(&[V4_4], Some("仲裁队列"), Lang::Zh),
            "4.4 及以后可用(仲裁队列)"
        );
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
