//! What a scenario's `checks` say: named assertions over what a run produces, as the
//! loader (`scenario::load`, module `checks`) builds them and the saver writes them back.
//! Plain owned values, in the scenario layer (a scenario holds them); the evaluator a
//! layer up (`crate::checks`, re-exported there as `checks::spec`) reads them.
//!
//! ```json
//! "checks": [
//!   {"label": "B is delivered at 30:00, with A", "delivered": {"body": "B", "at": "30m"}},
//!   {"label": "B waits 24 minutes behind A", "lateness": {"body": "B", "equals": "24m"}},
//!   {"name": "no-parking", "label": "Nothing is dead-lettered for its delivery limit",
//!    "dead_lettered": {"reason": "delivery_limit", "never": true}}
//! ]
//! ```
//!
//! A check may name the versions its expectation holds on (`versions`, a subset of the
//! scenario's): on another version it is still evaluated but "not expected there", so a
//! preset can state 4.0's outcome and 4.3's side by side. `failure: true` marks a check
//! that states what goes wrong (a reported failure, reproduced): it must pass like any
//! other, and a view says "the failure, reproduced" rather than "all good".
//!
//! ```json
//! {"label": "Dead-lettered at its 21st delivery", "versions": ["4.0", "4.1", "4.2"],
//!  "failure": true, "dead_lettered": {"body": "poison", "reason": "delivery_limit"}}
//! ```
//!
//! Times are the scenario's durations, from its start. Every figure a check bounds is
//! one a report already shows: lateness is `crate::lateness` (the run result's `late_ms`
//! and `lateness_ms`), queue depths are the snapshot's, order-lab figures the lab's tally.

use serde_json::{Map, Value};

use crate::version::BrokerVersion;

/// One named assertion.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// A short id (`name`), unique in the scenario: what a JUnit test case, a TAP line
    /// and an embed's `checks` message call it. Absent: `check-<n>` ([`Check::id`]).
    pub name: Option<String>,
    /// What the check means, in plain words (`label`), for people.
    pub label: String,
    pub kind: CheckKind,
    /// The versions this check's expectation holds on (`versions`), oldest first; empty:
    /// the scenario's (see `Scenario::check_expected_on`).
    pub versions: Vec<BrokerVersion>,
    /// It states what goes wrong (`failure: true`): a reported failure, reproduced.
    pub failure: bool,
}

impl Check {
    /// The check's id: its `name`, or `check-<n>` for the n-th check (1-based).
    pub fn id(&self, index: usize) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| format!("check-{}", index + 1))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum CheckKind {
    /// Something happens to a message (`delivered`, `enqueued`, `dead_lettered`,
    /// `dropped`, `returned`) or an error is raised (`error`) within the window; with
    /// `never`, it does not.
    Happens {
        what: Happening,
        filter: Filter,
        window: Window,
        never: bool,
    },
    /// How many times it happens within the window (`count`).
    Count {
        what: Happening,
        filter: Filter,
        window: Window,
        bound: Bound,
    },
    /// The first deliveries (to the queue or consumer) among the named bodies come in
    /// exactly this order (`order`).
    Order {
        queue: Option<String>,
        consumer: Option<String>,
        bodies: Vec<String>,
    },
    /// A message's lateness, or a figure of every delivery's (`lateness`).
    Lateness {
        filter: Filter,
        figure: LateFigure,
        bound: Bound,
    },
    /// A queue's (or a delayed exchange's) depth at a time, or at the end (`depth`).
    Depth {
        target: DepthTarget,
        measure: DepthMeasure,
        at_ms: Option<u64>,
        bound: Bound,
    },
    /// A figure of the order-timeout lab at a time, or at the end (`orders`).
    Orders {
        figure: OrdersFigure,
        at_ms: Option<u64>,
        bound: Bound,
    },
}

/// What happens to a message, as the run's events name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Happening {
    /// Handed to a consumer (or taken by `basic.get`).
    Delivered,
    /// Put in a queue (published, dead-lettered or released into it).
    Enqueued,
    /// Left a queue through its dead-letter exchange.
    DeadLettered,
    /// Left the broker unconsumed (the run result's `dropped`).
    Dropped,
    /// Came back to a mandatory publisher (`basic.return`).
    Returned,
    /// A broker error (a channel or connection closed with a reply code).
    Error,
}

impl Happening {
    pub const ALL: [Happening; 6] = [
        Happening::Delivered,
        Happening::Enqueued,
        Happening::DeadLettered,
        Happening::Dropped,
        Happening::Returned,
        Happening::Error,
    ];

