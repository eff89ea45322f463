//! One check's running account: what it has counted or seen so far, and the rules that
//! decide it, per kind, at the moment the run settles it.
//!
//! ```text
//! happens, positive   passes at the first match in its window; fails when the window
//!                     closes (or the run ends) without one
//! happens, never      fails at the first match in its window; passes when it closes
//! count               fails as soon as the count passes its upper bound, passes as soon
//!                     as an at_least-only bound is reached; else when the window closes
//! order               passes at the last expected delivery, fails at the first one out
//!                     of place (or at the end, if some never came)
//! lateness, message   decided at the message's first (selected) delivery
//! lateness, max       fails as soon as a delivery is later than the bound; else at the end
//! lateness, p50/p99   at the end (a percentile needs every value)
//! depth, orders       at their time (the runner stops there) or at the end (a figure
//!                     read from the tally is only exact where the run has stopped)
//! ```
//! "Closes" means every event up to the window's last millisecond has been seen.

use super::obs::Obs;
use super::select::Selector;
use super::spec::*;
use super::state::{CheckState, Seen, Status, Undecided};
use super::state_source::Reading;
use crate::lateness::LatenessSummary;

/// One happening that matched, as a check records it.
#[derive(Clone, Copy)]
pub struct Hit<'a> {
    pub msg: Option<u32>,
    pub body: Option<&'a str>,
}

impl<'a> Hit<'a> {
    pub fn of(o: &Obs<'a>) -> Hit<'a> {
        Hit {
            msg: o.msg,
            body: o.body,
        }
    }
}

pub enum Track {
    Happens {
        sel: Selector,
        window: Window,
        never: bool,
    },
    Count {
        sel: Selector,
        window: Window,
        bound: Bound,
        n: u64,
    },
    Order {
        sel: Selector,
        bodies: Vec<String>,
        next: usize,
    },
    Lateness {
        sel: Selector,
        figure: LateFigure,
        bound: Bound,
        /// (lateness, message) of every selected delivery, for a percentile.
        values: Vec<(u64, Option<u32>)>,
        max: Option<u64>,
    },
    /// `depth` and `orders`: read from the broker's state at `at_ms` (None: the end).
    State { at_ms: Option<u64>, bound: Bound },
}

/// Sets a pending check's outcome (the time never changes after this).
pub fn decide(s: &mut CheckState, status: Status, at_ms: u64, seen: Seen, hit: Option<Hit>) {
    debug_assert!(s.is_pending(), "a check is decided once");
    s.status = status;
    s.at_ms = Some(at_ms);
    s.seen = seen;
    if let Some(h) = hit {
        note(s, h);
    }
}

/// Records the message concerned.
fn note(s: &mut CheckState, h: Hit) {
    s.msg = h.msg;
    s.body = h.body.map(str::to_string);
}

pub fn undecided(s: &mut CheckState, why: Undecided) {
    s.status = Status::Undecided;
    s.undecided = Some(why);
}

impl Track {
    pub fn new(kind: &CheckKind) -> Track {
        match kind {
            CheckKind::Happens {
                filter,
                window,
                never,
                ..
            } => Track::Happens {
                sel: Selector::new(filter),
                window: *window,
                never: *never,
            },
            CheckKind::Count {
                filter,
                window,
                bound,
                ..
            } => Track::Count {
                sel: Selector::new(filter),
                window: *window,
                bound: *bound,
                n: 0,
            },
            CheckKind::Order {
                queue,
                consumer,
                bodies,
            } => Track::Order {
                sel: Selector::new(&Filter {
                    queue: queue.clone(),
                    consumer: consumer.clone(),
                    ..Filter::default()
                }),
                bodies: bodies.clone(),
                next: 0,
            },
            CheckKind::Lateness {
                filter,
                figure,
                bound,
            } => Track::Lateness {
                sel: Selector::new(filter),
                figure: *figure,
                bound: *bound,
                values: Vec::new(),
                max: None,
            },
            CheckKind::Depth { at_ms, bound, .. } | CheckKind::Orders { at_ms, bound, .. } => {
                Track::State {
                    at_ms: *at_ms,
                    bound: *bound,
                }
            }
        }
    }

