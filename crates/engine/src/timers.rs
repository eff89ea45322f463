//! The simulation's one timer queue, ordered by (time, sequence).
//!
//! Timers are never cancelled: the owner records what it armed (e.g. a queue's
//! `head_timer_at_ms`) and ignores a timer that no longer matches when it fires. That
//! keeps cancellation O(1) and the heap the only source of ordering. Two timers at the
//! same millisecond fire in the order they were armed (FIFO), which is what makes every
//! run of the same scenario identical, with one exception: a scenario action (the
//! outside world: a publish, a declare, a node stop) fires after every broker timer of
//! its millisecond, including those armed while that millisecond is processed. The
//! world acts on the broker as it stands once everything due at that time has happened,
//! which is what a user pressing a button in the paused playground does, so a session
//! recorded into a scenario replays the same:
//! ```text
//! armed at load: action "publish m2" at 30:00; later, m1's head expiry at 30:00
//! FIFO alone:    publish m2, expire m1       (m2 was armed first)
//! actions last:  expire m1, publish m2       (as the user saw it: Step to 30:00, publish)
//! ```

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::ids::{ConsumerId, CopyId, QueueId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Timer {
    /// Run `plan[action]` for the `run`-th time (0-based).
    Action {
        action: u32,
        run: u32,
    },
    /// The head of this queue may have expired.
    QueueHead(QueueId),
    /// `x-expires`: the queue may have been unused long enough.
    QueueExpiry(QueueId),
    /// A consumer finished handling a delivery and applies its outcome. `delivery`
    /// identifies that one delivery: a copy requeued and delivered again meanwhile has a
    /// new one, so this timer is then stale.
    Handled {
        consumer: ConsumerId,
        copy: CopyId,
        queue: QueueId,
        delivery: u64,
        /// Microseconds past the millisecond at which the answer reaches the broker
        /// (cost modes, `costs::round_trip`; 0 in ideal mode).
        rem_us: u16,
    },
    /// D21: a manual-ack delivery reaches the consumer timeout (`sim/ack_timeout.rs`);
    /// stale unless that delivery is still unacked.
    AckTimeout {
        consumer: ConsumerId,
        copy: CopyId,
        queue: QueueId,
        delivery: u64,
        delivered_at_ms: u64,
    },
    ConsumerAttach(ConsumerId),
    ConsumerDetach(ConsumerId),
    /// The client of a consumer the broker closed or cancelled subscribes again
    /// (`reconnect`, `sim/client.rs`).
    Resubscribe(ConsumerId),
    /// The delayed store's earliest message may be due.
    DelayedDue,
    /// The node comes back after a restart.
    NodeUp,
    /// A quorum queue's earliest held message (delayed retry, `x-opt-delivery-time`)
    /// may be due (`sim/hold.rs`).
    HoldRelease(QueueId),
    /// At-least-once dead-lettering: the source queue's worker publishes again what no
    /// target confirmed (`sim/dead_letter_retry.rs`).
    DeadLetterRetry(QueueId),
    /// Cost modes: the publishing channel takes the publish at the head of its queue
    /// (`costs::ingress`).
    Ingress,
    /// Cost modes: a consumer of this queue is free again (`costs::delivery`).
    CostWake(QueueId),
    /// The order-timeout lab's own timers (orders created, paid, scans, faults).
    Order(crate::orders::LabTimer),
}

#[derive(Debug, Default)]
pub struct Timers {
    heap: BinaryHeap<Reverse<Armed>>,
    next_seq: u64,
}

/// A timer in the heap, ordered by its key alone: time, then class (0 broker, 1
/// action), then sequence, packed into one `u128` (time in the high 64 bits, the class
/// in the top bit of the low ones, the sequence below it). The sequence is unique, so
/// the timer itself is never compared; one integer compare per heap step, not a tuple's
/// three and a derived one on `Timer` (a timer is armed and fired per message in
/// `delaylab bench`).
#[derive(Debug)]
struct Armed {
    key: u128,
    timer: Timer,
}

/// The sequence's share of the low 64 bits; the bit above it is the class.
const SEQ_BITS: u32 = 63;

impl PartialEq for Armed {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for Armed {}

impl PartialOrd for Armed {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Armed {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

impl Armed {
    fn at_ms(&self) -> u64 {
        (self.key >> 64) as u64
    }
}

impl Timers {
    pub fn arm(&mut self, at_ms: u64, timer: Timer) {
        let class = u64::from(matches!(timer, Timer::Action { .. }));
        // 2^63 timers would take centuries at a billion a second (`Limits::max_steps`
        // stops a run long before).
        debug_assert!(self.next_seq < 1 << SEQ_BITS, "fewer than 2^63 timers");
        let low = class << SEQ_BITS | self.next_seq;
        let key = u128::from(at_ms) << 64 | u128::from(low);
        self.heap.push(Reverse(Armed { key, timer }));
        self.next_seq += 1;
    }

    /// The time of the earliest timer.
    pub fn next_at_ms(&self) -> Option<u64> {
        self.heap.peek().map(|Reverse(a)| a.at_ms())
    }

    /// Removes and returns the earliest timer if it is due at or before `now_ms`.
    pub fn pop_due(&mut self, now_ms: u64) -> Option<(u64, Timer)> {
        match self.heap.peek() {
            Some(Reverse(a)) if a.at_ms() <= now_ms => {
                self.heap.pop().map(|Reverse(a)| (a.at_ms(), a.timer))
            }
            _ => None,
        }
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_time_fires_in_arm_order() {
        let mut t = Timers::default();
        t.arm(5, Timer::NodeUp);
        t.arm(5, Timer::DelayedDue);
        t.arm(3, Timer::QueueHead(QueueId(1)));
        assert_eq!(t.pop_due(10), Some((3, Timer::QueueHead(QueueId(1)))));
        assert_eq!(t.pop_due(10), Some((5, Timer::NodeUp)));
        assert_eq!(t.pop_due(10), Some((5, Timer::DelayedDue)));
        assert_eq!(t.pop_due(10), None);
    }

    #[test]
    fn actions_fire_after_broker_timers_of_their_millisecond() {
        let mut t = Timers::default();
        let publish = Timer::Action { action: 0, run: 0 };
        t.arm(5, publish);
        t.arm(5, Timer::QueueHead(QueueId(0)));
        t.arm(4, Timer::Action { action: 1, run: 0 });
        assert_eq!(
            t.pop_due(10),
            Some((4, Timer::Action { action: 1, run: 0 }))
        );
        assert_eq!(t.pop_due(10), Some((5, Timer::QueueHead(QueueId(0)))));
        // Armed while 5 is processed, still before the action.
        t.arm(5, Timer::DelayedDue);
        assert_eq!(t.pop_due(10), Some((5, Timer::DelayedDue)));
        assert_eq!(t.pop_due(10), Some((5, publish)));
    }

    #[test]
    fn not_due_is_not_popped() {
        let mut t = Timers::default();
        t.arm(500, Timer::NodeUp);
        assert_eq!(t.pop_due(499), None);
        assert_eq!(t.next_at_ms(), Some(500));
        assert_eq!(t.pop_due(500), Some((500, Timer::NodeUp)));
    }
}
