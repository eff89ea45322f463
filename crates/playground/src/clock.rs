//! Times as a learner types them into the Jump box, and the furthest a seek goes.

use delaylab_engine::scenario::duration::parse_duration;

/// The furthest a seek goes: 30 days of virtual time.
pub const MAX_SEEK_MS: u64 = 30 * 24 * MS_PER_HOUR;

const MS_PER_SECOND: u64 = 1_000;
const MS_PER_MINUTE: u64 = 60 * MS_PER_SECOND;
const MS_PER_HOUR: u64 = 60 * MS_PER_MINUTE;
/// `s`, `m:s` or `h:m:s`: at most three parts.
const CLOCK_UNITS_MS: [u64; 3] = [MS_PER_SECOND, MS_PER_MINUTE, MS_PER_HOUR];

/// `40:00`, `1:30:00.5` (clock forms: seconds may have decimals) or a duration the
/// scenario format accepts (`30m`, `90s`). Err carries the text.
pub fn parse_clock(text: &str) -> Result<u64, String> {
    let text = text.trim();
    if !text.contains(':') {
        return parse_duration(text);
    }
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() > CLOCK_UNITS_MS.len() {
        return Err(text.to_string());
    }
    let mut ms: f64 = 0.0;
    for (p, unit) in parts.iter().rev().zip(CLOCK_UNITS_MS) {
        let v: f64 = p.trim().parse().map_err(|_| text.to_string())?;
        if v < 0.0 || !v.is_finite() {
            return Err(text.to_string());
        }
        ms += v * unit as f64;
    }
    Ok(ms.round() as u64)
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
        assert!(parse_clock("1:2:3:4").is_err());
        assert!(parse_clock("-1:00").is_err());
        assert!(parse_clock("a:00").is_err());
        assert_eq!(MAX_SEEK_MS, 2_592_000_000);
    }
}
