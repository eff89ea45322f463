//! Times as a learner types them into the Jump box (and an embed's `start=`), and the
//! furthest a seek goes.
//!
//! Three forms, each exact to the millisecond:
//!
//! ```text
//! 40:00  1:30:00.5          a clock: h:m:s or m:s, seconds may have decimals
//! 30m  2h17m  1d 2h 30s     a duration: parts of the scenario format's units, largest first
//! 360000                    bare digits: milliseconds, as a scenario file's integer
//! ```
//!
//! A compound duration is a run of the scenario format's own parts (`2h` then `17m`,
//! each read by the engine's `parse_duration`), so what works in the Jump box is what a
//! scenario file calls a duration, summed. The `humantime` crate reads a wider grammar
//! (`2days`, `1month`, `1y`) that a scenario file refuses; for a dozen lines over the
//! engine's own parser the page keeps one meaning of "a duration".

use delaylab_engine::scenario::duration::parse_duration;

use crate::i18n::{t, Lang};

/// The furthest a seek goes: 30 days of virtual time.
pub const MAX_SEEK_MS: u64 = 30 * 24 * MS_PER_HOUR;

const MS_PER_SECOND: u64 = 1_000;
const MS_PER_MINUTE: u64 = 60 * MS_PER_SECOND;
const MS_PER_HOUR: u64 = 60 * MS_PER_MINUTE;
/// `s`, `m:s` or `h:m:s`: at most three parts.
const CLOCK_UNITS_MS: [u64; 3] = [MS_PER_SECOND, MS_PER_MINUTE, MS_PER_HOUR];
/// At most this many parts in a compound duration (`1d2h3m4s5ms` is five).
const MAX_PARTS: usize = 5;
/// The text an error quotes is cut here (a pasted paragraph is not echoed whole).
const MAX_QUOTED_CHARS: usize = 24;

/// Why a typed time is not one; [`TimeError::text`] says it in the page's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeError {
    Empty,
    /// The part that is not a time (`2x`, `a`), quoted as typed.
    NotATime(String),
    /// `1:2:3:4`: a clock has at most hours, minutes and seconds.
    TooManyClockParts,
    /// `2h 2h` or `17m2h`: each unit once, the largest first.
    UnitOrder(String),
    TooLarge,
}

impl TimeError {
    pub fn text(&self, lang: Lang) -> String {
        let forms = t(lang, "time_forms");
        match self {
            TimeError::Empty => {
                // The sentence's first letter in capitals: ASCII is enough (the English
                // starts with a letter, the Chinese with no case), and it keeps Unicode's
                // case tables out of the page's start-up module.
                let mut c = forms.chars();
                c.next()
                    .map(|f| std::iter::once(f.to_ascii_uppercase()).chain(c).collect())
                    .unwrap_or_default()
            }
            TimeError::NotATime(p) => format!("\"{p}\": {forms}"),
            TimeError::TooManyClockParts => format!("{} {forms}", t(lang, "time_clock_parts")),
            TimeError::UnitOrder(p) => format!("\"{p}\": {}", t(lang, "time_unit_order")),
            TimeError::TooLarge => t(lang, "seek_too_far").to_string(),
        }
    }
}

fn quoted(s: &str) -> String {
    let mut q: String = s.chars().take(MAX_QUOTED_CHARS).collect();
    if q.len() < s.len() {
        q.push('…');
    }
    q
}

/// `40:00`, `1:30:00.5`, `2h17m`, `90s`, `360000` (ms); see the module docs.
pub fn parse_clock(text: &str) -> Result<u64, TimeError> {
    parse_clock_with(text, |p| p.parse().ok())
}

/// [`parse_clock`], reading a clock's decimal parts (digits and at most one point) with
/// `decimal`: the browser passes its own parser (JavaScript's, correctly rounded as
/// Rust's is), so that the start-up wasm holds no copy of Rust's float parser and its
/// 10 KB table (issue 29 item 10).
pub fn parse_clock_with(text: &str, decimal: fn(&str) -> Option<f64>) -> Result<u64, TimeError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(TimeError::Empty);
    }
    if text.contains(':') {
        return parse_clock_form(text, decimal);
    }
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return text.parse::<u64>().map_err(|_| TimeError::TooLarge);
    }
    parse_compound(text)
}

/// `h:m:s` or `m:s`, seconds with decimals.
fn parse_clock_form(text: &str, decimal: fn(&str) -> Option<f64>) -> Result<u64, TimeError> {
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() > CLOCK_UNITS_MS.len() {
        return Err(TimeError::TooManyClockParts);
    }
    let mut ms: f64 = 0.0;
    for (p, unit) in parts.iter().rev().zip(CLOCK_UNITS_MS) {
        let p = p.trim();
        // Digits and at most one point: no sign, no exponent, no "inf".
        let numeric = !p.is_empty()
            && p.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && p.bytes().filter(|&b| b == b'.').count() <= 1;
        let v: f64 = match decimal(p) {
            Some(v) if numeric => v,
            _ => return Err(TimeError::NotATime(quoted(text))),
        };
        ms += v * unit as f64;
    }
    if ms > u64::MAX as f64 / 2.0 {
        return Err(TimeError::TooLarge);
    }
    Ok(ms.round() as u64)
}

