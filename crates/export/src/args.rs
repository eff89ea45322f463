//! How one argument or header value is written in a program: a name the program maps to
//! its unique broker-side name, a duration it scales with `TIME_SCALE`, or the literal
//! value with its AMQP type kept exactly (an integer stays an integer, a string a string:
//! `x-message-ttl: "60000"` is exported as the string the scenario has, and the broker
//! refuses it with 406 just as in the simulation).
//!
//! The same classification as `delaylab replay`, from the engine's one rule
//! (`delaylab_engine::scenario::rename`, via `plan.names`): DLX and alternate-exchange
//! names are names; a DLRK and `CC`/`BCC` entries are names when they name a queue on
//! their exchange (every key on the default exchange); `x-message-ttl` and `x-expires`
//! in range are durations.

use delaylab_engine::amqp::delivery_time::DELIVERY_TIME_HEADER;
use delaylab_engine::amqp::queue_args::MAX_EXPIRY_MS;
use delaylab_engine::amqp::x_delay::MAX_DELAY_MS;
use delaylab_engine::scenario::rename::{
    Key, ScenarioNames, ALTERNATE_EXCHANGE_ARG, DLRK_ARG, DLX_ARG, ROUTING_KEY_HEADERS,
};
use delaylab_engine::value::{FieldValue, Table};

/// One value as the generators render it.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg<'a> {
    /// An exchange or queue name: written as `n("name")`.
    Name(&'a str),
    /// A list (`CC`, `BCC`: routing keys) whose entries are names or written as they are.
    List(Vec<Arg<'a>>),
    /// Milliseconds the program scales (a positive value stays at least 1 ms, so
    /// `x-expires` stays valid and a TTL of 0 stays 0).
    Ms(i64),
    /// `x-opt-delivery-time`, the scenario's time in ms (virtual 0:00 is the Unix epoch):
    /// written as a long, the program's start (Unix ms) plus this, scaled.
    DeliveryTime(i64),
    /// `x-opt-delivery-time` as an AMQP timestamp in seconds: the program's start plus
    /// this many (scaled) seconds.
    DeliveryTimeS(u64),
    /// Written as it is, with its AMQP type.
    Plain(&'a FieldValue),
}

/// A routing key used on `exchange` (a publish's, a `CC`/`BCC` entry, a DLRK on its
/// DLX): a name the program prefixes when the engine's rule says it names a queue.
pub fn routing_key<'k>(names: &ScenarioNames, exchange: &str, key: &'k str) -> Key<'k> {
    if names.key_is_name(exchange, key) {
        Key::Name(key)
    } else {
        Key::Plain(key)
    }
}

/// A queue argument (`all`: the queue's arguments, for the DLRK's exchange).
pub fn queue_arg<'a>(
    names: &ScenarioNames,
    key: &'a str,
    v: &'a FieldValue,
    all: &'a Table,
) -> Arg<'a> {
    let max = MAX_EXPIRY_MS as i64;
    match (key, v) {
        (DLX_ARG | DLRK_ARG, FieldValue::Str(s)) if names.queue_arg_is_name(key, s, all) => {
            Arg::Name(s)
        }
        ("x-message-ttl", FieldValue::Int(n)) if (0..=max).contains(n) => Arg::Ms(*n),
        ("x-expires", FieldValue::Int(n)) if (1..=max).contains(n) => Arg::Ms(*n),
        _ => Arg::Plain(v),
    }
}

pub fn exchange_arg<'a>(key: &'a str, v: &'a FieldValue) -> Arg<'a> {
    match (key, v) {
        (ALTERNATE_EXCHANGE_ARG, FieldValue::Str(s)) => Arg::Name(s),
        _ => Arg::Plain(v),
    }
}

/// A message header on a publish to `exchange`.
pub fn header<'a>(
    names: &ScenarioNames,
    exchange: &str,
    key: &'a str,
    v: &'a FieldValue,
) -> Arg<'a> {
    match (key, v) {
        (k, FieldValue::Array(items)) if ROUTING_KEY_HEADERS.contains(&k) => {
            // String entries are routing keys; any other entry is sent as written.
            let list: Vec<Arg> = items
                .iter()
                .map(
                    |i| match i.as_str().map(|s| routing_key(names, exchange, s)) {
                        Some(Key::Name(s)) => Arg::Name(s),
                        _ => Arg::Plain(i),
                    },
                )
                .collect();
            // A list with no name in it is sent as written (the same text).
            if list.iter().any(|a| matches!(a, Arg::Name(_))) {
                Arg::List(list)
            } else {
                Arg::Plain(v)
            }
        }
        // The plugin's delay: an integer of ms in range is scaled like any duration; a
        // string or an out-of-range value is sent as written (the plugin's parse rules).
        ("x-delay", FieldValue::Int(n)) if (1..=MAX_DELAY_MS as i64).contains(n) => Arg::Ms(*n),
        // A 4.4 quorum queue's delivery time: a time, so relative to the program's start
        // (as its schedule is); any other type is sent as written (the queue ignores it).
        (DELIVERY_TIME_HEADER, FieldValue::Int(n)) => Arg::DeliveryTime(*n),
        (DELIVERY_TIME_HEADER, FieldValue::Timestamp(s)) => Arg::DeliveryTimeS(*s),
        _ => Arg::Plain(v),
    }
}

