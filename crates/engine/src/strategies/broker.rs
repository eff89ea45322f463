//! Running a broker strategy through the real simulator.
//!
//! A strategy file builds a [`Plan`]: the topology, the delayed-queue consumer and how
//! each task is published. [`BrokerRun`] feeds the tasks to a [`Sim`] one publish at a
//! time (`Sim::handle` at the task's enter time, as `delaylab bench` does), runs the
//! outage as `RestartNode` / `LoseNode` at its time, then runs the broker until nothing
//! is left, in slices of about `budget` events. A task fires at its first delivery to
//! the consumer of `DUE_QUEUE`; lateness is measured from the task's due time.
//!
//! ```text
//! t=0     Sim::new: topology declared, consumer attached to delay.due
//! t=e_i   handle(Publish(task i)) -> Published(msg) maps msg id -> task i
//! ...     advance: TTL expiries, dead-lettering, the plugin's timer ...
//! t=d     Delivered(msg) on delay.due -> task fired at d
//! ```
//! Messages are persistent and queues durable, as a production setup would have them,
//! so a restart keeps them; tasks created while the node is down are published when it
//! is back (the producer retries), with the delay that remains.
//!
//! [`delay_scenario`] builds the three classic delay topologies once, for the strategies
//! here and for `delaylab bench` (which times the same broker setups):
//! ```text
//! PerMessageTtl      delay.wait (per-message expiration) -DLX delay.dlx-> delay.due
//! PerTtlQueues(ttls) delay.wait.<ttl> (x-message-ttl)    -DLX delay.dlx-> delay.due
//! DelayedExchange    delay.delayed (x-delayed-message, direct)         -> delay.due
//! QuorumDeliveryTime delay.due is a quorum queue: publish to it with x-opt-delivery-time
//! ```

use super::stats::Tally;
use super::workload::{Outage, OutageKind, Task, Workload};
use super::{Strategy, StrategyResult};
use crate::event::EventKind;
use crate::scenario::{
    AckMode, ActionKind, BindingDef, ConsumerSpec, DestinationKind, ExchangeDef, Outcome,
    OutcomePlan, Properties, PublishSpec, QueueDef, Scenario,
};
use crate::value::{FieldValue, Table};
use crate::{Command, Progress, Sim};

/// Where delayed tasks end up, consumed by the application.
pub const DUE_QUEUE: &str = "delay.due";
/// The dead-letter exchange of the TTL queues (`dlx-per-message`, `-per-queue`, `fixed-levels`).
pub(crate) const DLX: &str = "delay.dlx";
/// The one wait queue of [`DelayTopology::PerMessageTtl`].
pub const WAIT_QUEUE: &str = "delay.wait";
/// The exchange of [`DelayTopology::DelayedExchange`], bound to `DUE_QUEUE` by the name
/// `DUE_QUEUE`.
pub const DELAYED_EXCHANGE: &str = "delay.delayed";

/// A broker topology that delays messages on their way to `DUE_QUEUE`.
#[derive(Clone, Copy, Debug)]
pub enum DelayTopology<'a> {
    /// One wait queue, `WAIT_QUEUE`: publish to it with a per-message `expiration`.
    PerMessageTtl,
    /// One wait queue per TTL, [`wait_queue`]`(ttl_ms)`: publish to the one of the delay.
    PerTtlQueues(&'a [u64]),
    /// The delayed-message exchange `DELAYED_EXCHANGE`: publish with `x-delay`.
    DelayedExchange,
    /// RabbitMQ 4.4: `DUE_QUEUE` is a quorum queue; publish to it with
    /// `x-opt-delivery-time` (the due time, virtual 0:00 being the Unix epoch).
    QuorumDeliveryTime,
}

/// The scenario of a delay topology: its objects, and an auto-ack consumer on `DUE_QUEUE`.
pub fn delay_scenario(name: &str, topology: DelayTopology) -> Scenario {
    match topology {
        DelayTopology::PerMessageTtl => {
            let mut s = per_ttl_scenario(name, &[]);
            s.topology.queues.push(dlx_queue(WAIT_QUEUE));
            s
        }
        DelayTopology::PerTtlQueues(ttls_ms) => per_ttl_scenario(name, ttls_ms),
        DelayTopology::DelayedExchange => {
            let mut s = base_scenario(name);
            let mut x = ExchangeDef::new(DELAYED_EXCHANGE, "x-delayed-message");
            x.arguments
                .insert("x-delayed-type", FieldValue::str("direct"));
            s.topology.exchanges.push(x);
            s.topology
                .bindings
                .push(BindingDef::queue(DELAYED_EXCHANGE, DUE_QUEUE, DUE_QUEUE));
            s
        }
        DelayTopology::QuorumDeliveryTime => {
            let mut s = base_scenario(name);
            let due = &mut s.topology.queues[0];
            debug_assert_eq!(due.name, DUE_QUEUE);
            due.arguments
                .insert("x-queue-type", FieldValue::str("quorum"));
            s.broker = Some(crate::version::BrokerVersion::V4_4);
            s
        }
    }
}

