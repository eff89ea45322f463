//! Scenario checks: what a run must show, stated in the scenario (`checks`), decided
//! as the run goes on. A layer above `sim`, beside `report`: it reads events and, at the
//! times a check names, the broker's state; it never changes the run.
//!
//! - `spec` (= `scenario::checks`, the layer below): what a file's `checks` say (loaded
//!   by `scenario::load`, written by `scenario::save`);
//! - `eval`: the [`Evaluator`], fed events in order, answering per check pending /
//!   passed at T / failed at T ([`CheckState`]); `track` holds each kind's rules,
//!   `select` which happenings a check is about, `obs` the happenings themselves;
//! - `state_source`: the broker's state at a check's time. The choice: the runner stops
//!   there (`Evaluator::next_stop_ms`) rather than re-deriving depths from events;
//! - `run`: a scenario run with its checks (stopping at those times);
//! - `live`: the same checks on what `delaylab replay` recorded on a live broker, and
//!   which of them a live broker cannot decide;
//! - `text` (English) and `json`: the states for people, the CLI and host pages.
//!
//! The figures are the reports' own: lateness from `crate::lateness` (the result's
//! `late_ms`, `lateness_ms`), depths from `snapshot`, order-lab figures from its tally.

pub mod eval;
mod glob;
/// What the checks say (the scenario layer's model: `scenario::checks`).
pub use crate::scenario::checks as spec;
pub mod json;
pub mod live;
mod obs;
pub mod run;
mod select;
pub mod state;
pub mod state_source;
pub mod text;
mod track;

pub use eval::Evaluator;
pub use spec::Check;
pub use state::{CheckState, Seen, Status, Undecided};
pub use state_source::{BrokerState, SimState};
