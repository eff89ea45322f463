//! What a consumer's client program does beyond ack, reject and requeue
//! (`scenario::ClientBehaviour`, the field's reports):
//!
//! - `nack_multiple`: `basic.nack multiple=true requeue=true` for a delivery's tag
//!   returns every delivery the consumer holds up to that tag, in tag order, each as a
//!   nack (`rabbit_channel:handle_method(#'basic.nack'{multiple = true})` ->
//!   `collect_acks/4`; each message then returns as a single nack would: on 4.3 a nack is
//!   not a failed delivery, so the quorum delivery limit never counts it, D9).
//! - `republish`: the client publishes a copy of the delivery, with the headers it was
//!   delivered with (`x-death` included, as spring-cloud-stream's republish recoverer
//!   does), to its target, then acks; once the retry count it reads reaches `give_up_at`
//!   it acks and publishes nothing. What the broker makes of a published `x-death` is
//!   D1: merged on 3.10 and 3.13.3+, ignored and replaced on 4.x (`sim/dead_letter.rs`).
//! - `eta_header`: a delivery whose header says it is due later is held until then.
//! - `reconnect`: after the broker closed the consumer's channel (a consumer timeout) or
//!   cancelled it (4.3's `basic.cancel`), its client subscribes again.
//!
//! ```text
//! 4.3, quorum queue, x-delivery-limit 4, a listener that fails every delivery:
//!   basic.reject requeue=true  -> delivered 5 times, the 5th reject dead-letters it
//!   basic.nack multiple=true   -> delivered again and again: a nack is not counted
//! 4.0, the same nack          -> delivered 5 times, then dead-lettered (every return counts)
//! 4.0, republish with x-death, queue dlq (TTL 5 s, DLX back to work):
//!   0:00 work delivers m; the client republishes it to dlq with its headers
//!   0:05 dlq expires it: x-death [{dlq, expired, 1}]; the client republishes it again
//!   0:10 x-death [{dlq, expired, 1}] again: 4.x replaced the published x-death, so the
//!        count never reaches give_up_at (3.10: 1, 2, 3: it gives up at 0:15)
//! ```

use std::rc::Rc;

use super::returns::ReturnKind;
use super::Sim;
use crate::event::EventKind;
use crate::ids::{ConsumerId, QueueId};
use crate::message::Message;
use crate::queue::{Entry, Unacked};
use crate::scenario::{PublishSpec, RetryCount};
use crate::timers::Timer;
use crate::value::{FieldValue, Table};

impl Sim {
    /// `basic.nack multiple=true requeue=true` for `u` (already taken out of the queue's
    /// unacked and settled): every other delivery the consumer holds from this queue with a
    /// lower tag goes back with it, lowest tag first.
    pub(crate) fn nack_multiple(&mut self, cid: ConsumerId, qid: QueueId, u: Unacked) {
        let now = self.now_ms();
        let q = self.queue_mut(qid).expect("queue");
        let qname = q.name;
        let mut below: Vec<(u64, crate::ids::CopyId)> = q
            .unacked
            .iter()
            .filter(|(_, x)| x.consumer == cid && x.delivery_tag < u.delivery_tag)
            .map(|(c, x)| (x.delivery_tag, *c))
            .collect();
        crate::sort::sort(&mut below);
        let mut all = Vec::with_capacity(below.len() + 1);
        for (_, copy) in below {
            let x = self
                .queue_mut(qid)
                .expect("queue")
                .unacked
                .remove(&copy)
                .expect("held");
            self.consumers[cid.0 as usize].on_settle(now);
            self.lab_forget(copy);
            all.push(x);
        }
        all.push(u);
        for x in all {
            let copy = x.entry.copy;
            let looping = self.requeue_loops(cid, copy, &x.entry);
            self.emit(EventKind::Rejected {
                msg: x.entry.msg.id,
                copy,
                queue: qname,
                consumer: cid,
                requeue: true,
                nack: true,
                multiple: true,
            });
            self.requeue(qid, x.entry, ReturnKind::Nack);
            if looping {
                return; // stopped: the messages stay in their queue
            }
        }
        self.expire_head(qid);
    }