/// The publish of one task, given the delay that remains when it is published.
pub(crate) type PublishFn = Box<dyn Fn(&Task, u64) -> PublishSpec>;

/// What a broker strategy declares and publishes.
pub(crate) struct Plan {
    pub name: &'static str,
    pub params: String,
    pub scenario: Scenario,
    pub publish: PublishFn,
    pub facts: Vec<(&'static str, u64)>,
}

/// An empty scenario with the application's consumer on `DUE_QUEUE` (declared here).
pub(crate) fn base_scenario(name: &str) -> Scenario {
    let mut s = Scenario::empty(name);
    s.topology.queues.push(QueueDef::new(DUE_QUEUE));
    s.consumers.push(ConsumerSpec {
        name: "app".into(),
        queue: DUE_QUEUE.into(),
        ack: AckMode::Auto,
        prefetch: 0,
        global_qos: false,
        handle_ms: 0,
        outcome: OutcomePlan::Fixed(Outcome::Ack),
        from_ms: 0,
        to_ms: None,
    });
    s
}

/// One wait queue per TTL, `delay.wait.<ttl_ms>`, dead-lettering to `DUE_QUEUE` via `DLX`
/// (`dlx-per-queue` with the workload's delays, `fixed-levels` with its levels).
pub(crate) fn per_ttl_scenario(name: &str, ttls_ms: &[u64]) -> Scenario {
    let mut s = base_scenario(name);
    s.topology.exchanges.push(ExchangeDef::new(DLX, "direct"));
    s.topology
        .bindings
        .push(BindingDef::queue(DLX, DUE_QUEUE, DUE_QUEUE));
    for ttl in ttls_ms {
        s.topology.queues.push(
            dlx_queue(&wait_queue(*ttl)).with_arg("x-message-ttl", FieldValue::Int(*ttl as i64)),
        );
    }
    s
}

/// A queue that dead-letters to `DLX` with the routing key `DUE_QUEUE`.
pub(crate) fn dlx_queue(name: &str) -> QueueDef {
    QueueDef::new(name)
        .with_arg("x-dead-letter-exchange", FieldValue::str(DLX))
        .with_arg("x-dead-letter-routing-key", FieldValue::str(DUE_QUEUE))
}

/// The wait queue of one TTL in [`DelayTopology::PerTtlQueues`].
pub fn wait_queue(ttl_ms: u64) -> String {
    format!("delay.wait.{ttl_ms}")
}

/// A persistent publish.
pub(crate) fn persistent(
    exchange: &str,
    routing_key: &str,
    expiration: Option<u64>,
    headers: Table,
) -> PublishSpec {
    PublishSpec {
        exchange: exchange.into(),
        routing_key: routing_key.into(),
        body: String::new(),
        properties: Properties {
            delivery_mode: Some(2),
            expiration: expiration.map(|e| e.to_string()),
            headers,
            ..Properties::default()
        },
        mandatory: false,
    }
}

/// An exchange-to-exchange binding.
pub(crate) fn e2e(source: &str, destination: &str, routing_key: &str) -> BindingDef {
    BindingDef {
        source: source.into(),
        destination: destination.into(),
        destination_type: DestinationKind::Exchange,
        routing_key: routing_key.into(),
        arguments: Table::new(),
    }
}

/// Publishes the client has unconfirmed at most: broker-costs.md's publisher ("publisher
/// confirms with a sliding window of 1,000 unconfirmed messages"). A task created while
/// the window is full waits in the application and is sent, with the delay that remains,
/// when a confirm frees a place (as a task created during an outage is).
pub const WINDOW: usize = 1_000;

pub(crate) struct BrokerRun {
    plan: Plan,
    workload: Workload,
    sim: Sim,
    next: usize,
    outage_done: bool,
    /// Task index of each message id (ids are handed out from 1 at publish).
    task_of_msg: Vec<u32>,
    /// Publishes sent, and those settled (confirmed, or refused with an error): the
    /// client's window ([`WINDOW`]).
    sent: usize,
    settled: usize,
    /// Publishes the broker has taken so far. The channel takes them in the order they
    /// were sent, so the k-th `Published` is task k; with costs it may come after later
    /// tasks were sent (`costs::ingress`), so `next` would name the wrong task.
    published: usize,
    fired: Vec<bool>,
    tally: Tally,
    events: u64,
}

impl BrokerRun {
    pub fn new(mut plan: Plan, w: &Workload) -> BrokerRun {
        plan.scenario.broker = w.broker;
        plan.scenario.costs = w.costs.clone();
        let sim = Sim::new(&plan.scenario);
        let n = w.tasks.len();
        let mut tally = Tally::new(n as u64);
        let t = &plan.scenario.topology;
        tally.broker_objects = (t.exchanges.len() + t.queues.len() + t.bindings.len()) as u64;
        BrokerRun {
            plan,
            workload: w.clone(),
            sim,
            next: 0,
            outage_done: w.outage.is_none(),
            task_of_msg: vec![u32::MAX; n + 1],
            sent: 0,
            settled: 0,
            published: 0,
            fired: vec![false; n],
            tally,
            events: 0,
        }
    }

