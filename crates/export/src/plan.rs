//! What an export contains: the scenario's topology, consumers and timed actions as the
//! generators walk them, when the run ends, which queues are wait queues (a DLX and no
//! consumer), and what is left out because a client program cannot do it.

use std::collections::BTreeSet;

use delaylab_engine::report;
use delaylab_engine::scenario::rename::{Key, ScenarioNames, DLX_ARG};
use delaylab_engine::scenario::{ActionKind, Declare, OutcomePlan, Scenario};

use crate::Language;

/// Extra real time after `until` for the broker's last steps (as `delaylab replay`).
pub const GRACE_UNTIL_MS: u64 = 25;
/// Extra real time after the simulated end when the scenario has no `until`.
pub const GRACE_IDLE_MS: u64 = 300;

pub struct Plan<'a> {
    pub scenario: &'a Scenario,
    pub language: Language,
    /// Where the run stops (scenario ms): `until`, else the simulation's end.
    pub end_ms: u64,
    /// Real ms waited after `end_ms` before the depths are measured.
    pub grace_ms: u64,
    /// Every exchange and queue the run may create (topology and `declare` actions),
    /// deleted at the end.
    pub exchanges: Vec<String>,
    pub queues: Vec<String>,
    /// Which strings the program renames with its unique prefix: the engine's rule,
    /// shared with `delaylab replay` (`scenario::rename`; a routing or binding key that
    /// names a scenario queue is a name on every exchange, see
    /// [`ScenarioNames::key_is_name`]).
    pub names: ScenarioNames,
    /// Queues with a dead-letter exchange that no consumer reads: they only hold
    /// messages until their TTL runs out.
    pub wait_queues: BTreeSet<String>,
    pub left_out: Vec<String>,
}

impl<'a> Plan<'a> {
    pub fn new(s: &'a Scenario, language: Language) -> Plan<'a> {
        let (end_ms, grace_ms) = match s.until_ms {
            Some(u) => (u, GRACE_UNTIL_MS),
            None => (
                report::run(s)["stats"]["end_ms"].as_u64().unwrap_or(0),
                GRACE_IDLE_MS,
            ),
        };
        let names = ScenarioNames::of(s);
        let read: BTreeSet<&str> = s.consumers.iter().map(|c| c.queue.as_str()).collect();
        let wait_queues = s
            .topology
            .queues
            .iter()
            .filter(|q| q.arguments.contains_key(DLX_ARG))
            .filter(|q| !read.contains(q.name.as_str()))
            .map(|q| q.name.clone())
            .collect();
        Plan {
            scenario: s,
            language,
            end_ms,
            grace_ms,
            exchanges: names.exchanges.iter().cloned().collect(),
            queues: names.queues.iter().cloned().collect(),
            names,
            wait_queues,
            left_out: left_out(s, language),
        }
    }

    /// How a routing key used on `exchange` is written in the program: a name the
    /// program prefixes (`n("work")`) or the key as written, by the engine's rule
    /// ([`ScenarioNames::key_is_name`]). Binding keys: `self.names.binding_keys(b)`.
    pub fn key<'k>(&self, exchange: &str, key: &'k str) -> Key<'k> {
        crate::args::routing_key(&self.names, exchange, key)
    }

    /// True when the scenario uses the delayed-message exchange plugin.
    /// A publish carries `x-opt-delivery-time` (RabbitMQ 4.4's quorum-queue delays).
    pub fn uses_delivery_time(&self) -> bool {
        self.scenario.actions.iter().any(|a| {
            matches!(&a.kind, ActionKind::Publish(p)
                if p.properties.headers.contains_key(delaylab_engine::amqp::delivery_time::DELIVERY_TIME_HEADER))
        })
    }

    pub fn uses_plugin(&self) -> bool {
        let plugin = |k: &str| k == DELAYED_KIND;
        self.scenario
            .topology
            .exchanges
            .iter()
            .any(|x| plugin(&x.kind))
            || self.scenario.actions.iter().any(
                |a| matches!(&a.kind, ActionKind::Declare(Declare::Exchange(x)) if plugin(&x.kind)),
            )
    }

    /// The order lab is exported as code (its consumer policy against a table).
    pub fn exports_orders(&self) -> bool {
        self.scenario.orders.is_some() && crate::orders::supported(self.language)
    }
}

/// The exchange type of the delayed-message plugin.
pub const DELAYED_KIND: &str = "x-delayed-message";

/// Everything the scenario does that the program will not, in words.
fn left_out(s: &Scenario, language: Language) -> Vec<String> {
    let mut out = Vec::new();
    for (i, a) in s.actions.iter().enumerate() {
        match &a.kind {
            ActionKind::RestartNode { downtime_ms } => out.push(format!(
                "actions[{i}] restart_node at {} ms (down {downtime_ms} ms): a client program cannot stop the broker; restart it by hand (rabbitmqctl stop_app / start_app) to see it",
                a.at_ms
            )),
            ActionKind::LoseNode => out.push(format!(
                "actions[{i}] lose_node at {} ms: a client program cannot take a broker node away",
                a.at_ms
            )),
            ActionKind::Upgrade { .. } => out.push(format!(
                "actions[{i}] upgrade at {} ms: a client program cannot upgrade the broker; do it by hand (stop the node, install the new version, start it) to see what survives",
                a.at_ms
            )),
            ActionKind::Publish(p) if language == Language::Go => {
                // amqp091-go writes a property only when it is not the zero value.
                let pr = &p.properties;
                if pr.expiration.as_deref() == Some("") {
                    out.push(format!("actions[{i}] publishes expiration \"\": amqp091-go cannot send an empty expiration (an empty string means no property), so the message would not be refused"));
                }
                if pr.priority == Some(0) || pr.delivery_mode == Some(0) {
                    out.push(format!("actions[{i}] sets priority or delivery_mode 0: amqp091-go leaves a zero property out"));
                }
            }
            _ => {}
        }
    }
    for (i, f) in s.faults.iter().enumerate() {
        out.push(format!(
            "faults[{i}] {}: faults are injected by the simulation only",
            f.kind.as_str()
        ));
    }
    if s.orders.is_some() && !crate::orders::supported(language) {
        out.push(format!(
            "orders: the order lab (orders, payments, the consumer policy) is exported for {} only",
            crate::orders::SUPPORTED_NAMES
        ));
    }
    for c in &s.consumers {
        if matches!(c.outcome, OutcomePlan::Weighted(_)) {
            out.push(format!(
                "consumers '{}': weighted outcomes are drawn with the language's own random numbers, not the simulation's seeded ones (results differ run to run)",
                c.name
            ));
        }
    }
    for n in &s.topology.not_simulated {
        out.push(format!("topology: {n}"));
    }
    out
}

/// How the timed actions are ordered when several fall on the same ms, as the
/// simulation fires them (and `delaylab replay` sends them): by time, first runs before
/// repeats, then by position in `actions`, then by run number.
pub const ORDER_NOTE: &str =
    "(time, repeat run > 1, action index, run): the order in which the simulation fires them";
