//! The consumer acknowledgement timeout (D21 of rabbitmq-versions.md, §2.9): what the
//! broker does when a manual-ack consumer holds a delivery unacked for longer than
//! `consumer_timeout` (default 30 minutes; `scenario::ConsumerTimeoutSetting`). The
//! version's rule is `version::ConsumerTimeout`, its deadline `Profile::ack_deadline_ms`.
//!
//! - 3.10-4.2, every queue type: the channel's tick, every 60 s, looks at its oldest
//!   unacked delivery; delivered more than the timeout ago, the channel is closed with
//!   406 `PRECONDITION_FAILED - delivery acknowledgement on channel 1 timed out. ...`
//!   (`rabbit_channel.erl evaluate_consumer_timeout/1`). Every message the consumer
//!   held goes back as at any channel close (`redelivered`), and the consumer is gone:
//!   its client would have to open a channel and subscribe again. The tick starts with
//!   the channel (live 3.10.8 and 4.0.5: a delivery 200 ms after the channel opened timed
//!   out 60 s after the channel opened) and runs while the channel is awake: a channel
//!   holding nothing for `consumer::CHANNEL_HIBERNATE_AFTER_MS` hibernates and cancels
//!   its tick (`maybe_cancel_tick_timer/1`), and the next delivery wakes it and starts
//!   the tick again ([code]: the hibernation delay backs off between 1 and 10 s, so after
//!   an idle spell of that length the broker may fire up to one tick earlier or later
//!   than here).
//! - 4.3: quorum queues only, exactly at delivery + timeout: only that message goes back
//!   (a return, not a failed delivery: it does not count towards the delivery limit),
//!   and the consumer is cancelled with `basic.cancel`; its channel stays open and what
//!   else it holds stays with it until acked or timed out in turn. Classic queues never
//!   time out.
//!
//! Which timeout: the consumer's `x-consumer-timeout` argument (4.3), else its queue's
//! `x-consumer-timeout` (3.13+), else the node's `consumer_timeout` (4.3's quorum queues
//! use 24 hours when it is turned off): `Profile::consumer_timeout_ms`.
//! 4.3.7's `consumer_timeout_response = close_channel` answers a quorum timeout by closing
//! the channel with 406 instead of `basic.cancel`: the timed-out message goes back as a
//! return, what else the channel held as at any channel close (`TimeoutResponse`).
//! A consumer with `reconnect` subscribes again that long after (`sim/client.rs`).
//!
//! A timer is armed only when the consumer's planned answer (its `handle` time, or a
//! crash) comes after the deadline: an answer at the deadline or before it is on time,
//! and a timer left stale would still move the end of a run.
//!
//! ```text
//! 3.10, classic queue, consumer prefetch 1 handle 40m, attached at 0, m1 published at 0:
//!   0:00   the channel opens: its tick starts (ticks at 1:00, 2:00, ...); m1 delivered
//!   30:00  the tick sees m1 held exactly 30 min: not more than the timeout yet
//!   31:00  consumer_timeout, error 406 (channel 1), consumer detached, m1 requeued
//!   (a 4.3 classic queue: m1 is acked at 40:00, nothing times out)
//! 4.3, quorum queue, same consumer:
//!   30:00  consumer_timeout: m1 requeued (front), consumer cancelled; no error
//! 4.3.7 with close_channel, quorum queue, prefetch 2, m1 at 0:00, m2 at 0:10:
//!   30:00  error 406, consumer detached: m1 back as a return (not a failure), m2 back as
//!          a channel close returns it (a failed delivery: counted on 4.3)
//! ```

use super::returns::ReturnKind;
use super::Sim;
use crate::amqp::ErrorScope;
use crate::event::EventKind;
use crate::ids::{ConsumerId, CopyId, QueueId};
use crate::scenario::duration::format_duration;
use crate::timers::Timer;
use crate::version::{
    consumer_timeout_text, ConsumerTimeout, TimeoutResponse, CHANNEL_TICK_INTERVAL_MS,
};

/// The channel number in the 406 text: each simulated consumer has its own connection
/// with one channel, number 1, the first a client opens.
pub const CONSUMER_CHANNEL: u16 = 1;

impl Sim {
    /// `deliver` made a manual-ack delivery whose answer is planned at `answer_at_ms`:
    /// arms its timeout if the answer comes too late (see the module docs).
    pub(crate) fn arm_ack_timeout(
        &mut self,
        cid: ConsumerId,
        qid: QueueId,
        copy: CopyId,
        delivery: u64,
        answer_at_ms: u64,
    ) {
        let now = self.now_ms();
        let Some(q) = self.queue(qid) else { return };
        let origin = self.consumers[cid.0 as usize].tick_origin_ms;
        let timeout_ms = self.consumer_timeout_for(cid, qid);
        let Some(at) = self
            .profile
            .ack_deadline_ms(q.is_quorum(), now, origin, timeout_ms)
        else {
            return;
        };
        if at < answer_at_ms {
            self.arm(
                at,
                Timer::AckTimeout {
                    consumer: cid,
                    copy,
                    queue: qid,
                    delivery,
                    delivered_at_ms: now,
                },
            );
        }
    }

