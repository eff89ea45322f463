//! Checks on a live broker: evaluated on what `delaylab replay` recorded (the run
//! contract's JSON: deliveries with their headers, returns, errors, the queues' depths at
//! the end), by the same evaluator.
//!
//! What a live broker does not show is said, not passed: a check that needs it is
//! undecided (`Undecided::Live`) before the run is read. A replay cannot see a message
//! enter a queue, be dead-lettered or be dropped (`dropped` stays empty: drops are
//! silent), nor when a message was due (lateness), nor a depth before its end, an
//! overdue or a held message, nor the order lab (it is not replayed).

use serde_json::Value;

use super::eval::Evaluator;
use super::obs::{Headers, Obs};
use super::spec::{Check, CheckKind, DepthMeasure, DepthTarget, Happening, OrdersFigure};
use super::state::Undecided;
use super::state_source::{BrokerState, Reading};

/// Why a live broker cannot decide `c`, if it cannot.
pub fn live_limit(c: &Check) -> Option<&'static str> {
    match &c.kind {
        CheckKind::Happens { what, .. } | CheckKind::Count { what, .. } => match what {
            Happening::Enqueued => Some("a live broker does not report when a message enters a queue"),
            Happening::DeadLettered => Some(
                "a live broker does not report a dead-lettering (only a delivered copy's x-death shows one)",
            ),
            Happening::Dropped => Some("a live broker drops a message silently"),
            Happening::Delivered | Happening::Returned | Happening::Error => None,
        },
        CheckKind::Order { .. } => None,
        CheckKind::Lateness { .. } => Some(
            "lateness is how long after its due time a message moved on; a live broker does not report when a message was due",
        ),
        CheckKind::Depth {
            at_ms: Some(_), ..
        } => Some("a replay measures the queues' depths at its end only"),
        CheckKind::Depth {
            target: DepthTarget::Exchange(_),
            ..
        }
        | CheckKind::Depth {
            measure: DepthMeasure::Delayed,
            ..
        } => Some("a replay does not count held (delayed) messages"),
        CheckKind::Depth {
            measure: DepthMeasure::Overdue,
            ..
        } => Some("a live broker does not tell an overdue message from a waiting one"),
        CheckKind::Depth {
            measure: DepthMeasure::DeadLetters,
            ..
        } => Some("a replay does not see a quorum queue's waiting dead letters (AMQP 0-9-1 reports ready messages only)"),
        CheckKind::Depth { .. } => None,
        CheckKind::Orders { .. } => Some("a replay does not run the order lab"),
    }
}

/// The checks evaluated on a replay's result (`delaylab replay`'s JSON).
pub fn evaluate(checks: &[Check], result: &Value) -> Evaluator {
    let mut ev = Evaluator::new(checks);
    for (i, c) in checks.iter().enumerate() {
        if let Some(why) = live_limit(c) {
            ev.set_undecided(i, Undecided::Live(why));
        }
    }
    let list = |k: &str| result[k].as_array().map_or(&[][..], Vec::as_slice);
    let mut obs: Vec<Obs> = Vec::new();
    for d in list("deliveries") {
        obs.push(Obs {
            body: d["body"].as_str(),
            queue: d["queue"].as_str(),
            consumer: d["consumer"].as_str().filter(|c| *c != "basic.get"),
            headers: Headers::Json(&d["headers"]),
            ..bare(Happening::Delivered, &d["delivered_at_ms"])
        });
    }
    for r in list("returned") {
        obs.push(Obs {
            body: r["body"].as_str(),
            code: code(&r["code"]),
            ..bare(Happening::Returned, &r["at_ms"])
        });
    }
    for e in list("errors") {
        obs.push(Obs {
            body: e["body"].as_str(),
            code: code(&e["code"]),
            ..bare(Happening::Error, &e["at_ms"])
        });
    }
    crate::sort::sort_by_key(&mut obs, |o| o.t_ms); // stable: deliveries keep the order they came in
    for o in &obs {
        ev.feed(o);
    }
    ev.finish(&Ended(result));
    ev
}

/// Every check undecided: the scenario cannot run on a live broker (`why`).
pub fn not_replayable(checks: &[Check], why: &str) -> Evaluator {
    let mut ev = Evaluator::new(checks);
    for i in 0..checks.len() {
        ev.set_undecided(i, Undecided::NotReplayable(why.to_string()));
    }
    ev
}

fn bare<'a>(what: Happening, t: &Value) -> Obs<'a> {
    Obs::bare(t.as_u64().unwrap_or(0), what)
}

fn code(v: &Value) -> Option<u16> {
    v.as_u64().and_then(|c| u16::try_from(c).ok())
}

/// The broker at the replay's end: `final.queues` (ready, and what the replay's own
/// consumers held unacked).
struct Ended<'a>(&'a Value);

impl BrokerState for Ended<'_> {
    fn now_ms(&self) -> u64 {
        self.0["stats"]["end_ms"].as_u64().unwrap_or(0)
    }

    fn stopped(&self) -> bool {
        false
    }

    fn depth(&self, target: &DepthTarget, measure: DepthMeasure) -> Reading {
        let key = match measure {
            DepthMeasure::Ready => "ready",
            DepthMeasure::Unacked => "unacked",
            _ => return Reading::Undecidable(Undecided::Live("not measured by a replay")),
        };
        match self.0["final"]["queues"][target.name()][key].as_u64() {
            Some(v) => Reading::Value(v),
            None => Reading::Missing,
        }
    }

    fn orders(&self, _: OrdersFigure) -> Reading {
        Reading::Undecidable(Undecided::Live("a replay does not run the order lab"))
    }
}
