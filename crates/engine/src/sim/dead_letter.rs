//! Dead-lettering (rabbit_dead_letter, RabbitMQ 3.10).
//!
//! A message that dies in queue Q (rejected, expired, maxlen, delivery_limit) is
//! republished to Q's dead-letter exchange, looked up *now*:
//! - no DLX configured: dropped with the death's reason; DLX configured but missing:
//!   dropped silently (`dlx_missing`); declaring it later works for later deaths;
//! - routing keys: the DLRK if set (and the CC header is removed, 3.10; kept 3.13+,
//!   `Profile::dlrk_removes_cc`), else all the original keys, CC and BCC included;
//! - a client-published `x-death` (no broker history yet) is merged on 3.10 and 3.13
//!   (counts continue), ignored and replaced on 4.x (`Profile::client_x_death`, D1);
//! - 3.13+ (`crate::version::Profile`): x-death `routing-keys` leave out BCC keys, and
//!   `x-last-death-*` name the newest death;
//! - `expiration` is removed (kept in x-death as `original-expiration`), x-death gains
//!   or bumps the (Q, reason) entry, `x-first-death-*` are set once;
//! - a message the delayed exchange held now reads `x-delay: -<delay>`;
//! - targets that would close an automatic cycle are cut (`dead_letter_cycle`);
//! - published without confirms or mandatory: unroutable means dropped.
//!
//! Causes (`crate::cause`): a drop names why (`NoDlx`, `DlxMissing` with the name,
//! `Cycle` with the earlier death, `NoRoute` from the DLX); a `maxlen` or
//! `delivery_limit` death carries the limit that was hit, from its caller.

use std::rc::Rc;

use super::hold::Arrival;
use super::Sim;
use crate::cause::{DropCause, LimitHit};
use crate::death::{Death, Deaths, LastDeath, Reason};
use crate::event::{DropReason, EventKind};
use crate::ids::{CopyId, QueueId};
use crate::message::{Message, RoutingKeys};
use crate::sym::Sym;
use crate::value::FieldValue;
use crate::version::ClientXDeath;

impl Sim {
    /// Dead-letters `msg` out of `qid`. `copy` is the copy that dies (None when the
    /// message never entered the queue: reject-publish-dlx). `limit`: the limit that
    /// was hit, for `maxlen` and `delivery_limit`.
    pub(crate) fn dead_letter(
        &mut self,
        qid: QueueId,
        msg: Rc<Message>,
        reason: Reason,
        copy: Option<CopyId>,
        limit: Option<LimitHit>,
    ) {
        let q = self.queue(qid).expect("dead-lettering queue exists");
        let (qname, dlx, dlrk, id) = (q.name, q.rules.dlx, q.rules.dlrk, msg.id);
        let drop = |sim: &mut Sim, reason: DropReason, why: DropCause| {
            sim.emit(EventKind::Dropped {
                msg: id,
                copy,
                queue: Some(qname),
                reason,
                why,
            });
            if copy.is_some() {
                sim.end_copy();
            }
        };
        let Some(dlx) = dlx else {
            let why = match limit {
                Some(l) => DropCause::Limit(Box::new(l)),
                None => DropCause::NoDlx,
            };
            return drop(self, DropReason::from_reason(reason), why);
        };
        if !self.exchanges.contains_key(&dlx) {
            return drop(self, DropReason::DlxMissing, DropCause::DlxMissing { dlx });
        }
        let dead = self.dead_lettered_copy(msg, qname, reason, dlx, dlrk);
        self.emit(EventKind::DeadLettered {
            msg: id,
            copy,
            queue: qname,
            reason,
            dlx,
            routing_keys: dead.routing_keys.clone(),
            limit: limit.map(Box::new),
        });
        if copy.is_some() {
            self.end_copy();
        }
        self.republish_dead(qid, dead, reason, dlx);
    }

