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
///
/// A retry is not an arrival. A delivery of a message that was delivered before (its
/// consumer nacked or rejected it with requeue, its channel closed, a delayed retry held
/// it, a TTL + DLX retry loop brought it back) says nothing new about when the broker
/// released it: the message was due at its first delivery and has not been handled
/// since. [`Lateness::delivery`] tells the two apart: a first delivery is on time or late
/// by [`Lateness::of`]; a retry carries the time since the first delivery. A message
/// that loops forever is then a growing run of retries, never "on time". (The run
/// contract's `late_ms`, written per delivery since version 1 of the result, stays
/// [`Lateness::of`].)
///
/// ```text
/// t=0     m delivered (first)          on time, late 0
/// t=1 s   nack requeue, redelivered    retry, 1 s since the first delivery
/// t=2 s   nack requeue, redelivered    retry, 2 s
/// ```
#[derive(Clone, Debug, Default)]
pub struct Lateness {
    late_ms: Vec<u64>,
    /// When each message was first delivered ([`NOT_DELIVERED`] until then).
    first_delivered_ms: Vec<u64>,
}

/// Marks a message never delivered in `Lateness::first_delivered_ms`.
const NOT_DELIVERED: u64 = u64::MAX;

/// One delivery, as [`Lateness::delivery`] classes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// The message's first delivery, late by this much (0: on time).
    First { late_ms: u64 },
    /// A later delivery of a message not handled since its first, this long after it.
    Retry { since_first_ms: u64 },
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

    /// Message `id` is delivered at `t_ms`: its first delivery, or a retry (see the type's
    /// docs). Call once per delivery, in time order.
    pub fn delivery(&mut self, id: u32, t_ms: u64) -> Delivery {
        let i = (id as usize).wrapping_sub(1);
        if i >= self.late_ms.len() {
            return Delivery::First { late_ms: 0 }; // never published: nothing to compare
        }
        if self.first_delivered_ms.len() <= i {
            self.first_delivered_ms.resize(i + 1, NOT_DELIVERED);
        }
        match self.first_delivered_ms[i] {
            NOT_DELIVERED => {
                self.first_delivered_ms[i] = t_ms;
                Delivery::First {
                    late_ms: self.late_ms[i],
                }
            }
            first => Delivery::Retry {
                since_first_ms: t_ms.saturating_sub(first),
            },
        }
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
        assert_eq!(l.delivery(2, 30_000), Delivery::First { late_ms: 25_000 });
        assert_eq!(l.of(3), 0, "never published");
    }

    #[test]
    fn a_message_delivered_again_is_a_retry_counted_from_its_first_delivery() {
        let s = crate::scenario::load::load_str(
            r#"{"version":1,"name":"loop","until":"3s",
              "topology":{"queues":[{"name":"q"}]},
              "consumers":[{"name":"c","queue":"q","ack":"manual","prefetch":1,"handle":"1s","outcome":"requeue"}],
              "actions":[{"at":"0ms","publish":{"exchange":"","routing_key":"q","body":"m"}}]}"#,
        )
        .unwrap();
        let mut l = Lateness::default();
        let mut seen = vec![];
        crate::report::run_with(&s, crate::limits::Limits::default(), |e, _| {
            l.on_event(&e.kind);
            if let EventKind::Delivered { msg, .. } = &e.kind {
                seen.push(l.delivery(msg.id.0, e.t_ms));
            }
        });
        assert_eq!(
            seen,
            [
                Delivery::First { late_ms: 0 },
                Delivery::Retry {
                    since_first_ms: 1_000
                },
                Delivery::Retry {
                    since_first_ms: 2_000
                },
                Delivery::Retry {
                    since_first_ms: 3_000
                },
            ]
        );
        assert_eq!(l.of(1), 0, "the release lateness is unchanged");
        assert_eq!(
            l.delivery(9, 5),
            Delivery::First { late_ms: 0 },
            "never published"
        );
    }
}
