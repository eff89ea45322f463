//! Declaring and deleting exchanges, queues and bindings; purging.
//!
//! Declarations are validated as RabbitMQ 3.10 validates them (`amqp::queue_args`,
//! `amqp::exchange_args`): a refused declaration is an `Error` event with the broker's
//! code and text, and changes nothing. Re-declaring with other properties is a 406
//! "inequivalent arg"; re-declaring the same is a no-op (and counts as use for
//! `x-expires`). Deleting what does not exist is not an error (as in 3.10).
//! Deleting a queue or purging it never dead-letters: messages are dropped.

use super::Sim;
use crate::amqp::exchange_args::ExchangeKind;
use crate::amqp::{exchange_args, queue_args, AmqpError, Subject};
use crate::cause::DropCause;
use crate::event::{DropReason, EventKind};
use crate::exchange::{Binding, Destination, Exchange};
use crate::ids::QueueId;
use crate::queue::{Queue, QueueRules};
use crate::routing::headers;
use crate::scenario::{
    BindingDef, Declare, Delete, DestinationKind, ExchangeDef, QueueDef, Topology,
};
use crate::sym::Sym;
use crate::timers::Timer;

/// Quorum queues check `x-expires` on their 5 s tick.
const QUORUM_TICK_MS: u64 = 5000;

impl Sim {
    pub(crate) fn default_exchange(&self) -> Sym {
        self.default_exchange_sym
    }

    pub(crate) fn declare_builtins(&mut self) {
        let builtins = [
            ("", "direct"),
            ("amq.direct", "direct"),
            ("amq.fanout", "fanout"),
            ("amq.topic", "topic"),
            ("amq.headers", "headers"),
            ("amq.match", "headers"),
        ];
        for (name, kind) in builtins {
            let sym = self.sym(name);
            let mut x = new_exchange(
                sym,
                &ExchangeDef::new(name, kind),
                ExchangeKind::parse(kind).expect("builtin type"),
                false,
                None,
            );
            x.builtin = true;
            x.headers_exact = self.profile.headers_exact_match;
            self.exchanges.insert(sym, x);
        }
    }

    pub(crate) fn declare_topology(&mut self, t: &Topology) {
        for x in &t.exchanges {
            self.declare_exchange(x);
        }
        for q in &t.queues {
            self.declare_queue(q);
        }
        for b in &t.bindings {
            self.declare_binding(b);
        }
    }

    pub(crate) fn declare(&mut self, d: &Declare) {
        match d {
            Declare::Exchange(x) => self.declare_exchange(x),
            Declare::Queue(q) => self.declare_queue(q),
            Declare::Binding(b) => self.declare_binding(b),
        }
    }

    pub(crate) fn delete(&mut self, d: &Delete) {
        match d {
            Delete::Exchange { name } => self.delete_exchange(name),
            Delete::Queue { name } => self.delete_queue_named(name),
            Delete::Binding(b) => self.delete_binding(b),
        }
    }

    pub(crate) fn report(&mut self, err: AmqpError) {
        self.emit(EventKind::Error {
            msg: None,
            code: err.code,
            text: err.text.into(),
            scope: err.scope,
            subject: err.subject,
            cause: err.cause,
        });
    }

    fn declare_exchange(&mut self, def: &ExchangeDef) {
        if let Err(e) = self.try_declare_exchange(def) {
            self.report(e);
        }
    }

