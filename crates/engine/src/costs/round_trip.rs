//! The minimum round trip of a delivery: the consumer's answer reaches the broker no
//! sooner than a network round trip after the delivery, whatever its handling time.
//!
//! Why: the issue's endless run. One queue, one manual-ack consumer with outcome
//! `requeue` and no handling time, one message: the ideal engine delivers, requeues and
//! delivers again at the same millisecond forever (`limits::LimitKind::RequeueLoop`
//! stops it). A real broker loops too, but each round (basic.deliver to the client,
//! basic.nack back, the requeue, the next basic.deliver) crosses the network, so time
//! passes: `delaylab calibrate` measured about 0.2-0.4 ms per round here (lapin on
//! loopback); broker-costs.md does not give this figure.
//!
//! Model: the answer arrives at `delivered + max(handle, round_trip_us)`, to the
//! microsecond (the `Handled` timer keeps the part below the millisecond).
//!
//! ```text
//! requeue loop, delivery 87 us + round trip 300 us: one round every 387 us,
//!   about 2,600 rounds per second of virtual time, until `until`
//! ```

use super::{us_of, CostProfile};

/// When the answer to a delivery that reached its consumer at `delivered_us` reaches
/// the broker.
pub fn answer_us(profile: &CostProfile, delivered_us: u64, handle_ms: u64) -> u64 {
    delivered_us + us_of(handle_ms).max(u64::from(profile.round_trip_us))
}
