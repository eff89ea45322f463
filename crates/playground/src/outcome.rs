//! What a run has done so far, in a sentence: deliveries, dead-letterings and drops by
//! reason, returns and the broker's refusals, counted exactly from the current load's
//! events (every event, not a capped list). The what-to-watch panel says it for a
//! version the lesson is not written for, where the written timeline does not hold; the
//! version comparison puts it under each lane.
//!
//! ```text
//! fix-delayed-plugin on 4.3 at 40:00:
//!   nothing delivered · 3 refused: 406 PRECONDITION_FAILED - unknown exchange type
//!   'x-delayed-message'; 404 NOT_FOUND - no exchange 'order.delayed.exchange' ... (×2)
//! poison message on 4.0 at 0:30:
//!   22 delivered (21 redeliveries) · 1 dead-lettered (delivery_limit)
//! ```

use delaylab_engine::report::text::clock;
use delaylab_engine::EventKind;

use crate::i18n::Lang;

/// Distinct refusals kept (by code and text); more are counted only.
pub const MAX_REFUSALS: usize = 3;

/// Counts of what the run did so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub delivered: u64,
    pub redelivered: u64,
    /// First deliveries that came late, and the latest of them.
    pub late: u64,
    pub max_late_ms: u64,
    /// (reason, how many) in the reasons' order (a sorted list, not a BTreeMap: its
    /// B-tree code was start-up code for these alone).
    pub dead_lettered: Vec<(&'static str, u64)>,
    pub dropped: Vec<(&'static str, u64)>,
    pub returned: u64,
    /// (code, text, how many) of the first distinct refusals, and all refusals.
    pub refusals: Vec<(u16, String, u64)>,
    pub refused: u64,
    /// The node's version changed (an `upgrade` action), and when.
    pub upgraded: Option<(String, u64)>,
}

/// One more of `reason` in a (reason, how many) list kept in the reasons' order.
fn count(list: &mut Vec<(&'static str, u64)>, reason: &'static str) {
    match list.binary_search_by(|(r, _)| (*r).cmp(reason)) {
        Ok(i) => list[i].1 += 1,
        Err(i) => list.insert(i, (reason, 1)),
    }
}

impl Tally {
    /// One event of the run, in order; `late_ms` is its message's lateness so far.
    pub fn on_event(&mut self, t_ms: u64, kind: &EventKind, late_ms: u64) {
        match kind {
            EventKind::Delivered { redelivered, .. } => {
                self.delivered += 1;
                if *redelivered {
                    self.redelivered += 1;
                } else if late_ms > 0 {
                    self.late += 1;
                    self.max_late_ms = self.max_late_ms.max(late_ms);
                }
            }
            EventKind::DeadLettered { reason, .. } => {
                count(&mut self.dead_lettered, reason.as_str());
            }
            EventKind::Dropped { reason, .. } => {
                count(&mut self.dropped, reason.as_str());
            }
            EventKind::Returned { .. } => self.returned += 1,
            EventKind::Error { code, text, .. } => {
                self.refused += 1;
                let kept = self.refusals.len();
                match self
                    .refusals
                    .iter_mut()
                    .find(|r| r.0 == *code && *r.1 == **text)
                {
                    Some(r) => r.2 += 1,
                    None if kept < MAX_REFUSALS => self.refusals.push((*code, text.to_string(), 1)),
                    None => {}
                }
            }
            EventKind::BrokerUpgraded { to, .. } => {
                self.upgraded = Some((to.to_string(), t_ms));
            }
            _ => {}
        }
    }

    /// The sentence: "22 delivered (21 redeliveries) · 1 dead-lettered (delivery_limit)".
    pub fn words(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        let mut parts = Vec::new();
        parts.push(match (self.delivered, zh) {
            (0, false) => "nothing delivered".to_string(),
            (0, true) => "没有投递".to_string(),
            (n, false) => format!("{n} delivered"),
            (n, true) => format!("投递 {n} 次"),
        });
        if self.redelivered > 0 {
            let n = self.redelivered;
            let last = parts.last_mut().expect("one part");
            last.push_str(&if zh {
                format!("(其中重新投递 {n} 次)")
            } else {
                format!(" ({n} redeliveries)")
            });
        }
        if self.late > 0 {
            let (n, max) = (self.late, clock(self.max_late_ms));
            parts.push(if zh {
                format!("{n} 次迟到,最多 {max}")
            } else {
                format!("{n} late, at most {max}")
            });
        }
        for (map, en, cn) in [
            (&self.dead_lettered, "dead-lettered", "成为死信"),
            (&self.dropped, "dropped", "被丢弃"),
        ] {
            if map.is_empty() {
                continue;
            }
            let n: u64 = map.iter().map(|(_, k)| k).sum();
            // One reason: its name; several: each with its count.
            let why: Vec<String> = match map.len() {
                1 => map.iter().map(|(r, _)| r.to_string()).collect(),
                _ => map.iter().map(|(r, k)| format!("{r} {k}")).collect(),
            };
            parts.push(if zh {
                format!("{n} 条{cn}({})", why.join(", "))
            } else {
                format!("{n} {en} ({})", why.join(", "))
            });
        }
        if self.returned > 0 {
            let n = self.returned;
            parts.push(if zh {
                format!("{n} 条退回")
            } else {
                format!("{n} returned")
            });
        }
        if self.refused > 0 {
            let list: Vec<String> = self
                .refusals
                .iter()
                .map(|(code, text, n)| {
                    if *n > 1 {
                        format!("{code} {text} (×{n})")
                    } else {
                        format!("{code} {text}")
                    }
                })
                .collect();
            let n = self.refused;
            parts.push(if zh {
                format!("{n} 次被拒绝:{}", list.join("; "))
            } else {
                format!("{n} refused: {}", list.join("; "))
            });
        }
        parts.join(" · ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{Batch, Runner};
    use delaylab_engine::scenario::load_str;
    use delaylab_engine::version::BrokerVersion;

    fn run(text: &str, v: BrokerVersion, until_ms: u64) -> Runner {
        let mut s = load_str(text).unwrap();
        s.broker = Some(v);
        let mut r = Runner::new(s);
        assert!(r.advance_to(until_ms, &mut Batch::default(), || false));
        r
    }

    #[test]
    fn the_plugin_on_4_3_delivers_nothing_and_says_what_was_refused() {
        let r = run(
            include_str!("../../../scenarios/fix-delayed-plugin.json"),
            BrokerVersion::V4_3,
            40 * 60_000,
        );
        let w = r.track.tally.words(Lang::En);
        assert!(w.starts_with("nothing delivered · "), "{w}");
        assert!(
            w.contains("406 PRECONDITION_FAILED - unknown exchange type 'x-delayed-message'"),
            "{w}"
        );
        assert!(r.track.tally.words(Lang::Zh).starts_with("没有投递 · "));
    }

    #[test]
    fn the_poison_message_on_4_0_and_4_3() {
        let poison = include_str!("../../../scenarios/poison-message-3-10-vs-4-0.json");
        let r = run(poison, BrokerVersion::V4_0, 30_000);
        assert_eq!(
            r.track.tally.words(Lang::En),
            "22 delivered (20 redeliveries) · 1 dead-lettered (delivery_limit)"
        );
        let r = run(poison, BrokerVersion::V4_3, 30_000);
        assert_eq!(
            r.track.tally.words(Lang::En),
            "31 delivered (30 redeliveries)"
        );
    }
}