    fn try_declare_exchange(&mut self, def: &ExchangeDef) -> Result<(), AmqpError> {
        // The version's own refusals first (4.3: no plugin), as check_type runs first.
        self.profile
            .check_exchange_type(&def.kind, self.plugin_was_loaded)?;
        let sym = self.sym(&def.name);
        // An existing exchange is only compared (RabbitMQ does not validate it again);
        // this is also how `amq.direct` can be re-declared with its own properties.
        if let Some(existing) = self.exchanges.get(&sym) {
            if def.name.is_empty() {
                return Err(exchange_args::reserved_name_error(""));
            }
            let requested = exchange_args::ExchangeDeclaration {
                kind: &def.kind,
                durable: def.durable,
                auto_delete: def.auto_delete,
                internal: def.internal,
                args: &def.arguments,
            };
            return exchange_args::equivalence(
                &def.name,
                &existing.declared_type,
                existing.durable,
                &existing.arguments,
                &requested,
            );
        }
        let cfg = exchange_args::validate_exchange(&def.name, &def.kind, &def.arguments)
            .map_err(|e| self.profile.adapt_exchange_error(e))?;
        let ae = cfg.alternate_exchange.as_deref().map(|a| self.sym(a));
        let mut x = new_exchange(sym, def, cfg.kind, cfg.delayed, ae);
        x.headers_exact = self.profile.headers_exact_match;
        self.exchanges.insert(sym, x);
        self.emit(EventKind::ExchangeDeclared { exchange: sym });
        Ok(())
    }

    fn declare_queue(&mut self, def: &QueueDef) {
        if let Err(e) = self.try_declare_queue(def) {
            self.report(e);
        }
    }

    fn try_declare_queue(&mut self, def: &QueueDef) -> Result<(), AmqpError> {
        let sym = self.sym(&def.name);
        if let Some(qid) = self.queue_id(sym) {
            // Re-declaring: no validation again, only the equivalence check.
            let q = self.queue(qid).expect("queue");
            let old = queue_args::QueueDeclaration {
                durable: q.durable,
                exclusive: q.exclusive,
                auto_delete: q.auto_delete,
                args: &q.arguments,
            };
            let new = queue_args::QueueDeclaration {
                durable: def.durable,
                exclusive: def.exclusive,
                auto_delete: def.auto_delete,
                args: &def.arguments,
            };
            if let Some(e) = queue_args::equivalence_error(&def.name, &old, &new) {
                return Err(e);
            }
            if !q.is_quorum() {
                // queue.declare renews a classic queue's x-expires lease (not a quorum's).
                let now = self.now_ms();
                self.queue_mut(qid).expect("queue").last_used_ms = now;
                self.arm_queue_expiry(qid);
            }
            return Ok(());
        }
        let cfg = queue_args::validate_queue_declare(
            &def.name,
            def.durable,
            def.exclusive,
            def.auto_delete,
            &def.arguments,
        )?;
        let quorum = cfg.kind == crate::queue::QueueKind::Quorum;
        self.profile.check_queue_declare(def, quorum)?;
        let rules = QueueRules {
            kind: cfg.kind,
            message_ttl_ms: cfg.message_ttl_ms,
            dlx: cfg.dead_letter_exchange.as_deref().map(|s| self.sym(s)),
            dlrk: cfg.dead_letter_routing_key.as_deref().map(|s| self.sym(s)),
            max_length: cfg.max_length,
            max_length_bytes: cfg.max_length_bytes,
            overflow: cfg.overflow,
            expires_ms: cfg.expires_ms,
            delivery_limit: if quorum {
                self.profile.effective_delivery_limit(cfg.delivery_limit)
            } else {
                None
            },
            delayed_retry: if quorum {
                self.profile.delayed_retry_config(&def.arguments)
            } else {
                None
            },
            dead_letter_at_least_once: cfg.dead_letter_strategy
                == queue_args::DeadLetterStrategy::AtLeastOnce,
        };
        let id = QueueId(self.queues.len() as u32);
        let mut q = Queue::new(id, sym, rules, self.now_ms());
        q.durable = def.durable;
        q.exclusive = def.exclusive;
        q.auto_delete = def.auto_delete;
        q.arguments = def.arguments.clone();
        self.queues.push(Some(q));
        self.queue_ids.insert(sym, id);
        self.emit(EventKind::QueueDeclared { queue: sym });
        self.arm_queue_expiry(id);
        Ok(())
    }

    fn declare_binding(&mut self, def: &BindingDef) {
        if let Err(e) = self.try_declare_binding(def) {
            self.report(e);
        }
    }

