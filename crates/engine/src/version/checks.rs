//! Declarations a version refuses that 3.10 accepts (or refuses differently), applied by
//! `sim/topology.rs` around the 3.10 validators of `amqp::*`.
//!
//! ```text
//! 4.3  queue.declare q x-queue-version=1               -> channel.close 406 (D23)
//! 4.3  queue.declare q (classic) x-delayed-retry-min   -> channel.close 406 (D31)
//! 4.3  queue.bind x=topic key "#.a.#.b.#"              -> channel.close 406 (D26)
//! 4.3  exchange.declare type=x-delayed-message         -> channel.close 406 unknown (D27)
//! 3.13+ exchange.declare type=bogus                    -> 406, channel (3.10: 503, connection) (D7)
//! ```
//!
//! Not here: D22. RabbitMQ 4.3.0-4.3.5's source denies `queue.declare durable=false
//! exclusive=false` (deprecated feature `transient_nonexcl_queues`, `denied_by_default`,
//! connection.close 541), but 4.3.6, the release the 4.3 profile stands for, accepts it
//! with a warning in the broker's log (its phase is `permitted_by_default`; live 4.3.6,
//! `tests/conformance/v22-transient-non-exclusive.json`), as every earlier version does.

use super::{Profile, UnknownExchangeType};
use crate::amqp::exchange_args::DELAYED_TYPE;
use crate::amqp::{AmqpError, Cause, Subject};
use crate::scenario::QueueDef;
use crate::value::FieldValue;

/// The reply-text prefix `rabbit_exchange:check_type/1` errors get in 3.10.
const COMMAND_INVALID_PREFIX: &str = "COMMAND_INVALID - ";

/// D31: the arguments 4.3 quorum queues declare and classic queues do not.
const QUORUM_ONLY_ARGS_4_3: &[&str] = &[
    "x-consumer-timeout",
    "x-consumer-disconnected-timeout",
    "x-delayed-retry-type",
    "x-delayed-retry-min",
    "x-delayed-retry-max",
];

impl Profile {
    /// An unknown exchange type, refused as this version refuses it (D7).
    pub fn unknown_exchange_type(&self, detail: String) -> AmqpError {
        match self.unknown_exchange_type {
            UnknownExchangeType::ConnectionClose503 => AmqpError::command_invalid(detail),
            UnknownExchangeType::ChannelClose406 => AmqpError::precondition_failed(detail),
        }
    }

    /// Re-words a 3.10 `check_type` refusal (503, connection) as this version words it.
    pub fn adapt_exchange_error(&self, e: AmqpError) -> AmqpError {
        match (
            self.unknown_exchange_type,
            e.text.strip_prefix(COMMAND_INVALID_PREFIX),
        ) {
            (UnknownExchangeType::ChannelClose406, Some(detail)) if e.code == 503 => AmqpError {
                subject: e.subject.clone(),
                ..AmqpError::precondition_failed(detail)
            },
            _ => e,
        }
    }

    /// Before the 3.10 checks of an `exchange.declare` of `kind`: without the plugin,
    /// `x-delayed-message` is a type like any unknown one (D27). `plugin_was_loaded`:
    /// the node ran the plugin before an upgrade, so the type's name is a known atom and
    /// the text says `invalid` instead of `unknown` (§2.11) [code].
    pub fn check_exchange_type(
        &self,
        kind: &str,
        plugin_was_loaded: bool,
    ) -> Result<(), AmqpError> {
        if kind != DELAYED_TYPE || self.delayed_plugin {
            return Ok(());
        }
        let word = if plugin_was_loaded {
            "invalid"
        } else {
            "unknown"
        };
        Err(self
            .unknown_exchange_type(format!("{word} exchange type '{kind}'"))
            .about(Subject::ExchangeType))
    }

    /// After the 3.10 checks of a new queue's declaration passed (D23, D31).
    pub fn check_queue_declare(&self, def: &QueueDef, quorum: bool) -> Result<(), AmqpError> {
        let rs = format!("queue '{}' in vhost '/'", def.name);
        if self.classic_refuses_quorum_args && !quorum {
            if let Some(key) = QUORUM_ONLY_ARGS_4_3
                .iter()
                .find(|k| def.arguments.get(k).is_some())
            {
                return Err(AmqpError::precondition_failed(format!(
                    "invalid arg '{key}' for {rs} of queue type rabbit_classic_queue"
                ))
                .about_arg(key)
                .because(Cause::NotForQueueType));
            }
        }
        if self.queue_version_1_refused && !quorum {
            if let Some(v) = def.arguments.get("x-queue-version") {
                if v.as_int() != Some(2) {
                    let shown = match v {
                        FieldValue::Int(n) => n.to_string(),
                        other => other.amqp_type_name().to_string(),
                    };
                    return Err(AmqpError::precondition_failed(format!(
                        "invalid arg 'x-queue-version' for {rs}: \"unsupported queue version '{shown}'\""
                    ))
                    .about_arg("x-queue-version"));
                }
            }
        }
        Ok(())
    }

    /// A binding's key on a topic exchange (D26): at most `topic_hash_cap` words `#`.
    pub fn check_topic_binding(&self, routing_key: &str) -> Result<(), AmqpError> {
        let Some(cap) = self.topic_hash_cap else {
            return Ok(());
        };
        let hashes = routing_key.split('.').filter(|w| *w == "#").count();
        if hashes <= cap {
            return Ok(());
        }
        Err(AmqpError::precondition_failed(format!(
            "Topic binding key '{routing_key}' uses {hashes} '#' wildcards, at most {cap} are allowed"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::version::BrokerVersion::*;

    #[test]
    fn d26_hash_cap_last_without_4_2_first_with_4_3() {
        assert!(V4_2.profile().check_topic_binding("#.a.#.b.#").is_ok());
        let e = V4_3.profile().check_topic_binding("#.a.#.b.#").unwrap_err();
        assert_eq!(
            e.text,
            "PRECONDITION_FAILED - Topic binding key '#.a.#.b.#' uses 3 '#' wildcards, at most 2 are allowed"
        );
        assert!(V4_3.profile().check_topic_binding("#.#").is_ok());
        assert!(
            V4_3.profile().check_topic_binding("a#.#.#").is_ok(),
            "a# is a literal"
        );
    }

    #[test]
    fn d31_a_quorum_argument_on_a_classic_queue_is_not_for_its_type() {
        let mut arguments = crate::value::Table::new();
        arguments.insert("x-delayed-retry-min", crate::value::FieldValue::Int(1000));
        let def = QueueDef {
            name: "q".into(),
            durable: true,
            auto_delete: false,
            exclusive: false,
            arguments,
        };
        assert!(V4_2.profile().check_queue_declare(&def, false).is_ok());
        let e = V4_3.profile().check_queue_declare(&def, false).unwrap_err();
        assert_eq!(e.cause, Some(Cause::NotForQueueType));
        assert_eq!(
            e.subject,
            Some(Subject::Argument("x-delayed-retry-min".into()))
        );
        assert!(V4_3.profile().check_queue_declare(&def, true).is_ok());
    }
}
