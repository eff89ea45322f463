//! Where two runs of one scenario on two RabbitMQ versions part: the first of the
//! engine's events that differs, found by running both instant by instant and comparing
//! what each logged, then each run's figures to its end (`crate::outcome`). Compare
//! versions shows this first, above the lanes.
//!
//! ```text
//! poison message, 4.0 | 4.3:
//!   the same 84 events until 0:00:21.000, then
//!   RabbitMQ 4.0  dead-lettered  orders.work  delivery_limit → orders.dlx
//!   RabbitMQ 4.3  requeued       orders.work
//!   to the end: 4.0 22 delivered (20 redeliveries) · 1 dead-lettered (delivery_limit)
//!               4.3 31 delivered (30 redeliveries)
//! ```

use delaylab_engine::scenario::Scenario;

use crate::i18n::Lang;
use crate::lines::LogLine;
use crate::runner::{Batch, Runner};

/// Events compared per run at most: beyond, the runs are said to be the same so far.
pub const MAX_PARTING_EVENTS: u64 = 20_000;

/// One side's event where the runs part (in both languages), or None: nothing happened
/// then on that side.
#[derive(Clone, Debug, PartialEq)]
pub struct Side {
    pub en: Option<LogLine>,
    pub zh: Option<LogLine>,
}

impl Side {
    pub fn line(&self, lang: Lang) -> Option<&LogLine> {
        match lang {
            Lang::En => self.en.as_ref(),
            Lang::Zh => self.zh.as_ref(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Parting {
    /// Events both runs had in common before they part.
    pub same: u64,
    /// `None`: they never part (to their end, or to the cap `complete` says).
    pub at_ms: Option<u64>,
    pub a: Side,
    pub b: Side,
    /// The runs were compared to their end (not stopped at [`MAX_PARTING_EVENTS`]).
    pub complete: bool,
}

/// What a log line says, without where it is in its run: what two runs compare.
fn said(l: &LogLine) -> (u64, &'static str, &str, &str, &str) {
    (l.t_ms, l.kind, &l.body, &l.place, &l.detail)
}

/// Runs `a` and `b` side by side until their events differ.
pub fn first_parting(a: Scenario, b: Scenario) -> Parting {
    let until = a.until_ms.or(b.until_ms);
    let mut ra = Runner::new(a).without_depth_samples();
    let mut rb = Runner::new(b).without_depth_samples();
    let (mut seen_a, mut seen_b, mut same) = (0u64, 0u64, 0u64);
    loop {
        let next = match (ra.next_at(), rb.next_at()) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        };
        let Some(t) = next.filter(|t| until.is_none_or(|u| *t <= u)) else {
            return Parting {
                same,
                at_ms: None,
                a: Side { en: None, zh: None },
                b: Side { en: None, zh: None },
                complete: true,
            };
        };
        ra.advance_to(t, &mut Batch::default(), || false);
        rb.advance_to(t, &mut Batch::default(), || false);
        let new_a: Vec<_> = ra
            .track
            .log
            .iter()
            .filter(|e| e.seq > seen_a)
            .cloned()
            .collect();
        let new_b: Vec<_> = rb
            .track
            .log
            .iter()
            .filter(|e| e.seq > seen_b)
            .cloned()
            .collect();
        seen_a = ra.track.log.back().map_or(seen_a, |e| e.seq);
        seen_b = rb.track.log.back().map_or(seen_b, |e| e.seq);
        for i in 0..new_a.len().max(new_b.len()) {
            let la = new_a.get(i).map(|e| ra.line(e, Lang::En));
            let lb = new_b.get(i).map(|e| rb.line(e, Lang::En));
            if la.as_ref().map(said) == lb.as_ref().map(said) {
                same += 1;
                continue;
            }
            let side = |r: &Runner, e: Option<&crate::track::Entry>, en: Option<LogLine>| Side {
                zh: e.map(|e| r.line(e, Lang::Zh)),
                en,
            };
            return Parting {
                same,
                at_ms: la.as_ref().or(lb.as_ref()).map(|l| l.t_ms),
                a: side(&ra, new_a.get(i), la),
                b: side(&rb, new_b.get(i), lb),
                complete: true,
            };
        }
        if same >= MAX_PARTING_EVENTS || ra.sim.halted() || rb.sim.halted() {
            return Parting {
                same,
                at_ms: None,
                a: Side { en: None, zh: None },
                b: Side { en: None, zh: None },
                complete: false,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::on_version;
    use delaylab_engine::scenario::load_str;
    use delaylab_engine::version::BrokerVersion::*;

    const POISON: &str = include_str!("../../../scenarios/poison-message-3-10-vs-4-0.json");

    #[test]
    fn the_poison_message_parts_at_its_21st_return() {
        let s = load_str(POISON).unwrap();
        let p = first_parting(on_version(&s, V4_0), on_version(&s, V4_3));
        assert_eq!(p.at_ms, Some(21_000));
        let (a, b) = (p.a.en.unwrap(), p.b.en.unwrap());
        assert_eq!(
            (a.kind, b.kind),
            ("dead_lettered", "requeued"),
            "{a:?} {b:?}"
        );
        assert!(a.detail.contains("delivery_limit"), "{a:?}");
        assert!(p.same > 60, "{}", p.same);
        assert_eq!(p.a.zh.unwrap().kind, "dead_lettered");
        // 3.10 against 4.0: the same place, the other way round.
        let p = first_parting(on_version(&s, V3_10), on_version(&s, V4_0));
        assert_eq!(p.at_ms, Some(21_000));
        assert_eq!(p.a.en.unwrap().kind, "requeued");
    }

    #[test]
    fn runs_that_never_part_say_so() {
        let s = load_str(include_str!(
            "../../../scenarios/head-of-line-blocking.json"
        ))
        .unwrap();
        let p = first_parting(on_version(&s, V3_10), on_version(&s, V4_3));
        assert_eq!(p.at_ms, None);
        assert!(p.complete && p.same > 5);
    }
}
