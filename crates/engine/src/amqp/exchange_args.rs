//! `exchange.declare` (with the delayed-message plugin's `x-delayed-message` type), the
//! "inequivalent arg" check of a re-declaration, `exchange.delete` of reserved names, and
//! the 404 texts of missing exchanges and queues, as RabbitMQ 3.10 words them.
//!
//! Order of the checks (`rabbit_channel:handle_method/6` for `exchange.declare`):
//!
//! 1. the type must be registered (`rabbit_exchange:check_type/1`): otherwise a
//!    **connection** error 503 COMMAND_INVALID, whatever the name;
//! 2. the default exchange `""` cannot be declared (403);
//! 3. only for an exchange that does not exist yet (a re-declaration goes to
//!    [`equivalence_error`]; `amq.direct` and the other predeclared exchanges can be
//!    re-declared with their own properties): the `amq.` prefix is reserved (403), the
//!    `alternate-exchange` argument must be a string (406), then the type's `validate/1`:
//!    for `x-delayed-message`, the plugin's checks of `x-delayed-type`.
//!
//! Texts verified on RabbitMQ 3.10.8 (`tests/broker/probe_errors.out.txt`), except the
//! two 406 texts of the plugin (not packaged for Debian): those are the plugin's source
//! strings, as quoted in rabbitmq-semantics.md Part A 20 and in client logs of the plugin.

use super::erl;
use super::error::{AmqpError, Property, Subject};
use crate::value::{FieldValue, Table};

/// The routing types RabbitMQ registers (`rabbit_exchange_type_*`); `x-delayed-message`
/// wraps one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExchangeKind {
    Direct,
    Fanout,
    Topic,
    Headers,
}

impl ExchangeKind {
    pub fn parse(s: &str) -> Option<ExchangeKind> {
        match s {
            "direct" => Some(ExchangeKind::Direct),
            "fanout" => Some(ExchangeKind::Fanout),
            "topic" => Some(ExchangeKind::Topic),
            "headers" => Some(ExchangeKind::Headers),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ExchangeKind::Direct => "direct",
            ExchangeKind::Fanout => "fanout",
            ExchangeKind::Topic => "topic",
            ExchangeKind::Headers => "headers",
        }
    }
}

/// What a valid declaration configures.
#[derive(Clone, Debug, PartialEq)]
pub struct ExchangeConfig {
    /// The routing type: the declared type, or `x-delayed-type` when `delayed`.
    pub kind: ExchangeKind,
    /// Declared as `x-delayed-message` (wrapping `kind`).
    pub delayed: bool,
    pub alternate_exchange: Option<String>,
}

/// An exchange's declared properties, for [`equivalence_error`].
#[derive(Clone, Copy, Debug)]
pub struct ExchangeDeclaration<'a> {
    /// The type as declared: `direct`, ..., `x-delayed-message`.
    pub kind: &'a str,
    pub durable: bool,
    pub auto_delete: bool,
    pub internal: bool,
    pub args: &'a Table,
}

/// The type of a declared exchange, `x-delayed-message` included (the simulation has the
/// plugin enabled).
pub const DELAYED_TYPE: &str = "x-delayed-message";

fn rs(name: &str) -> String {
    format!("exchange '{name}' in vhost '/'")
}

/// `rabbit_exchange:check_type/1`: 503 COMMAND_INVALID, closing the connection.
///
/// An empty type is `invalid exchange type ''`, any other unregistered one `unknown
/// exchange type '<t>'`. (RabbitMQ also says `invalid` for any name that happens to be an
/// existing Erlang atom, e.g. `queue` — observed — which is not reproduced.)
pub fn check_type(kind: &str) -> Result<Option<ExchangeKind>, AmqpError> {
    match kind {
        DELAYED_TYPE => Ok(None),
        "" => Err(
            erl::fit(AmqpError::command_invalid("invalid exchange type ''"))
                .about(Subject::ExchangeType),
        ),
        _ => ExchangeKind::parse(kind).map(Some).ok_or_else(|| {
            erl::fit(AmqpError::command_invalid(format!(
                "unknown exchange type '{kind}'"
            )))
            .about(Subject::ExchangeType)
        }),
    }
}

