//! `queue.declare`: validation of a new queue's properties and `x-` arguments, the
//! configuration they give, and the "inequivalent arg" check of a re-declaration, with
//! RabbitMQ 3.10's reply texts byte for byte.
//!
//! The order of the checks is the broker's (`rabbit_channel:handle_method/6` for
//! `queue.declare`, `rabbit_amqqueue:declare/7`, `rabbit_queue_type_util`):
//!
//! 1. the name: `amq.*` is reserved (403); an empty name asks for a server-named queue;
//! 2. only for a queue that does not exist yet (a re-declaration goes to
//!    [`equivalence_error`] instead and its arguments are **not** validated again):
//!    `x-dead-letter-exchange` must be a string (406 `invalid type ...`);
//! 3. `x-queue-type`, then every known argument of that queue type in the fixed order of
//!    `rabbit_amqqueue:declare_args/0` (406 `invalid arg ...`), then, in the order of the
//!    table, any argument that belongs to another queue type (406 `... of queue type`);
//! 4. quorum (and stream) queues: not auto-delete, not exclusive, durable (406).
//!
//! Unknown arguments (`x-foo`, or keys without `x-`) are accepted silently, as RabbitMQ
//! does; they are listed in [`QueueConfig::ignored`].
//!
//! Texts checked against a live RabbitMQ 3.10.8 (`tests/broker/probe_errors.py`, output in
//! `tests/broker/probe_errors.out.txt`); the tests below quote that output.

use super::error::{AmqpError, Cause, ErrorScope, Property, Subject};
use crate::value::{FieldValue, Table};