    /// The `republish` outcome: the copy the client publishes, or `None` when it gives
    /// up (its retry count reached `give_up_at`).
    pub(crate) fn republish_spec(&self, cid: ConsumerId, entry: &Entry) -> Option<PublishSpec> {
        let r = self.consumers[cid.0 as usize]
            .spec
            .client
            .republish
            .as_ref()
            .expect("a republish outcome has its target (loader)");
        let mut headers = self.delivered_headers(entry);
        let count = match &r.count {
            RetryCount::XDeath => entry
                .msg
                .deaths
                .as_ref()
                .and_then(|d| d.entries.first())
                .map_or(0, |d| d.count),
            RetryCount::Header(h) => headers
                .get(h)
                .and_then(FieldValue::as_int)
                .unwrap_or(0)
                .max(0) as u64,
        };
        if count >= u64::from(r.give_up_at) {
            return None;
        }
        if let RetryCount::Header(h) = &r.count {
            headers.insert(h, FieldValue::Int(count as i64 + 1));
        }
        let msg = &entry.msg;
        let mut properties = msg.rare.as_deref().cloned().unwrap_or_default();
        properties.expiration = msg.expiration.map(|e| e.text(&self.syms).into_owned());
        properties.delivery_mode = (msg.delivery_mode != 0).then_some(msg.delivery_mode);
        properties.headers = headers;
        Some(PublishSpec {
            exchange: r.exchange.clone(),
            routing_key: r.routing_key.clone(),
            body: msg.body.to_string(),
            properties,
            mandatory: false,
        })
    }

    /// The headers a consumer got with `entry`, as a table it can publish again: the
    /// message's own, and the broker's `x-death`, `x-first-death-*` and `x-last-death-*`
    /// (`report::render` shows the same to a reader; a quorum queue's counts are left out:
    /// they are about this delivery, and a client republishing through spring's recoverer
    /// does not see them as its own).
    fn delivered_headers(&self, entry: &Entry) -> Table {
        let msg: &Rc<Message> = &entry.msg;
        let mut h = msg.headers.clone();
        let Some(d) = &msg.deaths else { return h };
        let syms = &self.syms;
        let s = |sym| FieldValue::str(syms.str(sym));
        let mut mark = |prefix: &str, m: &crate::death::DeathMark| {
            h.insert(&format!("{prefix}-exchange"), s(m.exchange));
            h.insert(&format!("{prefix}-queue"), s(m.queue));
            h.insert(
                &format!("{prefix}-reason"),
                FieldValue::str(m.reason.as_str()),
            );
        };
        if let Some(first) = &d.first {
            mark("x-first-death", first);
        }
        if let Some(last) = &d.last {
            mark("x-last-death", last);
        }
        let entries: Vec<FieldValue> = d
            .entries
            .iter()
            .map(|e| {
                let mut t = Table::new();
                t.insert("count", FieldValue::Int(e.count as i64));
                t.insert("reason", FieldValue::str(e.reason.as_str()));
                t.insert("queue", s(e.queue));
                t.insert("time", FieldValue::Int((e.time_ms / 1000) as i64));
                t.insert("exchange", s(e.exchange));
                let keys: Vec<FieldValue> = e.routing_keys.iter().map(|k| s(*k)).collect();
                t.insert("routing-keys", FieldValue::Array(keys.into()));
                if let Some(x) = e.original_expiration {
                    t.insert("original-expiration", FieldValue::str(&x.text(syms)));
                }
                FieldValue::Table(t)
            })
            .collect();
        h.insert("x-death", FieldValue::Array(entries.into()));
        h
    }

    /// `eta_header`: how long the consumer holds `msg` delivered now, at least `handle_ms`.
    pub(crate) fn hold_ms(&self, cid: ConsumerId, msg: &Message) -> u64 {
        let c = &self.consumers[cid.0 as usize].spec;
        let due = c
            .client
            .eta_header
            .as_deref()
            .and_then(|h| msg.headers.get(h))
            .and_then(FieldValue::as_int)
            .map_or(0, |t| t.max(0) as u64);
        c.handle_ms.max(due.saturating_sub(self.now_ms()))
    }

    /// The broker closed the consumer's channel or cancelled it: its client subscribes
    /// again after `reconnect`, if it does. True when it will.
    pub(crate) fn reconnect_later(&mut self, cid: ConsumerId) -> bool {
        let c = &self.consumers[cid.0 as usize];
        let Some(after) = c.spec.client.reconnect_ms else {
            return false;
        };
        let at = self.now_ms().saturating_add(after.max(1));
        if c.spec.to_ms.is_some_and(|to| at >= to) {
            return false; // it would be gone by then anyway
        }
        self.arm(at, Timer::Resubscribe(cid));
        true
    }

    /// `Timer::Resubscribe`: a new `basic.consume`, on a new channel after a close, or on
    /// the same channel after a `basic.cancel` (what it still holds stays with it).
    pub(crate) fn resubscribe(&mut self, cid: ConsumerId) {
        let c = &mut self.consumers[cid.0 as usize];
        if c.stopped {
            return;
        }
        let Some(qid) = c.attached else {
            return self.attach_consumer(cid);
        };
        let Some(q) = self.queue_mut(qid) else { return };
        if q.consumers.contains(&cid) {
            return;
        }
        q.consumers.push(cid);
        let qname = q.name;
        self.emit(EventKind::ConsumerAttached {
            consumer: cid,
            queue: qname,
        });
        self.try_deliver(qid);
    }
}
