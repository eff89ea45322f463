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
//!   [`EventKind::MESSAGE_KINDS`], [`lateness::LatenessSummary`],
//!   [`report::lateness::Lateness`], the loader's limits)
//!   instead of re-deriving them.
//!
//! # Layers
//!
//! The modules stand on one another like stairs, lowest first: a module's library code
//! uses only modules of its own layer or of a layer below it, so the sim never reads a
//! report, and what a lower layer needs lives down there (the `h:mm:ss.mmm` clock is
//! `scenario::duration::clock`, the lateness summary is `lateness`). Unit tests
//! (`#[cfg(test)]`) may use the whole crate. One line per top-level module below: its
//! layer, its name, why it stands there. `tests/layers.rs` reads this list and fails on
//! any `crate::` path (or `super::` path leaving its module) that goes up a layer, and
//! on a module the list does not name.
//!
//! - values `value`: AMQP field values and argument tables.
//! - values `sym`: interned names.
//! - values `sym_map`: a map keyed by symbol, found by the symbol's number.
//! - values `body`: a message body, inline when short.
//! - values `hint`: CPU hints (prefetch) that change only timing.
//! - values `ids`: identifiers the simulation hands out.
//! - values `rng`: the one seeded pseudo-random generator.
//! - values `limits`: what a run may use before it is stopped, and the texts saying so.
//! - values `lateness`: count, mean, p99 and max of lateness values (plain numbers).
//! - values `sort`: one compiled stable sort for the sorts off the hot paths (wasm size).
//! - values `calendar`: a calendar queue, items out by due time (the plugin's store, held messages).
//! - routing `routing`: which bindings of an exchange type a message matches.
//! - amqp `amqp`: pure AMQP 0-9-1 rules: argument and property parsing, RabbitMQ's errors.
//! - scenario `scenario`: what a run is given: the model, `duration`, the loader, the writer.
//! - scenario `version`: the broker version profiles the scenario's `broker` names (3.10-4.4).
//! - scenario `costs`: the cost profiles the scenario's `costs` names and their pure models.
//! - queues `message`: a message as the broker holds it.
//! - queues `death`: the `x-death` history and the dead-letter cycle rule.
//! - queues `cause`: why an event happened, as the sim says it (never serialized).
//! - queues `exchange`: exchanges, bindings and one exchange's match of a message.
//! - queues `queue`: a queue's ready and unacknowledged messages and its rules.
//! - queues `queue_held`: the messages a quorum queue holds aside, by due time.
//! - queues `delayed`: the delayed-message plugin's store.
//! - queues `consumer`: a consumer's runtime state and its next outcome.
//! - sim `event`: every state change the sim reports.
//! - sim `timers`: the sim's one timer queue.
//! - sim `orders`: the order-timeout lab run beside the broker (spec: `scenario::orders`).
//! - sim `sim`: the node: commands and timers in, events out.
//! - report `report`: runs a scenario and reports it: result, trace, timeline, lateness.
//! - report `snapshot`: a read-only picture of a running sim for a UI.
//! - report `strategies`: the strategy comparison, run through the sim and reported.
//! - report `checks`: a scenario's checks decided over a run's events and state.
pub mod amqp;
pub mod body;
pub mod calendar;
pub mod cause;
pub mod checks;
pub mod consumer;
pub mod costs;
pub mod death;
pub mod delayed;
pub mod event;
pub mod exchange;
pub mod hint;
pub mod ids;
pub mod lateness;
pub mod limits;
pub mod message;
pub mod orders;
pub mod queue;
pub mod queue_held;
pub mod report;
pub mod rng;
pub mod routing;
pub mod scenario;
pub mod sim;
pub mod snapshot;
pub mod sort;
pub mod strategies;
pub mod sym;
pub(crate) mod sym_map;
pub mod timers;
pub mod value;
pub mod version;

pub use event::{DropReason, Event, EventKind};
pub use sim::{Command, Progress, Sim};
