//! Limits on a run, so that a scenario can never hang the tab or the CLI, nor fill the
//! memory of either.
//!
//! A scenario that reaches one stops with a `LimitReached` event whose text says which
//! and why, and the simulation keeps the reason as typed data ([`Stopped`], from
//! `Sim::stopped`), so that a user interface can show it next to its clock and
//! `delaylab run` can report it.
//!
//! Two kinds of limit:
//! - counts the engine checks itself (events, time, messages, copies alive, timers) and
//!   the one loop that virtual time cannot leave: a consumer that nacks with requeue
//!   with no handling time gets the same message back at the same millisecond, forever
//!   ([`Limits::max_requeues_per_instant`], see `sim/consume.rs`);
//! - what the caller keeps while the run goes on (the run contract's result, a trace, an
//!   event log): the caller measures it and stops the run through `Sim::stop` with
//!   [`LimitKind::KeptBytes`] once over [`Limits::max_kept_bytes`].
//!
//! ```text
//! one queue, one manual-ack consumer "c" (outcome requeue, handle 0), one message:
//!   t=0  delivered, rejected (requeue), requeued, delivered, ... all at t=0
//!   after 1,000 rounds at t=0: STOPPED requeue loop: consumer 'c' ...
//! the same with `costs: "measured"`: each round takes the broker's round trip
//!   (about 0.3 ms), so the clock moves and the run ends at `until`
//! ```

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Events in one run.
    pub max_events: u64,
    /// Virtual time a run may reach when the scenario sets no `until`.
    pub max_time_ms: u64,
    /// Messages published in one run.
    pub max_messages: u64,
    /// Copies alive at once (queued, unacked or delayed).
    pub max_live_copies: u64,
    /// Timers fired in one run: a safety net for a loop that emits no events.
    pub max_steps: u64,
    /// Times one message may be requeued to and redelivered by the same consumer within
    /// one virtual millisecond: past that the consumer loops at one instant forever.
    pub max_requeues_per_instant: u32,
    /// Bytes the caller may keep of the run's output (result, trace, event log).
    pub max_kept_bytes: u64,
}

/// 1,000 rounds in one millisecond: no real broker comes near (a round trip is a network
/// round trip, a fraction of a millisecond at best), and a loop stops here long before
/// it costs memory.
pub const REQUEUES_PER_INSTANT: u32 = 1_000;

/// What a run may keep in memory of its output: 1 GiB (the 200,000-order preset's
/// result held whole, as `report::run` does, is about 0.7 GiB; `delaylab run` writes
/// its deliveries as they come and keeps far less).
pub const KEPT_BYTES: u64 = 1 << 30;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_events: 100_000_000,
            max_time_ms: 400 * 24 * 3_600_000,
            max_messages: 5_000_000,
            max_live_copies: 10_000_000,
            max_steps: 200_000_000,
            max_requeues_per_instant: REQUEUES_PER_INSTANT,
            max_kept_bytes: KEPT_BYTES,
        }
    }
}

/// Which limit stopped a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    Events,
    Time,
    Messages,
    LiveCopies,
    Steps,
    /// A consumer requeues and gets back the same message at the same instant forever.
    RequeueLoop,
    /// The caller's output (result, trace, log) grew past `max_kept_bytes`.
    KeptBytes,
    /// The broker itself would loop forever: a quorum queue over its drop-head limit
    /// with only held messages, none ready to drop (`sim/hold.rs`, D39).
    QueueHang,
}

impl LimitKind {
    /// A stable name for machine-readable output (`limit_reached.kind`).
    pub fn as_str(self) -> &'static str {
        match self {
            LimitKind::Events => "events",
            LimitKind::Time => "time",
            LimitKind::Messages => "messages",
            LimitKind::LiveCopies => "live_copies",
            LimitKind::Steps => "steps",
            LimitKind::RequeueLoop => "requeue_loop",
            LimitKind::KeptBytes => "kept_bytes",
            LimitKind::QueueHang => "queue_hang",
        }
    }
}

/// Why and when a run stopped before its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stopped {
    pub limit: LimitKind,
    /// The virtual time at which it stopped.
    pub at_ms: u64,
    /// The consumer at fault, for a requeue loop.
    pub consumer: Option<String>,
    /// The sentence the `LimitReached` event carries.
    pub text: String,
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The text of a requeue-loop stop: names the consumer, says what happens in words and
/// what a real broker would do.
pub fn requeue_loop_text(consumer: &str, body: &str, rounds: u32, at: &str) -> String {
    format!(
        "requeue loop: consumer '{consumer}' nacks '{body}' with requeue and, with no \
         handling time, gets it back at the same instant, forever ({rounds} rounds at \
         {at} without the clock moving). A real broker loops too, but each round trip \
         takes network time, so its clock moves on (run with --costs measured to see it \
         at RabbitMQ's speed); give the consumer a handle time or an outcome that ends"
    )
}

/// The text of a queue-hang stop (D39): what RabbitMQ's quorum queue would do, its
/// source, and what to change.
pub fn queue_hang_text(queue: &str, limit: &str, held: u64) -> String {
    format!(
        "queue hang: quorum queue '{queue}' is over its {limit} with only held messages \
         ({held} held, none ready). RabbitMQ's drop-head looks for a ready message to drop, \
         finds none and tries again, forever: the queue's process loops and stops answering \
         (rabbit_fifo.erl evaluate_limit0/4 and drop_head/2; run on the 4.4 branch, 4.3 has \
         the same loop with delayed retry; whether 4.4.0 fixed it is unconfirmed). The run \
         stops here; use overflow reject-publish, a higher limit, or hold fewer messages"
    )
}

/// The text of a kept-bytes stop.
pub fn kept_bytes_text(what: &str, bytes: u64, limit: u64) -> String {
    format!(
        "memory limit: the {what} kept of this run reached {} MiB (limit {} MiB); \
         shorten `until` or publish fewer messages",
        bytes >> 20,
        limit >> 20
    )
}
