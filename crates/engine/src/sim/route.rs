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
//!
//! Each queue reached comes with its way (`Way`, the cause an `Enqueued` names): the
//! binding that matched last (its key, the exchange's type, or the default exchange),
//! and, only when there is more to tell, the hops before it (exchange-to-exchange
//! bindings, alternate exchanges) and a headers binding's arguments:
//!
//! ```text
//! publish to X (key k), X has no binding for k, X's alternate exchange AE binds Q
//!   -> Q, way: binding "" of AE (fanout), hops [X -alternate-> AE]
//! ```

use std::cell::RefCell;
use std::rc::Rc;

use super::Sim;
use crate::amqp::x_delay::{parse_x_delay, DelayDecision};
use crate::amqp::AmqpError;
use crate::cause::{AdmissionMore, Hop, HopBy, Matched};
use crate::delayed::ExchangeRecord;
use crate::exchange::{Destination, Exchange};
use crate::ids::QueueId;
use crate::message::Message;
use crate::sym::Sym;
use crate::value::FieldValue;

/// Visits at most this many exchanges per routing (a bound on e2e graphs).
const MAX_EXCHANGE_HOPS: usize = 1024;

/// No hop led here: the exchange routing started at.
const START: u32 = u32::MAX;

#[derive(Debug, Default)]
pub(crate) struct Routed {
    pub queues: Vec<Target>,
    /// Delayed exchanges that took the message, with the delay in ms.
    pub delayed: Vec<(ExchangeRecord, u64)>,
}

/// A queue the message reached, and how.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Target {
    pub queue: QueueId,
    pub way: Way,
}

/// How a message reached a queue: the last hop's rule and key; the hops before it and a
/// headers binding's arguments only when there are any (`crate::cause::Admission`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Way {
    pub matched: Matched,
    pub key: Sym,
    pub more: Option<Rc<AdmissionMore>>,
}

/// Buffers kept from one routing to the next.
#[derive(Debug, Default)]
pub(crate) struct RouteBuffers {
    /// The walk's own buffers, borrowed by `walk` (which only reads the rest of the
    /// `Sim`) in place: taking them out of the `Sim` and putting them back moved and
    /// dropped four vectors per routing.
    walk: RefCell<WalkBuffers>,
    /// Results given back with `recycle`, empty.
    spare: Vec<Routed>,
}

#[derive(Debug, Default)]
struct WalkBuffers {
    visited: Vec<Sym>,
    /// Exchanges to visit, each with the hop that led to it (`START` for the first).
    work: Vec<(Sym, u32)>,
    /// Hops taken from exchange to exchange, each with the hop that led to its source.
    hops: Vec<(Hop, u32)>,
}

impl Sim {
    /// Routes `msg` from exchange `start` (which must exist).
    pub(crate) fn route(
        &mut self,
        start: Sym,
        msg: &Message,
        allow_delay: bool,
    ) -> Result<Routed, AmqpError> {
        let mut out = self.route_buffers.spare.pop().unwrap_or_default();
        if self.route_at_start(start, msg, allow_delay, &mut out) {
            #[cfg(debug_assertions)]
            self.assert_walk_agrees(start, msg, allow_delay, &out);
            return Ok(out);
        }
        out.queues.clear(); // what the shortcut found before it gave up
        let walked = self.walk(start, msg, allow_delay, &mut out);
        match walked {
            Ok(()) => Ok(out),
            Err(e) => {
                self.recycle(out);
                Err(e)
            }
        }
    }

    /// Hands a routing result back for reuse.
    ///
    /// Moved into `spare` first, emptied there: emptying first stored the lengths just
    /// before the move read them, and a read of a store still in flight waits for every
    /// store before it, here the enqueue's write into a cold calendar bucket (a tenth of
    /// `delaylab bench --topology qq-delivery-time`).
    pub(crate) fn recycle(&mut self, routed: Routed) {
        let spare = &mut self.route_buffers.spare;
        spare.push(routed);
        let r = spare.last_mut().expect("just pushed");
        r.queues.clear();
        r.delayed.clear();
    }

    /// The walk's usual case without its work lists: the start exchange's own bindings
    /// (or the default exchange's queue names) put the message into queues, and that is
    /// all: no delay, no exchange-to-exchange binding, and a queue reached, so no
    /// alternate exchange. Same queues, same ways, in the same order as `walk` finds
    /// them. False when the case is not that one (`out` may then hold some queues):
    /// the caller walks from the start. Every route of `delaylab bench` but the
    /// plugin's publish is this case; the walk's buffers cost it 150 instructions.
    fn route_at_start(
        &self,
        start: Sym,
        msg: &Message,
        allow_delay: bool,
        out: &mut Routed,
    ) -> bool {
        let Some(x) = self.exchanges.get(&start) else {
            return false;
        };
        if delays_here(x, msg, allow_delay) {
            return false;
        }
        let keys: &[Sym] = &msg.routing_keys;
        if start == self.default_exchange() {
            for k in keys {
                self.add_queue(*k, out, || way(Matched::Default, *k, None, START, &[]));
            }
        } else {
            for b in x.matching(&self.syms, keys, &msg.headers) {
                let Destination::Queue(q) = b.destination else {
                    return false;
                };
                let matched = Matched::Binding(x.kind);
                let args = Some(&b.arguments);
                self.add_queue(q, out, || way(matched, b.routing_key, args, START, &[]));
            }
        }
        !out.queues.is_empty()
    }

