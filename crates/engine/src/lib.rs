//! delaylab-engine: a deterministic simulation of RabbitMQ delayed messaging.
pub mod amqp;
pub mod consumer;
pub mod costs;
pub mod death;
pub mod delayed;
pub mod event;
pub mod exchange;
pub mod ids;
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

pub use event::{DropReason, Event, EventKind};
pub use sim::{Command, Progress, Sim};
pub mod report;
pub mod snapshot;