/// The 403 for declaring a reserved name: the default exchange `""`, or a new `amq.*`
/// exchange (`rabbit_channel:check_not_default_exchange/1`, `check_name/2`).
pub fn reserved_name_error(name: &str) -> AmqpError {
    let e = if name.is_empty() {
        AmqpError::access_refused("operation not permitted on the default exchange")
    } else {
        erl::fit(AmqpError::access_refused(format!(
            "exchange name '{name}' contains reserved prefix 'amq.*'"
        )))
    };
    e.about(Subject::Name)
}

/// The 403 for `exchange.delete` of `""` or of any `amq.*` name, existing or not
/// (`rabbit_channel:check_exchange_deletion/1`); `None` if the name may be deleted.
pub fn delete_error(name: &str) -> Option<AmqpError> {
    if name.is_empty() {
        Some(reserved_name_error(name))
    } else if name.starts_with("amq.") {
        Some(
            erl::fit(AmqpError::access_refused(format!(
                "deletion of system {} not allowed",
                rs(name)
            )))
            .about(Subject::Name),
        )
    } else {
        None
    }
}

/// `NOT_FOUND - no exchange 'x' in vhost '/'` (publish, bind, passive declare).
pub fn exchange_not_found(name: &str) -> AmqpError {
    erl::fit(AmqpError::not_found(format!("no {}", rs(name))))
}

/// `NOT_FOUND - no queue 'q' in vhost '/'` (consume, get, bind, passive declare, purge).
pub fn queue_not_found(name: &str) -> AmqpError {
    erl::fit(AmqpError::not_found(format!(
        "no queue '{name}' in vhost '/'"
    )))
}

/// Validates the declaration of an exchange that does not exist yet.
pub fn validate_exchange(
    name: &str,
    kind: &str,
    args: &Table,
) -> Result<ExchangeConfig, AmqpError> {
    let routing = check_type(kind)?;
    if name.is_empty() || name.starts_with("amq.") {
        return Err(reserved_name_error(name));
    }
    let alternate_exchange = match args.get("alternate-exchange") {
        None => None,
        Some(FieldValue::Str(ae)) => Some(ae.to_string()),
        Some(v) => {
            return Err(erl::fit(AmqpError::precondition_failed(format!(
                "invalid type '{}' for arg 'alternate-exchange' in {}",
                v.amqp_type_name(),
                rs(name)
            )))
            .about_arg("alternate-exchange"))
        }
    };
    let (kind, delayed) = match routing {
        Some(k) => (k, false),
        None => (delayed_type(args)?, true),
    };
    Ok(ExchangeConfig {
        kind,
        delayed,
        alternate_exchange,
    })
}

/// `rabbit_exchange_type_delayed_message:validate/1` (plugin 3.10.x).
fn delayed_type(args: &Table) -> Result<ExchangeKind, AmqpError> {
    const KEY: &str = "x-delayed-type";
    let about = |e: AmqpError| e.about_arg(KEY);
    match args.get(KEY) {
        Some(FieldValue::Str(t)) if &**t == DELAYED_TYPE => {
            Err(about(AmqpError::precondition_failed(
                "Invalid argument, 'x-delayed-message' can't be used for 'x-delayed-type'",
            )))
        }
        Some(FieldValue::Str(t)) => Ok(check_type(t)
            .map_err(about)?
            .expect("x-delayed-message handled above")),
        _ => Err(about(AmqpError::precondition_failed(
            "Invalid argument, 'x-delayed-type' must be an existing exchange type",
        ))),
    }
}

