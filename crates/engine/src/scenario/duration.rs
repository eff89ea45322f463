//! Durations in scenario files (`at`, `until`, `every`, `handle`, `from`, `to`,
//! `downtime`): a non-negative JSON integer of milliseconds, or a string of ASCII digits
//! followed by exactly one unit, `ms`, `s`, `m`, `h` or `d` (`"1500ms"`, `"30m"`, `"7d"`).
//!
//! The parser is hand-written on purpose. A crate such as `humantime` accepts a much
//! wider grammar (`"1h 30m"`, `"2days"`, `"1.5s"`, spaces, ...) than the scenario contract
//! (`shared/docs/scenario-format.md`) allows; a file that loads here would then fail in
//! the other readers of the format (the browser playground, share links, other tools).
//! Accepting exactly the contract's grammar keeps every accepted file loadable everywhere.
//!
//! The upper bound a scenario may use (`load::MAX_DURATION_MS`) is checked by the loader,
//! which knows the JSON path; this module only rejects what is not a duration at all
//! (including values that overflow `u64` milliseconds).
//!
//! A point on the virtual timeline is printed by [`clock`] (`h:mm:ss.mmm`), here and not
//! in `report` because the sim's own texts (a limit's reason) carry it too.

use serde_json::Value;

/// The accepted forms, quoted in every error message.
pub const ACCEPTED_FORMS: &str =
    "a duration is a non-negative integer of milliseconds or a string of digits \
     followed by one unit, ms, s, m, h or d (e.g. 1500, \"1500ms\", \"30m\", \"7d\")";

/// Units from the largest to the smallest, with their length in milliseconds.
const UNITS: [(&str, u64); 5] = [
    ("d", 86_400_000),
    ("h", 3_600_000),
    ("m", 60_000),
    ("s", 1_000),
    ("ms", 1),
];

/// Parses the string form `<digits><unit>`.
pub fn parse_duration(text: &str) -> Result<u64, String> {
    let bad = || format!("invalid duration {}: {ACCEPTED_FORMS}", quote(text));
    let digits_end = text
        .bytes()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, unit) = text.split_at(digits_end);
    if digits.is_empty() {
        return Err(bad());
    }
    let factor = match unit {
        "ms" => 1,
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        "" => {
            return Err(format!(
                "invalid duration {}: a string needs a unit; {ACCEPTED_FORMS}",
                quote(text)
            ))
        }
        _ => return Err(bad()),
    };
    let mut n: u64 = 0;
    for b in digits.bytes() {
        n = n
            .checked_mul(10)
            .and_then(|n| n.checked_add(u64::from(b - b'0')))
            .ok_or_else(|| too_large(text))?;
    }
    n.checked_mul(factor).ok_or_else(|| too_large(text))
}

/// Reads a duration from JSON: an integer of milliseconds or the string form.
pub fn duration_from_json(v: &Value) -> Result<u64, String> {
    match v {
        Value::String(s) => parse_duration(s),
        Value::Number(n) => match n.as_u64() {
            Some(ms) => Ok(ms),
            None => {
                let f = n.as_f64().unwrap_or(0.0);
                let why = if n.is_i64() || f < 0.0 {
                    "a duration cannot be negative"
                } else if f.fract() == 0.0 && f >= 18_446_744_073_709_551_615.0 {
                    "too large"
                } else {
                    "not an integer of milliseconds"
                };
                Err(format!("invalid duration {n}: {why}; {ACCEPTED_FORMS}"))
            }
        },
        other => Err(format!(
            "invalid duration ({}): {ACCEPTED_FORMS}",
            json_kind(other)
        )),
    }
}

/// The shortest exact string form: `"30m"`, `"90s"`, `"1500ms"`, `"0s"` for zero.
pub fn format_duration(ms: u64) -> String {
    if ms == 0 {
        return "0s".into();
    }
    // The largest unit dividing `ms` gives the fewest digits, and every unit but `ms`
    // is one character, so it is also the shortest string.
    for (unit, factor) in UNITS {
        if ms.is_multiple_of(factor) {
            return format!("{}{unit}", ms / factor);
        }
    }
    unreachable!("1 divides every value")
}

/// `h:mm:ss.mmm`: a virtual time as the playground's clock, the text timeline and the
/// sim's own texts print it (`7_261_005` -> `2:01:01.005`).
pub fn clock(ms: u64) -> String {
    let (h, rest) = (ms / 3_600_000, ms % 3_600_000);
    format!(
        "{}:{:02}:{:02}.{:03}",
        h,
        rest / 60_000,
        (rest % 60_000) / 1000,
        rest % 1000
    )
}

