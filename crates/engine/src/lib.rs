//! delaylab-engine: a deterministic simulation of RabbitMQ delayed messaging.
pub mod amqp;
pub mod routing;
pub mod scenario;
pub mod value;