/// The error of re-declaring an existing exchange with other properties, or `None` when
/// the declaration is equivalent (a no-op).
///
/// Order: the requested type must exist (503), `""` is refused (403), then type, durable,
/// auto_delete, internal, and the `alternate-exchange` argument (the only one compared;
/// the plugin delegates to the wrapped type, so a different `x-delayed-type` is not
/// detected — inferred from the plugin's source).
pub fn equivalence_error(
    name: &str,
    existing: &ExchangeDeclaration,
    requested: &ExchangeDeclaration,
) -> Option<AmqpError> {
    if let Err(e) = check_type(requested.kind) {
        return Some(e);
    }
    if name.is_empty() {
        return Some(reserved_name_error(name));
    }
    let resource = rs(name);
    let property = |p| move |e: AmqpError| e.about(Subject::Property(p));
    erl::atom_equivalence(&resource, "type", existing.kind, requested.kind)
        .map(|e| e.about(Subject::ExchangeType))
        .or_else(|| {
            erl::bool_equivalence(&resource, "durable", existing.durable, requested.durable)
                .map(property(Property::Durable))
        })
        .or_else(|| {
            erl::bool_equivalence(
                &resource,
                "auto_delete",
                existing.auto_delete,
                requested.auto_delete,
            )
            .map(property(Property::AutoDelete))
        })
        .or_else(|| {
            erl::bool_equivalence(&resource, "internal", existing.internal, requested.internal)
                .map(property(Property::Internal))
        })
        .or_else(|| {
            let key = "alternate-exchange";
            erl::arg_equivalence(
                &resource,
                key,
                existing.args.get(key),
                requested.args.get(key),
            )
        })
}