    /// `route_at_start` is the walk's first step written a second time, for speed (its
    /// default-exchange loop too: one function for both loops cost `delaylab bench` 72
    /// instructions per message under callgrind, even inlined): every
    /// debug build (the tests, their golden traces and property runs) walks too and
    /// checks that both found the same queues by the same ways.
    #[cfg(debug_assertions)]
    fn assert_walk_agrees(&self, start: Sym, msg: &Message, allow_delay: bool, short: &Routed) {
        let mut full = Routed::default();
        let walked = self.walk(start, msg, allow_delay, &mut full);
        assert!(
            walked.is_ok() && full.delayed.is_empty() && full.queues == short.queues,
            "route_at_start found {:?}, the walk {:?} ({walked:?})",
            short.queues,
            full.queues,
        );
    }

    fn walk(
        &self,
        start: Sym,
        msg: &Message,
        allow_delay: bool,
        out: &mut Routed,
    ) -> Result<(), AmqpError> {
        let keys: &[Sym] = &msg.routing_keys;
        let mut bufs = self.route_buffers.walk.borrow_mut();
        let WalkBuffers {
            visited,
            work,
            hops,
        } = &mut *bufs;
        visited.clear();
        work.clear();
        hops.clear();
        work.push((start, START));
        while let Some((name, led_by)) = work.pop() {
            if visited.contains(&name) || visited.len() >= MAX_EXCHANGE_HOPS {
                continue;
            }
            visited.push(name);
            let Some(x) = self.exchanges.get(&name) else {
                continue;
            };
            if delays_here(x, msg, allow_delay) {
                if self.profile.x_delay_mc_types
                    && matches!(msg.headers.get("x-delay"), Some(FieldValue::Void))
                {
                    // 3.13+ plugin (D28 [code]): a void x-delay is `null`, no clause
                    // matches it and the channel process crashes (541).
                    return Err(crate::amqp::queue_args::internal_error());
                }
                if let DelayDecision::Delay(ms) = parse_x_delay(&msg.headers)? {
                    out.delayed.push((record_of(x, &self.syms), ms));
                    self.push_alternate(x, led_by, visited, work, hops);
                    continue;
                }
            }
            let before = (out.queues.len(), work.len());
            if name == self.default_exchange() {
                for k in keys {
                    self.add_queue(*k, out, || way(Matched::Default, *k, None, led_by, hops));
                }
            } else {
                for b in x.matching(&self.syms, keys, &msg.headers) {
                    match b.destination {
                        Destination::Queue(q) => {
                            let matched = Matched::Binding(x.kind);
                            let args = Some(&b.arguments);
                            self.add_queue(q, out, || {
                                way(matched, b.routing_key, args, led_by, hops)
                            })
                        }
                        Destination::Exchange(e) => {
                            let by = HopBy::Binding {
                                kind: x.kind,
                                key: b.routing_key,
                            };
                            let hop = Hop {
                                from: name,
                                to: e,
                                by,
                            };
                            work.push((e, hops.len() as u32));
                            hops.push((hop, led_by));
                        }
                    }
                }
            }
            if (out.queues.len(), work.len()) == before && !self.matched_any(x, keys, msg) {
                self.push_alternate(x, led_by, visited, work, hops);
            }
        }
        Ok(())
    }

    /// Routes a message the delayed store releases: the wrapped type of the exchange as
    /// recorded at publish, with the bindings of now; no second delay.
    /// An exchange deleted meanwhile routes nowhere (the walk skips a missing exchange).
    pub(crate) fn route_released(&mut self, rec: &ExchangeRecord, msg: &Message) -> Routed {
        self.route(rec.name, msg, false).unwrap_or_default()
    }

    /// Adds queue `name` if it exists and was not reached already (one copy per queue:
    /// the first way that reached it is its way).
    fn add_queue(&self, name: Sym, out: &mut Routed, way: impl FnOnce() -> Way) {
        if let Some(queue) = self.queue_id(name) {
            if !out.queues.iter().any(|t| t.queue == queue) {
                let way = way();
                out.queues.push(Target { queue, way });
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

    fn push_alternate(
        &self,
        x: &Exchange,
        led_by: u32,
        visited: &[Sym],
        work: &mut Vec<(Sym, u32)>,
        hops: &mut Vec<(Hop, u32)>,
    ) {
        if let Some(ae) = x.alternate {
            if !visited.contains(&ae) && self.exchanges.contains_key(&ae) {
                let hop = Hop {
                    from: x.name,
                    to: ae,
                    by: HopBy::Alternate,
                };
                work.push((ae, hops.len() as u32));
                hops.push((hop, led_by));
            }
        }
    }
}

/// Whether the delayed-message plugin holds this publish at exchange `x` (if its
/// `x-delay` asks for a delay): a delayed exchange, on a publish (`allow_delay`; not the
/// store's release), of a message not released from a store already.
fn delays_here(x: &Exchange, msg: &Message, allow_delay: bool) -> bool {
    x.delayed && allow_delay && msg.delayed_by_ms.is_none()
}

/// The way to a queue whose binding (`matched`, `key`, `arguments`) matched at an
/// exchange reached by hop `led_by`: no allocation for one plain binding of the start.
fn way(
    matched: Matched,
    key: Sym,
    arguments: Option<&crate::value::Table>,
    led_by: u32,
    hops: &[(Hop, u32)],
) -> Way {
    let arguments = arguments
        .filter(|a| !a.is_empty())
        .map(|a| a.to_json().to_string());
    if led_by == START && arguments.is_none() {
        return Way {
            matched,
            key,
            more: None,
        };
    }
    let mut path = Vec::new();
    let mut at = led_by;
    while at != START {
        let (hop, from) = hops[at as usize];
        path.push(hop);
        at = from;
    }
    path.reverse();
    Way {
        matched,
        key,
        more: Some(Rc::new(AdmissionMore {
            hops: path,
            arguments,
            ttls: None,
        })),
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