/// Longest `expiration` / `x-message-ttl` / `x-expires` RabbitMQ accepts: 10 years in ms
/// (`rabbit_misc:check_expiry/1`, since 3.10.2).
pub const MAX_EXPIRY_MS: u64 = 315_360_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueKind {
    Classic,
    Quorum,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overflow {
    DropHead,
    RejectPublish,
    /// Classic queues only; a quorum queue falls back to drop-head (see `notes`).
    RejectPublishDlx,
}

impl Overflow {
    /// The `x-overflow` value.
    pub fn as_str(self) -> &'static str {
        match self {
            Overflow::DropHead => "drop-head",
            Overflow::RejectPublish => "reject-publish",
            Overflow::RejectPublishDlx => "reject-publish-dlx",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadLetterStrategy {
    AtMostOnce,
    /// Quorum queues with a dead-letter exchange and overflow `reject-publish` only.
    AtLeastOnce,
}

/// What a valid declaration configures: the effective values, after RabbitMQ's fallbacks.
#[derive(Clone, Debug, PartialEq)]
pub struct QueueConfig {
    pub kind: QueueKind,
    /// Effective durability: `durable && !exclusive` (an exclusive queue is never durable).
    pub durable: bool,
    pub message_ttl_ms: Option<u64>,
    /// `Some("")` is the default exchange.
    pub dead_letter_exchange: Option<String>,
    pub dead_letter_routing_key: Option<String>,
    pub max_length: Option<u64>,
    pub max_length_bytes: Option<u64>,
    pub overflow: Overflow,
    pub expires_ms: Option<u64>,
    /// Quorum only. A message is dead-lettered (`delivery_limit`) when its return count
    /// exceeds this, so `0` or a negative value dead-letters at the first return.
    /// `Some(_)` also means returned messages go to the front of the queue (3.10).
    pub delivery_limit: Option<i64>,
    pub dead_letter_strategy: DeadLetterStrategy,
    /// Classic only (a quorum queue refuses `x-max-priority`).
    pub max_priority: Option<u8>,
    pub single_active_consumer: bool,
    /// Arguments RabbitMQ accepts without using them (unknown `x-` keys, keys without `x-`).
    pub ignored: Vec<String>,
    /// Warnings: fallbacks RabbitMQ applies (and logs), accepted arguments the simulation
    /// does not model.
    pub notes: Vec<String>,
}

/// A queue's declared properties, for [`equivalence_error`].
#[derive(Clone, Copy, Debug)]
pub struct QueueDeclaration<'a> {
    pub durable: bool,
    pub exclusive: bool,
    pub auto_delete: bool,
    pub args: &'a Table,
}

// The `queue_arguments` of each queue type's `capabilities/0` (3.10.8), in that order:
// the order of the equivalence checks.
const CLASSIC_ARGS: &[&str] = &[
    "x-expires",
    "x-message-ttl",
    "x-dead-letter-exchange",
    "x-dead-letter-routing-key",
    "x-max-length",
    "x-max-length-bytes",
    "x-max-priority",
    "x-overflow",
    "x-queue-mode",
    "x-queue-version",
    "x-single-active-consumer",
    "x-queue-type",
    "x-queue-master-locator",
];
const QUORUM_ARGS: &[&str] = &[
    "x-dead-letter-exchange",
    "x-dead-letter-routing-key",
    "x-dead-letter-strategy",
    "x-expires",
    "x-max-length",
    "x-max-length-bytes",
    "x-max-in-memory-length",
    "x-max-in-memory-bytes",
    "x-overflow",
    "x-single-active-consumer",
    "x-queue-type",
    "x-quorum-initial-group-size",
    "x-delivery-limit",
    "x-message-ttl",
    "x-queue-leader-locator",
];
const STREAM_ARGS: &[&str] = &[
    "x-max-length-bytes",
    "x-queue-type",
    "x-max-age",
    "x-stream-max-segment-size-bytes",
    "x-initial-cluster-size",
    "x-queue-leader-locator",
];

/// Accepted, valid, and without effect in the simulation.
const NOT_SIMULATED: &[&str] = &[
    "x-queue-mode",
    "x-queue-version",
    "x-queue-master-locator",
    "x-max-in-memory-length",
    "x-max-in-memory-bytes",
    "x-quorum-initial-group-size",
    "x-queue-leader-locator",
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Type {
    Classic,
    Quorum,
    Stream,
}

impl Type {
    fn args(self) -> &'static [&'static str] {
        match self {
            Type::Classic => CLASSIC_ARGS,
            Type::Quorum => QUORUM_ARGS,
            Type::Stream => STREAM_ARGS,
        }
    }

    fn module(self) -> &'static str {
        match self {
            Type::Classic => "rabbit_classic_queue",
            Type::Quorum => "rabbit_quorum_queue",
            Type::Stream => "rabbit_stream_queue",
        }
    }

    /// `rabbit_amqqueue:get_queue_type/1` on arguments that passed `check_queue_type`.
    fn of(args: &Table) -> Type {
        match args.get("x-queue-type").and_then(FieldValue::as_str) {
            Some("quorum") => Type::Quorum,
            Some("stream") => Type::Stream,
            _ => Type::Classic,
        }
    }
}

/// `queue 'q' in vhost '/'` (`rabbit_misc:rs/1`).
pub(super) fn rs(queue_name: &str) -> String {
    format!("queue '{queue_name}' in vhost '/'")
}

/// 403 for a name with the reserved `amq.` prefix (`rabbit_channel:check_name/2`). Applies
/// to every non-passive declaration, new or existing.
pub fn check_queue_name(queue_name: &str) -> Result<(), AmqpError> {
    if queue_name.starts_with("amq.") {
        return Err(erl::fit(AmqpError::access_refused(format!(
            "queue name '{queue_name}' contains reserved prefix 'amq.*'"
        )))
        .about(Subject::Name));
    }
    Ok(())
}

/// Validates the declaration of a queue that does not exist yet (not auto-delete; see
/// [`validate_queue_declare`]).
pub fn validate_queue_args(
    queue_name: &str,
    durable: bool,
    exclusive: bool,
    args: &Table,
) -> Result<QueueConfig, AmqpError> {
    validate_queue_declare(queue_name, durable, exclusive, false, args)
}

/// Validates the declaration of a queue that does not exist yet, in the broker's order,
/// and returns what it configures.
///
/// `queue_name` is the name as declared. An empty name asks for a server-named queue:
/// refused for quorum queues (406) and streams, and an unknown `x-queue-type` then
/// crashes the channel (541, connection closed, observed); for a classic queue the broker
/// names it `amq.gen-...`, and the texts of later errors here show the empty name instead.
///
/// **delaylab limitation:** stream queues (`x-queue-type: stream`) are not simulated. A
/// stream declaration that RabbitMQ would refuse gets RabbitMQ's error; one it would
/// accept gets a 406 whose text starts with `PRECONDITION_FAILED - delaylab limitation:`.
pub fn validate_queue_declare(
    queue_name: &str,
    durable: bool,
    exclusive: bool,
    auto_delete: bool,
    args: &Table,
) -> Result<QueueConfig, AmqpError> {
    if queue_name.is_empty() {
        check_server_named(args)?;
    } else {
        check_queue_name(queue_name)?;
    }
    // rabbit_channel, for a queue that does not exist: rabbit_misc:r_arg/4 on the DLX.
    if let Some(v) = args.get("x-dead-letter-exchange") {
        if v.as_str().is_none() {
            return Err(erl::fit(AmqpError::precondition_failed(format!(
                "invalid type '{}' for arg 'x-dead-letter-exchange' in {}",
                v.amqp_type_name(),
                rs(queue_name)
            )))
            .about_arg("x-dead-letter-exchange"));
        }
    }
    // rabbit_amqqueue:check_declare_arguments/2
    check_arg(queue_name, args, "x-queue-type")?;
    let ty = Type::of(args);
    for &(key, _) in DECLARE_ARGS {
        if ty.args().contains(&key) {
            check_arg(queue_name, args, key)?;
        }
    }
    for (key, _) in args.iter() {
        if is_known_arg(key) && !ty.args().contains(&key) {
            return Err(erl::fit(AmqpError::precondition_failed(format!(
                "invalid arg '{key}' for {} of queue type {}",
                rs(queue_name),
                ty.module()
            )))
            .about_arg(key)
            .because(Cause::NotForQueueType));
        }
    }
    // rabbit_quorum_queue:declare/2, rabbit_stream_queue:declare/2
    let durable = durable && !exclusive;
    if ty != Type::Classic {
        let property = if auto_delete {
            Some(("auto-delete", Property::AutoDelete))
        } else if exclusive {
            Some(("exclusive-owner", Property::Exclusive))
        } else if !durable {
            Some(("non-durable", Property::Durable))
        } else {
            None
        };
        if let Some((p, about)) = property {
            return Err(erl::fit(AmqpError::precondition_failed(format!(
                "invalid property '{p}' for {}",
                rs(queue_name)
            )))
            .about(Subject::Property(about)));
        }
    }
    if ty == Type::Stream {
        if let Some(FieldValue::Int(n)) = args.get("x-stream-max-segment-size-bytes") {
            if *n > 3_000_000_000 {
                return Err(AmqpError::precondition_failed(
                    "Exceeded max value for x-stream-max-segment-size-bytes",
                )
                .about_arg("x-stream-max-segment-size-bytes"));
            }
        }
        return Err(erl::fit(AmqpError::precondition_failed(format!(
            "delaylab limitation: stream queues (x-queue-type 'stream') are not simulated; {} was not declared",
            rs(queue_name)
        )))
        .about_arg("x-queue-type"));
    }
    Ok(config(queue_name, ty, durable, args))
}

/// The broker's checks passed: read the values and apply its fallbacks.
fn config(queue_name: &str, ty: Type, durable: bool, args: &Table) -> QueueConfig {
    let int = |k: &str| args.get(k).and_then(FieldValue::as_int);
    let non_neg = |k: &str| int(k).map(|n| n as u64); // checked: 0 <= n
    let string = |k: &str| args.get(k).and_then(FieldValue::as_str).map(str::to_owned);
    let quorum = ty == Type::Quorum;
    let mut notes = Vec::new();

    let mut overflow = match args.get("x-overflow").and_then(FieldValue::as_str) {
        Some("reject-publish") => Overflow::RejectPublish,
        Some("reject-publish-dlx") => Overflow::RejectPublishDlx,
        _ => Overflow::DropHead,
    };
    if quorum && overflow == Overflow::RejectPublishDlx {
        // rabbit_quorum_queue:overflow/3 (the warning it logs)
        notes.push(format!(
            "Invalid overflow strategy <<\"reject-publish-dlx\">> for quorum queue: {}: drop-head is used",
            rs(queue_name)
        ));
        overflow = Overflow::DropHead;
    }

    let dead_letter_exchange = string("x-dead-letter-exchange");
    let mut dead_letter_strategy = DeadLetterStrategy::AtMostOnce;
    if let Some(strategy) = args
        .get("x-dead-letter-strategy")
        .and_then(FieldValue::as_str)
    {
        // rabbit_quorum_queue:dlh/5 (the warnings it logs)
        if dead_letter_exchange.is_none() {
            notes.push(format!(
                "Disabling dead-lettering for {} despite configured dead-letter-strategy '{strategy}' because dead-letter-exchange is not configured.",
                rs(queue_name)
            ));
        } else if strategy == "at-least-once" {
            if overflow == Overflow::RejectPublish {
                dead_letter_strategy = DeadLetterStrategy::AtLeastOnce;
            } else {
                notes.push(format!(
                    "Falling back to dead-letter-strategy at-most-once for {} because configured dead-letter-strategy at-least-once is incompatible with effective overflow strategy drop-head. To enable dead-letter-strategy at-least-once, set overflow strategy to reject-publish.",
                    rs(queue_name)
                ));
            }
        }
    }

    // 3.10 does not validate x-delivery-limit: rabbit_fifo compares the return count with
    // whatever it is (`Count > Limit`, Erlang term order).
    let delivery_limit = match args.get("x-delivery-limit") {
        None | Some(FieldValue::Void) => None,
        Some(FieldValue::Int(n)) => Some(*n),
        Some(FieldValue::Float(f)) => Some(f.floor() as i64), // Count > f <=> Count > floor(f)
        Some(other) => {
            notes.push(format!(
                "x-delivery-limit of type {} is accepted but never reached (a number is always below it in Erlang term order); returned messages still go to the front of the queue",
                other.amqp_type_name()
            ));
            Some(i64::MAX)
        }
    };

    let mut ignored = Vec::new();
    for (key, _) in args.iter() {
        if !ty.args().contains(&key) {
            ignored.push(key.to_owned());
        } else if NOT_SIMULATED.contains(&key) {
            notes.push(format!(
                "{key} is accepted but has no effect in the simulation"
            ));
        }
    }

    QueueConfig {
        kind: if quorum {
            QueueKind::Quorum
        } else {
            QueueKind::Classic
        },
        durable,
        message_ttl_ms: non_neg("x-message-ttl"),
        dead_letter_exchange,
        dead_letter_routing_key: string("x-dead-letter-routing-key"),
        max_length: non_neg("x-max-length"),
        max_length_bytes: non_neg("x-max-length-bytes"),
        overflow,
        expires_ms: non_neg("x-expires"),
        delivery_limit: if quorum { delivery_limit } else { None },
        dead_letter_strategy,
        max_priority: int("x-max-priority").map(|n| n as u8), // checked: 0..=255
        single_active_consumer: matches!(
            args.get("x-single-active-consumer"),
            Some(FieldValue::Bool(true))
        ),
        ignored,
        notes,
    }
}

/// `rabbit_amqqueue:is_server_named_allowed/1` on a declaration with an empty name.
fn check_server_named(args: &Table) -> Result<(), AmqpError> {
    match args.get("x-queue-type") {
        None => Ok(()),
        Some(FieldValue::Str(t)) => match &**t {
            "classic" => Ok(()),
            "quorum" | "stream" => Err(AmqpError::precondition_failed(format!(
                "Cannot declare a server-named queue for type rabbit_{t}_queue"
            ))
            .about(Subject::Name)),
            // rabbit_queue_type:discover/1 has no clause for it: the channel crashes.
            _ => Err(internal_error()),
        },
        Some(_) => Err(internal_error()),
    }
}

/// A crash of the channel process: the reader closes the connection with 541 and the bare
/// reply text (`rabbit_binary_generator:lookup_amqp_exception/2` for a non-AMQP reason).
pub(crate) fn internal_error() -> AmqpError {
    AmqpError {
        code: 541,
        text: "INTERNAL_ERROR".to_owned(),
        scope: ErrorScope::Connection,
        subject: None,
        cause: None,
    }
}

fn is_known_arg(key: &str) -> bool {
    CLASSIC_ARGS.contains(&key) || QUORUM_ARGS.contains(&key) || STREAM_ARGS.contains(&key)
}

use super::declare_args::{check_arg, DECLARE_ARGS};

// ---------------------------------------------------------------------------------------
// Re-declaration

/// The error of re-declaring an existing queue with other properties, or `None` when the
/// declaration is equivalent (a no-op). Arguments are **not** validated again.
///
/// Order (`rabbit_amqqueue:assert_equivalence/5`): the reserved name (403), exclusivity
/// (405 RESOURCE_LOCKED), durable, auto_delete, then the arguments the existing queue's
/// type knows, in that type's order; other keys are ignored. Values compare as RabbitMQ
/// compares them: any integer type equals another (`long` 1000 = `signedint` 1000), an
/// integer never equals a double, and `x-queue-type: classic` equals no `x-queue-type`.
///
/// The simulation has one client connection, so an exclusive queue belongs to it: re-
/// declaring it exclusive is fine; a mismatch in `exclusive` either way is the 405.
pub fn equivalence_error(
    queue_name: &str,
    existing: &QueueDeclaration,
    requested: &QueueDeclaration,
) -> Option<AmqpError> {
    if let Err(e) = check_queue_name(queue_name) {
        return Some(e);
    }
    if existing.exclusive != requested.exclusive {
        return Some(erl::fit(AmqpError {
            code: 405,
            text: format!(
                "RESOURCE_LOCKED - cannot obtain exclusive access to locked {}. It could be originally declared on another connection or the exclusive property value does not match that of the original declaration.",
                rs(queue_name)
            ),
            scope: ErrorScope::Channel,
            subject: Some(Subject::Property(Property::Exclusive)),
            cause: None,
        }));
    }
    let resource = rs(queue_name);
    let durable = |d: &QueueDeclaration| d.durable && !d.exclusive;
    if let Some(e) =
        erl::bool_equivalence(&resource, "durable", durable(existing), durable(requested))
    {
        return Some(e.about(Subject::Property(Property::Durable)));
    }
    if let Some(e) = erl::bool_equivalence(
        &resource,
        "auto_delete",
        existing.auto_delete,
        requested.auto_delete,
    ) {
        return Some(e.about(Subject::Property(Property::AutoDelete)));
    }
    for &key in Type::of(existing.args).args() {
        if let Some(e) = erl::arg_equivalence(
            &resource,
            key,
            existing.args.get(key),
            requested.args.get(key),
        ) {
            return Some(e);
        }
    }
    None
}

/// [`equivalence_error`] as a `Result`, for positional arguments (auto_delete equal).
pub fn equivalence(
    queue_name: &str,
    old_durable: bool,
    old_exclusive: bool,
    old_args: &Table,
    new_durable: bool,
    new_exclusive: bool,
    new_args: &Table,
) -> Result<(), AmqpError> {
    let old = QueueDeclaration {
        durable: old_durable,
        exclusive: old_exclusive,
        auto_delete: false,
        args: old_args,
    };
    let new = QueueDeclaration {
        durable: new_durable,
        exclusive: new_exclusive,
        auto_delete: false,
        args: new_args,
    };
    equivalence_error(queue_name, &old, &new).map_or(Ok(()), Err)
}

use super::erl;

/// The live broker's answers, as recorded by `tests/broker/probe_errors.py`.
#[cfg(test)]
pub(crate) mod recorded {
    use crate::amqp::test_support::unescape;
    const OUT: &str = include_str!("../../../../tests/broker/probe_errors.out.txt");

    /// `(case, None)` for `ok`, `(case, Some((code, scope, text)))` for an error, in file order.
    pub fn all() -> impl Iterator<Item = (&'static str, Option<(u16, &'static str, String)>)> {
        OUT.lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|line| {
                let mut parts = line.splitn(3, " | ");
                let (case, outcome) = (parts.next()?, parts.next()?);
                if outcome == "ok" {
                    return Some((case, None));
                }
                let (code, scope) = outcome.split_once(' ')?;
                Some((
                    case,
                    Some((code.parse().ok()?, scope, unescape(parts.next()?))),
                ))
            })
    }

    /// The recorded answer to one case; panics if the case is not in the file.
    pub fn get(case: &str) -> Option<(u16, &'static str, String)> {
        all()
            .find(|(c, _)| *c == case)
            .unwrap_or_else(|| panic!("case {case:?} not recorded"))
            .1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::amqp::test_support::args;
    use std::rc::Rc;

    fn s(v: &str) -> FieldValue {
        FieldValue::str(v)
    }

    fn int(n: i64) -> FieldValue {
        FieldValue::Int(n)
    }

    fn err(pairs: &[(&str, FieldValue)]) -> String {
        validate_queue_args("dl_probe_new", true, false, &args(pairs))
            .unwrap_err()
            .text
    }

    fn quorum_err(
        durable: bool,
        exclusive: bool,
        auto_delete: bool,
        pairs: &[(&str, FieldValue)],
    ) -> String {
        let mut a = args(&[("x-queue-type", s("quorum"))]);
        for (k, v) in pairs {
            a.insert(k, v.clone());
        }
        validate_queue_declare("dl_probe_new", durable, exclusive, auto_delete, &a)
            .unwrap_err()
            .text
    }

    const P: &str = "PRECONDITION_FAILED - invalid arg";

    #[test]
    fn plain_classic_queue_has_defaults() {
        let c = validate_queue_args("q", true, false, &Table::new()).unwrap();
        assert_eq!(c.kind, QueueKind::Classic);
        assert!(c.durable);
        assert_eq!(
            (
                c.message_ttl_ms,
                c.expires_ms,
                c.max_length,
                c.max_length_bytes
            ),
            (None, None, None, None)
        );
        assert_eq!(c.overflow, Overflow::DropHead);
        assert_eq!(c.dead_letter_strategy, DeadLetterStrategy::AtMostOnce);
        assert!(c.ignored.is_empty() && c.notes.is_empty());
    }

    #[test]
    fn values_are_read_into_the_config() {
        let a = args(&[
            ("x-message-ttl", int(60000)),
            ("x-dead-letter-exchange", s("")),
            ("x-dead-letter-routing-key", s("dead")),
            ("x-max-length", int(2)),
            ("x-max-length-bytes", int(0)),
            ("x-overflow", s("reject-publish-dlx")),
            ("x-expires", int(1000)),
            ("x-max-priority", int(10)),
            ("x-single-active-consumer", FieldValue::Bool(true)),
        ]);
        let c = validate_queue_args("q", true, false, &a).unwrap();
        assert_eq!(c.message_ttl_ms, Some(60000));
        assert_eq!(c.dead_letter_exchange.as_deref(), Some(""));
        assert_eq!(c.dead_letter_routing_key.as_deref(), Some("dead"));
        assert_eq!((c.max_length, c.max_length_bytes), (Some(2), Some(0)));
        assert_eq!(c.overflow, Overflow::RejectPublishDlx);
        assert_eq!(c.expires_ms, Some(1000));
        assert_eq!(c.max_priority, Some(10));
        assert!(c.single_active_consumer);
    }

    #[test]
    fn exclusive_queue_is_not_durable() {
        assert!(
            !validate_queue_args("q", true, true, &Table::new())
                .unwrap()
                .durable
        );
    }

    #[test]
    fn negative_ttl() {
        assert_eq!(
            err(&[("x-message-ttl", int(-1))]),
            format!(
                "{P} 'x-message-ttl' for queue 'dl_probe_new' in vhost '/': {{value_negative,-1}}"
            )
        );
    }

    #[test]
    fn string_float_bool_void_array_ttl() {
        for (v, t) in [
            (s("60000"), "longstr"),
            (FieldValue::Float(1.5), "double"),
            (FieldValue::Bool(true), "bool"),
            (FieldValue::Void, "void"),
            (FieldValue::Array(Rc::from(vec![int(1)])), "array"),
        ] {
            assert_eq!(
                err(&[("x-message-ttl", v)]),
                format!("{P} 'x-message-ttl' for queue 'dl_probe_new' in vhost '/': \"expected integer, got {t}\"")
            );
        }
    }

    #[test]
    fn ttl_over_ten_years() {
        assert!(validate_queue_args(
            "q",
            true,
            false,
            &args(&[("x-message-ttl", int(315360000000))])
        )
        .is_ok());
        assert_eq!(
            err(&[("x-message-ttl", int(315360000001))]),
            format!("{P} 'x-message-ttl' for queue 'dl_probe_new' in vhost '/': {{value_too_large,315360000001}}")
        );
    }

    #[test]
    fn expires_zero_negative_string() {
        let pre = format!("{P} 'x-expires' for queue 'dl_probe_new' in vhost '/': ");
        assert_eq!(
            err(&[("x-expires", int(0))]),
            format!("{pre}{{value_zero,0}}")
        );
        assert_eq!(
            err(&[("x-expires", int(-1))]),
            format!("{pre}{{value_negative,-1}}")
        );
        assert_eq!(
            err(&[("x-expires", s("1000"))]),
            format!("{pre}\"expected integer, got longstr\"")
        );
        assert_eq!(
            err(&[("x-expires", int(315360000001))]),
            format!("{pre}{{value_too_large,315360000001}}")
        );
    }

    #[test]
    fn max_length_and_bytes() {
        let pre = format!("{P} 'x-max-length' for queue 'dl_probe_new' in vhost '/': ");
        assert_eq!(
            err(&[("x-max-length", int(-1))]),
            format!("{pre}{{value_negative,-1}}")
        );
        assert_eq!(
            err(&[("x-max-length", s("10"))]),
            format!("{pre}\"expected integer, got longstr\"")
        );
        let pre = format!("{P} 'x-max-length-bytes' for queue 'dl_probe_new' in vhost '/': ");
        assert_eq!(
            err(&[("x-max-length-bytes", int(-1))]),
            format!("{pre}{{value_negative,-1}}")
        );
        assert_eq!(
            err(&[("x-max-length-bytes", FieldValue::Float(1.5))]),
            format!("{pre}\"expected integer, got double\"")
        );
    }

    #[test]
    fn overflow_bogus_and_not_a_string() {
        let pre = format!("{P} 'x-overflow' for queue 'dl_probe_new' in vhost '/': ");
        assert_eq!(
            err(&[("x-overflow", s("bogus"))]),
            format!("{pre}invalid_overflow")
        );
        assert_eq!(
            err(&[("x-overflow", int(1))]),
            format!("{pre}{{unacceptable_type,signedint}}")
        );
    }

    #[test]
    fn routing_key_without_dlx() {
        assert_eq!(
            err(&[("x-dead-letter-routing-key", s("rk"))]),
            format!("{P} 'x-dead-letter-routing-key' for queue 'dl_probe_new' in vhost '/': routing_key_but_no_dlx_defined")
        );
        assert_eq!(
            err(&[("x-dead-letter-exchange", s("dlx")), ("x-dead-letter-routing-key", int(1))]),
            format!("{P} 'x-dead-letter-routing-key' for queue 'dl_probe_new' in vhost '/': {{unacceptable_type,signedint}}")
        );
    }

    #[test]
    fn dlx_not_a_string_is_checked_first() {
        let want = "PRECONDITION_FAILED - invalid type 'signedint' for arg 'x-dead-letter-exchange' in queue 'dl_probe_new' in vhost '/'";
        assert_eq!(
            err(&[
                ("x-message-ttl", int(-1)),
                ("x-dead-letter-exchange", int(1))
            ]),
            want
        );
        assert_eq!(
            err(&[("x-dead-letter-exchange", FieldValue::Bool(true))]),
            "PRECONDITION_FAILED - invalid type 'bool' for arg 'x-dead-letter-exchange' in queue 'dl_probe_new' in vhost '/'"
        );
    }

    #[test]
    fn arguments_are_checked_in_declare_args_order() {
        let e = err(&[("x-max-length", int(-1)), ("x-message-ttl", int(-1))]);
        assert_eq!(
            e,
            format!(
                "{P} 'x-message-ttl' for queue 'dl_probe_new' in vhost '/': {{value_negative,-1}}"
            )
        );
        // type-value checks come before the "other queue type" check
        let e = err(&[("x-delivery-limit", int(5)), ("x-message-ttl", int(-1))]);
        assert_eq!(
            e,
            format!(
                "{P} 'x-message-ttl' for queue 'dl_probe_new' in vhost '/': {{value_negative,-1}}"
            )
        );
    }

    #[test]
    fn unknown_queue_type() {
        let pre = format!("{P} 'x-queue-type' for queue 'dl_probe_new' in vhost '/': ");
        assert_eq!(
            err(&[("x-queue-type", s("bogus"))]),
            format!("{pre}\"unsupported queue type 'bogus'\"")
        );
        assert_eq!(
            err(&[("x-queue-type", int(1))]),
            format!("{pre}{{unacceptable_type,signedint}}")
        );
        assert_eq!(
            err(&[("x-queue-type", s("bo\u{1}gus"))]),
            format!("{pre}[117,110,115,117,112,112,111,114,116,101,100,32,113,117,101,117,101,32,116,121,112,101,32,39,98,111,1,103,117,115,39]")
        );
    }

    #[test]
    fn max_priority() {
        let pre = format!("{P} 'x-max-priority' for queue 'dl_probe_new' in vhost '/': ");
        assert_eq!(
            err(&[("x-max-priority", int(-1))]),
            format!("{pre}{{value_negative,-1}}")
        );
        assert_eq!(
            err(&[("x-max-priority", int(256))]),
            format!("{pre}{{max_value_exceeded,256}}")
        );
        assert_eq!(
            err(&[("x-max-priority", s("5"))]),
            format!("{pre}\"expected integer, got longstr\"")
        );
        assert_eq!(
            quorum_err(true, false, false, &[("x-max-priority", int(10))]),
            format!("{P} 'x-max-priority' for queue 'dl_probe_new' in vhost '/' of queue type rabbit_quorum_queue")
        );
    }

    #[test]
    fn other_classic_validators() {
        assert_eq!(
            err(&[("x-single-active-consumer", s("yes"))]),
            format!("{P} 'x-single-active-consumer' for queue 'dl_probe_new' in vhost '/': {{unacceptable_type,longstr}}")
        );
        assert_eq!(
            err(&[("x-queue-mode", s("bogus"))]),
            format!("{P} 'x-queue-mode' for queue 'dl_probe_new' in vhost '/': \"unsupported queue mode 'bogus'\"")
        );
        assert_eq!(
            err(&[("x-queue-version", int(3))]),
            format!("{P} 'x-queue-version' for queue 'dl_probe_new' in vhost '/': \"unsupported queue version '3'\"")
        );
    }

    #[test]
    fn quorum_only_arguments_on_a_classic_queue() {
        for key in ["x-delivery-limit", "x-dead-letter-strategy", "x-max-age"] {
            let v = if key == "x-delivery-limit" {
                int(5)
            } else {
                s("at-least-once")
            };
            assert_eq!(
                err(&[(key, v)]),
                format!("{P} '{key}' for queue 'dl_probe_new' in vhost '/' of queue type rabbit_classic_queue")
            );
        }
    }

    #[test]
    fn unknown_arguments_are_ignored() {
        let c = validate_queue_args(
            "q",
            true,
            false,
            &args(&[("x-foo", s("bar")), ("foo", int(1))]),
        )
        .unwrap();
        assert_eq!(c.ignored, ["x-foo", "foo"]);
    }

    #[test]
    fn quorum_queue_must_be_durable_not_exclusive_not_auto_delete() {
        let t = |p: &str| {
            format!("PRECONDITION_FAILED - invalid property '{p}' for queue 'dl_probe_new' in vhost '/'")
        };
        assert_eq!(quorum_err(false, false, false, &[]), t("non-durable"));
        assert_eq!(quorum_err(true, true, false, &[]), t("exclusive-owner"));
        assert_eq!(quorum_err(true, false, true, &[]), t("auto-delete"));
        assert_eq!(quorum_err(true, true, true, &[]), t("auto-delete"));
        // argument errors come first
        assert_eq!(
            quorum_err(false, false, false, &[("x-max-priority", int(10))]),
            format!("{P} 'x-max-priority' for queue 'dl_probe_new' in vhost '/' of queue type rabbit_quorum_queue")
        );
    }

    #[test]
    fn quorum_delivery_limit_is_not_validated() {
        let q = |v: FieldValue| {
            validate_queue_args(
                "q",
                true,
                false,
                &args(&[("x-queue-type", s("quorum")), ("x-delivery-limit", v)]),
            )
            .unwrap()
        };
        assert_eq!(q(int(5)).kind, QueueKind::Quorum);
        assert_eq!(q(int(5)).delivery_limit, Some(5));
        assert_eq!(q(int(-1)).delivery_limit, Some(-1));
        assert_eq!(q(FieldValue::Float(1.5)).delivery_limit, Some(1));
        let c = q(s("abc"));
        assert_eq!(c.delivery_limit, Some(i64::MAX));
        assert_eq!(c.notes.len(), 1);
    }

    #[test]
    fn dead_letter_strategy_invalid() {
        let pre = format!("{P} 'x-dead-letter-strategy' for queue 'dl_probe_new' in vhost '/': ");
        assert_eq!(
            quorum_err(
                true,
                false,
                false,
                &[("x-dead-letter-strategy", s("bogus"))]
            ),
            format!("{pre}invalid_dlx_strategy")
        );
        assert_eq!(
            quorum_err(true, false, false, &[("x-dead-letter-strategy", int(1))]),
            format!("{pre}{{unacceptable_type,signedint}}")
        );
    }

    #[test]
    fn at_least_once_needs_reject_publish_and_a_dlx() {
        let q = |pairs: &[(&str, FieldValue)]| {
            let mut a = args(&[
                ("x-queue-type", s("quorum")),
                ("x-dead-letter-strategy", s("at-least-once")),
            ]);
            for (k, v) in pairs {
                a.insert(k, v.clone());
            }
            validate_queue_args("q", true, false, &a).unwrap()
        };
        let c = q(&[
            ("x-dead-letter-exchange", s("dlx")),
            ("x-overflow", s("reject-publish")),
        ]);
        assert_eq!(c.dead_letter_strategy, DeadLetterStrategy::AtLeastOnce);
        assert!(c.notes.is_empty());
        let c = q(&[("x-dead-letter-exchange", s("dlx"))]);
        assert_eq!(c.dead_letter_strategy, DeadLetterStrategy::AtMostOnce);
        assert!(c.notes[0]
            .starts_with("Falling back to dead-letter-strategy at-most-once for queue 'q'"));
        let c = q(&[("x-overflow", s("reject-publish"))]);
        assert_eq!(c.dead_letter_strategy, DeadLetterStrategy::AtMostOnce);
        assert!(c.notes[0].starts_with("Disabling dead-lettering for queue 'q'"));
    }

    #[test]
    fn quorum_reject_publish_dlx_falls_back_to_drop_head() {
        let a = args(&[
            ("x-queue-type", s("quorum")),
            ("x-overflow", s("reject-publish-dlx")),
        ]);
        let c = validate_queue_args("q", true, false, &a).unwrap();
        assert_eq!(c.overflow, Overflow::DropHead);
        assert!(c.notes[0]
            .starts_with("Invalid overflow strategy <<\"reject-publish-dlx\">> for quorum queue"));
    }

    #[test]
    fn streams_are_a_delaylab_limitation() {
        let stream = |durable: bool, pairs: &[(&str, FieldValue)]| {
            let mut a = args(&[("x-queue-type", s("stream"))]);
            for (k, v) in pairs {
                a.insert(k, v.clone());
            }
            validate_queue_declare("dl_probe_new", durable, false, false, &a).unwrap_err()
        };
        // RabbitMQ's own refusals first
        assert_eq!(
            stream(true, &[("x-message-ttl", int(1000))]).text,
            format!("{P} 'x-message-ttl' for queue 'dl_probe_new' in vhost '/' of queue type rabbit_stream_queue")
        );
        assert_eq!(stream(false, &[]).text, "PRECONDITION_FAILED - invalid property 'non-durable' for queue 'dl_probe_new' in vhost '/'");
        let e = stream(true, &[("x-max-age", s("1D"))]);
        assert_eq!(e.code, 406);
        assert!(e
            .text
            .starts_with("PRECONDITION_FAILED - delaylab limitation: stream queues"));
    }

    #[test]
    fn reserved_queue_name() {
        let e = validate_queue_args("amq.foo", true, false, &Table::new()).unwrap_err();
        assert_eq!((e.code, e.scope), (403, ErrorScope::Channel));
        assert_eq!(
            e.text,
            "ACCESS_REFUSED - queue name 'amq.foo' contains reserved prefix 'amq.*'"
        );
    }

    #[test]
    fn server_named_queues() {
        assert!(validate_queue_args("", false, true, &Table::new()).is_ok());
        let e = validate_queue_args("", true, false, &args(&[("x-queue-type", s("quorum"))]))
            .unwrap_err();
        assert_eq!(e.text, "PRECONDITION_FAILED - Cannot declare a server-named queue for type rabbit_quorum_queue");
        let e = validate_queue_args("", true, false, &args(&[("x-queue-type", s("bogus"))]))
            .unwrap_err();
        assert_eq!(
            (e.code, e.text.as_str(), e.scope),
            (541, "INTERNAL_ERROR", ErrorScope::Connection)
        );
    }

    #[test]
    fn long_texts_wrap_at_255_columns_and_are_cut_at_255_bytes() {
        let name = "n".repeat(200);
        let e = validate_queue_args(
            &name,
            true,
            false,
            &args(&[("x-message-ttl", int(9223372036854775807))]),
        )
        .unwrap_err();
        let want =
            recorded::get("classic long name + x-message-ttl long 9223372036854775807").unwrap();
        assert_eq!(e.text, want.2);
        assert_eq!(e.text.len(), 255);
        let e = validate_queue_args(&name, true, false, &args(&[("x-message-ttl", s("60000"))]))
            .unwrap_err();
        assert_eq!(
            e.text,
            recorded::get("classic long name + x-message-ttl '60000'")
                .unwrap()
                .2
        );
        // a reason that does not fit in the 255 columns of ~255p goes on the next line
        let t = erl::tagged(
            "value_too_large",
            &erl::Term::Leaf("9223372036854775807".into()),
            240,
            255,
        );
        assert_eq!(
            t,
            format!(
                "{{value_too_large,\n{}9223372036854775807}}",
                " ".repeat(241)
            )
        );
        let e = validate_queue_args(
            "q",
            true,
            false,
            &args(&[("x-message-ttl", int(9223372036854775807))]),
        )
        .unwrap_err();
        assert_eq!(e.text, format!("{P} 'x-message-ttl' for queue 'q' in vhost '/': {{value_too_large,9223372036854775807}}"));
    }

    fn decl(durable: bool, exclusive: bool, a: &Table) -> QueueDeclaration<'_> {
        QueueDeclaration {
            durable,
            exclusive,
            auto_delete: false,
            args: a,
        }
    }

    fn equiv(old: &Table, new: &Table) -> Option<String> {
        equivalence_error(
            "dl_probe_plain",
            &decl(true, false, old),
            &decl(true, false, new),
        )
        .map(|e| e.text)
    }

    const I: &str = "PRECONDITION_FAILED - inequivalent arg";

    #[test]
    fn equivalence_argument_added_or_removed() {
        let none = Table::new();
        assert_eq!(
            equiv(&none, &args(&[("x-message-ttl", int(1000))])).unwrap(),
            format!("{I} 'x-message-ttl' for queue 'dl_probe_plain' in vhost '/': received the value '1000' of type 'signedint' but current is none")
        );
        assert_eq!(
            equiv(&none, &args(&[("x-message-ttl", int(5_000_000_000))])).unwrap(),
            format!("{I} 'x-message-ttl' for queue 'dl_probe_plain' in vhost '/': received the value '5000000000' of type 'long' but current is none")
        );
        assert_eq!(
            equiv(&none, &args(&[("x-dead-letter-exchange", s("dlx"))])).unwrap(),
            format!("{I} 'x-dead-letter-exchange' for queue 'dl_probe_plain' in vhost '/': received the value 'dlx' of type 'longstr' but current is none")
        );
        assert_eq!(
            equiv(&none, &args(&[("x-message-ttl", FieldValue::Float(1.5))])).unwrap(),
            format!("{I} 'x-message-ttl' for queue 'dl_probe_plain' in vhost '/': received the value '1.5' of type 'double' but current is none")
        );
        assert_eq!(
            equiv(&none, &args(&[("x-max-priority", FieldValue::Bool(true))])).unwrap(),
            format!("{I} 'x-max-priority' for queue 'dl_probe_plain' in vhost '/': received the value 'true' of type 'bool' but current is none")
        );
        assert_eq!(
            equiv(&args(&[("x-message-ttl", int(1000))]), &none).unwrap(),
            format!("{I} 'x-message-ttl' for queue 'dl_probe_plain' in vhost '/': received none but current is the value '1000' of type 'signedint'")
        );
    }

    #[test]
    fn equivalence_argument_changed() {
        let ttl = args(&[("x-message-ttl", int(1000))]);
        let pre = format!("{I} 'x-message-ttl' for queue 'dl_probe_plain' in vhost '/': received");
        assert_eq!(
            equiv(&ttl, &args(&[("x-message-ttl", int(2000))])).unwrap(),
            format!("{pre} '2000' but current is '1000'")
        );
        assert_eq!(
            equiv(&ttl, &args(&[("x-message-ttl", FieldValue::Float(1000.0))])).unwrap(),
            format!("{pre} '1.0e3' but current is '1000'")
        );
        assert_eq!(
            equiv(&ttl, &args(&[("x-message-ttl", s("1000"))])).unwrap(),
            format!("{pre} '1000' but current is '1000'")
        );
        assert_eq!(
            equiv(&ttl, &args(&[("x-message-ttl", FieldValue::Bool(true))])).unwrap(),
            format!("{pre} 'true' but current is '1000'")
        );
        assert_eq!(equiv(&ttl, &ttl), None);
    }

    #[test]
    fn equivalence_ignores_keys_the_queue_type_does_not_know() {
        let none = Table::new();
        assert_eq!(equiv(&none, &args(&[("x-foo", s("bar"))])), None);
        assert_eq!(equiv(&none, &args(&[("x-delivery-limit", int(5))])), None);
        assert!(equiv(&none, &args(&[("x-message-ttl", int(-1))])).is_some());
        let q = args(&[("x-queue-type", s("quorum")), ("x-delivery-limit", int(5))]);
        let mut q_prio = q.clone();
        q_prio.insert("x-max-priority", int(5));
        assert_eq!(equiv(&q, &q_prio), None);
    }

    #[test]
    fn equivalence_queue_type() {
        let none = Table::new();
        assert_eq!(equiv(&none, &args(&[("x-queue-type", s("classic"))])), None);
        assert_eq!(
            equiv(&none, &args(&[("x-queue-type", s("quorum"))])).unwrap(),
            format!("{I} 'x-queue-type' for queue 'dl_probe_plain' in vhost '/': received the value 'quorum' of type 'longstr' but current is none")
        );
        let q = args(&[("x-queue-type", s("quorum")), ("x-delivery-limit", int(5))]);
        let e = equivalence_error(
            "dl_probe_quorum_t",
            &decl(true, false, &q),
            &decl(true, false, &none),
        )
        .unwrap();
        assert_eq!(e.text, format!("{I} 'x-queue-type' for queue 'dl_probe_quorum_t' in vhost '/': received none but current is the value 'quorum' of type 'longstr'"));
        let e = equivalence_error(
            "dl_probe_quorum_t",
            &decl(true, false, &q),
            &decl(true, false, &args(&[("x-queue-type", s("quorum"))])),
        );
        assert_eq!(e.unwrap().text, format!("{I} 'x-delivery-limit' for queue 'dl_probe_quorum_t' in vhost '/': received none but current is the value '5' of type 'signedint'"));
    }

    #[test]
    fn equivalence_durable_and_auto_delete() {
        let none = Table::new();
        let e = equivalence_error(
            "dl_probe_plain",
            &decl(true, false, &none),
            &decl(false, false, &args(&[("x-message-ttl", int(1))])),
        );
        assert_eq!(e.unwrap().text, format!("{I} 'durable' for queue 'dl_probe_plain' in vhost '/': received 'false' but current is 'true'"));
        let ad = QueueDeclaration {
            durable: true,
            exclusive: false,
            auto_delete: true,
            args: &none,
        };
        let e = equivalence_error("dl_probe_plain", &decl(true, false, &none), &ad);
        assert_eq!(e.unwrap().text, format!("{I} 'auto_delete' for queue 'dl_probe_plain' in vhost '/': received 'true' but current is 'false'"));
        // exclusive queues are transient whatever `durable` says
        assert_eq!(
            equivalence_error("x", &decl(true, true, &none), &decl(false, true, &none)),
            None
        );
    }

    /// The playground explains these from `cause`, never from the text (edit_rules).
    #[test]
    fn refusals_say_why_where_the_code_does_not() {
        let none = Table::new();
        let ttl = args(&[("x-message-ttl", int(1))]);
        for (old, new) in [(&none, &ttl), (&ttl, &none)] {
            let e = equivalence_error("q", &decl(true, false, old), &decl(true, false, new));
            assert_eq!(e.unwrap().cause, Some(Cause::Inequivalent));
        }
        let durable = equivalence_error("q", &decl(true, false, &none), &decl(false, false, &none));
        assert_eq!(durable.unwrap().cause, Some(Cause::Inequivalent));
        let e =
            validate_queue_args("q", true, false, &args(&[("x-max-age", s("1D"))])).unwrap_err();
        assert_eq!(e.cause, Some(Cause::NotForQueueType));
        // A bad value is a 406 as well, with no cause beyond its subject.
        let e =
            validate_queue_args("q", true, false, &args(&[("x-message-ttl", s("x"))])).unwrap_err();
        assert_eq!((e.code, e.cause), (406, None));
        let locked = equivalence_error("q", &decl(true, false, &none), &decl(true, true, &none));
        assert_eq!(locked.unwrap().cause, None);
    }

    #[test]
    fn equivalence_exclusive_mismatch_is_resource_locked() {
        let none = Table::new();
        for (a, b) in [(false, true), (true, false)] {
            let e = equivalence_error(
                "dl_probe_plain",
                &decl(true, a, &none),
                &decl(true, b, &none),
            )
            .unwrap();
            assert_eq!((e.code, e.scope), (405, ErrorScope::Channel));
            assert_eq!(e.text, "RESOURCE_LOCKED - cannot obtain exclusive access to locked queue 'dl_probe_plain' in vhost '/'. It could be originally declared on another connection or the exclusive property value does not match that of the original declaration.");
        }
    }

    #[test]
    fn equivalence_as_result() {
        let none = Table::new();
        assert!(equivalence("q", true, false, &none, true, false, &none).is_ok());
        assert!(equivalence("q", true, false, &none, false, false, &none).is_err());
    }

    #[test]
    fn erlang_floats() {
        for (f, want) in [
            (1000.0, "1.0e3"),
            (1.5, "1.5"),
            (1.0e20, "1.0e20"),
            (100000.0, "1.0e5"),
            (0.1, "0.1"),
            (1.0e-5, "1.0e-5"),
            (123456789.0, "123456789.0"),
            (1.0e15, "1.0e15"),
            (1.0e16, "1.0e16"),
            (-0.5, "-0.5"),
            (3.0e300, "3.0e300"),
            (10.0, "10.0"),
            (100.0, "100.0"),
            (0.01, "0.01"),
            (0.001, "0.001"),
            (0.0001, "0.0001"),
            (12.5, "12.5"),
            (5.0e-324, "5.0e-324"),
            (1.7976931348623157e308, "1.7976931348623157e308"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (123.456, "123.456"),
        ] {
            assert_eq!(erl::float(f), want, "{f}");
        }
    }

    #[test]
    fn erlang_strings_and_atoms() {
        assert_eq!(erl::string(b"a\"b\\c'"), r#""a\"b\\c'""#);
        assert_eq!(
            erl::string(b"\x1b\x0b\x08\x0c\n\r\t"),
            r#""\e\v\b\f\n\r\t""#
        );
        assert_eq!(erl::string(&[0x7f]), "[127]");
        assert_eq!(erl::string("é".as_bytes()), "\"é\"");
        assert_eq!(erl::string("€".as_bytes()), "[226,130,172]");
        assert_eq!(erl::atom("direct"), "direct");
        assert_eq!(erl::atom("x-delayed-message"), "'x-delayed-message'");
    }
}
