//! Lateness figures, one rule for every report: the run result's `lateness_ms`, the
//! strategy comparison's and the playground's live figures.
//!
//! The p99 is the nearest-rank 99th percentile: sort the n values and take the one of
//! rank ceil(0.99 n), computed in integers (`(99 n).div_ceil(100)`) so that no float
//! rounding moves it. Worked example: 250 deliveries -> rank ceil(247.5) = 248, the
//! 248th smallest; 1 delivery -> rank 1, that one.

use serde_json::{json, Value};

use crate::event::EventKind;

/// The 0-based index of the nearest-rank 99th percentile among `n` sorted values
/// (`n` at least 1).
pub fn p99_index(n: usize) -> usize {
    debug_assert!(n > 0, "a percentile of no values");
    (n * 99).div_ceil(100).clamp(1, n.max(1)) - 1
}

/// Count, mean, p99 and max of lateness values (ms), as the run result reports them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LatenessSummary {
    pub count: u64,
    /// Rounded to 3 decimals (the result's JSON carries it so).
    pub mean_ms: f64,
    pub p99_ms: u64,
    pub max_ms: u64,
}

impl LatenessSummary {
    pub fn of(values: &[u64]) -> LatenessSummary {
        if values.is_empty() {
            return LatenessSummary::default();
        }
        let mut v = values.to_vec();
        v.sort_unstable();
        let sum: u128 = v.iter().map(|x| u128::from(*x)).sum();
        LatenessSummary {
            count: v.len() as u64,
            mean_ms: (sum as f64 / v.len() as f64 * 1000.0).round() / 1000.0,
            p99_ms: v[p99_index(v.len())],
            max_ms: v[v.len() - 1],
        }
    }

    /// `{"count", "mean", "p99", "max"}` (the run contract's `lateness_ms`).
    pub fn to_json(&self) -> Value {
        if self.count == 0 {
            return json!({"count": 0, "mean": 0.0, "p99": 0, "max": 0});
        }
        json!({"count": self.count, "mean": self.mean_ms, "p99": self.p99_ms, "max": self.max_ms})
    }
}

/// A message's lateness: how long after it was due it moved on, summed over its life.
///
/// The one rule, shared by the run contract's `late_ms` ([`crate::report::Recorder`]) and the
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
    fn p99_is_nearest_rank_in_integers() {
        assert_eq!(p99_index(1), 0);
        assert_eq!(p99_index(100), 98);
        assert_eq!(p99_index(101), 99);
        assert_eq!(p99_index(250), 247);
        for n in 1..5_000 {
            let float_rank = ((n as f64) * 0.99).ceil() as usize;
            assert!(p99_index(n) < n);
            assert!(float_rank.abs_diff(p99_index(n) + 1) <= 1, "{n}");
        }
    }

    #[test]
    fn summary_of_values() {
        let s = LatenessSummary::of(&[0, 10, 20, 1000]);
        assert_eq!((s.count, s.p99_ms, s.max_ms), (4, 1000, 1000));
        assert_eq!(s.mean_ms, 257.5);
        assert_eq!(LatenessSummary::of(&[]), LatenessSummary::default());
        assert_eq!(
            LatenessSummary::of(&[]).to_json().to_string(),
            r#"{"count":0,"mean":0.0,"p99":0,"max":0}"#
        );
    }

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