    pub fn initial_seen(&self) -> Seen {
        match self {
            Track::Count { .. } => Seen::Count(0),
            _ => Seen::Nothing,
        }
    }

    /// The last ms of what decides it, when the clock alone can settle it.
    pub fn deadline_ms(&self) -> Option<u64> {
        match self {
            Track::Happens { window, .. } | Track::Count { window, .. } => window.end_ms(),
            Track::State { at_ms, .. } => *at_ms,
            _ => None,
        }
    }

    /// A happening of its kind (the evaluator only hands over those). True when it
    /// concerned this check (its state may have changed).
    pub fn on_obs(&mut self, o: &Obs, s: &mut CheckState) -> bool {
        match self {
            Track::Happens { sel, window, never } => {
                if !sel.matches(o) {
                    // Delivered, but without the headers it names: worth showing.
                    let near = !*never && sel.has_headers() && s.seen == Seen::Nothing;
                    if near && s.status != Status::Passed && sel.matches_but_headers(o) {
                        s.seen = Seen::OtherHeaders(o.t_ms);
                        note(s, Hit::of(o));
                        return true;
                    }
                    return false;
                }
                let h = Hit::of(o);
                if window.contains(o.t_ms) {
                    if s.is_pending() {
                        let status = if *never {
                            Status::Failed
                        } else {
                            Status::Passed
                        };
                        decide(s, status, o.t_ms, Seen::At(o.t_ms), Some(h));
                    }
                } else if !*never
                    && matches!(s.seen, Seen::Nothing | Seen::OtherHeaders(_))
                    && s.status != Status::Passed
                {
                    // Outside the window: what a failing check shows beside it.
                    s.seen = Seen::At(o.t_ms);
                    note(s, h);
                }
            }
            Track::Count {
                sel,
                window,
                bound,
                n,
            } => {
                if !window.contains(o.t_ms) || !sel.matches(o) {
                    return false;
                }
                *n += 1;
                s.seen = Seen::Count(*n);
                if s.is_pending() {
                    if bound.max().is_some_and(|m| *n > m) {
                        decide(s, Status::Failed, o.t_ms, Seen::Count(*n), Some(Hit::of(o)));
                    } else if bound.holds_from(*n) {
                        decide(s, Status::Passed, o.t_ms, Seen::Count(*n), None);
                    }
                }
            }
            Track::Order { sel, bodies, next } => {
                // A scan: at most MAX_ORDER_BODIES (100) short strings, where a set would
                // cost the JavaScript package a sort and a tree of its own.
                let Some(body) = o.body.filter(|b| bodies.iter().any(|x| x == b)) else {
                    return false;
                };
                if !s.is_pending() || !sel.matches(o) {
                    return false;
                }
                if body == bodies[*next] {
                    *next += 1;
                    if *next == bodies.len() {
                        decide(s, Status::Passed, o.t_ms, Seen::Nothing, None);
                    }
                } else {
                    let seen = Seen::Order {
                        position: *next,
                        got: Some(body.to_string()),
                    };
                    decide(s, Status::Failed, o.t_ms, seen, Some(Hit::of(o)));
                }
            }
            Track::Lateness {
                sel,
                figure,
                bound,
                values,
                max,
            } => {
                let Some(late) = o.late_ms else { return false };
                if !sel.matches(o) {
                    return false;
                }
                let h = Hit::of(o);
                match figure {
                    LateFigure::Message => {
                        if s.is_pending() {
                            let status = if bound.holds(late) {
                                Status::Passed
                            } else {
                                Status::Failed
                            };
                            decide(s, status, o.t_ms, Seen::Duration(late), Some(h));
                        }
                    }
                    LateFigure::Max => {
                        if max.is_none_or(|m| late > m) {
                            *max = Some(late);
                            s.seen = Seen::Duration(late);
                            note(s, h);
                        }
                        if s.is_pending() {
                            if bound.max().is_some_and(|m| late > m) {
                                decide(s, Status::Failed, o.t_ms, Seen::Duration(late), Some(h));
                            } else if bound.holds_from(late) {
                                decide(s, Status::Passed, o.t_ms, Seen::Duration(late), Some(h));
                            }
                        }
                    }
                    LateFigure::P50 | LateFigure::P99 => values.push((late, o.msg)),
                }
            }
            Track::State { .. } => return false,
        }
        true
    }

