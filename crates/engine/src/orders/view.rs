//! The orders as the playground draws them: a capped list of rows (mistakes always
//! included) and the counters. Counts are exact; the row list is capped at `MAX_ROWS`.

use super::lab::Lab;
use super::model::{Order, Status};
use super::outcome::never_closed;
use crate::lateness::LatenessSummary;

pub const MAX_ROWS: usize = 200;

#[derive(Clone, Debug, PartialEq)]
pub struct OrderRow {
    pub id: u32,
    pub item: u32,
    pub status: &'static str,
    pub created_ms: u64,
    pub deadline_ms: u64,
    pub paid_ms: Option<u64>,
    pub ended_ms: Option<u64>,
    /// A paid order closed: the engine id of the message that closed it.
    pub mistake_msg: Option<u32>,
    pub released_twice: bool,
    /// Unpaid and past its deadline now.
    pub overdue: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OrdersView {
    pub policy: &'static str,
    pub total: u32,
    pub waiting: u32,
    pub paid: u32,
    pub canceled: u32,
    pub closed: u32,
    pub paid_closed: u32,
    pub stock_double_released: u32,
    pub never_closed: u32,
    pub lateness_mean_ms: u64,
    pub lateness_p99_ms: u64,
    pub lateness_max_ms: u64,
    pub db_queries: u64,
    pub rows_scanned: u64,
    pub rows: Vec<OrderRow>,
}

fn row(o: &Order, now_ms: u64) -> OrderRow {
    OrderRow {
        id: o.id,
        item: o.item,
        status: o.status.as_str(),
        created_ms: o.created_ms,
        deadline_ms: o.deadline_ms,
        paid_ms: o.paid_ms,
        ended_ms: o.ended_ms,
        mistake_msg: o.mistake_msg,
        released_twice: o.released_twice,
        overdue: o.status == Status::WaitingPay && o.deadline_ms <= now_ms,
    }
}

pub fn of(lab: &Lab, now_ms: u64) -> OrdersView {
    let orders = &lab.db.orders;
    let count = |s: Status| orders.iter().filter(|o| o.status == s).count() as u32;
    // Mistakes first, then the rest in id order, up to the cap; shown in id order.
    let mut picked: Vec<&Order> = orders
        .iter()
        .filter(|o| o.mistake_msg.is_some() || o.released_twice)
        .take(MAX_ROWS)
        .collect();
    for o in orders
        .iter()
        .filter(|o| o.mistake_msg.is_none() && !o.released_twice)
    {
        if picked.len() >= MAX_ROWS {
            break;
        }
        picked.push(o);
    }
    crate::sort::sort_by_key(&mut picked, |o| o.id);
    let l = LatenessSummary::of(&lab.tally.lateness_ms);
    let t = &lab.tally;
    OrdersView {
        policy: lab.spec.policy.as_str(),
        total: orders.len() as u32,
        waiting: count(Status::WaitingPay),
        paid: count(Status::Paid),
        canceled: count(Status::Canceled),
        closed: count(Status::Closed),
        paid_closed: t.paid_closed,
        stock_double_released: t.stock_double_released,
        never_closed: never_closed(&lab.db, now_ms),
        lateness_mean_ms: l.mean_ms.round() as u64,
        lateness_p99_ms: l.p99_ms,
        lateness_max_ms: l.max_ms,
        db_queries: t.db_queries,
        rows_scanned: t.rows_scanned,
        rows: picked.into_iter().map(|o| row(o, now_ms)).collect(),
    }
}
