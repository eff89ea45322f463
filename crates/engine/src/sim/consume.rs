//! Consumers: delivery, acknowledgement, rejection and requeue.
//!
//! - Delivery is round-robin over the attached consumers that have capacity (prefetch
//!   counts unacked deliveries; auto-ack consumers are never limited). Expired heads
//!   leave before anything is delivered, so an expired message is never delivered.
//! - A manual-ack consumer holds each delivery for `handle` ms, then applies its
//!   outcome: ack, reject (requeue=false: dead-lettered as `rejected`), or nack with
//!   requeue (redelivered with `redelivered=true`, no x-death).
//! - Unacked messages never expire. Requeued, they keep their expiry: one whose TTL
//!   passed meanwhile is dead-lettered as `expired` as soon as it is the head.
//! - Requeue position: classic queues put it back where it was; quorum queues (3.10)
//!   append it at the back, or, with `x-delivery-limit`, serve it first and dead-letter
//!   it as `delivery_limit` once returned more than the limit (other versions:
//!   `sim/returns.rs`, which holds the requeue rules).
//!
//! - A consumer that goes away (`to` or a stop, a node restart, a process that crashed:
//!   the order lab's `crash_before_ack`) closes its channel, which requeues every
//!   unacked delivery of that consumer, in delivery order (rabbit_fifo `return_all`
//!   sorts by the consumer's message id), by the same rules, with no `basic.reject` on
//!   the wire. Their handling timers are stale from then on. A new channel starts its
//!   delivery tags at 1.
//!
//! ```text
//! m1..m4 published, m1 m2 m3 delivered, m2 nacked with requeue:
//!   classic: next deliveries m2, m4      quorum (3.10): m4, m2
//! classic, prefetch 3, m1 m2 m3 delivered (tags 1 2 3), the process dies after
//! handling m1, before its ack:
//!   consumer_detached, requeued m1 m2 m3 (no rejected); queue [m1 m2 m3 m4];
//!   after its restart: consumer_attached, m1 m2 m3 delivered again, redelivered=true,
//!   tags 1 2 3
//! ```

use super::Sim;
use crate::cause::DropCause;
use crate::death::Reason;
use crate::event::{DropReason, EventKind};
use crate::ids::{ConsumerId, CopyId, QueueId};
use crate::queue::{Entry, Unacked};
use crate::scenario::{ConsumerSpec, Outcome};
use crate::timers::Timer;

use super::orders::LabEnd;
use super::returns::ReturnKind;

impl Sim {
    pub(crate) fn add_consumer(&mut self, spec: ConsumerSpec) {
        let id = ConsumerId(self.consumers.len() as u32);
        let queue = self.sym(&spec.queue);
        let (from, to) = (spec.from_ms.max(self.now_ms()), spec.to_ms);
        self.consumers
            .push(crate::consumer::Consumer::new(spec, queue));
        self.arm(from, Timer::ConsumerAttach(id));
        if let Some(to) = to {
            self.arm(to.max(from), Timer::ConsumerDetach(id));
        }
    }

    pub(crate) fn attach_consumer(&mut self, cid: ConsumerId) {
        let c = &self.consumers[cid.0 as usize];
        if c.stopped || c.attached.is_some() || self.lab_keeps_away(cid) {
            return; // the lab's restart or outage end attaches it when its time comes
        }
        if !self.node_up {
            // The client retries; it gets in when the node is back.
            if let Some(down) = self.downtime.as_mut() {
                down.reconnect.push(cid);
            }
            return;
        }
        let qname = c.queue_name;
        let Some(qid) = self.queue_id(qname) else {
            let text = format!(
                "NOT_FOUND - no queue '{}' in vhost '/'",
                self.syms.str(qname)
            );
            return self.refuse_consume(404, text, crate::amqp::ErrorScope::Channel);
        };
        if c.spec.global_qos
            && self.profile.global_qos_honoured
            && self.queue(qid).is_some_and(|q| q.is_quorum())
        {
            // D25: a quorum queue cannot honour a channel-wide limit, and says so by
            // closing the connection (`rabbit_quorum_queue:consume/3`; live 3.10.8, 4.0.5).
            let text = format!(
                "NOT_IMPLEMENTED - queue '{}' in vhost '/' does not support global qos",
                self.syms.str(qname)
            );
            return self.refuse_consume(540, text, crate::amqp::ErrorScope::Connection);
        }
        // A (re)attach is a new channel: delivery tags start again at 1, its tick now.
        let now = self.now_ms();
        let c = &mut self.consumers[cid.0 as usize];
        c.attached = Some(qid);
        c.next_tag = 1;
        c.on_attach(now);
        let q = self.queue_mut(qid).expect("queue exists");
        q.consumers.push(cid);
        q.last_used_ms = now;
        self.emit(EventKind::ConsumerAttached {
            consumer: cid,
            queue: qname,
        });
        self.try_deliver(qid);
    }

