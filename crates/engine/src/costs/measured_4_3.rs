//! The built-in measured profile of RabbitMQ 4.3.6 with quorum queues, the queue type 4.x
//! recommends: `costs: "measured"` on a 4.x scenario ([`CostProfile::measured_for`]).
//!
//! broker-costs.md measured 3.10.8 only, so every quorum figure here comes from
//! `delaylab calibrate --broker 4.3 --queue-type quorum` (lapin client, 20-byte messages),
//! run on 2026-12-02 between 17:40 and 18:30 UTC against the Debian forky package 4.3.6
//! (Erlang/OTP 29.1) in the project's chroot (`scripts/lib/broker.sh`), on this machine:
//! 2 vCPU (AMD EPYC), 23 GB, shared with about seven other engineers' builds (load average
//! 13-17 throughout). Four runs (A: 17:43, B: in `costs-check.sh` at 18:20, C: 18:27,
//! D: 18:31; A acked inline, so its ack and prefetch-1 figures are left out); each constant
//! is the median, the spread beside it. A busy machine makes every figure slower and the
//! lone-message latencies longer: CI's idle machine calibrates its own (the costs check
//! uses its calibration, not these).
//!
//! ```text
//! run                         A        B        C        D      median
//! publish (confirms, msg/s)   6,236    2,813    6,404    5,483  5,860  -> 171 us
//! dead-lettering (msg/s)      14,392   15,768   18,212   27,812 16,990 -> 59 us
//! delivery, slower of standing
//!   and fed (msg/s)           9,810    8,117    7,381    6,314  7,749  -> 129 us
//! acking each, beyond it (us) -        10       92       0      10
//! expiry late p10 / p90 (ms)  11/34    2/21     8/40     13/46  9.5/37
//! ```
//!
//! The round trip is not from these runs' step 6: a prefetch-1 consumer fed by 20,000
//! dead-lettered messages took 30-38 msg/s on 4.3.6 (B, 10,000 deep: 184 msg/s), while
//! 1,000 behind a head (quorum and classic, drained within 2 s) and a standing queue of
//! 2,000 (about 700 msg/s, 2.9 s) went twenty times faster: a cost that grows
//! with the queue's depth, which the model does not have. The short-queue figure is the
//! round trip (as 3.10.8's 300 us is); the costs check calibrates at its workload's depth.
//! Classic queues on 4.3.6 were calibrated once (publish 8.4k/s, dead-lettering 4.5k/s,
//! delivery 4.2k/s, at load 15): too noisy to replace broker-costs.md's 3.10.8 figures,
//! which the classic fields keep, as do the plugin's (it has no build for 4.3; 4.0-4.2 use
//! this profile with them).

use super::CostProfile;

/// 1e6 / 5,860 msg/s, publishes to a quorum queue with confirms (500 in flight).
const QUORUM_PUBLISH_US: u32 = 171;
/// 1e6 / 16,990 msg/s: a burst of 20,001 dead-lettered from a quorum queue into another.
const QUORUM_DEAD_LETTER_US: u32 = 59;
/// 1e6 / 7,749 msg/s: a no-ack consumer on a quorum DLQ, fed 40,000 by dead-lettering.
const QUORUM_DELIVERY_US: u32 = 129;
/// A consumer acking each delivery (prefetch 1,000) took 10 us more per delivery.
const QUORUM_ACK_US: u32 = 10;
/// A prefetch-1 round with a short queue: about 700 msg/s, 1,430 us, less the delivery and
/// its ack (129 + 10 us).
const ROUND_TRIP_US: u32 = 1_290;
/// A lone 700 ms TTL on a quorum queue, publish to delivery: p10 9.5 and p90 37 ms late
/// (3.10.8's quorum queue: 3-9 ms, broker-costs.md section 4, on an idle machine).
const QUORUM_EXPIRY_LATE_MS: (u32, u32) = (9, 37);

impl CostProfile {
    /// RabbitMQ 4.3.6 with quorum queues on 2 cores, calibrated here (module doc).
    pub fn measured_4_3() -> CostProfile {
        CostProfile {
            source: "measured: RabbitMQ 4.3.6, quorum queues, 2 cores (delaylab calibrate; classic and plugin figures from 3.10.8)".into(),
            quorum_publish_us: QUORUM_PUBLISH_US,
            quorum_dead_letter_us: QUORUM_DEAD_LETTER_US,
            quorum_delivery_us: QUORUM_DELIVERY_US,
            quorum_ack_us: QUORUM_ACK_US,
            round_trip_us: ROUND_TRIP_US,
            quorum_expiry_late_ms: QUORUM_EXPIRY_LATE_MS,
            ..CostProfile::measured()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quorum_figures_are_4_3s_and_the_rest_3_10s() {
        let (p, base) = (CostProfile::measured_4_3(), CostProfile::measured());
        assert_eq!(p.quorum_publish_us, 171);
        assert_eq!(p.quorum_expiry_late_ms, (9, 37));
        assert_eq!(
            (p.publish_us, p.delivery_us, p.ack_us, p.plugin_tick_us),
            (
                base.publish_us,
                base.delivery_us,
                base.ack_us,
                base.plugin_tick_us
            )
        );
    }
}
