//! Running a scenario headless and reporting what happened, in the shapes of the run
//! contract (`shared/docs/scenario-format.md`): the JSON result, the trace lines, and a
//! timeline for people.

pub mod golden;
pub mod render;
pub mod text;
pub mod trace;

use std::rc::Rc;

use serde_json::{json, Map, Value};

use crate::event::{Event, EventKind};
use crate::limits::Limits;
use crate::message::Message;
use crate::scenario::Scenario;
use crate::sim::{Progress, Sim};

/// Collects the contract's result from the event stream.
#[derive(Default)]
pub struct Recorder {
    /// Published messages by id - 1 (ids are dense from 1).
    messages: Vec<Rc<Message>>,
    /// Accumulated lateness per message id - 1 (expired late, released late).
    late_ms: Vec<u64>,
    pub deliveries: Vec<Value>,
    pub dropped: Vec<Value>,
    pub returned: Vec<Value>,
    pub errors: Vec<Value>,
    delivered_late_ms: Vec<u64>,
    pub limit: Option<String>,
    pub events: u64,
}

impl Recorder {
    pub fn on_event(&mut self, e: &Event, sim: &Sim) {
        self.events += 1;
        let syms = sim.symbols();
        match &e.kind {
            EventKind::Published { msg, .. } => {
                self.messages.push(msg.clone());
                self.late_ms.push(0);
            }
            EventKind::Expired { msg, late_ms, .. } | EventKind::DelayDue { msg, late_ms, .. } => {
                self.late_ms[msg.0 as usize - 1] += late_ms;
            }
            EventKind::Delivered {
                msg,
                queue,
                consumer,
                redelivered,
                returns,
                acquired,
                ..
            } => {
                let late = self.late_ms[msg.id.0 as usize - 1];
                self.delivered_late_ms.push(late);
                let consumer = consumer.map_or(json!("basic.get"), |c| {
                    json!(sim.consumers()[c.0 as usize].spec.name)
                });
                self.deliveries.push(json!({
                    "body": &*msg.body,
                    "queue": syms.str(*queue),
                    "consumer": consumer,
                    "published_at_ms": msg.published_at_ms,
                    "delivered_at_ms": e.t_ms,
                    "late_ms": late,
                    "redelivered": redelivered,
                    "routing_key": syms.str(msg.routing_key()),
                    "exchange": syms.str(msg.exchange),
                    "properties": render::properties(msg, syms),
                    "headers": render::headers_counted(msg, syms, *returns, *acquired),
                }));
            }
            EventKind::Dropped {
                msg, queue, reason, ..
            } => {
                let mut d = Map::new();
                d.insert("body".into(), json!(&*self.message(*msg).body));
                d.insert("at_ms".into(), json!(e.t_ms));
                d.insert(
                    "queue".into(),
                    queue.map_or(Value::Null, |q| json!(syms.str(q))),
                );
                d.insert("reason".into(), json!(reason.as_str()));
                self.dropped.push(Value::Object(d));
            }
            EventKind::Returned {
                msg, code, text, ..
            } => {
                self.returned.push(json!({"body": &*self.message(*msg).body, "at_ms": e.t_ms, "code": code, "text": text}));
            }
            EventKind::Error {
                msg,
                code,
                text,
                scope,
            } => {
                let mut m = Map::new();
                m.insert("at_ms".into(), json!(e.t_ms));
                m.insert("code".into(), json!(code));
                m.insert("text".into(), json!(&**text));
                m.insert("scope".into(), json!(scope.as_str()));
                if let Some(id) = msg {
                    m.insert("body".into(), json!(&*self.message(*id).body));
                }
                self.errors.push(Value::Object(m));
            }
            EventKind::LimitReached { text } => self.limit = Some(text.to_string()),
            _ => {}
        }
    }

    fn message(&self, id: crate::ids::MsgId) -> &Message {
        &self.messages[id.0 as usize - 1]
    }

