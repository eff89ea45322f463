//! Returning a delivered message to its queue: counting, the quorum delivery limit,
//! the position it goes back to, and 4.3's delayed retry. The version rules come from
//! `version::Profile` (rows D8-D13, D16 of rabbitmq-versions.md).
//!
//! - Classic queues: back to the original position, every version.
//! - Quorum queues: each return raises the acquired count; a failed delivery
//!   (basic.reject requeue=true, a channel or connection loss) also the failed count.
//!   The limit compares the profile's counter (3.x and 4.0-4.2: every return; 4.3:
//!   failed ones only); over it, the message is dead-lettered as `delivery_limit`.
//! - Position: with a limit, served first (3.10 without one: the back); 4.3 always
//!   first; a channel close returns to the front in every version (D13).
//! - 4.3 delayed retry (`x-delayed-retry-type` all/failed/returned, `-min`, `-max`):
//!   the return is held aside for `min(min × max(1, failed count), max)` ms, then goes
//!   to the back of the returns (`sim/hold.rs`, the mechanism 4.4's delivery time
//!   shares). Not deliverable and not expiring meanwhile. A return is never held by its
//!   `x-opt-delivery-time` (D41): that header holds a message at its arrival only.
//!
//! `Requeued` says until when a delayed retry holds it (`held`); a `delivery_limit`
//! death names the count and the limit. A copy whose TTL passed while it was unacked or
//! held is marked (`Entry::away_at_ttl`): only a message in the queue expires, so that
//! is why its expiry comes late.
//!
//! ```text
//! 4.0, default limit 20, consumer nacks m every time:
//!   deliveries 1..21 (x-delivery-count 1..20 on redeliveries), the 21st nack:
//!   dead-lettered as delivery_limit
//! 4.3 same: never dead-lettered (nack is not a failure), x-acquired-count 1, 2, ...
//! 4.3 delayed retry failed, min 1000, max 5000: t0 delivered, t10 reject-requeue
//!   (failed 1) -> ready t1010; t1020 reject-requeue (failed 2) -> ready t3020
//! ```

use super::Sim;
use crate::cause::{HeldBy, Hold, LimitHit};
use crate::death::Reason;
use crate::event::EventKind;
use crate::ids::QueueId;
use crate::queue::{Away, Entry};
use crate::version::{DelayedRetryKind, QuorumRequeue, ReturnCounting};

/// How a delivery came back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ReturnKind {
    /// basic.nack requeue=true.
    Nack,
    /// basic.reject requeue=true (a failed delivery in 4.3).
    Reject,
    /// The consumer's channel or connection closed with it unacked (failed in 4.3).
    ChannelLoss,
    /// 4.3's quorum consumer timeout returned it (a return, not a failure: D9, D21).
    Timeout,
}

impl Sim {
    /// Puts a delivered entry back (see the module docs).
    pub(crate) fn requeue(&mut self, qid: QueueId, mut entry: Entry, kind: ReturnKind) {
        let profile = self.profile;
        let now = self.now_ms();
        let q = self.queue_mut(qid).expect("queue");
        let qname = q.name;
        entry.redelivered = true;
        if entry.away_at_ttl == Away::No && now >= entry.expires_at_ms {
            // Its TTL passed while it was unacked: it expires once it is the head again.
            entry.away_at_ttl = Away::Unacked;
        }
        if !q.is_quorum() {
            self.emit(EventKind::Requeued {
                msg: entry.msg.id,
                copy: entry.copy,
                queue: qname,
                held: None,
            });
            self.queue_mut(qid).expect("queue").requeue_in_place(entry);
            return;
        }
        let failed = matches!(kind, ReturnKind::Reject | ReturnKind::ChannelLoss);
        entry.returns += 1;
        if failed {
            entry.failed += 1;
        }
        let counter = match profile.return_counting {
            ReturnCounting::EveryReturn | ReturnCounting::Acquired => entry.returns,
            ReturnCounting::FailedOnly => entry.failed,
        };
        let limit = q.rules.delivery_limit;
        let retry = q.rules.delayed_retry;
        if let Some(l) = limit.filter(|l| i64::from(counter) > *l) {
            let hit = LimitHit::Delivery {
                count: counter,
                limit: l,
                failed_only: profile.return_counting == ReturnCounting::FailedOnly,
            };
            let copy = Some(entry.copy);
            return self.dead_letter(qid, entry.msg, Reason::DeliveryLimit, copy, Some(hit));
        }
        let now = self.now_ms();
        // 4.3 delayed retry: whether this return is held aside, and until when (said on
        // the event, so a view can show the hold without re-deriving the rule).
        let held = retry.and_then(|retry| {
            let delay = match retry.kind {
                DelayedRetryKind::All => true,
                DelayedRetryKind::Failed => failed,
                DelayedRetryKind::Returned => !failed,
            };
            delay.then(|| Hold {
                until_ms: now.saturating_add(retry.delay_ms(entry.failed)),
                by: HeldBy::DelayedRetry,
            })
        });
        self.emit(EventKind::Requeued {
            msg: entry.msg.id,
            copy: entry.copy,
            queue: qname,
            held,
        });
        if let Some(hold) = held {
            return self.hold(qid, entry, hold);
        }
        let q = self.queue_mut(qid).expect("queue");
        let front = match profile.quorum_requeue {
            QuorumRequeue::AlwaysFront => true,
            // A closing channel or connection returns what it held to the front in every
            // version (`rabbit_fifo:return_all`, D13; live 3.10.8, 4.0.5 and 4.3.6:
            // tests/conformance/v13-quorum-expiry-behind-return.json).
            QuorumRequeue::FrontIfLimited => limit.is_some() || kind == ReturnKind::ChannelLoss,
        };
        if front {
            q.push_return(entry);
        } else {
            q.push_back(entry);
        }
    }
}