    fn try_declare_binding(&mut self, def: &BindingDef) -> Result<(), AmqpError> {
        let (src, dest) = self.binding_ends(def)?;
        if let Some(x) = self.exchanges.get(&src) {
            if x.kind == ExchangeKind::Headers {
                headers::parse_x_match(&def.arguments)
                    .map_err(|e| AmqpError::precondition_failed(e).about_arg(headers::X_MATCH))?;
            }
            if x.kind == ExchangeKind::Topic {
                self.profile
                    .check_topic_binding(&def.routing_key)
                    .map_err(|e| e.about(Subject::RoutingKey))?;
            }
        }
        let routing_key = self.sym(&def.routing_key);
        let binding = Binding {
            destination: dest,
            routing_key,
            arguments: def.arguments.clone(),
        };
        let x = self.exchanges.get_mut(&src).expect("source exists");
        if !x.bindings.contains(&binding) {
            x.bindings.push(binding);
            let (destination, to_exchange) = split(dest);
            self.emit(EventKind::Bound {
                source: src,
                destination,
                to_exchange,
                routing_key,
            });
        }
        Ok(())
    }

    /// Resolves and checks both ends of a binding (404 for a missing end, 403 for the
    /// default exchange).
    fn binding_ends(&mut self, def: &BindingDef) -> Result<(Sym, Destination), AmqpError> {
        if def.source.is_empty() {
            return Err(AmqpError::access_refused(
                "operation not permitted on the default exchange",
            )
            .about(Subject::Source));
        }
        let src = self.sym(&def.source);
        if !self.exchanges.contains_key(&src) {
            return Err(
                AmqpError::not_found(format!("no exchange '{}' in vhost '/'", def.source))
                    .about(Subject::Source),
            );
        }
        let dest = self.sym(&def.destination);
        match def.destination_type {
            DestinationKind::Queue if self.queue_id(dest).is_none() => Err(AmqpError::not_found(
                format!("no queue '{}' in vhost '/'", def.destination),
            )
            .about(Subject::Destination)),
            DestinationKind::Exchange if !self.exchanges.contains_key(&dest) => Err(
                AmqpError::not_found(format!("no exchange '{}' in vhost '/'", def.destination))
                    .about(Subject::Destination),
            ),
            DestinationKind::Queue => Ok((src, Destination::Queue(dest))),
            DestinationKind::Exchange => Ok((src, Destination::Exchange(dest))),
        }
    }

    fn delete_binding(&mut self, def: &BindingDef) {
        let (src, dest) = match self.binding_ends(def) {
            Ok(ends) => ends,
            Err(e) => return self.report(e),
        };
        let routing_key = self.sym(&def.routing_key);
        let x = self.exchanges.get_mut(&src).expect("source exists");
        let before = x.bindings.len();
        x.bindings.retain(|b| {
            !(b.destination == dest && b.routing_key == routing_key && b.arguments == def.arguments)
        });
        if x.bindings.len() != before {
            let (destination, to_exchange) = split(dest);
            self.emit(EventKind::Unbound {
                source: src,
                destination,
                to_exchange,
                routing_key,
            });
        }
    }

    fn delete_exchange(&mut self, name: &str) {
        if let Some(e) = exchange_args::delete_error(name) {
            return self.report(e);
        }
        let Some(sym) = self.syms.get(name) else {
            return;
        };
        if self.exchanges.remove(&sym).is_none() {
            return;
        }
        for x in self.exchanges.values_mut() {
            x.bindings
                .retain(|b| b.destination != Destination::Exchange(sym));
        }
        // Its delayed messages stay in the store and fire into whatever exists then.
        self.emit(EventKind::ExchangeDeleted { exchange: sym });
    }

    fn delete_queue_named(&mut self, name: &str) {
        let Some(qid) = self.syms.get(name).and_then(|s| self.queue_id(s)) else {
            return;
        };
        self.delete_queue(qid, false);
    }

