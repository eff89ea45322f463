//! Cost modes: a broker that takes time.
//!
//! In `ideal` mode (the default) every step of the simulated broker takes zero time: the
//! rules are exact and a 40,000-message burst is delivered in one millisecond. In
//! `measured` mode, or with a profile written by `delaylab calibrate`, each mechanism
//! that dominates at scale takes the time a real RabbitMQ was measured taking: 3.10.8 in
//! `shared/docs/broker-costs.md`, 4.3.6 with quorum queues in `measured_4_3.rs` (the
//! scenario's broker picks one: [`CostProfile::measured_for`]), one module per mechanism:
//!
//! - [`ingress`]: the publishing channel takes one publish at a time (confirms follow);
//! - [`collect`]: a queue collects a whole run of expired heads before the first goes;
//! - [`dead_letter`]: a queue dead-letters its expired heads one at a time;
//! - [`arrival`]: a queue's process takes each message routed to it, its consumers wait;
//! - [`delivery`]: a consumer takes one delivery at a time, within its prefetch window
//!   (more for one that acks each delivery, more from a quorum queue);
//! - [`round_trip`]: an ack or nack reaches the broker a round trip after the delivery;
//! - [`expiry`]: a queue's expiry timer fires a little late (quorum later than classic);
//! - [`plugin`]: the delayed-message exchange's one process, one due-ms key per tick.
//!
//! Costs only move times: what happens, and in which order a rule puts it (FIFO,
//! head-of-line blocking, due-time order, round-robin), stays the rule's. Every cost is
//! a server with its own clock in microseconds (`*_us`); an event happens at the
//! millisecond its server's clock is in (rounded down), so several cheap steps share a
//! millisecond and a requeue loop advances the clock by its round trips. Deterministic:
//! no clock, no PRNG (a spread such as expiry lateness is a hash of the copy id).
//!
//! ```text
//! ideal:    t=10000 head expires; 40,000 overdue behind it dead-lettered and delivered at 10000
//! measured: t=10000 head expires; dead-lettering 28 us each, the consumer 87 us each:
//!           the last delivery at about 10000 + 40000 x 87 us = 13.5 s
//! ```

pub mod arrival;
pub mod collect;
pub mod dead_letter;
pub mod delivery;
pub mod expiry;
pub mod ingress;
mod measured_4_3;
pub mod plugin;
pub mod profile;
pub mod round_trip;

pub use profile::CostProfile;

/// Microseconds in a millisecond.
pub const US_PER_MS: u64 = 1_000;

/// The `costs` field of a scenario.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum CostMode {
    /// Every step takes no time (the rules alone): today's behaviour.
    #[default]
    Ideal,
    /// The built-in profile of the scenario's broker ([`CostProfile::measured_for`]).
    Measured,
    /// A profile given inline (what `delaylab calibrate` writes).
    Profile(CostProfile),
}

impl CostMode {
    /// The profile to run with on `version`, None for ideal.
    pub fn profile(&self, version: crate::version::BrokerVersion) -> Option<CostProfile> {
        match self {
            CostMode::Ideal => None,
            CostMode::Measured => Some(CostProfile::measured_for(version)),
            CostMode::Profile(p) => Some(p.clone()),
        }
    }

    pub fn is_ideal(&self) -> bool {
        *self == CostMode::Ideal
    }
}

/// The millisecond a microsecond clock is in.
pub fn ms_of(us: u64) -> u64 {
    us / US_PER_MS
}

/// The start of a millisecond on a microsecond clock.
pub fn us_of(ms: u64) -> u64 {
    ms.saturating_mul(US_PER_MS)
}

/// The clocks of every costed server in one run.
#[derive(Debug)]
pub struct CostState {
    pub profile: CostProfile,
    pub ingress: ingress::Ingress,
    pub dead_letter: dead_letter::DeadLetterers,
    pub delivery: delivery::Consumers,
    pub plugin: plugin::Scheduler,
    /// Scenario seed, mixed into the expiry-lateness hash.
    pub seed: u64,
}

impl CostState {
    pub fn new(profile: CostProfile, seed: u64) -> CostState {
        CostState {
            profile,
            ingress: ingress::Ingress::default(),
            dead_letter: dead_letter::DeadLetterers::default(),
            delivery: delivery::Consumers::default(),
            plugin: plugin::Scheduler::default(),
            seed,
        }
    }
}
