//! Limits on a run, so that a scenario can never hang the tab or the CLI.
//!
//! A scenario that reaches one stops with a `LimitReached` event naming it, and
//! `delaylab run` reports it as an error.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Events in one run (a consumer that requeues forever at the same instant ends here).
    pub max_events: u64,
    /// Virtual time a run may reach when the scenario sets no `until`.
    pub max_time_ms: u64,
    /// Messages published in one run.
    pub max_messages: u64,
    /// Copies alive at once (queued, unacked or delayed).
    pub max_live_copies: u64,
    /// Timers fired in one run: a safety net for a loop that emits no events.
    pub max_steps: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_events: 100_000_000,
            max_time_ms: 400 * 24 * 3_600_000,
            max_messages: 5_000_000,
            max_live_copies: 10_000_000,
            max_steps: 200_000_000,
        }
    }
}
