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
        Some(self.say(crate::deliver_at::ignored_key(ignored?), &[]))
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
