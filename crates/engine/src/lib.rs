//! delaylab-engine: a deterministic simulation of RabbitMQ delayed messaging.
//!
//! Contract:
//! - In: a [`scenario::Scenario`] (loaded with JSON-path errors) and [`Command`]s, each at
//!   a virtual time `now` the caller passes; no clock, no IO, one seeded PRNG.
//! - Out: [`Event`]s (polled), [`snapshot::Snapshot`]s (read-only pictures for a UI), and
//!   the run contract's reports (`report`). Same scenario and commands, same output,
//!   byte for byte, natively and in wasm.
//! - Every broker rule lives here, once, with its RabbitMQ source cited; callers (the
//!   CLI, the playground) read typed views ([`snapshot::ExchangeView::is_delayed`],
//!   [`EventKind::MESSAGE_KINDS`], [`lateness::LatenessSummary`], the loader's limits)
//!   instead of re-deriving them.
pub mod amqp;
pub mod consumer;
pub mod costs;
pub mod death;
pub mod delayed;
pub mod event;
pub mod exchange;
pub mod ids;
pub mod lateness;
pub mod limits;
pub mod message;
pub mod orders;
pub mod queue;
pub mod rng;
pub mod routing;
pub mod scenario;
pub mod sim;
pub mod strategies;
pub mod sym;
pub mod timers;
pub mod value;
pub mod version;

pub use event::{DropReason, Event, EventKind};
pub use sim::{Command, Progress, Sim};
pub mod report;
pub mod snapshot;