    /// The broker refuses a consumer's `basic.consume`: the error closes its channel or
    /// connection, and it stays unattached.
    fn refuse_consume(&mut self, code: u16, text: String, scope: crate::amqp::ErrorScope) {
        self.emit(EventKind::Error {
            msg: None,
            code,
            text: text.into(),
            scope,
            subject: None,
            cause: None,
        });
    }

    /// Cancels the consumer; its unacked deliveries are requeued (as a channel close
    /// does). `stop` also keeps it from attaching again after a node restart.
    pub(crate) fn detach_consumer(&mut self, cid: ConsumerId, stop: bool) {
        let c = &mut self.consumers[cid.0 as usize];
        c.stopped |= stop;
        let Some(qid) = c.attached.take() else { return };
        c.unacked = 0;
        let now = self.now_ms();
        let q = self.queue_mut(qid).expect("attached queue exists");
        // Not consuming any more if 4.3's consumer timeout cancelled it (its channel
        // stayed open with what it held): that was said then, not again.
        let consuming = q.consumers.contains(&cid);
        q.consumers.retain(|x| *x != cid);
        q.next_consumer = 0;
        q.last_used_ms = now;
        let qname = q.name;
        let held = held_in_delivery_order(q, cid);
        if consuming {
            self.emit(EventKind::ConsumerDetached {
                consumer: cid,
                queue: qname,
            });
        }
        for copy in held {
            let u = self
                .queue_mut(qid)
                .expect("queue")
                .unacked
                .remove(&copy)
                .expect("held");
            self.lab_forget(copy);
            self.requeue(qid, u.entry, ReturnKind::ChannelLoss);
        }
        if self
            .queue(qid)
            .is_some_and(|q| q.auto_delete && q.consumers.is_empty())
        {
            // An auto-delete queue goes with its last consumer (messages are dropped).
            return self.delete_queue(qid, false);
        }
        self.expire_head(qid);
        self.arm_queue_expiry(qid);
        self.try_deliver(qid);
    }

    /// Hands ready messages to consumers with capacity, round-robin.
    pub(crate) fn try_deliver(&mut self, qid: QueueId) {
        loop {
            let Some(q) = self.queue(qid) else { return };
            let expired = |sim: &Sim| {
                sim.queue(qid)
                    .and_then(|q| q.head())
                    .is_some_and(|h| h.expires_at_ms <= sim.now_ms())
            };
            if expired(self) {
                self.expire_head(qid);
                if expired(self) {
                    return; // still dead-lettering (cost modes): nothing behind goes first
                }
                continue;
            }
            if q.head().is_none() || !self.node_up {
                return;
            }
            let Some(cid) = self.pick_consumer(qid) else {
                return self.wake_when_free(qid);
            };
            let entry = self
                .queue_mut(qid)
                .expect("queue")
                .pop_head()
                .expect("head");
            self.deliver(qid, cid, entry);
            self.expire_head(qid);
        }
    }

    /// A message arriving at a queue with no ready messages goes straight to a
    /// consumer with capacity, whatever its TTL. Hands the entry back if nobody can
    /// take it (rather than taking a clone: an `Rc` count up and down per arrival).
    pub(crate) fn deliver_direct(&mut self, qid: QueueId, entry: Entry) -> Result<(), Entry> {
        if !self.node_up || self.queue(qid).is_none_or(|q| q.head().is_some()) {
            return Err(entry);
        }
        match self.pick_consumer(qid) {
            Some(cid) => {
                self.deliver(qid, cid, entry);
                Ok(())
            }
            None => {
                self.wake_when_free(qid);
                Err(entry)
            }
        }
    }

    fn pick_consumer(&mut self, qid: QueueId) -> Option<ConsumerId> {
        let q = self.queue(qid)?;
        let n = q.consumers.len();
        let start = q.next_consumer;
        let found = (0..n).map(|i| (start + i) % n).find(|&i| {
            let cid = q.consumers[i];
            self.consumers[cid.0 as usize].has_capacity() && self.consumer_ready(cid)
        })?;
        let cid = q.consumers[found];
        self.queue_mut(qid).expect("queue").next_consumer = (found + 1) % n;
        Some(cid)
    }