fn too_large(text: &str) -> String {
    format!(
        "invalid duration {}: too large; {ACCEPTED_FORMS}",
        quote(text)
    )
}

/// Quotes user text for an error message, cut to a readable length.
fn quote(text: &str) -> String {
    const MAX_CHARS: usize = 40;
    if text.chars().count() > MAX_CHARS {
        let head: String = text.chars().take(MAX_CHARS).collect();
        format!("{:?}...", head)
    } else {
        format!("{text:?}")
    }
}

/// "a string", "an array"...: what a JSON value is, for error messages.
pub fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn clock_format() {
        assert_eq!(clock(0), "0:00:00.000");
        assert_eq!(clock(1_800_000), "0:30:00.000");
        assert_eq!(clock(7_261_005), "2:01:01.005");
        assert_eq!(clock(90_000_000), "25:00:00.000", "hours do not wrap");
    }

    #[test]
    fn accepts_each_unit() {
        assert_eq!(parse_duration("1500ms"), Ok(1500));
        assert_eq!(parse_duration("90s"), Ok(90_000));
        assert_eq!(parse_duration("30m"), Ok(1_800_000));
        assert_eq!(parse_duration("2h"), Ok(7_200_000));
        assert_eq!(parse_duration("7d"), Ok(604_800_000));
        assert_eq!(parse_duration("0s"), Ok(0));
        assert_eq!(parse_duration("007s"), Ok(7_000));
    }

    #[test]
    fn rejects_everything_else_naming_the_accepted_forms() {
        for bad in [
            "1h30m", "1.5s", " 5s", "5s ", "-1s", "+1s", "5", "", "s", "ms", "5 s", "5S", "5sec",
            "5us", "5msx", "1e3ms", "５s", "5 ms", "0x10s",
        ] {
            let err = parse_duration(bad).unwrap_err();
            assert!(err.contains("ms, s, m, h or d"), "{bad:?}: {err}");
        }
        assert_eq!(
            parse_duration("5").unwrap_err(),
            format!("invalid duration \"5\": a string needs a unit; {ACCEPTED_FORMS}")
        );
    }

    #[test]
    fn rejects_overflow() {
        assert!(parse_duration("18446744073709551615ms").is_ok());
        assert!(parse_duration("18446744073709551616ms")
            .unwrap_err()
            .contains("too large"));
        assert!(parse_duration("18446744073709551615s")
            .unwrap_err()
            .contains("too large"));
        assert!(parse_duration(&("9".repeat(500) + "ms"))
            .unwrap_err()
            .contains("too large"));
    }

    #[test]
    fn json_integer_is_milliseconds() {
        assert_eq!(duration_from_json(&json!(1500)), Ok(1500));
        assert_eq!(duration_from_json(&json!(0)), Ok(0));
        assert_eq!(duration_from_json(&json!("1s")), Ok(1000));
        assert!(duration_from_json(&json!(-1))
            .unwrap_err()
            .contains("cannot be negative"));
        assert!(duration_from_json(&json!(1.5))
            .unwrap_err()
            .contains("1500ms"));
        assert!(duration_from_json(&json!(1000.0)).is_err());
        assert!(duration_from_json(&json!(null))
            .unwrap_err()
            .starts_with("invalid duration (null)"));
        assert!(duration_from_json(&json!([1])).is_err());
        assert!(duration_from_json(&json!({"ms": 1})).is_err());
        let huge: Value = serde_json::from_str("184467440737095516160").unwrap();
        assert!(duration_from_json(&huge).unwrap_err().contains("too large"));
    }

    #[test]
    fn format_is_shortest_exact() {
        assert_eq!(format_duration(0), "0s");
        assert_eq!(format_duration(1), "1ms");
        assert_eq!(format_duration(1500), "1500ms");
        assert_eq!(format_duration(90_000), "90s");
        assert_eq!(format_duration(1_800_000), "30m");
        assert_eq!(format_duration(3_600_000), "1h");
        assert_eq!(format_duration(86_400_000), "1d");
        assert_eq!(format_duration(90_000_000), "25h");
        assert_eq!(format_duration(u64::MAX), format!("{}ms", u64::MAX));
    }

    #[test]
    fn format_then_parse_is_identity() {
        for ms in [
            0,
            1,
            999,
            1000,
            59_999,
            60_000,
            3_600_001,
            86_400_000 * 366,
            u64::MAX,
            u64::MAX - 1,
        ] {
            assert_eq!(parse_duration(&format_duration(ms)), Ok(ms), "{ms}");
        }
    }
}
