//! basic.publish, in the order rabbit_channel checks it:
//!
//! 1. the exchange must exist (404) and not be internal (403);
//! 2. `expiration` must parse (406 closes the channel; nothing is routed);
//! 3. routing (a bad string `x-delay` on a delayed exchange closes the connection, 541;
//!    4.4: a `decimal` `x-opt-delivery-time` routed to a quorum queue too, D36);
//! 4. queues take the message (or refuse it: reject-publish);
//! 5. nothing took it: mandatory -> basic.return 312 NO_ROUTE, else it is dropped;
//!    a delayed exchange that stored it counts as "routed nowhere" too, so a mandatory
//!    delayed publish is returned at once *and* delivered later;
//! 6. publisher confirm: nack if a queue refused it, else ack (the return comes first).
//!
//! The publisher's channel is reopened after an error, so later actions still publish.

use std::rc::Rc;

use super::Sim;
use crate::amqp::expiration::parse_expiration;
use crate::amqp::{AmqpError, ErrorScope};
use crate::cause::{DropCause, ReturnCause};
use crate::event::{DropReason, EventKind};
use crate::message::{Expiration, Message, RoutingKeys};
use crate::scenario::{Properties, PublishSpec};
use crate::sym::Sym;
use crate::value::{FieldValue, Table};

use super::enqueue::Accepted;
use super::hold::Arrival;

impl Sim {
    /// Spends the spec: its body and headers become the message's (taken from it).
    pub(crate) fn publish(&mut self, spec: &mut PublishSpec, run: u32) {
        let Some(id) = self.new_msg_id() else { return };
        let mandatory = spec.mandatory;
        let msg = Rc::new(self.build_message(id, spec, run));
        self.emit(EventKind::Published {
            msg: msg.clone(),
            mandatory,
        });
        if let Err(e) = self.check_publish(&msg) {
            return self.refuse_publish(&msg, e);
        }
        let x = msg.exchange;
        let mut routed = match self.route(x, &msg, true) {
            Ok(r) => r,
            Err(e) => return self.refuse_publish(&msg, e),
        };
        if let Err(e) = self.check_delivery_time(&msg, &routed.queues) {
            self.recycle(routed);
            return self.refuse_publish(&msg, e);
        }
        let delayed = !routed.delayed.is_empty();
        for (rec, delay_ms) in routed.delayed.drain(..) {
            self.store_delayed(msg.clone(), rec, delay_ms);
        }
        let mut nack = false;
        for t in &routed.queues {
            nack |= self.enqueue(t.queue, msg.clone(), x, &t.way, Arrival::Tracked)
                == Accepted::Refused;
        }
        self.charge_routed(routed.queues.iter().map(|t| t.queue)); // costs: a quorum queue's append

        if routed.queues.is_empty() {
            if mandatory {
                self.emit(EventKind::Returned {
                    msg: id,
                    exchange: x,
                    routing_key: msg.routing_key(),
                    code: 312,
                    text: "NO_ROUTE",
                    why: if delayed {
                        ReturnCause::DelayedHeld
                    } else {
                        ReturnCause::NoRoute
                    },
                });
            } else if !delayed {
                self.emit(EventKind::Dropped {
                    msg: id,
                    copy: None,
                    queue: None,
                    reason: DropReason::Unroutable,
                    why: DropCause::NoRoute { exchange: x },
                });
            }
        }
        self.recycle(routed);
        self.emit(EventKind::Confirmed {
            msg: id,
            ack: !nack,
        });
    }

    fn check_publish(&self, msg: &Message) -> Result<(), AmqpError> {
        if !self.node_up {
            return Err(AmqpError {
                code: 320,
                text: "CONNECTION_FORCED - broker forced connection closure with reason 'shutdown'"
                    .into(),
                scope: ErrorScope::Connection,
                subject: None,
                cause: None,
            });
        }
        let name = self.syms.str(msg.exchange);
        let Some(x) = self.exchanges.get(&msg.exchange) else {
            return Err(AmqpError::not_found(format!(
                "no exchange '{name}' in vhost '/'"
            )));
        };
        if x.internal {
            return Err(AmqpError::access_refused(format!(
                "cannot publish to internal exchange '{name}' in vhost '/'"
            )));
        }
        if let Some(e) = self.refuses_publishes(x) {
            return Err(e);
        }
        if let Some(e) = msg.expiration.filter(|e| !e.is_valid()) {
            parse_expiration(&e.text(&self.syms))?; // for the error
        }
        Ok(())
    }

    /// Why every publish through `x` is refused, if it is: a delayed exchange kept after
    /// an upgrade to a version without the plugin (4.3: the metadata store kept the
    /// exchange, but no module routes its type, `rabbit_exchange_type_invalid`,
    /// rabbitmq-versions.md §2.11). A snapshot draws such an exchange as refusing.
    pub fn refuses_publishes(&self, x: &crate::exchange::Exchange) -> Option<AmqpError> {
        (x.delayed && !self.profile.delayed_plugin).then(|| {
            AmqpError::precondition_failed(format!(
                "Cannot route message through exchange '{}' in vhost '/': exchange type {} not found",
                self.syms.str(x.name),
                crate::amqp::exchange_args::DELAYED_TYPE
            ))
        })
    }