    /// The deadline of one delivery passed: if it is still unacked, the broker acts.
    pub(crate) fn on_ack_timeout(
        &mut self,
        cid: ConsumerId,
        copy: CopyId,
        qid: QueueId,
        delivery: u64,
        delivered_at_ms: u64,
    ) {
        let Some(q) = self.queue(qid) else { return };
        let Some(u) = q.unacked.get(&copy).filter(|u| u.delivery == delivery) else {
            return; // answered, requeued or dropped since: stale
        };
        let Some(timeout_ms) = self.consumer_timeout_for(cid, qid) else {
            return; // armed only with a timeout
        };
        let (qname, msg) = (q.name, u.entry.msg.id);
        // 4.3: a consumer cancelled by an earlier timeout still holds what it had.
        let consuming = q.consumers.contains(&cid);
        let held_ms = self.now_ms() - delivered_at_ms;
        let who = self.consumers[cid.0 as usize].spec.name.clone();
        let queue = self.syms.str(qname).to_string();
        let held = format_duration(held_ms);
        let limit = format_duration(timeout_ms);
        let tick = self.profile.consumer_timeout == ConsumerTimeout::ChannelTick;
        let close_response = !tick
            && self.profile.timeout_response_setting
            && self.timeout_response == TimeoutResponse::CloseChannel;
        let channel_closed = tick || close_response;
        let text = if close_response {
            format!(
                "consumer \"{who}\" held message #{} from quorum queue {queue} unacked for \
                 {held}, the consumer timeout: with consumer_timeout_response = close_channel \
                 (RabbitMQ 4.3.7+) that message goes back (a return, not a failed delivery), \
                 the channel is closed with 406 and everything else it held goes back as at \
                 any channel close",
                msg.0
            )
        } else if channel_closed {
            format!(
                "consumer \"{who}\" held message #{} from {queue} unacked for {held}, longer than \
                 the consumer timeout ({limit}; the channel checks every {}): RabbitMQ \
                 closed its channel with 406, every message it held goes back to {queue} \
                 (redelivered), and the consumer is gone until its client subscribes again",
                msg.0,
                format_duration(CHANNEL_TICK_INTERVAL_MS)
            )
        } else {
            format!(
                "consumer \"{who}\" held message #{} from quorum queue {queue} unacked for \
                 {held}, the consumer timeout: RabbitMQ 4.3 puts that message back \
                 (redelivered; a return, not a failed delivery){}",
                msg.0,
                if consuming {
                    " and cancels the consumer (basic.cancel); what else it holds stays with it \
                     until acked or timed out"
                } else {
                    "; the consumer was cancelled already"
                }
            )
        };
        self.emit(EventKind::ConsumerTimedOut {
            consumer: cid,
            queue: qname,
            msg,
            copy,
            held_ms,
            timeout_ms,
            channel_closed,
            text: text.into(),
        });
        if channel_closed {
            self.emit(EventKind::Error {
                msg: None,
                code: 406,
                text: consumer_timeout_text(CONSUMER_CHANNEL, timeout_ms).into(),
                scope: ErrorScope::Channel,
                subject: None,
                cause: None,
            });
            if close_response {
                // 4.3 released the timed-out message before the channel answered.
                let u = self.take_unacked(qid, copy);
                let now = self.now_ms();
                self.consumers[cid.0 as usize].on_settle(now);
                self.lab_forget(copy);
                self.requeue(qid, u.entry, ReturnKind::Timeout);
            }
            let again = self.consumers[cid.0 as usize]
                .spec
                .client
                .reconnect_ms
                .is_some();
            self.detach_consumer(cid, !again);
            if again && !self.reconnect_later(cid) {
                self.consumers[cid.0 as usize].stopped = true;
            }
            return;
        }
        let u = self.take_unacked(qid, copy);
        let now = self.now_ms();
        let c = &mut self.consumers[cid.0 as usize];
        c.on_settle(now);
        // Cancelled: it consumes again only if its client subscribes again (`reconnect`).
        c.stopped = c.spec.client.reconnect_ms.is_none();
        self.lab_forget(copy);
        self.requeue(qid, u.entry, ReturnKind::Timeout);
        if consuming {
            let q = self.queue_mut(qid).expect("queue");
            q.consumers.retain(|x| *x != cid);
            q.next_consumer = 0;
            self.emit(EventKind::ConsumerDetached {
                consumer: cid,
                queue: qname,
            });
        }
        if consuming && !self.consumers[cid.0 as usize].stopped && !self.reconnect_later(cid) {
            self.consumers[cid.0 as usize].stopped = true;
        }
        self.expire_head(qid);
        self.try_deliver(qid);
    }

    /// The consumer timeout for `cid`'s deliveries from `qid` (`Profile::consumer_timeout_ms`).
    fn consumer_timeout_for(&self, cid: ConsumerId, qid: QueueId) -> Option<u64> {
        let q = self.queue(qid)?;
        self.profile.consumer_timeout_ms(
            self.consumer_timeout_ms,
            q.arguments.get("x-consumer-timeout"),
            self.consumers[cid.0 as usize]
                .spec
                .client
                .consumer_timeout_ms,
        )
    }
}

impl Sim {
    /// The timed-out delivery `copy`, taken out of `qid`'s unacked (checked present).
    fn take_unacked(&mut self, qid: QueueId, copy: CopyId) -> crate::queue::Unacked {
        self.queue_mut(qid)
            .expect("checked above")
            .unacked
            .remove(&copy)
            .expect("checked above")
    }
}
