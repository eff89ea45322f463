//! What the evaluator says of one check as a run goes on: pending until the run has
//! decided it, then passed or failed at a virtual time (which never changes again), with
//! the figure seen and the message concerned; or undecided, with why.

/// Where a check stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Not decided yet: what the run has shown so far does not settle it.
    Pending,
    Passed,
    Failed,
    /// The run cannot decide it ([`Undecided`] says why).
    Undecided,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::Undecided => "undecided",
        }
    }
}

/// Why a check could not be decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Undecided {
    /// On a live broker (`delaylab test --amqp`): what the check needs is not
    /// observable there (a silent drop, the time a message was due, a depth before the
    /// end, ...). The text says what.
    Live(&'static str),
    /// The scenario could not run on the live broker at all (the replay's reason).
    NotReplayable(String),
    /// The run stopped early on a limit (`crate::limits`) before the check was settled.
    RunStopped { at_ms: u64 },
    /// The check looks at the broker at `at_ms`, but the caller fed events past that
    /// time without stopping there (`Evaluator::next_stop_ms`).
    MissedStop { at_ms: u64 },
}

impl Undecided {
    /// True when it is a live broker's limit (reported as skipped, not as a failure).
    pub fn is_live(&self) -> bool {
        matches!(self, Undecided::Live(_) | Undecided::NotReplayable(_))
    }
}

/// The figure a check has seen so far (beside its bound in reports).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seen {
    /// Nothing that matches (not delivered, no such error, no delivery to measure).
    Nothing,
    /// The first matching happening, at this virtual time (in the window or not).
    At(u64),
    /// A delivery that matched all but the check's `headers`, at this time.
    OtherHeaders(u64),
    /// A count (of happenings, of messages in a queue, of orders).
    Count(u64),
    /// A lateness, in ms.
    Duration(u64),
    /// The first deliveries broke the expected order at `position` (0-based): `got` came
    /// instead (`None`: the run ended after `position` of them).
    Order {
        position: usize,
        got: Option<String>,
    },
    /// The queue or exchange a depth check names did not exist at that time.
    Missing,
}

/// One check's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckState {
    pub status: Status,
    /// When it passed or failed (the moment it became true or false), in virtual ms.
    pub at_ms: Option<u64>,
    /// The figure seen; it may still be refined after the decision (a delivery that
    /// comes after its window, a count that goes on), the status and time never change.
    pub seen: Seen,
    /// The message concerned, where there is one (the late one, the one delivered out
    /// of order, the one dead-lettered): its id, for a UI to open its story, and body.
    pub msg: Option<u32>,
    pub body: Option<String>,
    pub undecided: Option<Undecided>,
    /// Whether the check's expectation holds on the version this run is on (its
    /// `versions`, else the scenario's: `Scenario::check_applies`). A check not expected
    /// here is still evaluated; reports show what this run saw beside the versions it is
    /// expected on, never as a failure.
    pub expected_here: bool,
}

impl CheckState {
    pub fn pending() -> CheckState {
        CheckState {
            status: Status::Pending,
            at_ms: None,
            seen: Seen::Nothing,
            msg: None,
            body: None,
            undecided: None,
            expected_here: true,
        }
    }

    pub fn is_pending(&self) -> bool {
        self.status == Status::Pending
    }
}
