//! Delivery and ack throughput per consumer, within its prefetch window.
//!
//! Why: broker-costs.md section 1: one consumer (manual ack, prefetch 1,000, acks every
//! 100) took 10.2k-13.0k msg/s from the DLQ, which backed up to 37-43k: the consumer,
//! not the broker's rules, set the drain. The ideal engine hands a consumer any number
//! of messages in one millisecond.
//!
//! Model: each consumer has a clock; each delivery to it costs `delivery_us`
//! (`quorum_delivery_us` from a quorum queue), plus `ack_us` (`quorum_ack_us`) when the
//! consumer acks each delivery: the broker's channel and queue handle every `basic.ack`
//! (issue 23: 40,000 drained in 2.48 s to a consumer acking each, 1.56 s predicted
//! without that cost). A consumer with prefetch room whose clock is past the current
//! millisecond is busy: the
//! queue wakes at the millisecond the first busy consumer is free (`Timer::CostWake`).
//! Prefetch still decides who may take a message (round-robin, `consume.rs`); the clock
//! only decides when. An answer (ack, nack) that frees a full window, or a requeue,
//! resumes the consumer no earlier than the answer reached the broker (`round_trip`).
//!
//! ```text
//! 40,000 ready, one auto-ack consumer, 87 us each: ~11 per ms, the last at +3.5 s
//! the same acking each (+23 us): 110 us each, the last at +4.4 s
//! prefetch 1, acking each: every delivery waits for the previous ack's round trip,
//!   87 + 23 + 300 us: one per 410 us, the last at +16.4 s
//! ```

use super::{ms_of, us_of, CostProfile};

/// What one delivery costs its consumer: from a quorum queue or a classic one, to a
/// consumer that acks each delivery (manual) or not.
pub fn cost_us(profile: &CostProfile, quorum: bool, manual: bool) -> u64 {
    let (deliver, ack) = if quorum {
        (profile.quorum_delivery_us, profile.quorum_ack_us)
    } else {
        (profile.delivery_us, profile.ack_us)
    };
    u64::from(deliver) + if manual { u64::from(ack) } else { 0 }
}

#[derive(Debug, Default)]
pub struct Consumers {
    free_us: Vec<u64>,
    /// Per queue: the millisecond its wake timer is armed for.
    wake_ms: Vec<Option<u64>>,
}

impl Consumers {
    fn clock(&mut self, c: usize) -> &mut u64 {
        if self.free_us.len() <= c {
            self.free_us.resize(c + 1, 0);
        }
        &mut self.free_us[c]
    }

    /// Consumer `c` can take a delivery in `now_ms`.
    pub fn ready(&self, c: usize, now_ms: u64) -> bool {
        self.free_us.get(c).is_none_or(|f| ms_of(*f) <= now_ms)
    }

    /// The millisecond consumer `c` is free at.
    pub fn free_ms(&self, c: usize) -> u64 {
        self.free_us.get(c).map_or(0, |f| ms_of(*f))
    }

    /// A delivery to `c` now that costs `cost_us` ([`cost_us`]): returns the microsecond
    /// it reaches the consumer.
    pub fn deliver(&mut self, c: usize, now_ms: u64, cost_us: u64) -> u64 {
        let clock = self.clock(c);
        *clock = (*clock).max(us_of(now_ms)) + cost_us;
        *clock
    }

    /// `c`'s queue takes a message routed to it (`arrival`): its next delivery waits
    /// `cost_us` more.
    pub fn occupy(&mut self, c: usize, now_ms: u64, cost_us: u64) {
        let clock = self.clock(c);
        *clock = (*clock).max(us_of(now_ms)) + cost_us;
    }

    /// `c` cannot take the next delivery before `at_us`.
    pub fn resume(&mut self, c: usize, at_us: u64) {
        let clock = self.clock(c);
        *clock = (*clock).max(at_us);
    }

    /// Records a wake of queue `q` at `at_ms`; false if one at or before it is armed.
    pub fn want_wake(&mut self, q: usize, at_ms: u64) -> bool {
        if self.wake_ms.len() <= q {
            self.wake_ms.resize(q + 1, None);
        }
        match self.wake_ms[q] {
            Some(t) if t <= at_ms => false,
            _ => {
                self.wake_ms[q] = Some(at_ms);
                true
            }
        }
    }

    /// Queue `q`'s wake timer fired at `now_ms`: false if it was a stale one.
    pub fn woke(&mut self, q: usize, now_ms: u64) -> bool {
        match self.wake_ms.get_mut(q) {
            Some(w) if *w == Some(now_ms) => {
                *w = None;
                true
            }
            _ => false,
        }
    }
}