    /// 4.4 (D36): `rabbit_quorum_queue:deliver/3` converts `x-opt-delivery-time` for the
    /// quorum queues among the targets, and a `decimal` has no conversion: the channel
    /// crashes (541, connection closed). Refused whole here (a classic target, delivered
    /// first by `rabbit_queue_type:deliver0/4`, may have got it: not simulated).
    fn check_delivery_time(
        &self,
        msg: &Message,
        targets: &[super::route::Target],
    ) -> Result<(), AmqpError> {
        let quorum = || {
            targets
                .iter()
                .any(|t| self.queue(t.queue).is_some_and(|q| q.is_quorum()))
        };
        if self.profile.quorum_delivery_time && quorum() {
            crate::amqp::delivery_time::read_delivery_time(&msg.headers)?;
        }
        Ok(())
    }

    fn refuse_publish(&mut self, msg: &Message, e: AmqpError) {
        self.emit(EventKind::Error {
            msg: Some(msg.id),
            code: e.code,
            text: e.text.into(),
            scope: e.scope,
            subject: e.subject,
            cause: e.cause,
        });
    }

    /// Takes from `spec` what the message keeps (body, headers, rare properties) and
    /// leaves the rest to be dropped with it. By reference: the spec (336 bytes, its
    /// properties 256) moved by value was copied twice per publish.
    pub(super) fn build_message(
        &mut self,
        id: crate::ids::MsgId,
        spec: &mut PublishSpec,
        run: u32,
    ) -> Message {
        let mut body = std::mem::take(&mut spec.body);
        if crate::scenario::template::has_run_number(&body) {
            body = crate::scenario::template::body_of_run(&body, run);
        }
        let (headers, extra) =
            self.split_route_headers(std::mem::take(&mut spec.properties.headers));
        // Interned in this order (CC/BCC keys, exchange, routing key, odd expiration):
        // symbol order shows (e.g. in the exchange list), so it must stay as it was.
        // The default exchange was the first name interned: known without a look-up.
        let exchange = if spec.exchange.is_empty() {
            self.default_exchange()
        } else {
            self.sym(&spec.exchange)
        };
        let routing_key = self.sym(&spec.routing_key);
        let p = &mut spec.properties;
        let rerender = self.profile.expiration_rerendered;
        let expiration = p.expiration.as_deref().map(|e| {
            let mut x = Expiration::new(e, parse_expiration(e).ok(), &mut self.syms);
            if rerender && x.is_valid() {
                x.verbatim = None; // 3.13+ (D6): shown as the integer it parsed to
            }
            x
        });
        Message {
            id,
            exchange,
            routing_keys: RoutingKeys::new(routing_key, &extra),
            published_at_ms: self.now_ms(),
            body: body.into(),
            expiration,
            delivery_mode: p.delivery_mode.unwrap_or(0),
            headers,
            rare: rare_props(p),
            deaths: None,
            delayed_by_ms: None,
        }
    }

    /// CC and BCC header keys route too; BCC is removed from the stored message. The
    /// stored headers share their keys (one copy of "x-delay" for a million messages).
    fn split_route_headers(&mut self, mut headers: Table) -> (Table, Vec<Sym>) {
        let mut extra = Vec::new();
        for key in ["CC", "BCC"] {
            if let Some(FieldValue::Array(items)) = headers.get(key) {
                extra.extend(
                    items
                        .iter()
                        .filter_map(|v| v.as_str())
                        .map(|s| self.syms.intern(s)),
                );
            }
        }
        headers.remove("BCC");
        headers.share_keys(|k| self.syms.header_key(k));
        (headers, extra)
    }
}

/// The properties besides expiration, delivery mode and headers, if any is set.
///
/// Asked field by field: building the rest and comparing it with a default one moved and
/// compared 256 bytes per publish. The pattern names every field, so a new property
/// does not compile until it is placed here.
fn rare_props(p: &mut Properties) -> Option<Box<Properties>> {
    let Properties {
        expiration: _,
        delivery_mode: _,
        headers: _,
        priority,
        message_id,
        correlation_id,
        content_type,
        content_encoding,
        reply_to,
        timestamp,
        kind,
        user_id,
        app_id,
    } = &*p;
    let strings = [
        message_id,
        correlation_id,
        content_type,
        content_encoding,
        reply_to,
        kind,
        user_id,
        app_id,
    ];
    if priority.is_none() && timestamp.is_none() && strings.iter().all(|s| s.is_none()) {
        return None;
    }
    Some(Box::new(Properties {
        expiration: None,
        delivery_mode: None,
        headers: Table::new(),
        ..std::mem::take(p)
    }))
}
