//! The lab's database: an orders table, stock per item, and idempotency records.
//!
//! Every write goes through a method that says what it did, so the caller (the lab)
//! can count queries and spot mistakes:
//! ```text
//! t=0      create #1 (item 0): WAITING_PAY, stock[0] 100 -> 99 (reserved)
//! t=12m    pay #1:             WAITING_PAY -> PAID (stock stays sold)
//! t=30m    close #1 (naive):   PAID -> CLOSED, stock[0] 99 -> 100   <- paid order closed
//! ```

use std::collections::HashSet;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    WaitingPay,
    Paid,
    Canceled,
    Closed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::WaitingPay => "WAITING_PAY",
            Status::Paid => "PAID",
            Status::Canceled => "CANCELED",
            Status::Closed => "CLOSED",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Order {
    /// 1-based, as in the message body `order-<id>`.
    pub id: u32,
    pub item: u32,
    pub status: Status,
    pub created_ms: u64,
    /// When it should be closed if still unpaid (created + timeout).
    pub deadline_ms: u64,
    pub paid_ms: Option<u64>,
    /// When it was closed or canceled.
    pub ended_ms: Option<u64>,
    /// It holds one unit of its item (released on close or cancel).
    pub stock_held: bool,
    /// A paid order that was closed: the message that did it (engine message id).
    pub mistake_msg: Option<u32>,
    /// Its stock was released more than once.
    pub released_twice: bool,
}

/// What a close did to the row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CloseResult {
    /// The status before the update (the update affected the row).
    pub was: Status,
}

#[derive(Debug, Default)]
pub struct Db {
    pub orders: Vec<Order>,
    /// Available units per item as the database believes.
    pub stock: Vec<i64>,
    /// Idempotency keys already handled.
    pub handled: HashSet<String>,
}

impl Db {
    pub fn new(items: u32, stock: u32) -> Db {
        Db {
            orders: Vec::new(),
            stock: vec![i64::from(stock); items.max(1) as usize],
            handled: HashSet::new(),
        }
    }

    /// Inserts an order and reserves one unit of its item; returns its id.
    pub fn create(&mut self, now_ms: u64, timeout_ms: u64) -> u32 {
        let id = self.orders.len() as u32 + 1;
        let item = (id - 1) % self.stock.len() as u32;
        self.stock[item as usize] -= 1;
        self.orders.push(Order {
            id,
            item,
            status: Status::WaitingPay,
            created_ms: now_ms,
            deadline_ms: now_ms.saturating_add(timeout_ms),
            paid_ms: None,
            ended_ms: None,
            stock_held: true,
            mistake_msg: None,
            released_twice: false,
        });
        id
    }

    pub fn get(&self, id: u32) -> Option<&Order> {
        self.orders.get((id as usize).checked_sub(1)?)
    }

    fn get_mut(&mut self, id: u32) -> Option<&mut Order> {
        self.orders.get_mut((id as usize).checked_sub(1)?)
    }

    /// `UPDATE orders SET status='PAID' WHERE id=? AND status='WAITING_PAY'`.
    pub fn pay(&mut self, id: u32, now_ms: u64) -> bool {
        match self.get_mut(id) {
            Some(o) if o.status == Status::WaitingPay => {
                o.status = Status::Paid;
                o.paid_ms = Some(now_ms);
                true
            }
            _ => false,
        }
    }

    /// The user cancels an unpaid order: CANCELED. Stock is released by the caller.
    pub fn cancel(&mut self, id: u32, now_ms: u64) -> bool {
        match self.get_mut(id) {
            Some(o) if o.status == Status::WaitingPay => {
                o.status = Status::Canceled;
                o.ended_ms = Some(now_ms);
                true
            }
            _ => false,
        }
    }

    /// `UPDATE orders SET status='CLOSED' WHERE id=?` (with `only_waiting`: `AND
    /// status='WAITING_PAY'`). None when no row was affected.
    pub fn close(&mut self, id: u32, now_ms: u64, only_waiting: bool) -> Option<CloseResult> {
        let o = self.get_mut(id)?;
        if only_waiting && o.status != Status::WaitingPay {
            return None;
        }
        let was = o.status;
        o.status = Status::Closed;
        if o.ended_ms.is_none() || was != Status::Closed {
            o.ended_ms = Some(now_ms);
        }
        Some(CloseResult { was })
    }

    /// Gives one unit back to stock. Returns false when the order no longer held one:
    /// the unit is given back anyway (that is the bug), and stock is now overstated.
    pub fn release_stock(&mut self, id: u32) -> Option<(u32, bool)> {
        let o = self.get_mut(id)?;
        let first = std::mem::replace(&mut o.stock_held, false);
        if !first {
            o.released_twice = true;
        }
        let item = o.item;
        self.stock[item as usize] += 1;
        Some((item, first))
    }

    /// `INSERT INTO handled (key)`: false if the key was there (unique index).
    pub fn record_once(&mut self, key: &str) -> bool {
        self.handled.insert(key.to_string())
    }

    /// Orders whose status is WAITING_PAY and deadline passed (the scan's query).
    pub fn overdue(&self, now_ms: u64) -> Vec<u32> {
        self.orders
            .iter()
            .filter(|o| o.status == Status::WaitingPay && o.deadline_ms <= now_ms)
            .map(|o| o.id)
            .collect()
    }

    pub fn waiting(&self) -> usize {
        self.orders
            .iter()
            .filter(|o| o.status == Status::WaitingPay)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditional_close_of_a_paid_order_affects_no_row() {
        let mut db = Db::new(1, 10);
        let id = db.create(0, 1000);
        assert!(db.pay(id, 500));
        assert_eq!(db.close(id, 1000, true), None);
        assert_eq!(
            db.close(id, 1000, false),
            Some(CloseResult { was: Status::Paid })
        );
    }

    #[test]
    fn second_release_is_flagged_and_overstates_stock() {
        let mut db = Db::new(1, 10);
        let id = db.create(0, 1000);
        assert_eq!(db.stock[0], 9);
        assert_eq!(db.release_stock(id), Some((0, true)));
        assert_eq!(db.release_stock(id), Some((0, false)));
        assert_eq!(db.stock[0], 11);
        assert!(db.get(id).unwrap().released_twice);
    }
}
