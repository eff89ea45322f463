//! Arrivals: a queue's process takes each message routed to it, and its consumers wait
//! meanwhile.
//!
//! Why: the live costs check (issue 28 item 6). 40,000 released at once behind a long
//! head into a consumer acking each (prefetch 1,000) drained on RabbitMQ 3.10.8 in 2.21 s
//! with a p50 of 1.50 s from the release, where the model, its consumer calibrated on
//! the drain's average, gave 1.93 s and 0.97 s: the deliveries left too early at the
//! start. Live, the drain is slow while the burst is still being dead-lettered into the
//! consumer's queue and fast once it is all in (a loaded machine: about 4,000 msg/s for
//! the first 4.5 s, then 10,000; with prefetch 1, a few dozen a second, then 9,000). In
//! 3.10.8 each dead letter is a `deliver` cast to the DLQ's process
//! (`rabbit_dead_letter:publish` -> `rabbit_queue_type:deliver`), which enqueues it
//! (`rabbit_amqqueue_process:deliver_or_enqueue`) in the same process that hands
//! messages to the consumer (`run_message_queue`) and takes its acks; a trace of that
//! process on the live broker showed the acks it handled falling from hundreds to a few
//! per 100 ms while 20,000 casts arrived, and its heap's garbage collections taking
//! 40-140 ms of every 100 ms. On two cores the dead-lettering queue's process takes one
//! core meanwhile: the figure calibrated here holds both.
//!
//! Model: a message enqueued in a queue (routed by a publish or a dead-lettering)
//! costs `enqueue_us` (`quorum_enqueue_us`) on the clock of every consumer attached to
//! the queue (`delivery::Consumers::occupy`): the queue's process is busy with it, so
//! the next delivery to any of them waits. A queue without consumers takes its
//! arrivals while idle: nothing waits. `calibrate` measures it from a fed drain's
//! shape: the steady rate of its tail (the burst all in) gives the delivery's cost,
//! the rest of its time is the arrivals'.
//!
//! ```text
//! 40,000 dead-lettered at 28 us each into a DLQ, enqueue 17 us, delivery + ack 55 us:
//!   while they arrive (1.1 s) the consumer gets 1 - 17/28 = 39 % of its time:
//!   ~8,000 delivered by 1.1 s, the other 32,000 at 55 us: the last at ~2.9 s, the
//!   20,000th at ~1.8 s (without arrivals: 2.2 s and 1.1 s)
//! ```

use super::CostProfile;

/// What taking one message costs a queue (quorum or classic).
pub fn cost_us(profile: &CostProfile, quorum: bool) -> u64 {
    u64::from(if quorum {
        profile.quorum_enqueue_us
    } else {
        profile.enqueue_us
    })
}
