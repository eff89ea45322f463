//! Argument validators of `queue.declare` (rabbit_amqqueue:declare_args/0, 3.10.8), in
//! RabbitMQ's order: each refusal is the reason term RabbitMQ prints with `~255p` in its
//! 406 text (or a crash of the validator, 541). Called by `queue_args`.

use super::erl;
use super::error::AmqpError;
use super::queue_args::{internal_error, rs, MAX_EXPIRY_MS};
use crate::value::{FieldValue, Table};

/// Why an argument is refused: the reason term RabbitMQ prints with `~255p`.
pub(super) enum Refusal {
    /// An atom: `invalid_overflow`.
    Atom(&'static str),
    /// `{Tag, Value}` with the value already printed: `{value_negative,-1}`.
    Tagged(&'static str, String),
    /// A formatted string, printed quoted: `"expected integer, got longstr"`.
    Text(String),
    /// The validator itself crashes (541).
    Crash,
}

pub(super) type Check = fn(&FieldValue, &Table) -> Result<(), Refusal>;

pub(super) const DECLARE_ARGS: &[(&str, Check)] = &[
    ("x-expires", check_expires),
    ("x-message-ttl", check_message_ttl),
    ("x-dead-letter-exchange", check_dlx),
    ("x-dead-letter-routing-key", check_dlrk),
    ("x-dead-letter-strategy", check_dlx_strategy),
    ("x-max-length", check_non_neg_int),
    ("x-max-length-bytes", check_non_neg_int),
    ("x-max-in-memory-length", check_non_neg_int),
    ("x-max-in-memory-bytes", check_non_neg_int),
    ("x-max-priority", check_max_priority),
    ("x-overflow", check_overflow),
    ("x-queue-mode", check_queue_mode),
    ("x-queue-version", check_queue_version),
    ("x-single-active-consumer", check_bool),
    ("x-queue-type", check_queue_type),
    ("x-quorum-initial-group-size", check_cluster_size),
    ("x-max-age", check_max_age),
    ("x-stream-max-segment-size-bytes", check_non_neg_int),
    ("x-initial-cluster-size", check_cluster_size),
    ("x-queue-leader-locator", check_leader_locator),
];

pub(super) fn check_arg(queue_name: &str, args: &Table, key: &str) -> Result<(), AmqpError> {
    let (Some(value), Some(&(_, check))) =
        (args.get(key), DECLARE_ARGS.iter().find(|(k, _)| *k == key))
    else {
        return Ok(());
    };
    let prefix = format!("invalid arg '{key}' for {}: ", rs(queue_name));
    let reason = match check(value, args) {
        Ok(()) => return Ok(()),
        Err(Refusal::Crash) => return Err(internal_error().about_arg(key)),
        Err(Refusal::Atom(a)) => a.to_owned(),
        Err(Refusal::Text(t)) => erl::pretty(
            &erl::Term::charlist(t.as_bytes()),
            erl::column_after(&prefix, 0),
            255,
        ),
        Err(Refusal::Tagged(tag, v)) => {
            erl::tagged(tag, &erl::Term::Leaf(v), erl::column_after(&prefix, 0), 255)
        }
    };
    Err(erl::fit(AmqpError::precondition_failed(format!("{prefix}{reason}"))).about_arg(key))
}

fn unacceptable(v: &FieldValue) -> Refusal {
    Refusal::Tagged("unacceptable_type", v.amqp_type_name().to_owned())
}

fn check_int(v: &FieldValue) -> Result<i64, Refusal> {
    v.as_int()
        .ok_or_else(|| Refusal::Text(format!("expected integer, got {}", v.amqp_type_name())))
}

/// `rabbit_misc:check_expiry/1`
fn check_expiry(n: i64) -> Result<(), Refusal> {
    if n < 0 {
        Err(Refusal::Tagged("value_negative", n.to_string()))
    } else if n as u64 > MAX_EXPIRY_MS {
        Err(Refusal::Tagged("value_too_large", n.to_string()))
    } else {
        Ok(())
    }
}

fn check_expires(v: &FieldValue, _: &Table) -> Result<(), Refusal> {
    match check_int(v)? {
        0 => Err(Refusal::Tagged("value_zero", "0".to_owned())),
        n => check_expiry(n),
    }
}

fn check_message_ttl(v: &FieldValue, _: &Table) -> Result<(), Refusal> {
    check_expiry(check_int(v)?)
}

fn check_non_neg_int(v: &FieldValue, _: &Table) -> Result<(), Refusal> {
    match check_int(v)? {
        n if n < 0 => Err(Refusal::Tagged("value_negative", n.to_string())),
        _ => Ok(()),
    }
}

fn check_max_priority(v: &FieldValue, args: &Table) -> Result<(), Refusal> {
    check_non_neg_int(v, args)?;
    match check_int(v)? {
        n if n > 255 => Err(Refusal::Tagged("max_value_exceeded", n.to_string())),
        _ => Ok(()),
    }
}

fn check_cluster_size(v: &FieldValue, args: &Table) -> Result<(), Refusal> {
    check_non_neg_int(v, args)?;
    match check_int(v)? {
        0 => Err(Refusal::Tagged("value_zero", "0".to_owned())),
        _ => Ok(()),
    }
}

fn check_dlx(v: &FieldValue, _: &Table) -> Result<(), Refusal> {
    v.as_str().map(|_| ()).ok_or_else(|| unacceptable(v))
}

fn check_dlrk(v: &FieldValue, args: &Table) -> Result<(), Refusal> {
    match v {
        FieldValue::Str(_) if args.contains_key("x-dead-letter-exchange") => Ok(()),
        FieldValue::Str(_) => Err(Refusal::Atom("routing_key_but_no_dlx_defined")),
        _ => Err(unacceptable(v)),
    }
}

fn one_of(v: &FieldValue, allowed: &[&str], otherwise: Refusal) -> Result<(), Refusal> {
    match v.as_str() {
        Some(s) if allowed.contains(&s) => Ok(()),
        Some(_) => Err(otherwise),
        None => Err(unacceptable(v)),
    }
}

fn check_dlx_strategy(v: &FieldValue, _: &Table) -> Result<(), Refusal> {
    one_of(
        v,
        &["at-most-once", "at-least-once"],
        Refusal::Atom("invalid_dlx_strategy"),
    )
}

fn check_overflow(v: &FieldValue, _: &Table) -> Result<(), Refusal> {
    one_of(
        v,
        &["drop-head", "reject-publish", "reject-publish-dlx"],
        Refusal::Atom("invalid_overflow"),
    )
}

fn check_leader_locator(v: &FieldValue, _: &Table) -> Result<(), Refusal> {
    let allowed = ["client-local", "balanced", "random", "least-leaders"];
    one_of(v, &allowed, Refusal::Atom("invalid_queue_locator_arg"))
}

fn check_queue_mode(v: &FieldValue, _: &Table) -> Result<(), Refusal> {
    let text = Refusal::Text(format!(
        "unsupported queue mode '{}'",
        v.as_str().unwrap_or_default()
    ));
    one_of(v, &["default", "lazy"], text)
}

fn check_queue_type(v: &FieldValue, _: &Table) -> Result<(), Refusal> {
    let text = Refusal::Text(format!(
        "unsupported queue type '{}'",
        v.as_str().unwrap_or_default()
    ));
    one_of(v, &["classic", "quorum", "stream"], text)
}

fn check_queue_version(v: &FieldValue, args: &Table) -> Result<(), Refusal> {
    check_non_neg_int(v, args)?;
    match check_int(v)? {
        1 | 2 => Ok(()),
        n => Err(Refusal::Text(format!("unsupported queue version '{n}'"))),
    }
}

fn check_bool(v: &FieldValue, _: &Table) -> Result<(), Refusal> {
    match v {
        FieldValue::Bool(_) => Ok(()),
        _ => Err(unacceptable(v)),
    }
}

/// `rabbit_amqqueue:check_max_age/1`: digits, then one unit of `YMDhms`.
fn check_max_age(v: &FieldValue, _: &Table) -> Result<(), Refusal> {
    let Some(s) = v.as_str() else {
        return Err(unacceptable(v));
    };
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err(Refusal::Crash); // list_to_integer("") raises badarg
    }
    let positive = s[..digits].bytes().any(|b| b != b'0');
    if positive && ["Y", "M", "D", "h", "m", "s"].contains(&&s[digits..]) {
        Ok(())
    } else {
        Err(Refusal::Atom("invalid_max_age"))
    }
}