    /// Reads the events so far; returns how many.
    fn drain(&mut self) -> u64 {
        let mut count = 0;
        while let Some(e) = self.sim.poll_event() {
            count += 1;
            match e.kind {
                EventKind::Published { msg, .. } => {
                    if let Some(slot) = self.task_of_msg.get_mut(msg.id.0 as usize) {
                        *slot = self.published as u32;
                    }
                    self.published += 1;
                }
                EventKind::Confirmed { .. } | EventKind::Error { msg: Some(_), .. } => {
                    self.settled += 1;
                }
                EventKind::Delivered { msg, .. } => {
                    let i = self
                        .task_of_msg
                        .get(msg.id.0 as usize)
                        .copied()
                        .unwrap_or(u32::MAX) as usize;
                    if i < self.fired.len() && !self.fired[i] {
                        self.fired[i] = true;
                        self.tally.fire(self.workload.tasks[i].due_ms(), e.t_ms);
                    }
                }
                _ => {}
            }
        }
        self.events += count;
        count
    }

    /// Waits (runs the broker on) until the client's window has room: with costs the
    /// broker takes publishes one at a time and confirms each when taken; in ideal mode
    /// every publish is confirmed at once and this never waits. Returns the events read.
    fn wait_for_window(&mut self) -> u64 {
        let mut spent = 0;
        while self.sent - self.settled >= WINDOW {
            let Some(t) = self.sim.next_timer_ms() else {
                break; // nothing will confirm them: send anyway
            };
            if !self.outage_done && self.workload.outage.is_some_and(|o| t >= o.at_ms) {
                self.run_outage();
                continue;
            }
            while self.sim.advance(t) == Progress::More {
                spent += self.drain();
            }
            spent += self.drain();
        }
        spent
    }

    /// When a task that entered at `enter_ms` is sent: not before the window had room
    /// (the broker's clock), and not while a restarting node is down (the producer
    /// retries until it is back).
    fn send_ms(&self, enter_ms: u64) -> u64 {
        let at = enter_ms.max(self.sim.now_ms());
        match self.workload.outage {
            Some(
                o @ Outage {
                    at_ms,
                    kind: OutageKind::Restart { .. },
                },
            ) if at >= at_ms && at < o.up_ms() => o.up_ms(),
            _ => at,
        }
    }

    fn run_outage(&mut self) {
        let Some(o) = self.workload.outage else {
            return;
        };
        let kind = match o.kind {
            OutageKind::Restart { downtime_ms } => ActionKind::RestartNode { downtime_ms },
            OutageKind::Lose => ActionKind::LoseNode,
        };
        self.sim.handle(o.at_ms, Command::Run(kind));
        self.outage_done = true;
        self.drain();
    }
}

impl Strategy for BrokerRun {
    fn name(&self) -> &'static str {
        self.plan.name
    }

    fn step(&mut self, budget: u64) -> bool {
        let mut spent = 0u64;
        while self.next < self.workload.tasks.len() && spent < budget {
            let task = self.workload.tasks[self.next];
            let enter = self.workload.enter_ms(&task);
            if !self.outage_done
                && self
                    .workload
                    .outage
                    .is_some_and(|o| task.created_at_ms >= o.at_ms)
            {
                self.run_outage();
            }
            spent += self.wait_for_window();
            let at = self.send_ms(enter);
            let spec = (self.plan.publish)(&task, task.due_ms().saturating_sub(at));
            self.sim.handle(at, Command::Run(ActionKind::Publish(spec)));
            self.sent += 1;
            self.tally.peak_stored = self.tally.peak_stored.max(self.sim.live_copies());
            spent += self.drain().max(1);
            self.next += 1;
        }
        if self.next < self.workload.tasks.len() {
            return false;
        }
        if !self.outage_done {
            self.run_outage();
        }
        while spent < budget {
            let Some(t) = self.sim.next_timer_ms() else {
                return true;
            };
            while self.sim.advance(t) == Progress::More {
                spent += self.drain();
            }
            spent += self.drain();
        }
        false
    }

    fn result(&self) -> StrategyResult {
        let mut tally = Tally {
            tasks: self.tally.tasks,
            fired: self.tally.fired.clone(),
            rows_scanned: 0,
            broker_objects: self.tally.broker_objects,
            peak_stored: self.tally.peak_stored,
            work: self.events,
            facts: self.plan.facts.clone(),
        };
        tally.facts.push(("sim_events", self.events));
        if self.sim.halted() {
            tally.facts.push(("sim_halted", 1));
        }
        tally.into_result(self.plan.name, self.plan.params.clone(), "events")
    }
}
