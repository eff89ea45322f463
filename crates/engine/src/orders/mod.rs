//! The order-timeout lab: the business behind the delayed "close order" message, inside
//! the simulation, on the same virtual clock and event stream as the broker.
//!
//! The seed articles' lesson: the message is a reminder, not a fact. An order is created
//! WAITING_PAY, one "close order" message is published through the scenario's topology;
//! when it arrives, the consumer must check the database, because the user may have
//! paid (or canceled) meanwhile, the message may come twice, early, or never.
//!
//! ```text
//! 0:00  order #1 created WAITING_PAY, stock reserved, close message #1 published (30m)
//! 0:12  user pays: #1 PAID
//! 0:30  message #1 delivered: naive closes #1 (PAID -> CLOSED, stock released: mistake)
//!                             conditional_update: 0 rows, nothing released
//! ```
//! What the scenario says is `scenario::orders` (the lab's spec, a value the loader builds);
//! here: `model` (the tables), `policy` (the consumer),
//! `faults`, `scan` (compensation), `outcome` (counters), `event`, `view` (snapshot),
//! `lab` (the state the simulation owns; the hooks are in `sim/orders.rs`).

pub mod event;
pub mod faults;
pub mod lab;
pub mod model;
pub mod outcome;
pub mod policy;
pub mod scan;
pub mod view;

pub use event::{OrderEvent, Skip};
pub use lab::{Lab, LabTimer};
