//! How late each message is: the lateness its events add up to, for the run contract's
//! `late_ms` and the playground's tracking; the figures over many messages are
//! [`crate::lateness::LatenessSummary`].

use crate::event::EventKind;

/// A message's lateness: how long after it was due it moved on, summed over its life.
///
/// The one rule, shared by the run contract's `late_ms` ([`super::Recorder`]) and the
/// playground's tracking (crates/playground `track.rs`): a message starts on time when it
/// is published; each time a copy of it expires late at a queue head (`Expired`, the
/// head-of-line blocking of a TTL queue) or the delayed exchange releases it late
/// (`DelayDue`, the plugin's backlog) the event's `late_ms` is added. A message that is
/// dead-lettered twice late (a retry ladder) is late by both.
///
/// ```text
/// t=0      publish A (TTL 30 s), B (TTL 5 s) into one wait queue   A 0, B 0
/// t=30 s   A expires at the head, on time                          A 0
/// t=30 s   B expires behind it, 25 s after its TTL                 B 25 s
/// t=30 s   both delivered: late_ms A = 0, B = 25 000
/// ```
///
/// Accumulated per message id (ids are dense from 1).
#[derive(Clone, Debug, Default)]
pub struct Lateness {
    late_ms: Vec<u64>,
}

impl Lateness {
    /// Takes in one event; only publishes and late moves change anything.
    pub fn on_event(&mut self, kind: &EventKind) {
        match kind {
            EventKind::Published { msg, .. } => {
                let i = msg.id.0 as usize;
                debug_assert!(i >= 1, "message ids start at 1");
                if self.late_ms.len() < i {
                    self.late_ms.resize(i, 0);
                }
            }
            EventKind::Expired { msg, late_ms, .. } | EventKind::DelayDue { msg, late_ms, .. } => {
                if let Some(l) = self.late_ms.get_mut((msg.0 as usize).wrapping_sub(1)) {
                    *l += late_ms;
                }
            }
            _ => {}
        }
    }

    /// The lateness of message `id` so far (0 for an id never published).
    pub fn of(&self, id: u32) -> u64 {
        self.late_ms
            .get((id as usize).wrapping_sub(1))
            .copied()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_of_line_blocking_adds_the_wait_behind_the_head() {
        let s = crate::scenario::load::load_str(
            r#"{"version":1,"name":"hol","until":"40s","topology":{
              "exchanges":[{"name":"dlx","type":"fanout"}],
              "queues":[{"name":"wait","arguments":{"x-dead-letter-exchange":"dlx"}},{"name":"due"}],
              "bindings":[{"source":"dlx","destination":"due","routing_key":""}]},
              "consumers":[{"name":"c","queue":"due","ack":"auto"}],
              "actions":[
                {"at":"0ms","publish":{"exchange":"","routing_key":"wait","body":"A","properties":{"expiration":"30000"}}},
                {"at":"0ms","publish":{"exchange":"","routing_key":"wait","body":"B","properties":{"expiration":"5000"}}}]}"#,
        )
        .unwrap();
        let mut l = Lateness::default();
        crate::report::run_with(&s, crate::limits::Limits::default(), |e, _| {
            l.on_event(&e.kind)
        });
        assert_eq!((l.of(1), l.of(2)), (0, 25_000));
        assert_eq!(l.of(0), 0, "no message 0");
        assert_eq!(l.of(3), 0, "never published");
    }
}