    /// Every event up to `deadline_ms()` has been seen (the check is pending).
    pub fn on_deadline(&self, s: &mut CheckState) {
        match self {
            Track::Happens { window, never, .. } => {
                let end = window.range().1;
                let status = if *never {
                    Status::Passed
                } else {
                    Status::Failed
                };
                let seen = s.seen.clone();
                decide(s, status, end, seen, None);
            }
            Track::Count {
                window, bound, n, ..
            } => {
                let status = if bound.holds(*n) {
                    Status::Passed
                } else {
                    Status::Failed
                };
                decide(s, status, window.range().1, Seen::Count(*n), None);
            }
            Track::State { at_ms: Some(t), .. } => {
                undecided(s, Undecided::MissedStop { at_ms: *t });
            }
            _ => {}
        }
    }

    /// The broker's figure at the check's time (`depth`, `orders`).
    pub fn on_reading(&self, r: Reading, now_ms: u64, durations: bool, s: &mut CheckState) {
        let Track::State { bound, .. } = self else {
            return;
        };
        match r {
            Reading::Value(v) => {
                let status = if bound.holds(v) {
                    Status::Passed
                } else {
                    Status::Failed
                };
                let seen = if durations {
                    Seen::Duration(v)
                } else {
                    Seen::Count(v)
                };
                decide(s, status, now_ms, seen, None);
            }
            Reading::Missing => decide(s, Status::Failed, now_ms, Seen::Missing, None),
            Reading::Undecidable(why) => undecided(s, why),
        }
    }

    /// The run ended at `end_ms` with the check still pending (and its own time, if
    /// any, not reached or not read).
    pub fn on_end(&self, end_ms: u64, s: &mut CheckState) {
        match self {
            Track::Happens { .. } | Track::Count { .. } => {
                // A window that goes past the end closes there.
                let seen = s.seen.clone();
                let status = match self {
                    Track::Happens { never: true, .. } => Status::Passed,
                    Track::Count { bound, n, .. } if bound.holds(*n) => Status::Passed,
                    _ => Status::Failed,
                };
                decide(s, status, end_ms, seen, None);
            }
            Track::Order { next, .. } => {
                let seen = Seen::Order {
                    position: *next,
                    got: None,
                };
                decide(s, Status::Failed, end_ms, seen, None);
            }
            Track::Lateness {
                figure,
                bound,
                values,
                max,
                ..
            } => match figure {
                LateFigure::Message => decide(s, Status::Failed, end_ms, Seen::Nothing, None),
                LateFigure::Max => {
                    let status = match max {
                        Some(m) if bound.holds(*m) => Status::Passed,
                        _ => Status::Failed,
                    };
                    let seen = s.seen.clone();
                    decide(s, status, end_ms, seen, None);
                }
                LateFigure::P50 | LateFigure::P99 => {
                    if values.is_empty() {
                        decide(s, Status::Failed, end_ms, Seen::Nothing, None);
                        return;
                    }
                    let all: Vec<u64> = values.iter().map(|(v, _)| *v).collect();
                    let sum = LatenessSummary::of(&all);
                    let v = if *figure == LateFigure::P50 {
                        sum.p50_ms
                    } else {
                        sum.p99_ms
                    };
                    let status = if bound.holds(v) {
                        Status::Passed
                    } else {
                        Status::Failed
                    };
                    // A message as late as the figure: the one a reader opens.
                    let msg = values.iter().find(|(l, _)| *l == v).and_then(|(_, m)| *m);
                    decide(s, status, end_ms, Seen::Duration(v), None);
                    s.msg = msg;
                }
            },
            Track::State { at_ms: Some(t), .. } if *t > end_ms => {
                undecided(s, Undecided::MissedStop { at_ms: *t });
            }
            Track::State { .. } => {}
        }
    }
}