    /// The key a check of this kind has in a scenario file (and the `of` of a `count`).
    pub fn as_str(self) -> &'static str {
        match self {
            Happening::Delivered => "delivered",
            Happening::Enqueued => "enqueued",
            Happening::DeadLettered => "dead_lettered",
            Happening::Dropped => "dropped",
            Happening::Returned => "returned",
            Happening::Error => "error",
        }
    }

    pub fn parse(s: &str) -> Option<Happening> {
        Happening::ALL.into_iter().find(|h| h.as_str() == s)
    }
}

/// Which happenings a check is about. Every field set must match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filter {
    /// The message's body (`body`, exact) or a pattern (`body_matches`).
    pub body: Option<BodyMatch>,
    /// `delivered`: the queue it was delivered from; `enqueued`: the queue it entered;
    /// `dead_lettered`, `dropped`: the queue it left.
    pub queue: Option<String>,
    /// `delivered`: the consumer's name.
    pub consumer: Option<String>,
    /// `dead_lettered`, `dropped`: why, as the run names it (one of
    /// [`DEAD_LETTER_REASONS`] or [`DROP_REASONS`]).
    pub reason: Option<String>,
    /// `error`, `returned`: the reply code (406, 312, ...).
    pub code: Option<u16>,
    /// `delivered`: headers the delivered copy must carry (a subset: tables by key,
    /// lists by position, `x-death` newest first), as a consumer sees them.
    pub headers: Option<Map<String, Value>>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum BodyMatch {
    Exact(String),
    /// `*` any run of characters, `?` one character; no escapes.
    Pattern(String),
}

impl BodyMatch {
    /// Compiled once per check by the evaluator (`checks::glob`), not here.
    pub fn text(&self) -> &str {
        match self {
            BodyMatch::Exact(s) | BodyMatch::Pattern(s) => s,
        }
    }
}

/// The `x-death` reasons (`death::Reason::as_str`), which `dead_lettered` may name.
/// Listed here, below the sim's layer that defines them; `checks::obs`'s test keeps the
/// two lists equal.
pub const DEAD_LETTER_REASONS: [&str; 4] = ["expired", "rejected", "maxlen", "delivery_limit"];

/// The run result's drop reasons (`event::DropReason::as_str`), which `dropped` may name.
pub const DROP_REASONS: [&str; 13] = [
    "expired",
    "rejected",
    "maxlen",
    "delivery_limit",
    "dlx_missing",
    "dead_letter_cycle",
    "reject_publish",
    "unroutable",
    "node_lost",
    "queue_deleted",
    "purged",
    "lost_in_store",
    "plugin_removed",
];

/// When the happening must (or, with `never`, must not) take place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// Any time in the run.
    Whole,
    /// At exactly this virtual millisecond (`at`).
    At(u64),
    /// At or before (`by`).
    By(u64),
    /// From and to, both included (`within: [from, to]`).
    Within(u64, u64),
}

impl Window {
    /// The first and last virtual ms the window holds.
    pub fn range(self) -> (u64, u64) {
        match self {
            Window::Whole => (0, u64::MAX),
            Window::At(t) => (t, t),
            Window::By(t) => (0, t),
            Window::Within(a, b) => (a, b),
        }
    }

    pub fn contains(self, t_ms: u64) -> bool {
        let (a, b) = self.range();
        a <= t_ms && t_ms <= b
    }

    /// The last ms of a bounded window (`None`: the run's end decides).
    pub fn end_ms(self) -> Option<u64> {
        match self {
            Window::Whole => None,
            _ => Some(self.range().1),
        }
    }
}

/// What a figure must be: `equals`, or `at_least` and/or `at_most` (both included).
/// Counts are integers, durations (lateness) milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Equals(u64),
    Range {
        at_least: Option<u64>,
        at_most: Option<u64>,
    },
}

impl Bound {
    pub fn holds(self, v: u64) -> bool {
        match self {
            Bound::Equals(x) => v == x,
            Bound::Range { at_least, at_most } => {
                at_least.is_none_or(|a| v >= a) && at_most.is_none_or(|b| v <= b)
            }
        }
    }

    /// The largest value that can still hold (a figure that only grows fails once past it).
    pub fn max(self) -> Option<u64> {
        match self {
            Bound::Equals(x) => Some(x),
            Bound::Range { at_most, .. } => at_most,
        }
    }

    /// True when every value from `v` up holds (a figure that only grows passes here).
    pub fn holds_from(self, v: u64) -> bool {
        matches!(self, Bound::Range { at_least: Some(a), at_most: None } if v >= a)
    }
}

/// Which lateness figure (`lateness`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LateFigure {
    /// The message named by `body`, at its first delivery (`Filter::body` is exact).
    Message,
    /// Of every delivery the filter selects (`of`), as the run result's `lateness_ms`.
    Max,
    P50,
    P99,
}

