//! The clock's timeline as a view model: its span, where each mark sits on it, what the
//! slider says to a screen reader, and where Step and the mark keys go
//! ([`crate::marks`] finds the marks).
//!
//! ```text
//! head-of-line-blocking (until 40:00), clock at 6:00:
//!   0:00 ──────●6:00──────────────────────────●30:00──────── 40:00
//!              15 %                            75 %
//!   the slider says "0:06:00.000 of 0:40:00.000 · B's TTL passed behind the head A ..."
//! ```
//!
//! Without an `until` (the sandbox) the span is what is known plus a margin: the clock,
//! the last mark, or where the scout stopped, whichever is latest, and at least a minute.

use delaylab_engine::report::text::clock;

use crate::i18n::Lang;
use crate::marks::Marks;
use crate::marks_words::mark_text;

/// The shortest span shown (a scenario with nothing yet).
pub const MIN_SPAN_MS: u64 = 60_000;
/// Without an `until`, the span reaches this far past what is known (percent).
const MARGIN_PCT: u64 = 10;
/// Arrow-key steps across the span.
pub const KEY_STEPS: u64 = 200;

/// One mark on the timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    pub at_ms: u64,
    /// Its place from the left, 0 to 100.
    pub pct: f64,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Timeline {
    pub end_ms: u64,
    pub ticks: Vec<Tick>,
    /// The scout has not looked this far yet (marks after it may come), if so.
    pub looked_to: Option<u64>,
    /// The scout stopped at its bound before the run's end.
    pub cut_short: bool,
    /// Marks found but not drawn (the bounds of `crate::marks`).
    pub left_out: u64,
}

impl Timeline {
    pub fn of(marks: &Marks, until_ms: Option<u64>, now_ms: u64, lang: Lang) -> Timeline {
        let last = marks.marks().last().map_or(0, |m| m.at_ms);
        let end_ms = until_ms.unwrap_or_else(|| {
            let known = if marks.done() { marks.known_to() } else { 0 };
            let far = now_ms.max(last).max(known);
            far + far * MARGIN_PCT / 100
        });
        let end_ms = end_ms.max(MIN_SPAN_MS).max(now_ms);
        let ticks = marks
            .marks()
            .iter()
            .filter(|m| m.at_ms <= end_ms)
            .map(|m| Tick {
                at_ms: m.at_ms,
                pct: pct(m.at_ms, end_ms),
                text: mark_text(m, lang),
            })
            .collect();
        Timeline {
            end_ms,
            ticks,
            looked_to: (!marks.done()).then(|| marks.known_to()),
            cut_short: marks.cut_short(),
            left_out: marks.left_out(),
        }
    }

    /// The arrow keys' step (ms): a [`KEY_STEPS`]th of the span, at least 1.
    pub fn key_step_ms(&self) -> u64 {
        (self.end_ms / KEY_STEPS).max(1)
    }

    /// The mark at `t_ms` exactly, if there is one.
    pub fn tick_at(&self, t_ms: u64) -> Option<&Tick> {
        self.ticks.iter().find(|t| t.at_ms == t_ms)
    }

    /// The first mark after `t_ms` and the last before it (the mark keys).
    pub fn next_after(&self, t_ms: u64) -> Option<u64> {
        self.ticks.iter().map(|t| t.at_ms).find(|&at| at > t_ms)
    }

    pub fn prev_before(&self, t_ms: u64) -> Option<u64> {
        self.ticks
            .iter()
            .rev()
            .map(|t| t.at_ms)
            .find(|&at| at < t_ms)
    }

    /// What the slider says: the time, of the span, and the mark there if any.
    pub fn value_text(&self, now_ms: u64, lang: Lang) -> String {
        let of = if lang == Lang::Zh { "/" } else { " of " };
        let base = format!("{}{of}{}", clock(now_ms), clock(self.end_ms));
        match self.tick_at(now_ms) {
            // The mark's text starts with its time: keep what follows.
            Some(t) => format!("{base} · {}", t.text.split_once(' ').map_or("", |x| x.1)),
            None => base,
        }
    }
}

/// Where `t_ms` sits on a span of `end_ms`, 0 to 100.
pub fn pct(t_ms: u64, end_ms: u64) -> f64 {
    if end_ms == 0 {
        return 0.0;
    }
    (t_ms.min(end_ms) as f64 * 100.0 / end_ms as f64).clamp(0.0, 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use delaylab_engine::scenario::load::load_str;

    const HEAD_OF_LINE: &str = include_str!("../../../scenarios/head-of-line-blocking.json");

    fn hol() -> Marks {
        let mut m = Marks::new(&load_str(HEAD_OF_LINE).unwrap());
        m.scout(|| false);
        m
    }

    #[test]
    fn head_of_line_ticks_sit_at_their_share_of_until() {
        let tl = Timeline::of(&hol(), Some(2_400_000), 0, Lang::En);
        assert_eq!(tl.end_ms, 2_400_000);
        let at: Vec<(u64, f64)> = tl.ticks.iter().map(|t| (t.at_ms, t.pct)).collect();
        assert_eq!(at, vec![(360_000, 15.0), (1_800_000, 75.0)]);
        assert_eq!(tl.looked_to, None);
        assert_eq!(tl.next_after(0), Some(360_000));
        assert_eq!(tl.next_after(360_000), Some(1_800_000));
        assert_eq!(tl.prev_before(1_800_000), Some(360_000));
        assert_eq!(tl.prev_before(360_000), None);
        assert_eq!(tl.key_step_ms(), 12_000);
    }

    #[test]
    fn the_slider_names_the_mark_it_stands_on() {
        let tl = Timeline::of(&hol(), Some(2_400_000), 360_000, Lang::En);
        assert_eq!(
            tl.value_text(360_000, Lang::En),
            "0:06:00.000 of 0:40:00.000 · B's TTL passed behind the head A in order.delay.queue"
        );
        assert_eq!(
            tl.value_text(60_000, Lang::En),
            "0:01:00.000 of 0:40:00.000"
        );
        let zh = Timeline::of(&hol(), Some(2_400_000), 360_000, Lang::Zh);
        assert!(zh.value_text(360_000, Lang::Zh).contains("队头 A"));
    }

    #[test]
    fn without_until_the_span_is_what_is_known_and_a_margin() {
        let m = hol();
        let tl = Timeline::of(&m, None, 0, Lang::En);
        // The scout ran to the end (the consumer's last ack): the span reaches past it.
        assert!(
            tl.end_ms > m.known_to() && tl.end_ms >= 1_800_000,
            "{}",
            tl.end_ms
        );
        let later = Timeline::of(&m, None, 10_000_000, Lang::En);
        assert_eq!(later.end_ms, 11_000_000, "the clock is past everything");
        let fresh = Marks::new(&load_str(HEAD_OF_LINE).unwrap());
        let empty = Timeline::of(&fresh, None, 0, Lang::En);
        assert_eq!((empty.end_ms, empty.looked_to), (MIN_SPAN_MS, Some(0)));
    }

    #[test]
    fn a_place_on_the_span_is_clamped() {
        assert_eq!(pct(5, 0), 0.0);
        assert_eq!(pct(50, 100), 50.0);
        assert_eq!(pct(500, 100), 100.0);
    }
}
