//! A check whose expectation holds on other versions than the one this run is on (its
//! `versions`, else the scenario's: `Scenario::check_expected_on`): the Checks panel
//! shows where it is expected and what this run saw, never a red failure; where the
//! engine's version impacts (`version::impact`, from the nearest version it is expected
//! on to this one) name a rule that differs for what the check names, that rule in words.
//!
//! ```text
//! poison message on 4.3, check "The 21st nack dead-letters it" (versions 4.0-4.2):
//!   expected on 4.0–4.2 · on 4.3 this run: saw no such dead-lettering
//!   orders.work: basic.nack requeue=true no longer counts toward the delivery limit ... (D9)
//! ```

use delaylab_engine::checks::spec::{CheckKind, DepthTarget};
use delaylab_engine::checks::Check;
use delaylab_engine::scenario::Scenario;
use delaylab_engine::version::impact::{impact, Change, Impact};
use delaylab_engine::version::BrokerVersion;

/// Impacts shown under one check at most.
pub const MAX_DIFFERS: usize = 3;

/// Where a check not expected on this run's version is expected, and what differs.
#[derive(Clone, Debug, PartialEq)]
pub struct Elsewhere {
    /// The versions it is expected on, oldest first.
    pub on: Vec<BrokerVersion>,
    /// The version this run is on.
    pub here: BrokerVersion,
    /// The differences from the nearest of `on` that touch what the check names (or a
    /// declaration this version refuses, which every check downstream meets).
    pub differs: Vec<Impact>,
}

/// Whether some check of `s` is not expected on the version `s` runs on (then
/// [`of_scenario`] has something to say).
pub fn any(s: &Scenario) -> bool {
    (0..s.checks.len()).any(|i| !s.check_applies(i, s.broker_version()))
}

/// For each of `s`'s checks, None when it is expected on the version `s` runs on.
pub fn of_scenario(s: &Scenario) -> Vec<Option<Elsewhere>> {
    let here = s.broker_version();
    (0..s.checks.len())
        .map(|i| {
            if s.check_applies(i, here) {
                return None;
            }
            let on = s.check_expected_on(i);
            let nearest = on
                .iter()
                .rev()
                .find(|v| **v < here)
                .or_else(|| on.first())
                .copied()
                .unwrap_or_default();
            let names = names(&s.checks[i], s);
            let differs = impact(s, nearest, here)
                .into_iter()
                .filter(|im| {
                    matches!(im.change, Change::Refused { .. })
                        || im.objects.iter().any(|o| names.contains(o))
                })
                .take(MAX_DIFFERS)
                .collect();
            Some(Elsewhere { on, here, differs })
        })
        .collect()
}

/// The queues and exchanges a check names, a consumer standing for its queue.
fn names(c: &Check, s: &Scenario) -> Vec<String> {
    let consumer_queue = |name: &str| {
        s.consumers
            .iter()
            .filter(|c| c.name == name)
            .map(|c| c.queue.clone())
            .collect::<Vec<_>>()
    };
    let mut out = Vec::new();
    match &c.kind {
        CheckKind::Happens { filter, .. }
        | CheckKind::Count { filter, .. }
        | CheckKind::Lateness { filter, .. } => {
            out.extend(filter.queue.clone());
            if let Some(name) = &filter.consumer {
                out.extend(consumer_queue(name));
            }
        }
        CheckKind::Order {
            queue, consumer, ..
        } => {
            out.extend(queue.clone());
            if let Some(name) = consumer {
                out.extend(consumer_queue(name));
            }
        }
        CheckKind::Depth { target, .. } => out.push(match target {
            DepthTarget::Queue(q) | DepthTarget::Exchange(q) => q.clone(),
        }),
        CheckKind::Orders { .. } => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use delaylab_engine::scenario::load_str;

    const PLUGIN: &str = include_str!("../../../scenarios/fix-delayed-plugin.json");

    #[test]
    fn the_plugin_preset_on_4_3_expects_its_checks_on_3_10_to_4_2_and_names_the_refusal() {
        let mut s = load_str(PLUGIN).unwrap();
        assert!(
            of_scenario(&s).iter().all(Option::is_none),
            "on its own version"
        );
        assert!(!any(&s));
        s.broker = Some(BrokerVersion::V4_3);
        assert!(any(&s));
        let all = of_scenario(&s);
        assert!(!all.is_empty());
        for e in &all {
            let e = e.as_ref().expect("not expected on 4.3");
            assert_eq!(e.on.last(), Some(&BrokerVersion::V4_2));
            assert_eq!(e.here, BrokerVersion::V4_3);
            assert_eq!(e.differs.len(), 1, "{:?}", e.differs);
            assert_eq!(e.differs[0].row, "D27");
        }
    }
}
