//! Consumer policies: what the consumer does with a "close order" message, against the
//! database, in two steps. The read happens when the message is delivered, the write
//! when handling ends (`handle` ms later), so a payment can land in between:
//!
//! ```text
//! policy              at delivery          at the end of handling          queries
//! naive               -                    UPDATE SET CLOSED               1 (+1 stock)
//! check_state         SELECT status        if read WAITING_PAY: UPDATE     2 (+1)
//! conditional_update  SELECT status        UPDATE ... WHERE WAITING_PAY    2 (+1)
//! idempotent          SELECT status        INSERT key (unique), then as ^  3 (+1)
//!
//! check_state, read at 30:00.000 WAITING_PAY, paid at 30:00.050, update at 30:00.100:
//!   the paid order is closed (the read was stale)     conditional_update: 0 rows
//! ```
//! A policy that reads also sees that a message came before the order's deadline
//! (clock skew) and then republishes it for the rest of the time, or ignores it.

use super::event::Skip;
use super::model::{Db, Status};
use crate::scenario::orders::{Early, Policy};

/// What the consumer read at delivery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Read {
    pub status: Status,
    /// The time left before the deadline, if the message came early.
    pub early_ms: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The row was updated to CLOSED (it was `was`); stock is released next.
    Closed {
        was: Status,
    },
    Skipped(Skip),
}

/// The read at delivery (None for naive, which reads nothing). Counts its query.
pub fn read(policy: Policy, db: &Db, order: u32, now_ms: u64, queries: &mut u64) -> Option<Read> {
    if !policy.reads_first() {
        return None;
    }
    *queries += 1;
    db.get(order).map(|o| Read {
        status: o.status,
        early_ms: o.deadline_ms.saturating_sub(now_ms),
    })
}

/// The write at the end of handling. `key` is the message's idempotency key.
pub fn close(
    (policy, early): (Policy, Early),
    db: &mut Db,
    order: u32,
    key: &str,
    read: Option<Read>,
    now_ms: u64,
    queries: &mut u64,
) -> Decision {
    if policy == Policy::Idempotent {
        *queries += 1; // INSERT INTO handled: a duplicate key fails here
        if db.handled.contains(key) {
            return Decision::Skipped(Skip::Duplicate);
        }
    }
    if let Some(r) = read {
        if r.status != Status::WaitingPay {
            if policy == Policy::Idempotent {
                db.record_once(key);
            }
            return Decision::Skipped(Skip::NotWaiting(r.status));
        }
        if r.early_ms > 0 {
            // Not yet due: the idempotency record is not written, the message comes back.
            return Decision::Skipped(match early {
                Early::Ignore => Skip::EarlyIgnored,
                Early::Republish => Skip::EarlyRepublished {
                    delay_ms: r.early_ms,
                },
            });
        }
    }
    *queries += 1; // the UPDATE
    let conditional = matches!(policy, Policy::ConditionalUpdate | Policy::Idempotent);
    let result = db.close(order, now_ms, conditional);
    if policy == Policy::Idempotent {
        db.record_once(key);
    }
    match result {
        Some(r) => Decision::Closed { was: r.was },
        None => Decision::Skipped(Skip::NotWaiting(
            db.get(order).map_or(Status::Closed, |o| o.status),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paid_between_read_and_update(policy: Policy) -> Decision {
        let mut db = Db::new(1, 10);
        let id = db.create(0, 1000);
        let mut q = 0;
        let r = read(policy, &db, id, 1000, &mut q);
        db.pay(id, 1000);
        close(
            (policy, Early::Republish),
            &mut db,
            id,
            "k",
            r,
            1000,
            &mut q,
        )
    }

    #[test]
    fn a_payment_between_read_and_update() {
        assert_eq!(
            paid_between_read_and_update(Policy::Naive),
            Decision::Closed { was: Status::Paid }
        );
        assert_eq!(
            paid_between_read_and_update(Policy::CheckState),
            Decision::Closed { was: Status::Paid }
        );
        let safe = Decision::Skipped(Skip::NotWaiting(Status::Paid));
        assert_eq!(
            paid_between_read_and_update(Policy::ConditionalUpdate),
            safe
        );
        assert_eq!(paid_between_read_and_update(Policy::Idempotent), safe);
    }

    #[test]
    fn idempotent_skips_the_second_message_with_the_same_key() {
        let mut db = Db::new(1, 10);
        let id = db.create(0, 1000);
        let mut q = 0;
        let r = read(Policy::Idempotent, &db, id, 1000, &mut q);
        assert_eq!(
            close(
                (Policy::Idempotent, Early::Ignore),
                &mut db,
                id,
                "k",
                r,
                1000,
                &mut q
            ),
            Decision::Closed {
                was: Status::WaitingPay
            }
        );
        let r = read(Policy::Idempotent, &db, id, 1000, &mut q);
        assert_eq!(
            close(
                (Policy::Idempotent, Early::Ignore),
                &mut db,
                id,
                "k",
                r,
                1000,
                &mut q
            ),
            Decision::Skipped(Skip::Duplicate)
        );
        assert_eq!(q, 5);
    }

    #[test]
    fn early_message_is_noticed_only_by_a_policy_that_reads() {
        let mut db = Db::new(1, 10);
        let id = db.create(0, 1000);
        let mut q = 0;
        let r = read(Policy::CheckState, &db, id, 400, &mut q);
        assert_eq!(
            close(
                (Policy::CheckState, Early::Republish),
                &mut db,
                id,
                "k",
                r,
                400,
                &mut q
            ),
            Decision::Skipped(Skip::EarlyRepublished { delay_ms: 600 })
        );
        assert_eq!(
            close(
                (Policy::Naive, Early::Republish),
                &mut db,
                id,
                "k",
                None,
                400,
                &mut q
            ),
            Decision::Closed {
                was: Status::WaitingPay
            }
        );
    }
}
