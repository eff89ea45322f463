//! The lateness chart's dots, each named after its delivery: which message, when, how
//! late. A dot is a control (it opens that message's story), so it needs a name a
//! screen reader says and a tooltip shows. Geometry from [`crate::chart`], deliveries
//! from [`Track::delivered`] (the figures' own list, by index).

use delaylab_engine::report::text::clock;

use crate::chart::lateness_dots;
use crate::i18n::Lang;
use crate::i18n_why::say;
use crate::lines::span;
use crate::stats::Stats;
use crate::story::label;
use crate::track::Track;
use delaylab_engine::report::lateness::Delivery;

#[derive(Clone, Debug, PartialEq)]
pub struct NamedDot {
    pub x: f64,
    pub y: f64,
    pub late: bool,
    /// A redelivery (drawn apart: never an on-time dot).
    pub retry: bool,
    /// The message delivered.
    pub msg: u32,
    /// "#2 B: delivered at 0:30:00.100, 24:00.0 late".
    pub name: String,
}

/// The chart's dots with their messages; a dot whose delivery is not in `track` (a
/// newer load) is left out. A retry is named as one: redelivered, unhandled since its
/// first delivery for so long (a message that loops is never "on time").
pub fn named_dots(stats: &Stats, track: &Track, lang: Lang) -> Vec<NamedDot> {
    lateness_dots(stats)
        .into_iter()
        .zip(&stats.points)
        .filter_map(|(d, p)| {
            let got = track.delivered.get(p.index as usize)?;
            let (m, at) = (label(track, got.msg), clock(got.t_ms));
            let name = match got.kind {
                Delivery::Retry { since_first_ms } => say(
                    lang,
                    "why_dot_retry",
                    &[("msg", &m), ("at", &at), ("since", &span(since_first_ms))],
                ),
                Delivery::First { late_ms: 0 } => {
                    say(lang, "why_dot_on_time", &[("msg", &m), ("at", &at)])
                }
                Delivery::First { late_ms } => say(
                    lang,
                    "why_dot",
                    &[("msg", &m), ("at", &at), ("late", &span(late_ms))],
                ),
            };
            Some(NamedDot {
                x: d.x,
                y: d.y,
                late: d.late,
                retry: d.retry,
                msg: got.msg,
                name,
            })
        })
        .collect()
}

/// New dot elements built per figures update while the clock moves. Building one (its
/// group, title, two circles and their reactive attributes) takes about 0.17 ms in the
/// release build on this machine: the 200,000-order preset's first release frame built
/// all 300 at once, a 60-90 ms frame at 1000x (issue 29 item 10).
pub const DOTS_BUILT_PLAYING: usize = 30;

/// How many of `len` dots have an element after a figures update, `built` having one
/// before it: all of them when the clock is calm (`Refresh::calm`); while it moves, at
/// most [`DOTS_BUILT_PLAYING`] more, so the chart fills in over a few updates.
pub fn dots_built(len: usize, built: usize, calm: bool) -> usize {
    if calm {
        len
    } else {
        len.min(built + DOTS_BUILT_PLAYING)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{Batch, Runner};
    use delaylab_engine::scenario::load::load_str;

    #[test]
    fn each_dot_names_its_message_delivery_time_and_lateness() {
        let text = include_str!("../../../scenarios/head-of-line-blocking.json");
        let mut r = Runner::new(load_str(text).unwrap());
        assert!(r.advance_to(40 * 60_000, &mut Batch::default(), || false));
        let stats = Stats::of(&r.track.delivered);
        let dots = named_dots(&stats, &r.track, Lang::En);
        assert_eq!(dots.len(), 2);
        assert_eq!(dots[0].name, "#1 A: delivered at 0:30:00.000, on time");
        assert_eq!(dots[1].name, "#2 B: delivered at 0:30:00.000, 24:00.0 late");
        assert_eq!((dots[1].msg, dots[1].late), (2, true));
        let zh = named_dots(&stats, &r.track, Lang::Zh);
        assert_eq!(zh[1].name, "#2 B:于 0:30:00.000 投递,迟到 24:00.0");
    }

    #[test]
    fn while_the_clock_moves_the_chart_fills_in_thirty_dots_an_update() {
        // The release's first update: 300 dots, none built yet.
        let mut built = 0;
        let mut steps = Vec::new();
        while built < 300 {
            built = dots_built(300, built, false);
            steps.push(built);
        }
        assert_eq!(steps.len(), 10);
        assert_eq!(&steps[..3], &[30, 60, 90]);
        // Calm: every dot at once; fewer dots (a new load): never more than there are.
        assert_eq!(dots_built(300, 30, true), 300);
        assert_eq!(dots_built(2, 300, false), 2);
        assert_eq!(dots_built(0, 0, false), 0);
    }
}