/// [`equivalence_error`] as a `Result`, the existing exchange's auto_delete and internal
/// taken equal to the requested ones.
pub fn equivalence(
    name: &str,
    existing_kind: &str,
    existing_durable: bool,
    existing_args: &Table,
    requested: &ExchangeDeclaration,
) -> Result<(), AmqpError> {
    let existing = ExchangeDeclaration {
        kind: existing_kind,
        durable: existing_durable,
        args: existing_args,
        ..*requested
    };
    equivalence_error(name, &existing, requested).map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::amqp::test_support::args;
    use crate::amqp::ErrorScope;

    fn delayed(t: Option<FieldValue>) -> Result<ExchangeConfig, AmqpError> {
        let a = match t {
            Some(v) => args(&[("x-delayed-type", v)]),
            None => Table::new(),
        };
        validate_exchange("dx", "x-delayed-message", &a)
    }

    #[test]
    fn builtin_types() {
        for (t, k) in [
            ("direct", ExchangeKind::Direct),
            ("fanout", ExchangeKind::Fanout),
            ("topic", ExchangeKind::Topic),
            ("headers", ExchangeKind::Headers),
        ] {
            let c = validate_exchange("x", t, &Table::new()).unwrap();
            assert_eq!(
                c,
                ExchangeConfig {
                    kind: k,
                    delayed: false,
                    alternate_exchange: None
                }
            );
        }
    }

    #[test]
    fn delayed_exchange_wraps_its_type() {
        let c = delayed(Some(FieldValue::str("topic"))).unwrap();
        assert_eq!((c.kind, c.delayed), (ExchangeKind::Topic, true));
    }

    #[test]
    fn delayed_exchange_without_x_delayed_type() {
        for t in [None, Some(FieldValue::Int(1)), Some(FieldValue::Bool(true))] {
            let e = delayed(t).unwrap_err();
            assert_eq!((e.code, e.scope), (406, ErrorScope::Channel));
            assert_eq!(e.text, "PRECONDITION_FAILED - Invalid argument, 'x-delayed-type' must be an existing exchange type");
        }
    }

    #[test]
    fn delayed_exchange_wrapping_itself() {
        let e = delayed(Some(FieldValue::str("x-delayed-message"))).unwrap_err();
        assert_eq!((e.code, e.scope), (406, ErrorScope::Channel));
        assert_eq!(e.text, "PRECONDITION_FAILED - Invalid argument, 'x-delayed-message' can't be used for 'x-delayed-type'");
    }

    #[test]
    fn delayed_exchange_wrapping_an_unknown_type() {
        let e = delayed(Some(FieldValue::str("bogus"))).unwrap_err();
        assert_eq!((e.code, e.scope), (503, ErrorScope::Connection));
        assert_eq!(e.text, "COMMAND_INVALID - unknown exchange type 'bogus'");
    }

    #[test]
    fn x_delayed_type_is_ignored_by_other_types() {
        assert!(validate_exchange(
            "x",
            "direct",
            &args(&[("x-delayed-type", FieldValue::str("bogus"))])
        )
        .is_ok());
    }

    #[test]
    fn unknown_type_closes_the_connection() {
        for (t, want) in [
            ("bogus", "COMMAND_INVALID - unknown exchange type 'bogus'"),
            ("Direct", "COMMAND_INVALID - unknown exchange type 'Direct'"),
            ("", "COMMAND_INVALID - invalid exchange type ''"),
        ] {
            let e = validate_exchange("x", t, &Table::new()).unwrap_err();
            assert_eq!(
                (e.code, e.text.as_str(), e.scope),
                (503, want, ErrorScope::Connection)
            );
        }
        // the type is checked before the name
        assert_eq!(
            validate_exchange("amq.foo", "bogus", &Table::new())
                .unwrap_err()
                .code,
            503
        );
    }

    #[test]
    fn reserved_names() {
        let e = validate_exchange("amq.foo", "direct", &Table::new()).unwrap_err();
        assert_eq!((e.code, e.scope), (403, ErrorScope::Channel));
        assert_eq!(
            e.text,
            "ACCESS_REFUSED - exchange name 'amq.foo' contains reserved prefix 'amq.*'"
        );
        let e = validate_exchange("", "direct", &Table::new()).unwrap_err();
        assert_eq!(
            e.text,
            "ACCESS_REFUSED - operation not permitted on the default exchange"
        );
    }

    #[test]
    fn deleting_reserved_names() {
        assert_eq!(
            delete_error("").unwrap().text,
            "ACCESS_REFUSED - operation not permitted on the default exchange"
        );
        assert_eq!(
            delete_error("amq.direct").unwrap().text,
            "ACCESS_REFUSED - deletion of system exchange 'amq.direct' in vhost '/' not allowed"
        );
        assert!(delete_error("x").is_none());
    }

    #[test]
    fn alternate_exchange() {
        let c = validate_exchange(
            "x",
            "direct",
            &args(&[("alternate-exchange", FieldValue::str("ae"))]),
        )
        .unwrap();
        assert_eq!(c.alternate_exchange.as_deref(), Some("ae"));
        let e = validate_exchange(
            "dl_probe_x_new",
            "direct",
            &args(&[("alternate-exchange", FieldValue::Int(1))]),
        )
        .unwrap_err();
        assert_eq!(e.text, "PRECONDITION_FAILED - invalid type 'signedint' for arg 'alternate-exchange' in exchange 'dl_probe_x_new' in vhost '/'");
    }

    #[test]
    fn not_found_texts() {
        let e = exchange_not_found("dl_probe_nope");
        assert_eq!(
            (e.code, e.text.as_str(), e.scope),
            (
                404,
                "NOT_FOUND - no exchange 'dl_probe_nope' in vhost '/'",
                ErrorScope::Channel
            )
        );
        assert_eq!(
            queue_not_found("dl_probe_nope").text,
            "NOT_FOUND - no queue 'dl_probe_nope' in vhost '/'"
        );
    }

    fn decl<'a>(kind: &'a str, durable: bool, a: &'a Table) -> ExchangeDeclaration<'a> {
        ExchangeDeclaration {
            kind,
            durable,
            auto_delete: false,
            internal: false,
            args: a,
        }
    }

    const I: &str = "PRECONDITION_FAILED - inequivalent arg";

    #[test]
    fn equivalence_of_type() {
        let none = Table::new();
        let e = equivalence_error(
            "dl_probe_x_direct",
            &decl("direct", true, &none),
            &decl("fanout", true, &none),
        )
        .unwrap();
        assert_eq!(e.text, format!("{I} 'type' for exchange 'dl_probe_x_direct' in vhost '/': received 'fanout' but current is 'direct'"));
        let e = equivalence_error(
            "amq.direct",
            &decl("direct", true, &none),
            &decl("headers", true, &none),
        )
        .unwrap();
        assert_eq!(e.text, format!("{I} 'type' for exchange 'amq.direct' in vhost '/': received 'headers' but current is 'direct'"));
        // Erlang quotes this atom (inferred: the plugin is not on the test broker)
        let e = equivalence_error(
            "x",
            &decl("direct", true, &none),
            &decl("x-delayed-message", true, &none),
        )
        .unwrap();
        assert_eq!(e.text, format!("{I} 'type' for exchange 'x' in vhost '/': received ''x-delayed-message'' but current is 'direct'"));
        assert!(equivalence_error(
            "amq.direct",
            &decl("direct", true, &none),
            &decl("direct", true, &none)
        )
        .is_none());
    }

    #[test]
    fn equivalence_of_flags() {
        let none = Table::new();
        let e = equivalence_error(
            "amq.direct",
            &decl("direct", true, &none),
            &decl("direct", false, &none),
        )
        .unwrap();
        assert_eq!(e.text, format!("{I} 'durable' for exchange 'amq.direct' in vhost '/': received 'false' but current is 'true'"));
        let ad = ExchangeDeclaration {
            auto_delete: true,
            ..decl("direct", true, &none)
        };
        let e = equivalence_error("dl_probe_x_direct", &decl("direct", true, &none), &ad).unwrap();
        assert_eq!(e.text, format!("{I} 'auto_delete' for exchange 'dl_probe_x_direct' in vhost '/': received 'true' but current is 'false'"));
        let internal = ExchangeDeclaration {
            internal: true,
            ..decl("direct", true, &none)
        };
        let e = equivalence_error("dl_probe_x_direct", &decl("direct", true, &none), &internal)
            .unwrap();
        assert_eq!(e.text, format!("{I} 'internal' for exchange 'dl_probe_x_direct' in vhost '/': received 'true' but current is 'false'"));
    }

    #[test]
    fn equivalence_of_alternate_exchange_only() {
        let none = Table::new();
        let a = args(&[("alternate-exchange", FieldValue::str("a"))]);
        let b = args(&[("alternate-exchange", FieldValue::str("b"))]);
        let e = |x: &Table, y: &Table| {
            equivalence_error(
                "dl_probe_x_ae",
                &decl("direct", false, x),
                &decl("direct", false, y),
            )
            .map(|e| e.text)
        };
        let p =
            format!("{I} 'alternate-exchange' for exchange 'dl_probe_x_ae' in vhost '/': received");
        assert_eq!(e(&a, &b).unwrap(), format!("{p} 'b' but current is 'a'"));
        assert_eq!(
            e(&a, &none).unwrap(),
            format!("{p} none but current is the value 'a' of type 'longstr'")
        );
        assert_eq!(
            e(&none, &a).unwrap(),
            format!("{p} the value 'a' of type 'longstr' but current is none")
        );
        assert_eq!(e(&none, &args(&[("x-foo", FieldValue::Int(1))])), None);
        let d1 = args(&[("x-delayed-type", FieldValue::str("direct"))]);
        let d2 = args(&[("x-delayed-type", FieldValue::str("fanout"))]);
        assert!(equivalence_error(
            "d",
            &decl("x-delayed-message", true, &d1),
            &decl("x-delayed-message", true, &d2)
        )
        .is_none());
    }

    #[test]
    fn equivalence_checks_the_requested_type_first() {
        let none = Table::new();
        let e = equivalence_error(
            "x",
            &decl("direct", true, &none),
            &decl("bogus", false, &none),
        )
        .unwrap();
        assert_eq!((e.code, e.scope), (503, ErrorScope::Connection));
    }

    #[test]
    fn equivalence_as_result() {
        let none = Table::new();
        let def = decl("fanout", true, &none);
        assert!(equivalence("x", "direct", true, &none, &def).is_err());
        assert!(equivalence("x", "fanout", true, &none, &def).is_ok());
    }
}
