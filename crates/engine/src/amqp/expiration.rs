//! The `expiration` property of `basic.publish`: a per-message TTL in ms, sent as a
//! string and parsed strictly by the broker (RabbitMQ 3.10, `rabbit_basic:parse_expiration/1`):
//!
//! ```erlang
//! case string:to_integer(binary_to_list(Expiration)) of
//!     {error, no_integer} = E -> E;
//!     {N, ""} -> rabbit_misc:check_expiry(N);   % N < 0, N > 315360000000
//!     {_, S} -> {error, {leftover_string, S}}
//! end
//! ```
//!
//! and on error `rabbit_channel` closes the channel with
//! `406 PRECONDITION_FAILED - invalid expiration '~s': ~p`. `string:to_integer/1` takes
//! one optional sign and at least one ASCII digit, with no leading space; Erlang integers
//! are unbounded, so a huge value is reported with all its digits. `~p` breaks a reason
//! that does not fit in 80 columns onto two lines, and the reply text is cut at 255 bytes;
//! both are reproduced. Verified on RabbitMQ 3.10.8 (`tests/broker/probe_errors.out.txt`).

use super::erl;
use super::error::AmqpError;
use super::queue_args::MAX_EXPIRY_MS;

/// Parses `expiration` as RabbitMQ 3.10 does: the TTL in ms, or the channel error.
pub fn parse_expiration(s: &str) -> Result<u64, AmqpError> {
    // The error text is only built on failure: every publish with a TTL gets here.
    parse(s.as_bytes()).map_err(|invalid| error(s, invalid))
}

fn error(s: &str, invalid: Invalid<'_>) -> AmqpError {
    let prefix = format!("invalid expiration '{s}': ");
    let col = erl::column_after(&prefix, 0);
    let reason = match invalid {
        Invalid::NoInteger => "no_integer".to_owned(),
        Invalid::Leftover(rest) => {
            erl::tagged("leftover_string", &erl::Term::charlist(rest), col, 80)
        }
        Invalid::Negative(n) => erl::tagged("value_negative", &erl::Term::Leaf(n), col, 80),
        Invalid::TooLarge(n) => erl::tagged("value_too_large", &erl::Term::Leaf(n), col, 80),
    };
    erl::fit(AmqpError::precondition_failed(format!("{prefix}{reason}")))
}

enum Invalid<'a> {
    NoInteger,
    Leftover(&'a [u8]),
    /// The value as Erlang prints it (`-7` for `"-007"`).
    Negative(String),
    TooLarge(String),
}

