//! The compensation scan: every N minutes, close the unpaid orders past their deadline
//! that no message closed (a lost message, a lost node, an ignored early message).
//!
//! ```text
//! SELECT id FROM orders WHERE status = 'WAITING_PAY' AND deadline <= now   (index on status:
//!                                                          every WAITING_PAY row is read)
//! UPDATE orders SET status = 'CLOSED' WHERE id = ? AND status = 'WAITING_PAY'   per row
//! ```
//! It is always a conditional update: the scan runs beside the consumers.

use super::model::{CloseResult, Db};

pub struct ScanResult {
    pub rows_scanned: u64,
    pub queries: u64,
    /// Orders it closed, in id order.
    pub closed: Vec<u32>,
}

pub fn run(db: &mut Db, now_ms: u64) -> ScanResult {
    let rows_scanned = db.waiting() as u64;
    let mut queries = 1;
    let mut closed = Vec::new();
    for id in db.overdue(now_ms) {
        queries += 1;
        if let Some(CloseResult { .. }) = db.close(id, now_ms, true) {
            closed.push(id);
        }
    }
    ScanResult {
        rows_scanned,
        queries,
        closed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closes_only_overdue_unpaid_orders() {
        let mut db = Db::new(1, 10);
        let a = db.create(0, 1000);
        let b = db.create(0, 1000);
        let c = db.create(500, 1000);
        db.pay(b, 10);
        let r = run(&mut db, 1200);
        assert_eq!(r.closed, vec![a]);
        assert_eq!(r.rows_scanned, 2); // a and c are WAITING_PAY
        assert_eq!(r.queries, 2);
        assert_eq!(db.waiting(), 1);
        let _ = c;
    }
}