    /// The contract's JSON result (`stats.wall_ms` is the caller's to fill in).
    pub fn finish(&self, scenario: &Scenario, sim: &Sim) -> Value {
        let mut out = Map::new();
        out.insert("scenario".into(), json!(scenario.name));
        if let Some(b) = scenario.broker {
            // Only when the scenario names one: results of 3.10 files stay as they were.
            out.insert("broker".into(), json!(b.as_str()));
        }
        out.insert("deliveries".into(), Value::Array(self.deliveries.clone()));
        out.insert("dropped".into(), Value::Array(self.dropped.clone()));
        out.insert("returned".into(), Value::Array(self.returned.clone()));
        out.insert("errors".into(), Value::Array(self.errors.clone()));
        out.insert("final".into(), final_state(sim));
        out.insert(
            "lateness_ms".into(),
            lateness_summary(&self.delivered_late_ms),
        );
        let mut stats = Map::new();
        stats.insert("events".into(), json!(self.events));
        stats.insert("end_ms".into(), json!(sim.now_ms()));
        stats.insert("wall_ms".into(), json!(0.0));
        out.insert("stats".into(), Value::Object(stats));
        if let Some(lab) = sim.orders_lab() {
            out.insert(
                "orders".into(),
                lab.tally.to_json(lab.spec.policy, &lab.db, sim.now_ms()),
            );
        }
        if let Some(l) = &self.limit {
            out.insert("limit_reached".into(), json!(l));
        }
        if !scenario.topology.not_simulated.is_empty() {
            out.insert(
                "not_simulated".into(),
                json!(scenario.topology.not_simulated),
            );
        }
        Value::Object(out)
    }
}

/// Queue depths by queue name, and `messages_delayed` by delayed exchange name.
pub fn final_state(sim: &Sim) -> Value {
    let syms = sim.symbols();
    let mut queues: Vec<(&str, Value)> = sim
        .queues()
        .map(|q| {
            (
                syms.str(q.name),
                json!({"ready": q.ready_len(), "unacked": q.unacked_len()}),
            )
        })
        .collect();
    queues.sort_by(|a, b| a.0.cmp(b.0));
    let mut delayed: std::collections::BTreeMap<&str, u64> = sim
        .exchanges()
        .filter(|x| x.delayed)
        .map(|x| (syms.str(x.name), 0))
        .collect();
    for (_, _, s) in sim.delayed_store().iter() {
        *delayed.entry(&s.exchange.name_str).or_insert(0) += 1;
    }
    json!({
        "queues": Map::from_iter(queues.into_iter().map(|(k, v)| (k.to_string(), v))),
        "delayed": Map::from_iter(delayed.into_iter().map(|(k, v)| (k.to_string(), json!(v)))),
    })
}

/// Mean, p99 (nearest rank) and max of lateness values, as JSON
/// ([`crate::lateness::LatenessSummary`] is the typed form).
pub fn lateness_summary(values: &[u64]) -> Value {
    crate::lateness::LatenessSummary::of(values).to_json()
}

/// Runs a scenario to its end (`until`, or until nothing is left to happen), handing
/// every event to `on_event` as it happens. Returns the finished simulation.
pub fn run_with(
    scenario: &Scenario,
    limits: Limits,
    mut on_event: impl FnMut(&Event, &Sim),
) -> Sim {
    let mut sim = Sim::with_limits(scenario, limits);
    let mut drain = |sim: &mut Sim| {
        while let Some(e) = sim.poll_event() {
            on_event(&e, sim);
        }
    };
    match scenario.until_ms {
        Some(until) => {
            while sim.advance(until) == Progress::More {
                drain(&mut sim);
            }
        }
        None => {
            while let Some(t) = sim.next_timer_ms() {
                while sim.advance(t) == Progress::More {
                    drain(&mut sim);
                }
                drain(&mut sim);
            }
        }
    }
    drain(&mut sim);
    sim
}

/// Runs a scenario and returns the contract's JSON result.
pub fn run(scenario: &Scenario) -> Value {
    let mut rec = Recorder::default();
    let sim = run_with(scenario, Limits::default(), |e, sim| rec.on_event(e, sim));
    rec.finish(scenario, &sim)
}
