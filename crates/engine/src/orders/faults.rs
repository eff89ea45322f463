//! Injected faults, and when each one strikes.
//!
//! ```text
//! duplicate_delivery  per order, at creation: the close message is published twice
//!                     (a producer retry: same message_id, new delivery)
//! early_arrival       per order, at creation: the delay is `by` shorter (clock skew)
//! lost_in_store       per order, at creation: published through the topology, stored
//!                     and confirmed, then at once lost from where it was stored (the
//!                     delayed store or a queue): dropped, reason lost_in_store
//! crash_before_ack    per delivery, after the update: the consumer's process dies, its
//!                     connection closes: every delivery it held unacked is requeued
//!                     (redelivered, no basic.reject); it subscribes again `for` later
//!                     (default 5 s) on a new channel
//! pay_race            per delivery, after the read: the user pays before the update
//! lose_node           at `at`: the node with the delayed store and classic queues is lost
//! consumer_outage     at `at`, for `for`: the orders consumer is away
//! ```
//! Each share fault draws once from the simulation's PRNG where it applies, in the
//! order of the `faults` list, so a run is reproducible from the seed.
//!
//! A consumer away for two reasons (a crash's restart and an outage) comes back when
//! the later one ends. Worked timeline (`crash_before_ack` share 1, `for` 5s, prefetch 3):
//! ```text
//! 30:00.000  m1 m2 m3 delivered, tags 1 2 3
//! 30:00.200  m1 handled: the policy's write; crash: consumer_detached, requeued m1 m2 m3
//! 30:05.200  consumer_attached: m1 m2 m3 delivered again, redelivered, tags 1 2 3
//! ```

use crate::rng::Rng;
use crate::scenario::orders::{FaultKind, FaultSpec};

/// Whether the share faults of `kind` strike this time (one draw per listed fault).
pub fn strikes<'a>(
    faults: &'a [FaultSpec],
    kind: FaultKind,
    rng: &mut Rng,
) -> Option<&'a FaultSpec> {
    let mut hit = None;
    for f in faults
        .iter()
        .filter(|f| f.kind == kind && !f.kind.is_timed())
    {
        if rng.next_f64() < f.share && hit.is_none() {
            hit = Some(f);
        }
    }
    hit
}

/// A delay as written in a publish (`expiration` text or `x-delay`), shortened by
/// `by_ms`, at least 1 ms (0 would mean "no delay" to the plugin).
pub fn shortened(delay_ms: u64, by_ms: u64) -> u64 {
    delay_ms.saturating_sub(by_ms).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn share(kind: FaultKind, share: f64) -> FaultSpec {
        FaultSpec {
            kind,
            at_ms: 0,
            share,
            duration_ms: 0,
        }
    }

    #[test]
    fn share_zero_never_and_one_always() {
        let mut r = Rng::new(3);
        let never = [share(FaultKind::PayRace, 0.0)];
        let always = [share(FaultKind::PayRace, 1.0)];
        for _ in 0..100 {
            assert!(strikes(&never, FaultKind::PayRace, &mut r).is_none());
            assert!(strikes(&always, FaultKind::PayRace, &mut r).is_some());
            assert!(strikes(&always, FaultKind::DuplicateDelivery, &mut r).is_none());
        }
    }

    #[test]
    fn shortened_never_reaches_zero() {
        assert_eq!(shortened(1_800_000, 300_000), 1_500_000);
        assert_eq!(shortened(1000, 5000), 1);
    }
}
