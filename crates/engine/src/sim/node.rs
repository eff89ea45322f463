//! The node going away: a restart, or the loss of the node for good.
//!
//! Restart (`restart_node`, with a downtime):
//! ```text
//! t       node down: consumers disconnected (unacked requeued), non-durable queues and
//!         exchanges gone, transient messages in classic queues lost; quorum queues
//!         keep everything; the delayed store is on disk and survives
//! ...     publishes fail (connection refused), nothing expires or goes out
//! t+down  node up: expired heads leave at once, overdue delayed messages go out at
//!         once in due order, consumers re-attach (client auto-recovery)
//! ```
//! Loss (`lose_node`): the node that held the delayed store and the classic queues'
//! contents is gone for good. Its messages are lost (`node_lost`). The cluster's
//! metadata (exchanges, queues, bindings) and quorum queues, replicated on the other
//! members, survive; consumers reconnect to a surviving member at once.

use super::Sim;
use crate::cause::DropCause;
use crate::event::{DropReason, EventKind};
use crate::ids::{ConsumerId, QueueId};
use crate::timers::Timer;

#[derive(Debug, Clone)]
pub(crate) struct Downtime {
    /// Consumers that were attached when the node went down (they re-attach).
    pub reconnect: Vec<ConsumerId>,
    /// The version the node comes back on (an `upgrade`, `sim/upgrade.rs`).
    pub upgrade_to: Option<crate::version::BrokerVersion>,
}

impl Sim {
    pub(crate) fn restart_node(&mut self, downtime_ms: u64) {
        if !self.node_up {
            return; // already down
        }
        self.emit(EventKind::NodeDown { lost: false });
        self.node_up = false;
        self.down_at_ms = self.now_ms();
        let reconnect = self.disconnect_consumers();
        let doomed: Vec<QueueId> = self
            .queues()
            .filter(|q| !q.durable || q.exclusive)
            .map(|q| q.id)
            .collect();
        for qid in doomed {
            self.delete_queue(qid, false);
        }
        let transient: Vec<QueueId> = self
            .queues()
            .filter(|q| !q.is_quorum())
            .map(|q| q.id)
            .collect();
        for qid in transient {
            self.drop_transient(qid);
        }
        let gone: Vec<_> = self
            .exchanges
            .values()
            .filter(|x| !x.durable && !x.builtin)
            .map(|x| x.name)
            .collect();
        for x in gone {
            let name = self.syms.str(x).to_string();
            self.delete(&crate::scenario::Delete::Exchange { name });
        }
        self.downtime = Some(Downtime {
            reconnect,
            upgrade_to: None,
        });
        self.arm(self.now_ms().saturating_add(downtime_ms), Timer::NodeUp);
    }

    pub(crate) fn node_up_again(&mut self) {
        let Some(down) = self.downtime.take() else {
            return;
        };
        if let Some(to) = down.upgrade_to {
            self.come_back_as(to);
        }
        self.node_up = true;
        self.last_downtime = Some((self.down_at_ms, self.now_ms()));
        self.emit(EventKind::NodeUp);
        let ids: Vec<QueueId> = self.queues().map(|q| q.id).collect();
        for qid in &ids {
            self.expire_head(*qid);
            self.arm_queue_expiry(*qid);
            self.arm_hold_timer(*qid); // held messages: what fell due meanwhile (D43)
        }
        self.on_delayed_timer();
        for cid in down.reconnect {
            self.attach_consumer(cid);
        }
        for qid in ids {
            self.try_deliver(qid);
        }
    }

    pub(crate) fn lose_node(&mut self) {
        self.emit(EventKind::NodeDown { lost: true });
        let was_up = std::mem::replace(&mut self.node_up, false);
        let reconnect = self.disconnect_consumers();
        for (_, copy, stored) in self.delayed.take_all() {
            self.emit(EventKind::Dropped {
                msg: stored.msg.id,
                copy: Some(copy),
                queue: None,
                reason: DropReason::NodeLost,
                why: DropCause::Plain,
            });
            self.end_copy();
        }
        let classic: Vec<QueueId> = self
            .queues()
            .filter(|q| !q.is_quorum())
            .map(|q| q.id)
            .collect();
        for qid in classic {
            self.drop_ready(qid, DropReason::NodeLost);
        }
        self.node_up = was_up;
        self.emit(EventKind::NodeUp);
        for cid in reconnect {
            self.attach_consumer(cid);
        }
        let ids: Vec<QueueId> = self.queues().map(|q| q.id).collect();
        for qid in ids {
            self.try_deliver(qid);
        }
    }

    /// Detaches every attached consumer (connections closed); returns who to re-attach.
    fn disconnect_consumers(&mut self) -> Vec<ConsumerId> {
        let attached: Vec<ConsumerId> = (0..self.consumers.len() as u32)
            .map(ConsumerId)
            .filter(|c| self.consumers[c.0 as usize].attached.is_some())
            .collect();
        for cid in &attached {
            self.detach_consumer(*cid, false);
        }
        attached
    }

    /// A classic queue loses its transient (non-persistent) messages on restart.
    fn drop_transient(&mut self, qid: QueueId) {
        let q = self.queue_mut(qid).expect("queue");
        let qname = q.name;
        let lost = q.retain_ready(|e| e.msg.is_persistent());
        q.head_timer_at_ms = None;
        for e in lost {
            self.emit(EventKind::Dropped {
                msg: e.msg.id,
                copy: Some(e.copy),
                queue: Some(qname),
                reason: DropReason::NodeLost,
                why: DropCause::Plain,
            });
            self.end_copy();
        }
    }
}
