//! Routing through the exchange graph (rabbit_exchange:route/3 semantics).
//!
//! A worklist of exchanges, starting at the one published to. Each exchange's own
//! bindings give queues and exchanges (exchange-to-exchange bindings); an exchange is
//! visited once, so loops end. An exchange whose own bindings match nothing hands the
//! message to its alternate exchange, if that exists and was not visited. Queues are a
//! set: a queue matched twice gets one copy. The default exchange `""` takes each
//! routing key as a queue name.
//!
//! A delayed-message exchange met with a positive `x-delay` (and `allow_delay`) keeps
//! the message instead of routing it, which for the channel means "routed nowhere",
//! so its alternate exchange gets a copy at once (plugin issue #36).
//!
//! Every message is routed once or twice (publish, dead-letter, release), so the walk's
//! buffers and the results are reused: a caller hands a result back with `recycle`
//! when done (forgetting only costs an allocation next time).

use super::Sim;
use crate::amqp::x_delay::{parse_x_delay, DelayDecision};
use crate::amqp::AmqpError;
use crate::delayed::ExchangeRecord;
use crate::exchange::{Destination, Exchange};
use crate::ids::QueueId;
use crate::message::Message;
use crate::sym::Sym;
use crate::value::FieldValue;

/// Visits at most this many exchanges per routing (a bound on e2e graphs).
const MAX_EXCHANGE_HOPS: usize = 1024;

#[derive(Debug, Default)]
pub(crate) struct Routed {
    pub queues: Vec<QueueId>,
    /// Delayed exchanges that took the message, with the delay in ms.
    pub delayed: Vec<(ExchangeRecord, u64)>,
}

/// Buffers kept from one routing to the next.
#[derive(Debug, Default)]
pub(crate) struct RouteBuffers {
    visited: Vec<Sym>,
    work: Vec<Sym>,
    /// Results given back with `recycle`, empty.
    spare: Vec<Routed>,
}

impl Sim {
    /// Routes `msg` from exchange `start` (which must exist).
    pub(crate) fn route(
        &mut self,
        start: Sym,
        msg: &Message,
        allow_delay: bool,
    ) -> Result<Routed, AmqpError> {
        let mut bufs = std::mem::take(&mut self.route_buffers);
        let mut out = bufs.spare.pop().unwrap_or_default();
        let walked = self.walk(
            start,
            msg,
            allow_delay,
            &mut bufs.visited,
            &mut bufs.work,
            &mut out,
        );
        self.route_buffers = bufs;
        match walked {
            Ok(()) => Ok(out),
            Err(e) => {
                self.recycle(out);
                Err(e)
            }
        }
    }

    /// Hands a routing result back for reuse.
    pub(crate) fn recycle(&mut self, mut routed: Routed) {
        routed.queues.clear();
        routed.delayed.clear();
        self.route_buffers.spare.push(routed);
    }

    fn walk(
        &self,
        start: Sym,
        msg: &Message,
        allow_delay: bool,
        visited: &mut Vec<Sym>,
        work: &mut Vec<Sym>,
        out: &mut Routed,
    ) -> Result<(), AmqpError> {
        let keys: &[Sym] = &msg.routing_keys;
        visited.clear();
        work.clear();
        work.push(start);
        while let Some(name) = work.pop() {
            if visited.contains(&name) || visited.len() >= MAX_EXCHANGE_HOPS {
                continue;
            }
            visited.push(name);
            let Some(x) = self.exchanges.get(&name) else {
                continue;
            };
            if x.delayed && allow_delay && msg.delayed_by_ms.is_none() {
                if self.profile.x_delay_mc_types
                    && matches!(msg.headers.get("x-delay"), Some(FieldValue::Void))
                {
                    // 3.13+ plugin (D28 [code]): a void x-delay is `null`, no clause
                    // matches it and the channel process crashes (541).
                    return Err(crate::amqp::queue_args::internal_error());
                }
                if let DelayDecision::Delay(ms) = parse_x_delay(&msg.headers)? {
                    out.delayed.push((record_of(x, &self.syms), ms));
                    self.push_alternate(x, visited, work);
                    continue;
                }
            }
            let before = (out.queues.len(), work.len());
            if name == self.default_exchange() {
                self.route_default(keys, out);
            } else {
                for dest in x.matches(&self.syms, keys, &msg.headers) {
                    match dest {
                        Destination::Queue(q) => self.add_queue(q, out),
                        Destination::Exchange(e) => work.push(e),
                    }
                }
            }
            if (out.queues.len(), work.len()) == before && !self.matched_any(x, keys, msg) {
                self.push_alternate(x, visited, work);
            }
        }
        Ok(())
    }

    /// Routes a message the delayed store releases: the wrapped type of the exchange as
    /// recorded at publish, with the bindings of now; no second delay.
    pub(crate) fn route_released(&mut self, rec: &ExchangeRecord, msg: &Message) -> Routed {
        match self.exchanges.get(&rec.name) {
            Some(_) => self.route(rec.name, msg, false).unwrap_or_default(),
            None => Routed::default(),
        }
    }

    fn route_default(&self, keys: &[Sym], out: &mut Routed) {
        for k in keys {
            self.add_queue(*k, out);
        }
    }

    fn add_queue(&self, name: Sym, out: &mut Routed) {
        if let Some(id) = self.queue_id(name) {
            if !out.queues.contains(&id) {
                out.queues.push(id);
            }
        }
    }

    /// Whether the exchange's own bindings matched anything at all (even a binding whose
    /// destination no longer exists counts, as in RabbitMQ, where such bindings are gone).
    fn matched_any(&self, x: &Exchange, keys: &[Sym], msg: &Message) -> bool {
        if x.name == self.default_exchange() {
            return keys.iter().any(|k| self.queue_id(*k).is_some());
        }
        x.matches(&self.syms, keys, &msg.headers).next().is_some()
    }

    fn push_alternate(&self, x: &Exchange, visited: &[Sym], work: &mut Vec<Sym>) {
        if let Some(ae) = x.alternate {
            if !visited.contains(&ae) && self.exchanges.contains_key(&ae) {
                work.push(ae);
            }
        }
    }
}

pub(crate) fn record_of(x: &Exchange, syms: &crate::sym::Symbols) -> ExchangeRecord {
    ExchangeRecord {
        name: x.name,
        name_str: syms.name(x.name).clone(),
        kind: x.kind,
        alternate: x.alternate,
    }
}
