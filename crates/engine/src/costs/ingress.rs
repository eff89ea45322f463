//! Ingress: the publishing channel takes one publish at a time.
//!
//! Why: broker-costs.md section 1 measured 14.8k-20.8k msg/s transient (8.6k-10.1k
//! persistent) through one channel with confirms, and a confirm latency of p50 50-72 ms
//! with 1,000 in flight: 1,000 publishes queued ahead at about 57 us each. The broker
//! starts a TTL or a delay when it takes the message, not when the client sends it, so
//! a burst sent at once is taken over `count x publish_us`, and its confirms (and its
//! TTLs) follow that schedule. A publish into the delayed exchange is a synchronous call
//! into the plugin's process (`plugin`): the channel waits for it, so the next publish
//! is taken only once the insert is done.
//!
//! A publish that a quorum queue takes costs `quorum_publish_us` in all (its leader
//! appends it to the Raft log before the confirm): the channel takes it at its classic
//! cost and is busy with the rest before the next (`routed_to_quorum`), since which
//! queues take it is known only once it is routed.
//!
//! Model: one FIFO server. A publish sent while others wait is queued behind them; the
//! head is taken at `max(free, sent) + cost` (the channel's clock, in us), the next
//! head's time is only computed once the head is done (a plugin insert may have
//! pushed the clock). Order is the publisher's order.
//!
//! ```text
//! sent at t=0: p1 p2 p3 (57 us each)  -> taken at 57, 114, 171 us: all in ms 0
//! sent at t=0: 40,000 publishes         -> the last taken at 2.28 s
//! ```

use std::collections::VecDeque;

use super::{ms_of, us_of, CostProfile};
use crate::scenario::PublishSpec;

#[derive(Debug, Default)]
pub struct Ingress {
    /// The channel's clock: when it is done with what it took so far.
    pub free_us: u64,
    /// What the last publish taken cost (for `routed_to_quorum`).
    last_cost_us: u64,
    /// Publishes sent but not taken yet: (sent at, spec, repeat run, cost in us).
    waiting: VecDeque<(u64, PublishSpec, u32, u64)>,
    /// The head of `waiting` is armed (its `Timer::Ingress` is pending).
    armed: bool,
}

/// What to do with a publish sent now.
// The spec is moved straight on to `publish` (as `ActionKind::Publish` carries it).
#[allow(clippy::large_enum_variant)]
pub enum Take {
    /// The channel takes it within this millisecond: publish it now.
    Now(PublishSpec, u32),
    /// Queued; arm `Timer::Ingress` at this millisecond (None: already armed).
    Later(Option<u64>),
}

/// What taking a publish costs the channel. `stored_by_plugin`: the delayed exchange
/// keeps it (`sim/costed.rs` asks the routing rules); the plugin's insert is then its own
/// cost (`plugin`), and the message store is not touched until the plugin routes it, so
/// a persistent message costs the channel what a transient one does: the plugin's
/// `rabbit_exchange_type_delayed_message:route/2` hands it to `rabbit_delayed_message`
/// (a `gen_server:call` that writes the two Mnesia tables) and routes it to no queue.
pub fn cost_us(profile: &CostProfile, spec: &PublishSpec, stored_by_plugin: bool) -> u64 {
    if spec.properties.delivery_mode == Some(2) && !stored_by_plugin {
        u64::from(profile.persistent_publish_us)
    } else {
        u64::from(profile.publish_us)
    }
}

impl Ingress {
    /// A publish sent now that costs the channel `cost_us` ([`cost_us`]).
    pub fn send(&mut self, now_ms: u64, spec: PublishSpec, run: u32, cost_us: u64) -> Take {
        if self.waiting.is_empty() {
            let taken = self.free_us.max(us_of(now_ms)) + cost_us;
            if ms_of(taken) <= now_ms {
                self.free_us = taken;
                self.last_cost_us = cost_us;
                return Take::Now(spec, run);
            }
        }
        self.waiting.push_back((now_ms, spec, run, cost_us));
        Take::Later(self.arm_head(now_ms))
    }

    /// The head is taken now (its timer fired): returns it; `next` then arms the next.
    pub fn take_head(&mut self) -> Option<(PublishSpec, u32)> {
        self.armed = false;
        self.waiting.pop_front().map(|(_, s, r, _)| (s, r))
    }

    /// Arms the head of the queue if it is not: its time on the channel's clock.
    pub fn arm_head(&mut self, now_ms: u64) -> Option<u64> {
        if self.armed {
            return None;
        }
        let (sent_ms, _, _, cost_us) = self.waiting.front()?;
        let taken = self.free_us.max(us_of(*sent_ms)) + cost_us;
        self.free_us = taken;
        self.last_cost_us = *cost_us;
        self.armed = true;
        Some(ms_of(taken).max(now_ms))
    }

    /// The publish just taken went to a quorum queue: the channel is busy with the rest
    /// of `quorum_publish_us` before the next.
    pub fn routed_to_quorum(&mut self, profile: &CostProfile) {
        let rest = u64::from(profile.quorum_publish_us).saturating_sub(self.last_cost_us);
        self.free_us += rest;
        self.last_cost_us += rest;
    }

    /// The channel waited for a synchronous call (a plugin insert) until `done_us`.
    pub fn wait_until(&mut self, done_us: u64) {
        self.free_us = self.free_us.max(done_us);
    }

    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }
}
