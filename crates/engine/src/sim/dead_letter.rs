//! Dead-lettering (rabbit_dead_letter, RabbitMQ 3.10).
//!
//! A message that dies in queue Q (rejected, expired, maxlen, delivery_limit) is
//! republished to Q's dead-letter exchange, looked up *now*:
//! - no DLX configured: dropped with the death's reason; DLX configured but missing:
//!   dropped silently (`dlx_missing`); declaring it later works for later deaths;
//! - routing keys: the DLRK if set (and the CC header is removed, 3.10), else all the
//!   original keys, CC and BCC included;
//! - `expiration` is removed (kept in x-death as `original-expiration`), x-death gains
//!   or bumps the (Q, reason) entry, `x-first-death-*` are set once;
//! - a message the delayed exchange held now reads `x-delay: -<delay>`;
//! - targets that would close an automatic cycle are cut (`dead_letter_cycle`);
//! - published without confirms or mandatory: unroutable means dropped.

use std::rc::Rc;

use super::Sim;
use crate::death::{Death, Deaths, Reason};
use crate::event::{DropReason, EventKind};
use crate::ids::{CopyId, QueueId};
use crate::message::{Message, NO_TTL};
use crate::sym::Sym;
use crate::value::FieldValue;

impl Sim {
    /// Dead-letters `msg` out of `qid`. `copy` is the copy that dies (None when the
    /// message never entered the queue: reject-publish-dlx).
    pub(crate) fn dead_letter(&mut self, qid: QueueId, msg: &Rc<Message>, reason: Reason, copy: Option<CopyId>) {
        let q = self.queue(qid).expect("dead-lettering queue exists");
        let (qname, dlx, dlrk) = (q.name, q.rules.dlx, q.rules.dlrk);
        let drop = |sim: &mut Sim, why: DropReason| {
            sim.emit(EventKind::Dropped { msg: msg.id, copy, queue: Some(qname), reason: why });
            if copy.is_some() {
                sim.end_copy();
            }
        };
        let Some(dlx) = dlx else { return drop(self, DropReason::from_reason(reason)) };
        if !self.exchanges.contains_key(&dlx) {
            return drop(self, DropReason::DlxMissing);
        }
        let dead = Rc::new(self.dead_lettered_copy(msg, qname, reason, dlx, dlrk));
        let keys: Rc<[Sym]> = dead.routing_keys().collect();
        self.emit(EventKind::DeadLettered { msg: msg.id, copy, queue: qname, reason, dlx, routing_keys: keys });
        if copy.is_some() {
            self.end_copy();
        }
        self.republish_dead(qid, dead, reason, dlx);
    }

    fn republish_dead(&mut self, from: QueueId, dead: Rc<Message>, reason: Reason, dlx: Sym) {
        // A positive x-delay is not possible here unless the publisher set one that the
        // delayed exchange never consumed; a bad one cannot close a channel here.
        let routed = self.route(dlx, &dead, true).unwrap_or_default();
        let deaths = dead.deaths.as_deref().expect("dead-lettered message has a history");
        let mut targets = Vec::with_capacity(routed.queues.len());
        let mut cut = false;
        for qid in routed.queues {
            let name = self.queue(qid).expect("routed queue exists").name;
            if deaths.is_cycle(reason, name) {
                cut = true;
                self.emit(EventKind::Dropped { msg: dead.id, copy: None, queue: Some(name), reason: DropReason::DeadLetterCycle });
            } else {
                targets.push(qid);
            }
        }
        if targets.is_empty() && routed.delayed.is_empty() {
            if !cut {
                let qname = self.queue(from).map(|q| q.name);
                self.emit(EventKind::Dropped { msg: dead.id, copy: None, queue: qname, reason: DropReason::Unroutable });
            }
            return;
        }
        for (rec, delay_ms) in routed.delayed {
            self.store_delayed(dead.clone(), rec, delay_ms);
        }
        for qid in targets {
            self.enqueue(qid, dead.clone(), dlx);
        }
    }

    /// The new message RabbitMQ 3.10 publishes to the DLX.
    fn dead_lettered_copy(&mut self, msg: &Message, qname: Sym, reason: Reason, dlx: Sym, dlrk: Option<Sym>) -> Message {
        let death = Death {
            queue: qname,
            reason,
            count: 1,
            time_ms: self.now_ms(),
            exchange: msg.exchange,
            routing_keys: msg.routing_keys().collect(),
            original_expiration: msg.expiration,
        };
        let deaths = Deaths::record(msg.deaths.as_deref(), death);
        let mut headers = msg.headers.clone();
        if let Some(delay) = msg.delayed_by_ms {
            headers.insert("x-delay", FieldValue::Int(-i64::from(delay)));
        }
        let (routing_key, extra_keys) = match dlrk {
            Some(k) => {
                headers.remove("CC");
                (k, Box::default())
            }
            None => (msg.routing_key, msg.extra_keys.clone()),
        };
        Message {
            id: msg.id,
            exchange: dlx,
            routing_key,
            extra_keys,
            published_at_ms: msg.published_at_ms,
            body: msg.body.clone(),
            expiration: None,
            ttl_ms: NO_TTL,
            delivery_mode: msg.delivery_mode,
            headers,
            rare: msg.rare.clone(),
            deaths: Some(Box::new(deaths)),
            delayed_by_ms: None,
        }
    }
}
