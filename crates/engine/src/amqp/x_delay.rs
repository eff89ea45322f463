//! The `x-delay` header of a message published to an `x-delayed-message` exchange, read
//! as the delayed-message plugin 3.10.x reads it (`rabbit_delayed_message_utils:get_delay/1`,
//! then `delay_message/2` in `rabbit_exchange_type_delayed_message`):
//!
//! * the key is exactly `x-delay` (case-sensitive);
//! * integer types: the value; `double`/`float`/`decimal`: `trunc/1`; `longstr`:
//!   `binary_to_integer/1`; anything else (bool, void, array, table, ...): no delay;
//! * delayed only if `0 < delay <= 4294967295` (2^32-1 ms, Erlang's timer limit);
//!   `<= 0` or above: routed at once, like a plain exchange of the wrapped type.
//!
//! `binary_to_integer/1` accepts one optional sign and ASCII digits, nothing else (no
//! space, no `.`, not empty). On anything else it raises `badarg` inside the routing,
//! which runs in the channel process: the channel crashes, and the connection's reader
//! maps a crash (a non-AMQP exit reason) to `541 INTERNAL_ERROR` with **no detail**
//! (`rabbit_binary_generator:lookup_amqp_exception/2`, second clause) and closes the
//! whole **connection** (541 is a hard error). Verified on RabbitMQ 3.10.8 with an
//! exchange type that reads `x-delay` with the plugin's code (the plugin itself is not
//! packaged for Debian): the reply text is exactly `INTERNAL_ERROR`; see
//! `tests/broker/probe_errors.out.txt`, section "x-delay parsing".

use super::error::AmqpError;
use super::queue_args::internal_error;
use crate::value::{FieldValue, Table};

/// `?ERL_MAX_T`: the longest delay the plugin holds a message for.
pub const MAX_DELAY_MS: u64 = 4_294_967_295;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DelayDecision {
    /// Routed now by the wrapped exchange type.
    Immediate,
    /// Held by the exchange for this many ms, then routed.
    Delay(u64),
}

/// What the plugin does with a message's headers: delay it, route it now, or crash the
/// channel (541, connection closed) on a non-numeric string.
pub fn parse_x_delay(headers: &Table) -> Result<DelayDecision, AmqpError> {
    let delay = match headers.get("x-delay") {
        Some(FieldValue::Int(n)) => i128::from(*n),
        // trunc/1; NaN and infinities cannot be sent as AMQP doubles to Erlang.
        Some(FieldValue::Float(f)) if f.is_finite() => f.trunc() as i128, // saturates: > MAX either way
        Some(FieldValue::Str(s)) => binary_to_integer(s.as_bytes()).ok_or_else(internal_error)?,
        _ => return Ok(DelayDecision::Immediate),
    };
    Ok(if delay > 0 && delay <= i128::from(MAX_DELAY_MS) {
        DelayDecision::Delay(delay as u64)
    } else {
        DelayDecision::Immediate
    })
}

/// Erlang's `binary_to_integer/1`, with values beyond `i128` clamped (they are out of
/// the delay range anyway); `None` where Erlang raises `badarg`.
fn binary_to_integer(b: &[u8]) -> Option<i128> {
    let (negative, digits) = match b {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, b),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let value = digits.iter().fold(0i128, |acc, d| {
        acc.saturating_mul(10).saturating_add(i128::from(d - b'0'))
    });
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::amqp::ErrorScope;
    use std::rc::Rc;

    fn with(v: FieldValue) -> Table {
        let mut t = Table::new();
        t.insert("x-delay", v);
        t
    }

    fn decide(v: FieldValue) -> DelayDecision {
        parse_x_delay(&with(v)).unwrap()
    }

    #[test]
    fn missing_header_is_immediate() {
        assert_eq!(
            parse_x_delay(&Table::new()).unwrap(),
            DelayDecision::Immediate
        );
    }

    #[test]
    fn key_is_case_sensitive() {
        let mut t = Table::new();
        t.insert("X-Delay", FieldValue::str("abc"));
        assert_eq!(parse_x_delay(&t).unwrap(), DelayDecision::Immediate);
    }

    #[test]
    fn positive_integer_delays() {
        assert_eq!(decide(FieldValue::Int(3000)), DelayDecision::Delay(3000));
        assert_eq!(decide(FieldValue::Int(1)), DelayDecision::Delay(1));
    }

    #[test]
    fn zero_or_negative_is_immediate() {
        assert_eq!(decide(FieldValue::Int(0)), DelayDecision::Immediate);
        assert_eq!(decide(FieldValue::Int(-500)), DelayDecision::Immediate);
    }

    #[test]
    fn above_2_pow_32_minus_1_is_immediate() {
        assert_eq!(
            decide(FieldValue::Int(4294967295)),
            DelayDecision::Delay(4294967295)
        );
        assert_eq!(
            decide(FieldValue::Int(4294967296)),
            DelayDecision::Immediate
        );
        assert_eq!(decide(FieldValue::Int(i64::MAX)), DelayDecision::Immediate);
    }

    #[test]
    fn float_is_truncated() {
        assert_eq!(
            decide(FieldValue::Float(1500.9)),
            DelayDecision::Delay(1500)
        );
        assert_eq!(decide(FieldValue::Float(0.9)), DelayDecision::Immediate);
        assert_eq!(decide(FieldValue::Float(-0.5)), DelayDecision::Immediate);
        assert_eq!(
            decide(FieldValue::Float(4294967295.5)),
            DelayDecision::Delay(4294967295)
        );
        assert_eq!(decide(FieldValue::Float(1e300)), DelayDecision::Immediate);
    }

    #[test]
    fn other_types_are_immediate() {
        let array = FieldValue::Array(Rc::from(vec![FieldValue::Int(1)]));
        for v in [
            FieldValue::Bool(true),
            FieldValue::Void,
            array,
            FieldValue::Table(with(FieldValue::Int(5))),
        ] {
            assert_eq!(decide(v), DelayDecision::Immediate);
        }
    }

    #[test]
    fn numeric_string_is_parsed() {
        assert_eq!(decide(FieldValue::str("700")), DelayDecision::Delay(700));
        assert_eq!(decide(FieldValue::str("+5")), DelayDecision::Delay(5));
        assert_eq!(decide(FieldValue::str("007")), DelayDecision::Delay(7));
        assert_eq!(decide(FieldValue::str("-5")), DelayDecision::Immediate);
        assert_eq!(decide(FieldValue::str("0")), DelayDecision::Immediate);
        assert_eq!(
            decide(FieldValue::str("99999999999999999999999999999999999999999")),
            DelayDecision::Immediate
        );
    }

    #[test]
    fn non_numeric_string_closes_the_connection_with_541() {
        for s in [
            "abc", "", " 5", "5 ", "1.5", "+", "-", "1e3", "1_000", "++5",
        ] {
            let e = parse_x_delay(&with(FieldValue::str(s))).unwrap_err();
            assert_eq!(
                (e.code, e.text.as_str(), e.scope),
                (541, "INTERNAL_ERROR", ErrorScope::Connection),
                "{s:?}"
            );
        }
    }
}