impl LateFigure {
    pub const OF: [LateFigure; 3] = [LateFigure::Max, LateFigure::P50, LateFigure::P99];

    pub fn as_str(self) -> &'static str {
        match self {
            LateFigure::Message => "message",
            LateFigure::Max => "max",
            LateFigure::P50 => "p50",
            LateFigure::P99 => "p99",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DepthTarget {
    Queue(String),
    /// A delayed-message exchange (`delayed` only: its `messages_delayed`).
    Exchange(String),
}

impl DepthTarget {
    pub fn name(&self) -> &str {
        match self {
            DepthTarget::Queue(n) | DepthTarget::Exchange(n) => n,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepthMeasure {
    /// Ready messages (the snapshot's `ready`, overdue ones included).
    Ready,
    /// Delivered, not yet acknowledged.
    Unacked,
    /// Ready messages past their expiry, waiting behind the head (the snapshot's rule).
    Overdue,
    /// A delayed exchange: held in the plugin's store; a quorum queue: held aside, by
    /// 4.3's delayed retry or 4.4's `x-opt-delivery-time` (the snapshot's `held_total`).
    Delayed,
    /// A quorum queue's at-least-once dead letters no target has confirmed yet (they
    /// wait in it, counted toward its length limits).
    DeadLetters,
}

impl DepthMeasure {
    pub const ALL: [DepthMeasure; 5] = [
        DepthMeasure::Ready,
        DepthMeasure::Unacked,
        DepthMeasure::Overdue,
        DepthMeasure::Delayed,
        DepthMeasure::DeadLetters,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            DepthMeasure::Ready => "ready",
            DepthMeasure::Unacked => "unacked",
            DepthMeasure::Overdue => "overdue",
            DepthMeasure::Delayed => "delayed",
            DepthMeasure::DeadLetters => "dead_letters",
        }
    }
}

/// The order lab's figures, named as `delaylab run --format json` names them in
/// `"orders"` (`close_lateness_max`/`_p99`: its `close_lateness_ms` max and p99).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrdersFigure {
    PaidClosed,
    StockDoubleReleased,
    NeverClosed,
    DbQueries,
    RowsScanned,
    Created,
    Paid,
    PaymentsRefused,
    Canceled,
    Closed,
    ClosedByScan,
    ClosedEarly,
    RemindersSent,
    RemindersToPaid,
    FaultsInjected,
    CloseLatenessMax,
    CloseLatenessP99,
}

impl OrdersFigure {
    pub const ALL: [OrdersFigure; 17] = [
        OrdersFigure::PaidClosed,
        OrdersFigure::StockDoubleReleased,
        OrdersFigure::NeverClosed,
        OrdersFigure::DbQueries,
        OrdersFigure::RowsScanned,
        OrdersFigure::Created,
        OrdersFigure::Paid,
        OrdersFigure::PaymentsRefused,
        OrdersFigure::Canceled,
        OrdersFigure::Closed,
        OrdersFigure::ClosedByScan,
        OrdersFigure::ClosedEarly,
        OrdersFigure::RemindersSent,
        OrdersFigure::RemindersToPaid,
        OrdersFigure::FaultsInjected,
        OrdersFigure::CloseLatenessMax,
        OrdersFigure::CloseLatenessP99,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            OrdersFigure::PaidClosed => "paid_closed",
            OrdersFigure::StockDoubleReleased => "stock_double_released",
            OrdersFigure::NeverClosed => "never_closed",
            OrdersFigure::DbQueries => "db_queries",
            OrdersFigure::RowsScanned => "rows_scanned",
            OrdersFigure::Created => "created",
            OrdersFigure::Paid => "paid",
            OrdersFigure::PaymentsRefused => "payments_refused",
            OrdersFigure::Canceled => "canceled",
            OrdersFigure::Closed => "closed",
            OrdersFigure::ClosedByScan => "closed_by_scan",
            OrdersFigure::ClosedEarly => "closed_early",
            OrdersFigure::RemindersSent => "reminders_sent",
            OrdersFigure::RemindersToPaid => "reminders_to_paid",
            OrdersFigure::FaultsInjected => "faults_injected",
            OrdersFigure::CloseLatenessMax => "close_lateness_max",
            OrdersFigure::CloseLatenessP99 => "close_lateness_p99",
        }
    }

    pub fn parse(s: &str) -> Option<OrdersFigure> {
        OrdersFigure::ALL.into_iter().find(|f| f.as_str() == s)
    }

    /// A duration (its bound is written as durations), not a count.
    pub fn is_duration(self) -> bool {
        matches!(
            self,
            OrdersFigure::CloseLatenessMax | OrdersFigure::CloseLatenessP99
        )
    }
}