fn parse(b: &[u8]) -> Result<u64, Invalid<'_>> {
    let (negative, start) = match b.first() {
        Some(b'-') => (true, 1),
        Some(b'+') => (false, 1),
        _ => (false, 0),
    };
    // One pass over the digits (every publish with a TTL comes here): the value, None
    // once it overflows; the canonical text (no leading zeros) is cut only for an error.
    let mut value = Some(0u64);
    let mut end = start;
    while let Some(d) = b.get(end).filter(|c| c.is_ascii_digit()) {
        value = value.and_then(|v| v.checked_mul(10)?.checked_add(u64::from(d - b'0')));
        end += 1;
    }
    if end == start {
        return Err(Invalid::NoInteger);
    }
    if end < b.len() {
        return Err(Invalid::Leftover(&b[end..]));
    }
    if value == Some(0) {
        return Ok(0); // "0", "-0", "+000"
    }
    let canonical = || {
        let digits = std::str::from_utf8(&b[start..end]).expect("ASCII digits");
        digits.trim_start_matches('0')
    };
    if negative {
        return Err(Invalid::Negative(format!("-{}", canonical())));
    }
    match value {
        Some(ms) if ms <= MAX_EXPIRY_MS => Ok(ms),
        _ => Err(Invalid::TooLarge(canonical().to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::amqp::ErrorScope;

    fn text(s: &str) -> String {
        let e = parse_expiration(s).unwrap_err();
        assert_eq!((e.code, e.scope), (406, ErrorScope::Channel));
        e.text
    }

    const P: &str = "PRECONDITION_FAILED - invalid expiration";

    #[test]
    fn plain_integers() {
        assert_eq!(parse_expiration("0").unwrap(), 0);
        assert_eq!(parse_expiration("500").unwrap(), 500);
        assert_eq!(parse_expiration("4294967296").unwrap(), 4294967296);
    }

    #[test]
    fn a_sign_is_accepted() {
        assert_eq!(parse_expiration("+5").unwrap(), 5);
        assert_eq!(parse_expiration("+500").unwrap(), 500);
    }

    #[test]
    fn leading_zeros_are_accepted() {
        assert_eq!(parse_expiration("007").unwrap(), 7);
        assert_eq!(parse_expiration("0500").unwrap(), 500);
    }

    #[test]
    fn minus_zero_is_zero() {
        assert_eq!(parse_expiration("-0").unwrap(), 0);
        assert_eq!(parse_expiration("-000").unwrap(), 0);
    }

    #[test]
    fn no_digits_is_no_integer() {
        for s in ["abc", "", "+", "-", "++5", "+-5", "-+5", "+ 5"] {
            assert_eq!(text(s), format!("{P} '{s}': no_integer"));
        }
    }

    #[test]
    fn leading_space_is_no_integer() {
        assert_eq!(text(" 5"), format!("{P} ' 5': no_integer"));
    }

    #[test]
    fn trailing_characters_are_leftover() {
        assert_eq!(
            text("1.5"),
            format!("{P} '1.5': {{leftover_string,\".5\"}}")
        );
        assert_eq!(text("5 "), format!("{P} '5 ': {{leftover_string,\" \"}}"));
        assert_eq!(
            text("1e3"),
            format!("{P} '1e3': {{leftover_string,\"e3\"}}")
        );
        assert_eq!(
            text("0x10"),
            format!("{P} '0x10': {{leftover_string,\"x10\"}}")
        );
    }

    #[test]
    fn leftover_is_printed_as_erlang_prints_a_charlist() {
        assert_eq!(
            text("5\n"),
            format!("{P} '5\n': {{leftover_string,\"\\n\"}}")
        );
        assert_eq!(text("5é"), format!("{P} '5é': {{leftover_string,\"é\"}}"));
        assert_eq!(
            text("1\u{1}"),
            format!("{P} '1\u{1}': {{leftover_string,[1]}}")
        );
        assert_eq!(
            text("1€"),
            format!("{P} '1€': {{leftover_string,[226,130,172]}}")
        );
    }

    #[test]
    fn negative_values() {
        assert_eq!(text("-1"), format!("{P} '-1': {{value_negative,-1}}"));
        assert_eq!(text("-007"), format!("{P} '-007': {{value_negative,-7}}"));
    }

    #[test]
    fn ten_years_is_the_limit() {
        assert_eq!(parse_expiration("315360000000").unwrap(), 315360000000);
        assert_eq!(
            text("315360000001"),
            format!("{P} '315360000001': {{value_too_large,315360000001}}")
        );
    }

    #[test]
    fn leading_zeros_do_not_count_toward_overflow() {
        // 19 significant digits behind 30 zeros: parsed exactly (then too large).
        let n = format!("{}{}", "0".repeat(30), "9".repeat(19));
        let t = text(&n);
        assert!(t.contains("value_too_large"), "{t}");
        assert!(
            t.ends_with(&format!("{}}}", "9".repeat(19))),
            "printed without its zeros: {t}"
        );
        assert_eq!(
            parse_expiration(&format!("{}5", "0".repeat(40))).unwrap(),
            5
        );
        assert_eq!(
            parse_expiration(&format!("+{}315360000000", "0".repeat(25))).unwrap(),
            315_360_000_000
        );
        // u64::MAX and one past it (20 significant digits): too large, never wrapped.
        for n in [
            "18446744073709551615",
            "18446744073709551616",
            "100000000000000000000",
        ] {
            assert!(text(n).contains("value_too_large"), "{n}");
        }
    }

    #[test]
    fn huge_values_do_not_overflow() {
        // Broker output: ~p does not fit the tuple in 80 columns and breaks the line.
        let n = "99999999999999999999999";
        assert_eq!(
            text(n),
            format!("{P} '{n}': {{value_too_large,\n{}{n}}}", " ".repeat(47))
        );
        let n = "-99999999999999999999999";
        assert_eq!(
            text(n),
            format!("{P} '{n}': {{value_negative,\n{}{n}}}", " ".repeat(48))
        );
        let n = format!("-{}", "9".repeat(40));
        assert_eq!(
            text(&n),
            format!("{P} '{n}': {{value_negative,\n{}{n}}}", " ".repeat(65))
        );
    }

    #[test]
    fn long_reasons_break_like_erlang_and_texts_are_cut_at_255_bytes() {
        let x40 = "x".repeat(40);
        assert_eq!(
            text(&format!("1{x40}")),
            format!(
                "{P} '1{x40}': {{leftover_string,\n{}\"{x40}\"}}",
                " ".repeat(65)
            )
        );
        let t = text(&format!("1{}", "x".repeat(250)));
        assert_eq!(t.len(), 255);
        assert!(t.ends_with("xxx..."));
    }

    /// Every `expiration` case of the live probe, byte for byte.
    #[test]
    fn matches_every_recorded_broker_answer() {
        let mut n = 0;
        for (case, outcome) in crate::amqp::queue_args::recorded::all() {
            let Some(repr) = case.strip_prefix("expiration ") else {
                continue;
            };
            let input = python_str(repr);
            match (parse_expiration(&input), outcome) {
                (Ok(_), None) => {}
                (Err(e), Some((code, scope, text))) => {
                    assert_eq!(
                        (e.code, e.scope.as_str(), e.text.as_str()),
                        (code, scope, text.as_str()),
                        "{case}"
                    );
                }
                (got, want) => panic!("{case}: got {got:?}, broker {want:?}"),
            }
            n += 1;
        }
        assert!(n >= 30, "only {n} expiration cases recorded");
    }

    /// The probe names cases with Python's repr of the string: '...' with \t \n \xNN.
    fn python_str(repr: &str) -> String {
        crate::amqp::test_support::unescape(&repr[1..repr.len() - 1])
    }
}
