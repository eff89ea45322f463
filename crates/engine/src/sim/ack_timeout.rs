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
//! ```

use super::returns::ReturnKind;
use super::Sim;
use crate::amqp::ErrorScope;
use crate::event::EventKind;
use crate::ids::{ConsumerId, CopyId, QueueId};
use crate::scenario::duration::format_duration;
use crate::timers::Timer;
use crate::version::{consumer_timeout_text, ConsumerTimeout, CHANNEL_TICK_INTERVAL_MS};

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
        let Some(at) =
            self.profile
                .ack_deadline_ms(q.is_quorum(), now, origin, self.consumer_timeout_ms)
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
        let Some(timeout_ms) = self.consumer_timeout_ms else {
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
        let channel_closed = self.profile.consumer_timeout == ConsumerTimeout::ChannelTick;
        let text = if channel_closed {
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
            return self.detach_consumer(cid, true);
        }
        let u = self
            .queue_mut(qid)
            .expect("checked above")
            .unacked
            .remove(&copy)
            .expect("checked above");
        let now = self.now_ms();
        let c = &mut self.consumers[cid.0 as usize];
        c.on_settle(now);
        c.stopped = true; // cancelled: it never consumes again
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
        self.expire_head(qid);
        self.try_deliver(qid);
    }
}