    /// Removes a queue: consumers are cancelled, ready and unacked messages dropped.
    pub(crate) fn delete_queue(&mut self, qid: QueueId, expired: bool) {
        let q = self.queue_mut(qid).expect("queue");
        let (qname, consumers) = (q.name, std::mem::take(&mut q.consumers));
        for cid in consumers {
            self.consumers[cid.0 as usize].attached = None;
            self.emit(EventKind::ConsumerDetached {
                consumer: cid,
                queue: qname,
            });
        }
        self.drop_unacked(qid, DropReason::QueueDeleted);
        self.drop_ready(qid, DropReason::QueueDeleted);
        for x in self.exchanges.values_mut() {
            x.bindings
                .retain(|b| b.destination != Destination::Queue(qname));
        }
        self.queues[qid.0 as usize] = None;
        self.queue_ids.remove(&qname);
        self.emit(EventKind::QueueDeleted {
            queue: qname,
            expired,
        });
    }

    pub(crate) fn drop_ready(&mut self, qid: QueueId, reason: DropReason) -> u64 {
        let q = self.queue_mut(qid).expect("queue");
        let qname = q.name;
        let gone = q.drain_ready();
        q.head_timer_at_ms = None;
        let n = gone.len() as u64;
        for e in gone {
            self.emit(EventKind::Dropped {
                msg: e.msg.id,
                copy: Some(e.copy),
                queue: Some(qname),
                reason,
                why: DropCause::Plain,
            });
            self.end_copy();
        }
        n
    }

    pub(crate) fn purge(&mut self, queue: &str) {
        let Some(qid) = self.syms.get(queue).and_then(|s| self.queue_id(s)) else {
            return self.report(AmqpError::not_found(format!(
                "no queue '{queue}' in vhost '/'"
            )));
        };
        let qname = self.queue(qid).expect("queue").name;
        let count = self.drop_ready(qid, DropReason::Purged);
        self.emit(EventKind::Purged {
            queue: qname,
            count,
        });
    }

    /// `x-expires`: arm the check for when the queue will have been unused long enough.
    pub(crate) fn arm_queue_expiry(&mut self, qid: QueueId) {
        let Some(q) = self.queue(qid) else { return };
        let Some(expires) = q.rules.expires_ms else {
            return;
        };
        if !q.consumers.is_empty() {
            return;
        }
        let due = q.last_used_ms.saturating_add(expires);
        // Quorum: `Ts > last_active + expires`, checked on the 5 s tick.
        let at = if q.is_quorum() {
            (due / QUORUM_TICK_MS + 1) * QUORUM_TICK_MS
        } else {
            due
        };
        let q = self.queue_mut(qid).expect("queue");
        if q.expiry_timer_at_ms != Some(at) {
            q.expiry_timer_at_ms = Some(at);
            self.arm(at, Timer::QueueExpiry(qid));
        }
    }

    pub(crate) fn on_queue_expiry_timer(&mut self, qid: QueueId) {
        let now = self.now_ms();
        let Some(q) = self.queue_mut(qid) else { return };
        if q.expiry_timer_at_ms != Some(now) {
            return;
        }
        q.expiry_timer_at_ms = None;
        let expires = q.rules.expires_ms.expect("armed only with x-expires");
        let unused_since = q.last_used_ms.saturating_add(expires);
        let idle = q.consumers.is_empty();
        if !self.node_up {
            return; // checked again when the node is back (node_up_again)
        }
        if idle && now >= unused_since {
            self.delete_queue(qid, true);
        } else {
            self.arm_queue_expiry(qid);
        }
    }
}

fn new_exchange(
    name: Sym,
    def: &ExchangeDef,
    kind: ExchangeKind,
    delayed: bool,
    alternate: Option<Sym>,
) -> Exchange {
    Exchange {
        name,
        kind,
        delayed,
        durable: def.durable,
        auto_delete: def.auto_delete,
        internal: def.internal,
        alternate,
        declared_type: def.kind.clone(),
        arguments: def.arguments.clone(),
        builtin: false,
        bindings: Vec::new(),
        headers_exact: false,
    }
}

fn split(d: Destination) -> (Sym, bool) {
    match d {
        Destination::Queue(q) => (q, false),
        Destination::Exchange(x) => (x, true),
    }
}
