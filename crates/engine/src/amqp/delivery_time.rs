//! The `x-opt-delivery-time` header of a message routed to a quorum queue, read as
//! RabbitMQ 4.4 reads it (rabbitmq-versions.md §5.4, D34-D36; rules read on branch
//! `qq-vNext` at `c6ab3c91aec6`, the source 4.4.0 was released from):
//!
//! * `rabbit_quorum_queue:deliver/3` calls `annotate_delivery_time/1`, which reads the
//!   header with `mc:x_header/2` and keeps it only if its value `is_integer`; for an
//!   AMQP 0-9-1 message that goes through `mc_amqpl:from_091/2`, so every integer type
//!   (`byte`, `short`, `signedint`, `long`, the unsigned ones) is milliseconds since the
//!   Unix epoch, a `timestamp` (seconds) is multiplied by 1000, and a string (even
//!   `"1800000"`), `float`, `double`, `bool` or `void` is ignored without error [code];
//! * `from_091/2` has no clause for `decimal`: the conversion raises inside the
//!   publishing channel, which the connection's reader reports as 541 INTERNAL_ERROR
//!   with no detail, closing the connection (as for a bad `x-delay` string, see
//!   `x_delay.rs`) [inferred: not run];
//! * `rabbit_fifo:get_delivery_time/2` holds the message only if the time is later than
//!   the Raft command's time: now or past (a negative value too) is an ordinary enqueue.
//!   No upper limit.
//!
//! Virtual time 0 is the Unix epoch (as for `x-death`'s `time`): `1800000` is 30:00.
//!
//! ```text
//! x-opt-delivery-time: 1800000               -> held until 30:00 (if now < 30:00)
//! x-opt-delivery-time: {"$timestamp": 1800}  -> held until 30:00 (seconds x 1000)
//! x-opt-delivery-time: "1800000"             -> ignored: delivered at once
//! x-opt-delivery-time: {"$decimal": "1.5"}   -> 541 INTERNAL_ERROR, connection closed
//! ```

use super::error::AmqpError;
use super::queue_args::internal_error;
use crate::value::{FieldValue, Table};

/// The header (an AMQP 1.0 message annotation of the same name, for AMQP 1.0 clients).
pub const DELIVERY_TIME_HEADER: &str = "x-opt-delivery-time";

/// The time in ms since the epoch `headers` ask delivery for, if they ask one the quorum
/// queue reads (`None`: absent or ignored); `Err` for the type that crashes the channel.
pub fn read_delivery_time(headers: &Table) -> Result<Option<i64>, AmqpError> {
    match headers.get(DELIVERY_TIME_HEADER) {
        Some(FieldValue::Int(ms)) => Ok(Some(*ms)),
        Some(FieldValue::Timestamp(s)) => Ok(Some(
            i64::try_from(*s).map_or(i64::MAX, |s| s.saturating_mul(1000)),
        )),
        Some(FieldValue::Decimal { .. }) => Err(internal_error()),
        _ => Ok(None),
    }
}

/// Until when a quorum queue holds a message whose delivery time is `at_ms`, arriving at
/// `now_ms`: only a time later than now (`get_delivery_time/2`: `DelTime =< Ts` is an
/// ordinary enqueue).
pub fn held_until(at_ms: i64, now_ms: u64) -> Option<u64> {
    u64::try_from(at_ms).ok().filter(|at| *at > now_ms)
}

/// [`held_until`] of what `headers` ask. A decimal reads as nothing here: the publish
/// was refused before (`read_delivery_time`).
pub fn held_until_ms(headers: &Table, now_ms: u64) -> Option<u64> {
    held_until(read_delivery_time(headers).ok()??, now_ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::amqp::ErrorScope;

    fn with(v: FieldValue) -> Table {
        let mut t = Table::new();
        t.insert(DELIVERY_TIME_HEADER, v);
        t
    }

    #[test]
    fn integers_are_ms_and_a_timestamp_is_seconds() {
        assert_eq!(
            held_until_ms(&with(FieldValue::Int(1_800_000)), 0),
            Some(1_800_000)
        );
        assert_eq!(
            held_until_ms(&with(FieldValue::Timestamp(1_800)), 0),
            Some(1_800_000)
        );
        assert_eq!(
            held_until_ms(&with(FieldValue::Int(i64::MAX)), 0),
            Some(i64::MAX as u64),
            "no upper limit"
        );
        assert_eq!(
            read_delivery_time(&with(FieldValue::Timestamp(u64::MAX))).unwrap(),
            Some(i64::MAX)
        );
    }

    #[test]
    fn now_past_or_negative_is_not_held() {
        for v in [0, 999, 1_000, -5] {
            assert_eq!(held_until_ms(&with(FieldValue::Int(v)), 1_000), None, "{v}");
        }
        assert_eq!(
            held_until_ms(&with(FieldValue::Int(1_001)), 1_000),
            Some(1_001)
        );
        assert_eq!(held_until_ms(&Table::new(), 0), None, "absent");
    }

    #[test]
    fn other_types_are_ignored_without_error() {
        for v in [
            FieldValue::str("1800000"),
            FieldValue::Float(1_800_000.0),
            FieldValue::Bool(true),
            FieldValue::Void,
            FieldValue::Table(with(FieldValue::Int(5))),
        ] {
            assert_eq!(read_delivery_time(&with(v.clone())).unwrap(), None, "{v:?}");
        }
        let mut other_case = Table::new();
        other_case.insert("X-Opt-Delivery-Time", FieldValue::Int(5_000));
        assert_eq!(
            held_until_ms(&other_case, 0),
            None,
            "the key is case-sensitive"
        );
    }

    #[test]
    fn a_decimal_crashes_the_channel_541() {
        let e = read_delivery_time(&with(FieldValue::Decimal {
            scale: 1,
            value: 15,
        }))
        .unwrap_err();
        assert_eq!(
            (e.code, e.text.as_str(), e.scope),
            (541, "INTERNAL_ERROR", ErrorScope::Connection)
        );
        assert_eq!(
            held_until_ms(&with(FieldValue::Decimal { scale: 0, value: 9 }), 0),
            None
        );
    }
}