/// An `expiration` property: a canonical decimal string (digits only, no leading zero)
/// the program scales; anything else is sent exactly as written so that the broker
/// parses it (and refuses it, or accepts `"+500"`) as in the simulation.
pub fn expiration_scalable(e: &str) -> Option<u64> {
    let canonical =
        !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit()) && (e == "0" || !e.starts_with('0'));
    if !canonical {
        return None;
    }
    delaylab_engine::amqp::expiration::parse_expiration(e).ok()
}

/// The ms the broker reads from an `expiration` string, or None when it refuses it.
pub fn expiration_ms(e: &str) -> Option<u64> {
    delaylab_engine::amqp::expiration::parse_expiration(e).ok()
}

/// True when an integer fits the AMQP `signedint` (32 bits), as the engine maps it.
pub fn is_i32(n: i64) -> bool {
    i32::try_from(n).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x05() -> ScenarioNames {
        let s = delaylab_engine::scenario::load_str(include_str!(
            "../../../tests/conformance/x05-queue-name-keys.json"
        ))
        .expect("x05 loads");
        ScenarioNames::of(&s)
    }

    fn table(pairs: &[(&str, FieldValue)]) -> Table {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn ttl_integer_is_a_duration_and_a_string_stays_a_string() {
        let t = table(&[("x-message-ttl", FieldValue::Int(60000))]);
        let v = t.get("x-message-ttl").unwrap();
        assert_eq!(
            queue_arg(&ScenarioNames::default(), "x-message-ttl", v, &t),
            Arg::Ms(60000)
        );
        let s = table(&[("x-message-ttl", FieldValue::str("60000"))]);
        let v = s.get("x-message-ttl").unwrap();
        assert!(matches!(
            queue_arg(&ScenarioNames::default(), "x-message-ttl", v, &s),
            Arg::Plain(FieldValue::Str(_))
        ));
        let neg = FieldValue::Int(-1);
        assert_eq!(
            queue_arg(&ScenarioNames::default(), "x-message-ttl", &neg, &t),
            Arg::Plain(&neg)
        );
    }

    #[test]
    fn dead_letter_names_are_mapped() {
        let names = x05();
        let queue_arg = |k, v, all| queue_arg(&names, k, v, all);
        let t = table(&[
            ("x-dead-letter-exchange", FieldValue::str("")),
            ("x-dead-letter-routing-key", FieldValue::str("work")),
        ]);
        let (k, v) = t.iter().nth(1).unwrap();
        assert_eq!(queue_arg(k, v, &t), Arg::Name("work"));
        let t2 = table(&[
            ("x-dead-letter-exchange", FieldValue::str("dlx")),
            ("x-dead-letter-routing-key", FieldValue::str("work")),
        ]);
        let (k, v) = t2.iter().nth(1).unwrap();
        assert_eq!(
            queue_arg(k, v, &t2),
            Arg::Name("work"),
            "a DLRK naming a queue is a name on any DLX"
        );
        let (k, v) = t2.iter().next().unwrap();
        assert_eq!(queue_arg(k, v, &t2), Arg::Name("dlx"));
        let t3 = table(&[
            ("x-dead-letter-exchange", FieldValue::str("dlx")),
            ("x-dead-letter-routing-key", FieldValue::str("parked.later")),
        ]);
        let (k, v) = t3.iter().nth(1).unwrap();
        assert!(
            matches!(queue_arg(k, v, &t3), Arg::Plain(_)),
            "a DLRK naming no queue on a named DLX is kept"
        );
    }

    #[test]
    fn cc_entries_are_keys_by_the_shared_rule() {
        let names = x05();
        let items = [
            FieldValue::str("done"),
            FieldValue::str("other"),
            FieldValue::Int(1),
        ];
        let cc = FieldValue::Array(items.to_vec().into());
        assert_eq!(
            header(&names, "orders", "CC", &cc),
            Arg::List(vec![
                Arg::Name("done"),
                Arg::Plain(&items[1]),
                Arg::Plain(&items[2])
            ])
        );
        assert_eq!(
            header(&names, "", "BCC", &cc),
            Arg::List(vec![
                Arg::Name("done"),
                Arg::Name("other"),
                Arg::Plain(&items[2])
            ])
        );
        let plain = FieldValue::Array(vec![FieldValue::str("other")].into());
        assert_eq!(header(&names, "orders", "CC", &plain), Arg::Plain(&plain));
    }

    #[test]
    fn expiration_strings() {
        assert_eq!(expiration_scalable("1800000"), Some(1_800_000));
        assert_eq!(expiration_scalable("0"), Some(0));
        assert_eq!(expiration_scalable("0500"), None, "sent as written");
        assert_eq!(expiration_scalable("+500"), None, "sent as written");
        assert_eq!(expiration_scalable("abc"), None);
        assert_eq!(expiration_scalable(""), None);
        assert_eq!(expiration_scalable("315360000001"), None, "over 10 years");
    }

    #[test]
    fn x_delay_integer_scales_string_does_not() {
        let i = FieldValue::Int(5000);
        assert_eq!(
            header(&ScenarioNames::default(), "d", "x-delay", &i),
            Arg::Ms(5000)
        );
        let s = FieldValue::str("5000");
        assert_eq!(
            header(&ScenarioNames::default(), "d", "x-delay", &s),
            Arg::Plain(&s)
        );
    }
}
