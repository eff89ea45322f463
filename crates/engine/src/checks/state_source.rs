//! The broker's state at one time, for the checks that read it (`depth`, `orders`).
//!
//! The choice: a depth is not re-derived from events (that would be a second account of
//! every queue rule: requeue, purge, expiry, node loss). The runner stops the simulation
//! at each time a check names (`Evaluator::next_stop_ms`; `checks::run` and the
//! JavaScript package do) and the evaluator reads the state there, through this trait:
//! the simulation's (the snapshot's figures, the order lab's tally), or what a replay
//! measured at its end on a live broker (`checks::live`).

use std::cell::OnceCell;

use super::spec::{DepthMeasure, DepthTarget, OrdersFigure};
use super::state::Undecided;
use crate::lateness::LatenessSummary;
use crate::orders::outcome::never_closed;
use crate::sim::Sim;
use crate::snapshot::Snapshot;

/// A figure read from the broker's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    Value(u64),
    /// The queue or exchange does not exist at that time.
    Missing,
    Undecidable(Undecided),
}

/// The broker at one virtual time.
pub trait BrokerState {
    fn now_ms(&self) -> u64;
    /// True when a limit stopped the run (what is left pending cannot be decided).
    fn stopped(&self) -> bool;
    fn depth(&self, target: &DepthTarget, measure: DepthMeasure) -> Reading;
    fn orders(&self, figure: OrdersFigure) -> Reading;
    /// A message behind a failing order-lab figure, for a reader to open: the first
    /// one that closed a paid order (`paid_closed`).
    fn orders_message(&self, _figure: OrdersFigure) -> Option<u32> {
        None
    }
}

/// The simulation, now. The snapshot (queue views with the overdue count) is built at
/// most once, when a depth check first asks.
pub struct SimState<'a> {
    sim: &'a Sim,
    snapshot: OnceCell<Snapshot>,
}

impl<'a> SimState<'a> {
    pub fn new(sim: &'a Sim) -> SimState<'a> {
        SimState {
            sim,
            snapshot: OnceCell::new(),
        }
    }

    fn snapshot(&self) -> &Snapshot {
        self.snapshot.get_or_init(|| Snapshot::of(self.sim))
    }
}

impl BrokerState for SimState<'_> {
    fn now_ms(&self) -> u64 {
        self.sim.now_ms()
    }

    fn stopped(&self) -> bool {
        self.sim.stopped().is_some()
    }

    fn depth(&self, target: &DepthTarget, measure: DepthMeasure) -> Reading {
        let snap = self.snapshot();
        let figure = match target {
            DepthTarget::Queue(name) => snap.queue(name).map(|q| match measure {
                DepthMeasure::Ready => q.ready,
                DepthMeasure::Unacked => q.unacked,
                DepthMeasure::Overdue => q.overdue,
                // Held aside (delayed retry, x-opt-delivery-time): neither ready nor unacked.
                DepthMeasure::Delayed => q.held_total,
            }),
            DepthTarget::Exchange(name) => snap.exchange(name).map(|x| x.messages_delayed),
        };
        figure.map_or(Reading::Missing, Reading::Value)
    }

    fn orders(&self, figure: OrdersFigure) -> Reading {
        let Some(lab) = self.sim.orders_lab() else {
            return Reading::Missing;
        };
        let t = &lab.tally;
        let late = || LatenessSummary::of(&t.lateness_ms);
        Reading::Value(match figure {
            OrdersFigure::PaidClosed => t.paid_closed.into(),
            OrdersFigure::StockDoubleReleased => t.stock_double_released.into(),
            OrdersFigure::NeverClosed => never_closed(&lab.db, self.sim.now_ms()).into(),
            OrdersFigure::DbQueries => t.db_queries,
            OrdersFigure::RowsScanned => t.rows_scanned,
            OrdersFigure::Created => t.created.into(),
            OrdersFigure::Paid => t.paid.into(),
            OrdersFigure::PaymentsRefused => t.payments_refused.into(),
            OrdersFigure::Canceled => t.canceled.into(),
            OrdersFigure::Closed => t.closed.into(),
            OrdersFigure::ClosedByScan => t.closed_by_scan.into(),
            OrdersFigure::ClosedEarly => t.closed_early.into(),
            OrdersFigure::RemindersSent => t.reminders_sent.into(),
            OrdersFigure::RemindersToPaid => t.reminders_to_paid.into(),
            OrdersFigure::FaultsInjected => t.faults.into(),
            OrdersFigure::CloseLatenessMax => late().max_ms,
            OrdersFigure::CloseLatenessP99 => late().p99_ms,
        })
    }

    fn orders_message(&self, figure: OrdersFigure) -> Option<u32> {
        let lab = self.sim.orders_lab()?;
        match figure {
            OrdersFigure::PaidClosed => lab
                .db
                .orders
                .iter()
                .filter(|o| o.mistake_msg.is_some())
                .min_by_key(|o| (o.ended_ms, o.id))
                .and_then(|o| o.mistake_msg),
            _ => None,
        }
    }
}
