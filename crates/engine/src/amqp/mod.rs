//! AMQP 0-9-1 rules that are pure functions of their input: parsing of `expiration`,
//! `x-delay` and `x-opt-delivery-time`, validation of queue and exchange arguments, and
//! RabbitMQ's error texts.

mod declare_args;
pub mod delivery_time;
pub(crate) mod erl;
pub mod error;
pub mod exchange_args;
pub mod expiration;
pub mod queue_args;
#[cfg(test)]
pub(crate) mod test_support;
pub mod x_delay;

pub use error::{AmqpError, Cause, ErrorScope, Property, Subject};
