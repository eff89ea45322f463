//! Exchanges and their bindings, and the match of one exchange's bindings against one
//! message (the per-type rule). Walking exchange-to-exchange bindings and alternate
//! exchanges is `sim::route`.

use crate::amqp::exchange_args::ExchangeKind;
use crate::routing::{headers, topic};
use crate::sym::{Sym, Symbols};
use crate::value::Table;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Destination {
    Queue(Sym),
    Exchange(Sym),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    pub destination: Destination,
    pub routing_key: Sym,
    pub arguments: Table,
}

#[derive(Clone, Debug)]
pub struct Exchange {
    pub name: Sym,
    pub kind: ExchangeKind,
    /// `x-delayed-message` wrapping `kind`.
    pub delayed: bool,
    pub durable: bool,
    pub auto_delete: bool,
    pub internal: bool,
    pub alternate: Option<Sym>,
    /// The declared type and arguments, for re-declare equivalence and display.
    pub declared_type: String,
    pub arguments: Table,
    /// Built in (`amq.*`): not shown as part of the user's topology.
    pub builtin: bool,
    pub bindings: Vec<Binding>,
    /// Headers exchange: compare values with `=:=` (3.13+, rabbitmq-versions.md D32:
    /// `1` no longer matches `1.0`); false: Erlang `==` as 3.10.
    pub headers_exact: bool,
}

impl Exchange {
    /// The destinations of the bindings that match a message with these routing keys
    /// and headers, in binding order.
    pub fn matches<'a>(
        &'a self,
        syms: &'a Symbols,
        routing_keys: &'a [Sym],
        headers: &'a Table,
    ) -> impl Iterator<Item = Destination> + 'a {
        self.matching(syms, routing_keys, headers)
            .map(|b| b.destination)
    }

    /// The bindings that match, in binding order (what a route names as its cause).
    pub fn matching<'a>(
        &'a self,
        syms: &'a Symbols,
        routing_keys: &'a [Sym],
        headers: &'a Table,
    ) -> impl Iterator<Item = &'a Binding> + 'a {
        self.bindings
            .iter()
            .filter(move |b| self.binding_matches(b, syms, routing_keys, headers))
    }

    fn binding_matches(
        &self,
        b: &Binding,
        syms: &Symbols,
        routing_keys: &[Sym],
        headers: &Table,
    ) -> bool {
        match self.kind {
            ExchangeKind::Fanout => true,
            ExchangeKind::Direct => routing_keys.contains(&b.routing_key),
            ExchangeKind::Topic => {
                let pattern = syms.str(b.routing_key);
                routing_keys
                    .iter()
                    .any(|rk| topic::topic_matches(pattern, syms.str(*rk)))
            }
            ExchangeKind::Headers => {
                headers::headers_match_with(&b.arguments, headers, self.headers_exact)
            }
        }
    }
}