/// `2h17m`, `1d 2h`: parts `<digits><unit>`, spaces allowed between them, each unit at
/// most once and the largest first (`17m2h` is more likely a typo than a sum).
fn parse_compound(text: &str) -> Result<u64, TimeError> {
    let mut total: u64 = 0;
    let mut last_unit_ms = u64::MAX;
    let mut rest = text;
    let mut parts = 0;
    while !rest.is_empty() {
        parts += 1;
        if parts > MAX_PARTS {
            return Err(TimeError::NotATime(quoted(text)));
        }
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let unit = rest[digits..]
            .bytes()
            .take_while(u8::is_ascii_alphabetic)
            .count();
        let (part, tail) = rest.split_at(digits + unit);
        if digits == 0 || unit == 0 {
            return Err(TimeError::NotATime(quoted(text)));
        }
        let unit_ms = parse_duration(&format!("1{}", &part[digits..]))
            .map_err(|_| TimeError::NotATime(quoted(part)))?;
        // A known unit: the only other failure is a number past u64 milliseconds.
        let ms = parse_duration(part).map_err(|_| TimeError::TooLarge)?;
        if unit_ms >= last_unit_ms {
            return Err(TimeError::UnitOrder(quoted(text)));
        }
        last_unit_ms = unit_ms;
        total = total.checked_add(ms).ok_or(TimeError::TooLarge)?;
        rest = tail.trim_start();
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_forms_and_durations() {
        assert_eq!(parse_clock("40:00"), Ok(2_400_000));
        assert_eq!(parse_clock(" 1:00:00.5 "), Ok(3_600_500));
        assert_eq!(parse_clock("0:30"), Ok(30_000));
        assert_eq!(parse_clock("30m"), Ok(1_800_000));
        assert_eq!(parse_clock("360000"), Ok(360_000), "bare digits are ms");
        assert_eq!(parse_clock("1:2:3:4"), Err(TimeError::TooManyClockParts));
        assert!(matches!(parse_clock("-1:00"), Err(TimeError::NotATime(_))));
        assert!(matches!(parse_clock("a:00"), Err(TimeError::NotATime(_))));
        assert!(matches!(parse_clock("1e3:00"), Err(TimeError::NotATime(_))));
        assert_eq!(MAX_SEEK_MS, 2_592_000_000);
    }

    #[test]
    fn compound_durations_sum_the_scenario_formats_parts() {
        assert_eq!(parse_clock("2h17m"), Ok(2 * 3_600_000 + 17 * 60_000));
        assert_eq!(parse_clock("2h 17m 30s"), Ok(8_250_000));
        assert_eq!(parse_clock("1d2h"), Ok(93_600_000));
        assert_eq!(parse_clock("1m500ms"), Ok(60_500));
        assert_eq!(parse_clock("1s 5ms"), Ok(1_005));
    }

    #[test]
    fn bad_input_names_the_problem() {
        assert_eq!(parse_clock("  "), Err(TimeError::Empty));
        assert_eq!(parse_clock("2x"), Err(TimeError::NotATime("2x".into())));
        assert_eq!(parse_clock("2h17x"), Err(TimeError::NotATime("17x".into())));
        assert_eq!(parse_clock("h"), Err(TimeError::NotATime("h".into())));
        assert_eq!(
            parse_clock("17m2h"),
            Err(TimeError::UnitOrder("17m2h".into()))
        );
        assert_eq!(
            parse_clock("2h2h"),
            Err(TimeError::UnitOrder("2h2h".into()))
        );
        assert_eq!(
            parse_clock("99999999999999999999999d"),
            Err(TimeError::TooLarge)
        );
        assert_eq!(
            parse_clock("99999999999999999999999"),
            Err(TimeError::TooLarge)
        );
        let long = "x".repeat(500);
        match parse_clock(&long) {
            Err(TimeError::NotATime(q)) => assert!(q.chars().count() <= MAX_QUOTED_CHARS + 1),
            other => panic!("{other:?}"),
        }
        assert!(TimeError::Empty.text(Lang::En).starts_with("Write a time"));
        let text = parse_clock("2x").unwrap_err().text(Lang::En);
        assert!(
            text.starts_with("\"2x\": ") && text.contains("2h17m"),
            "{text}"
        );
        assert!(parse_clock("2x")
            .unwrap_err()
            .text(Lang::Zh)
            .contains("2h17m"));
    }
}