    fn deliver(&mut self, qid: QueueId, cid: ConsumerId, entry: Entry) {
        let now = self.now_ms();
        let handle_ms = self.hold_ms(cid, &entry.msg);
        let (handled_at_ms, rem_us) = self.delivery_times(cid, handle_ms);
        let c = &mut self.consumers[cid.0 as usize];
        let tag = c.next_tag;
        c.next_tag += 1;
        let auto = c.auto_ack();
        let q = self.queue_mut(qid).expect("queue");
        q.last_used_ms = now;
        let qname = q.name;
        let (returns, acquired) = self.profile.delivery_headers(entry.returns, entry.failed);
        self.emit(EventKind::Delivered {
            msg: entry.msg.clone(),
            copy: entry.copy,
            queue: qname,
            consumer: Some(cid),
            redelivered: entry.redelivered,
            delivery_tag: tag,
            returns,
            acquired,
        });
        if auto {
            self.emit(EventKind::Acked {
                msg: entry.msg.id,
                copy: entry.copy,
                queue: qname,
                consumer: Some(cid),
            });
            self.end_copy();
            return;
        }
        let outcome = match self.lab_on_delivery(cid, &entry) {
            Some(o) => o, // the order-timeout lab decides at the end of handling
            None => self.consumers[cid.0 as usize].next_outcome(&mut self.rng),
        };
        self.consumers[cid.0 as usize].on_hold(now);
        let copy = entry.copy;
        self.next_delivery += 1;
        let delivery = self.next_delivery;
        self.queue_mut(qid).expect("queue").unacked.insert(
            copy,
            Unacked {
                entry,
                consumer: cid,
                delivery_tag: tag,
                delivery,
                outcome,
            },
        );
        self.arm(
            handled_at_ms,
            Timer::Handled {
                consumer: cid,
                copy,
                queue: qid,
                delivery,
                rem_us,
            },
        );
        self.arm_ack_timeout(cid, qid, copy, delivery, handled_at_ms);
    }

    /// The consumer is done with `copy`: ack, reject or requeue it.
    pub(crate) fn on_handled(
        &mut self,
        cid: ConsumerId,
        copy: CopyId,
        qid: QueueId,
        delivery: u64,
    ) {
        let Some(q) = self.queue_mut(qid) else { return };
        if q.unacked.get(&copy).is_none_or(|u| u.delivery != delivery) {
            return; // requeued (and maybe delivered again) or deleted since
        }
        let u = q.unacked.remove(&copy).expect("checked above");
        let qname = q.name;
        let now = self.now_ms();
        self.consumers[cid.0 as usize].on_settle(now);
        let msg_id = u.entry.msg.id;
        let outcome = match self.lab_on_handled(copy, msg_id, u.outcome) {
            LabEnd::Apply(o) => o,
            LabEnd::Crash { restart_ms } => return self.crash(cid, qid, u, restart_ms),
        };
        match outcome {
            Outcome::Ack => {
                self.acked(msg_id, copy, qname, cid);
            }
            Outcome::Reject => {
                self.emit(EventKind::Rejected {
                    msg: msg_id,
                    copy,
                    queue: qname,
                    consumer: cid,
                    requeue: false,
                    nack: false,
                    multiple: false,
                });
                let failed = u.entry.failed;
                self.dead_letter(qid, u.entry.msg, Reason::Rejected, Some(copy), None, failed);
            }
            Outcome::NackMultiple => {
                self.nack_multiple(cid, qid, u);
            }
            Outcome::Republish => {
                if let Some(mut spec) = self.republish_spec(cid, &u.entry) {
                    self.publish(&mut spec, 0);
                }
                self.acked(msg_id, copy, qname, cid);
            }
            Outcome::Requeue | Outcome::RejectRequeue => {
                let looping = self.requeue_loops(cid, copy, &u.entry);
                let nack = outcome == Outcome::Requeue;
                self.emit(EventKind::Rejected {
                    msg: msg_id,
                    copy,
                    queue: qname,
                    consumer: cid,
                    requeue: true,
                    nack,
                    multiple: false,
                });
                let kind = if nack {
                    ReturnKind::Nack
                } else {
                    ReturnKind::Reject
                };
                self.requeue(qid, u.entry, kind);
                if looping {
                    return; // stopped: the message stays in its queue
                }
                self.expire_head(qid);
            }
        }
        self.try_deliver(qid);
    }

    /// The consumer's process died before acking `u`: its connection closes, so `u`
    /// (still unacked) and every other delivery it held go back as a channel close
    /// sends them, and it subscribes again when the lab says it has restarted.
    fn crash(&mut self, cid: ConsumerId, qid: QueueId, u: Unacked, restart_ms: u64) {
        if let Some(q) = self.queue_mut(qid) {
            q.unacked.insert(u.entry.copy, u);
            self.consumers[cid.0 as usize].unacked += 1;
        }
        self.detach_consumer(cid, false);
        self.lab_restart_later(cid, restart_ms);
    }

