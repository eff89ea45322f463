//! The lab's counters, and the `"orders"` object of `delaylab run --format json`:
//!
//! ```text
//! "orders": {"policy": "naive", "paid_closed": 3, "stock_double_released": 5,
//!            "never_closed": 0, "close_lateness_ms": {"count", "mean", "p99", "max"},
//!            "db_queries": 40, "rows_scanned": 0, ...}
//! ```
//! `db_queries` counts the statements of the close path (the consumer's and the scan's),
//! not the business traffic (creating and paying orders), which is the same whatever
//! the policy. `rows_scanned` counts the rows the compensation scan examined (an index
//! on status: every WAITING_PAY row, each time). `never_closed`: unpaid orders past
//! their deadline at the end of the run. Close lateness: for each order closed while
//! WAITING_PAY, how long after its deadline (an early close counts 0 and in
//! `closed_early`).

use serde_json::{json, Value};

use super::model::{Db, Status};
use crate::lateness::LatenessSummary;
use crate::scenario::orders::Policy;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub created: u32,
    pub paid: u32,
    pub payments_refused: u32,
    pub canceled: u32,
    pub closed: u32,
    pub closed_by_scan: u32,
    pub closed_early: u32,
    pub paid_closed: u32,
    pub stock_double_released: u32,
    pub reminders_sent: u32,
    pub reminders_to_paid: u32,
    pub skipped: u32,
    pub faults: u32,
    pub db_queries: u64,
    pub rows_scanned: u64,
    /// Per order closed while unpaid: ms after its deadline.
    pub lateness_ms: Vec<u64>,
}

/// Unpaid orders whose deadline has passed at `now_ms`.
pub fn never_closed(db: &Db, now_ms: u64) -> u32 {
    db.orders
        .iter()
        .filter(|o| o.status == Status::WaitingPay && o.deadline_ms <= now_ms)
        .count() as u32
}

impl Tally {
    pub fn to_json(&self, policy: Policy, db: &Db, now_ms: u64) -> Value {
        let l = LatenessSummary::of(&self.lateness_ms).to_json();
        json!({
            "policy": policy.as_str(),
            "paid_closed": self.paid_closed,
            "stock_double_released": self.stock_double_released,
            "never_closed": never_closed(db, now_ms),
            "close_lateness_ms": l,
            "db_queries": self.db_queries,
            "rows_scanned": self.rows_scanned,
            "created": self.created,
            "paid": self.paid,
            "payments_refused": self.payments_refused,
            "canceled": self.canceled,
            "closed": self.closed,
            "closed_by_scan": self.closed_by_scan,
            "closed_early": self.closed_early,
            "reminders_sent": self.reminders_sent,
            "reminders_to_paid": self.reminders_to_paid,
            "faults_injected": self.faults,
        })
    }
}

/// The text block `delaylab run --format text` prints, from the JSON object.
pub fn summary_text(o: &Value, clock: impl Fn(u64) -> String) -> String {
    let n = |k: &str| o[k].as_u64().unwrap_or(0);
    let l = &o["close_lateness_ms"];
    format!(
        "orders ({}): {} created, {} paid, {} canceled, {} closed ({} by the scan, {} early)\n\
         mistakes: {} paid orders closed, {} stock released twice, {} unpaid never closed\n\
         close lateness: mean {}, p99 {}, max {}; {} db queries, {} rows scanned\n",
        o["policy"].as_str().unwrap_or("?"),
        n("created"),
        n("paid"),
        n("canceled"),
        n("closed"),
        n("closed_by_scan"),
        n("closed_early"),
        n("paid_closed"),
        n("stock_double_released"),
        n("never_closed"),
        clock(l["mean"].as_f64().unwrap_or(0.0) as u64),
        clock(l["p99"].as_u64().unwrap_or(0)),
        clock(l["max"].as_u64().unwrap_or(0)),
        n("db_queries"),
        n("rows_scanned"),
    )
}
