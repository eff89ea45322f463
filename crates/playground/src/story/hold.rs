//! The story's sentences for what a quorum queue holds aside (the engine's `Hold`,
//! `DeliveryTimeIgnored` and `Released`): why a message waits before it is ready, why
//! its `x-opt-delivery-time` did not hold it, and its release.
//!
//! ```text
//! 0:00:00.000 Enqueued in q
//!             Held by x-opt-delivery-time until 0:30:00.000: the quorum queue keeps it ...
//! 0:30:00.000 Released in q, ahead of its ready messages
//!             Its x-opt-delivery-time came (0:30:00.000)
//! ```

use super::*;
use delaylab_engine::cause::{DeliveryTimeIgnored, HeldBy, Hold};

impl Teller<'_> {
    /// Why an enqueued copy is held, or why its `x-opt-delivery-time` did not hold it.
    pub(super) fn delivery_time(
        &self,
        held: Option<&Hold>,
        ignored: Option<DeliveryTimeIgnored>,
    ) -> Option<String> {
        if let Some(h) = held {
            return Some(self.say("why_held_time", &[("at", &clock(h.until_ms))]));
        }
        Some(self.say(
            match ignored? {
                DeliveryTimeIgnored::OlderVersion => "why_dt_version",
                DeliveryTimeIgnored::ClassicQueue => "why_dt_classic",
                DeliveryTimeIgnored::AtMostOnceDeadLetter => "why_dt_dead_letter",
                DeliveryTimeIgnored::NotATime => "why_dt_type",
                DeliveryTimeIgnored::NotLater => "why_dt_past",
            },
            &[],
        ))
    }

    /// A held copy released at `t_ms`, `late_ms` after its time.
    pub(super) fn released(
        &self,
        queue: Sym,
        by: HeldBy,
        t_ms: u64,
        late_ms: u64,
        late_cause: LateCause,
        why: &mut Vec<String>,
    ) -> String {
        let due = clock(t_ms.saturating_sub(late_ms));
        why.push(self.say(
            match by {
                HeldBy::DeliveryTime => "why_rel_time",
                HeldBy::DelayedRetry => "why_rel_retry",
            },
            &[("at", &due)],
        ));
        let late = span(late_ms);
        let v = [("late", late.as_str()), ("ttl_at", due.as_str())];
        match late_cause {
            LateCause::NodeDown => why.push(self.say("why_x_node", &v)),
            LateCause::Busy => why.push(self.say("why_x_busy", &v)),
            _ => {}
        }
        self.say("why_released", &[("queue", &self.s(queue))])
    }
}

#[cfg(test)]
mod tests {
    use crate::i18n::Lang;
    use crate::runner::{Batch, Runner};
    use crate::story::story;
    use delaylab_engine::scenario::load::load_str;

    const PRESET: &str = include_str!("../../../../scenarios/qq-delivery-time-4-4.json");

    fn run(text: &str, until_ms: u64) -> Runner {
        let mut r = Runner::new(load_str(text).expect("scenario loads"));
        let mut batch = Batch::default();
        assert!(r.advance_to(until_ms, &mut batch, || false));
        r
    }

    fn id(r: &Runner, body: &str) -> u32 {
        (1..=r.track.bodies.len() as u32)
            .find(|i| r.track.body(*i) == body)
            .expect("published")
    }

    /// The story of order-A: published with x-opt-delivery-time 1800000, held in the
    /// quorum queue until 30:00 and released then; in the classic queue, ready at once.
    #[test]
    fn a_held_message_says_until_when_and_why_and_its_release() {
        let r = run(PRESET, 31 * 60_000);
        let s = story(&r.track, &r.sim, id(&r, "order-A (30 min)"), Lang::En);
        let all_why: Vec<&String> = s.steps.iter().flat_map(|x| x.why.iter()).collect();
        let has = |needle: &str| all_why.iter().any(|w| w.contains(needle));
        assert!(has("x-opt-delivery-time 1800000"), "{all_why:#?}");
        assert!(
            has("Held by x-opt-delivery-time until 0:30:00.000: the quorum queue keeps it"),
            "{all_why:#?}"
        );
        assert!(
            has("x-opt-delivery-time is ignored: classic queues never read it"),
            "{all_why:#?}"
        );
        let released = s
            .steps
            .iter()
            .find(|x| x.kind == "released")
            .expect("released");
        assert_eq!(released.t_ms, 1_800_000);
        assert_eq!(
            released.what,
            "Released in order.close.qq, ahead of its ready messages"
        );
        assert_eq!(
            released.why,
            vec!["Its x-opt-delivery-time came (0:30:00.000)".to_string()]
        );
        let zh = story(&r.track, &r.sim, id(&r, "order-A (30 min)"), Lang::Zh);
        let zh_why: Vec<&String> = zh.steps.iter().flat_map(|x| x.why.iter()).collect();
        assert!(
            zh_why
                .iter()
                .any(|w| w.contains("按 x-opt-delivery-time 保留到 0:30:00.000")),
            "{zh_why:#?}"
        );
    }

    /// The same scenario on 4.3: the story says the header is an ordinary one there.
    #[test]
    fn on_4_3_the_story_says_the_header_is_ordinary() {
        let on_4_3 = PRESET.replacen("\"broker\": \"4.4\"", "\"broker\": \"4.3\"", 1);
        let r = run(&on_4_3, 60_000);
        let s = story(&r.track, &r.sim, id(&r, "order-C (10 s)"), Lang::En);
        let why: Vec<&String> = s.steps.iter().flat_map(|x| x.why.iter()).collect();
        assert!(
            why.iter()
                .any(|w| w.contains("x-opt-delivery-time is an ordinary header on this version")),
            "{why:#?}"
        );
        assert!(s.steps.iter().all(|x| x.kind != "released"));
    }
}