    fn republish_dead(&mut self, from: QueueId, dead: Rc<Message>, reason: Reason, dlx: Sym) {
        // A positive x-delay is not possible here unless the publisher set one that the
        // delayed exchange never consumed; a bad one cannot close a channel here.
        let mut routed = self.route(dlx, &dead, true).unwrap_or_default();
        let deaths = dead
            .deaths
            .as_deref()
            .expect("dead-lettered message has a history");
        let mut cut = false;
        // What is left in `routed.queues` are the targets.
        routed.queues.retain(|t| {
            let name = self.queue(t.queue).expect("routed queue exists").name;
            let Some(earlier) = deaths.cycle_with(reason, name) else {
                return true;
            };
            cut = true;
            self.emit(EventKind::Dropped {
                msg: dead.id,
                copy: None,
                queue: Some(name),
                reason: DropReason::DeadLetterCycle,
                why: DropCause::Cycle { earlier },
            });
            false
        });
        if routed.queues.is_empty() && routed.delayed.is_empty() && !cut {
            let qname = self.queue(from).map(|q| q.name);
            self.emit(EventKind::Dropped {
                msg: dead.id,
                copy: None,
                queue: qname,
                reason: DropReason::Unroutable,
                why: DropCause::NoRoute { exchange: dlx },
            });
        }
        for (rec, delay_ms) in routed.delayed.drain(..) {
            self.store_delayed(dead.clone(), rec, delay_ms);
        }
        // At-most-once dead-lettering delivers stateless (an untracked enqueue, never
        // held by x-opt-delivery-time); at-least-once's worker publishes tracked (D40).
        let at_least_once = self
            .queue(from)
            .is_some_and(|q| q.rules.dead_letter_at_least_once);
        let arrival = if at_least_once {
            Arrival::Tracked
        } else {
            Arrival::Untracked
        };
        for t in &routed.queues {
            self.enqueue(t.queue, dead.clone(), dlx, &t.way, arrival);
        }
        self.recycle(routed);
    }

    /// The new message RabbitMQ 3.10 publishes to the DLX. The queue's copy is usually
    /// the last reference to `msg`, which then becomes the new message in place (no
    /// copy of body and headers); otherwise it is copied first.
    fn dead_lettered_copy(
        &mut self,
        mut msg: Rc<Message>,
        qname: Sym,
        reason: Reason,
        dlx: Sym,
        dlrk: Option<Sym>,
    ) -> Rc<Message> {
        let profile = self.profile;
        let routing_keys = if profile.death_keys_recorded {
            recorded_keys_without_bcc(&msg, &self.syms)
        } else {
            msg.routing_keys.clone()
        };
        let death = Death {
            queue: qname,
            reason,
            count: 1,
            time_ms: self.now_ms(),
            exchange: msg.exchange,
            routing_keys,
            original_expiration: msg.expiration,
        };
        let client = match (&msg.deaths, profile.client_x_death) {
            (None, ClientXDeath::Merge) => {
                crate::death::from_client_headers(&msg.headers, &mut self.syms)
            }
            _ => None,
        };
        let mut deaths = Deaths::record(msg.deaths.as_deref().or(client.as_ref()), death);
        if profile.last_death_headers {
            deaths.last = Some(LastDeath {
                reason,
                queue: qname,
                exchange: msg.exchange,
            });
        }
        let dead = Rc::make_mut(&mut msg);
        if let Some(delay) = dead.delayed_by_ms.take() {
            dead.headers
                .insert("x-delay", FieldValue::Int(-i64::from(delay.get())));
        }
        if let Some(k) = dlrk {
            if profile.dlrk_removes_cc {
                dead.headers.remove("CC");
            }
            dead.routing_keys = RoutingKeys::One(k);
        }
        dead.exchange = dlx;
        dead.expiration = None;
        dead.deaths = Some(Box::new(deaths));
        msg
    }
}

/// 3.13+ x-death `routing-keys` (D4): the keys recorded for the message minus its BCC
/// keys (`mc.erl record_death`). The stored message no longer has its BCC header, so
/// the keys kept are the first one and those its CC header still names (a message
/// whose keys a DLRK replaced has one key).
fn recorded_keys_without_bcc(msg: &Message, syms: &crate::sym::Symbols) -> RoutingKeys {
    if msg.routing_keys.len() == 1 {
        return msg.routing_keys.clone();
    }
    let cc: Vec<&str> = match msg.headers.get("CC") {
        Some(FieldValue::Array(items)) => items.iter().filter_map(FieldValue::as_str).collect(),
        _ => Vec::new(),
    };
    let rest: Vec<Sym> = msg.routing_keys[1..]
        .iter()
        .copied()
        .filter(|k| cc.contains(&syms.str(*k)))
        .collect();
    RoutingKeys::new(msg.routing_keys.first(), &rest)
}