    /// basic.get with auto-ack: takes the head (after expired heads leave).
    pub(crate) fn basic_get(&mut self, queue: &str) {
        let name = self.sym(queue);
        let Some(qid) = self.queue_id(name) else {
            let text = format!("NOT_FOUND - no queue '{queue}' in vhost '/'");
            self.emit(EventKind::Error {
                msg: None,
                code: 404,
                text: text.into(),
                scope: crate::amqp::ErrorScope::Channel,
                subject: None,
                cause: None,
            });
            return;
        };
        self.expire_head(qid);
        let now = self.now_ms();
        let q = self.queue_mut(qid).expect("queue");
        q.last_used_ms = now;
        let Some(entry) = q.pop_head() else { return };
        let (returns, acquired) = self.profile.delivery_headers(entry.returns, entry.failed);
        self.emit(EventKind::Delivered {
            msg: entry.msg.clone(),
            copy: entry.copy,
            queue: name,
            consumer: None,
            redelivered: entry.redelivered,
            delivery_tag: 0,
            returns,
            acquired,
        });
        self.emit(EventKind::Acked {
            msg: entry.msg.id,
            copy: entry.copy,
            queue: name,
            consumer: None,
        });
        self.end_copy();
        self.expire_head(qid);
        self.arm_queue_expiry(qid);
    }

    /// Drops every unacked delivery of a queue that is going away.
    pub(crate) fn drop_unacked(&mut self, qid: QueueId, reason: DropReason) {
        let q = self.queue_mut(qid).expect("queue");
        let qname = q.name;
        let held = std::mem::take(&mut q.unacked);
        let now = self.now_ms();
        for (copy, u) in held {
            self.consumers[u.consumer.0 as usize].on_settle(now);
            self.lab_forget(copy);
            self.emit(EventKind::Dropped {
                msg: u.entry.msg.id,
                copy: Some(copy),
                queue: Some(qname),
                reason,
                why: DropCause::Plain,
            });
            self.end_copy();
        }
    }
}

/// Requeues of each copy within one virtual millisecond: a copy that comes back more
/// than `Limits::max_requeues_per_instant` times in the same millisecond is in a loop
/// that virtual time cannot leave (no handling time, no cost mode to move the clock).
#[derive(Debug, Default)]
pub(crate) struct RequeueStreak {
    at_ms: u64,
    counts: std::collections::BTreeMap<CopyId, u32>,
}

impl Sim {
    /// Counts a requeue of `copy` by `cid` now; true (and the run stopped, naming the
    /// consumer) once the same copy went round too often at this instant.
    pub(crate) fn requeue_loops(&mut self, cid: ConsumerId, copy: CopyId, entry: &Entry) -> bool {
        let now = self.now_ms();
        let streak = &mut self.requeue_streak;
        if streak.at_ms != now {
            streak.at_ms = now;
            streak.counts.clear();
        }
        let rounds = streak.counts.entry(copy).or_insert(0);
        *rounds += 1;
        let rounds = *rounds;
        if rounds <= self.limits().max_requeues_per_instant {
            return false;
        }
        let name = self.consumers[cid.0 as usize].spec.name.clone();
        let text = crate::limits::requeue_loop_text(
            &name,
            &entry.msg.body,
            rounds - 1,
            &crate::scenario::duration::clock(now),
        );
        self.halt(crate::limits::LimitKind::RequeueLoop, text);
        self.set_stopped_consumer(name);
        true
    }
}

/// The copies `cid` holds unacked in `q`, in the order they were delivered to it.
fn held_in_delivery_order(q: &crate::queue::Queue, cid: ConsumerId) -> Vec<CopyId> {
    let mut held: Vec<(u64, CopyId)> = q
        .unacked
        .iter()
        .filter(|(_, u)| u.consumer == cid)
        .map(|(c, u)| (u.delivery, *c))
        .collect();
    crate::sort::sort(&mut held);
    held.into_iter().map(|(_, c)| c).collect()
}

impl Sim {
    /// The consumer acked `copy`: it leaves the broker.
    fn acked(
        &mut self,
        msg: crate::ids::MsgId,
        copy: CopyId,
        queue: crate::sym::Sym,
        cid: ConsumerId,
    ) {
        self.emit(EventKind::Acked {
            msg,
            copy,
            queue,
            consumer: Some(cid),
        });
        self.end_copy();
    }
}
