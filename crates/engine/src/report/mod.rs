//! Running a scenario headless and reporting what happened, in the shapes of the run
//! contract (`shared/docs/scenario-format.md`): the JSON result, the trace lines, and a
//! timeline for people.

pub mod golden;
pub mod lateness;
pub mod render;
pub mod text;
pub mod trace;

use std::rc::Rc;

use serde_json::{json, Map, Value};

use crate::event::{Event, EventKind};
use crate::lateness::LatenessSummary;
use crate::limits::{kept_bytes_text, LimitKind, Limits};
use crate::message::Message;
use crate::scenario::Scenario;
use crate::sim::{Progress, Sim};
use lateness::Lateness;

/// Collects the contract's result from the event stream.
#[derive(Default)]
pub struct Recorder {
    /// Published messages by id - 1 (ids are dense from 1).
    messages: Vec<Rc<Message>>,
    /// Accumulated lateness per message (expired late, released late).
    late: Lateness,
    pub deliveries: Vec<Value>,
    pub dropped: Vec<Value>,
    pub returned: Vec<Value>,
    pub errors: Vec<Value>,
    delivered_late_ms: Vec<u64>,
    pub limit: Option<String>,
    pub events: u64,
    /// The caller takes each delivery out of `deliveries` as it is recorded (and writes
    /// it): the recorder then keeps no delivery, and counts none in `kept_bytes`.
    pub streaming: bool,
    /// About how many bytes of heap the recorded result holds (`Limits::max_kept_bytes`).
    pub kept_bytes: u64,
    /// Put the publisher nacks in the result (`nacked`, as `delaylab replay` records
    /// them) for `delaylab diff`; off for the golden files, which predate it.
    pub with_confirms: bool,
    nacked: Vec<Value>,
}

/// About the heap a JSON value holds: its strings, plus a value's and a map entry's
/// own size (a bound for `Limits::max_kept_bytes`, not an exact count).
pub fn approx_heap_bytes(v: &Value) -> u64 {
    /// `size_of::<Value>()` with `preserve_order` (an IndexMap inside).
    const NODE_BYTES: u64 = 80;
    /// An IndexMap bucket (hash, key `String`, value) and its index slot.
    const ENTRY_BYTES: u64 = 128;
    NODE_BYTES
        + match v {
            Value::String(s) => s.len() as u64,
            Value::Array(a) => a.iter().map(approx_heap_bytes).sum(),
            Value::Object(m) => m
                .iter()
                .map(|(k, v)| ENTRY_BYTES + k.len() as u64 + approx_heap_bytes(v))
                .sum(),
            _ => 0,
        }
}

impl Recorder {
    pub fn on_event(&mut self, e: &Event, sim: &Sim) {
        self.events += 1;
        let syms = sim.symbols();
        self.late.on_event(&e.kind);
        match &e.kind {
            EventKind::Published { msg, .. } => {
                self.kept_bytes += (std::mem::size_of::<Message>() + msg.body.len()) as u64;
                self.messages.push(msg.clone());
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
                let late = self.late.of(msg.id.0);
                self.delivered_late_ms.push(late);
                let consumer = consumer.map_or(json!("basic.get"), |c| {
                    json!(sim.consumers()[c.0 as usize].spec.name)
                });
                let d = json!({
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
                });
                if !self.streaming {
                    self.kept_bytes += approx_heap_bytes(&d);
                }
                self.deliveries.push(d);
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
                let d = Value::Object(d);
                self.kept_bytes += approx_heap_bytes(&d);
                self.dropped.push(d);
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
                subject: _, // the form's concern, not the report's
                cause: _,
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
            EventKind::Confirmed { msg, ack: false } if self.with_confirms => {
                let n = json!({"body": &*self.message(*msg).body, "at_ms": e.t_ms});
                self.kept_bytes += approx_heap_bytes(&n);
                self.nacked.push(n);
            }
            _ => {}
        }
    }

    /// The stop to make once what this recorder keeps is over `limits.max_kept_bytes`.
    pub fn over_budget(&self, limits: &Limits) -> Option<(LimitKind, String)> {
        (self.kept_bytes > limits.max_kept_bytes).then(|| {
            (
                LimitKind::KeptBytes,
                kept_bytes_text("result", self.kept_bytes, limits.max_kept_bytes),
            )
        })
    }

    fn message(&self, id: crate::ids::MsgId) -> &Message {
        &self.messages[id.0 as usize - 1]
    }

    /// The contract's JSON result (`stats.wall_ms` is the caller's to fill in).
    /// Takes the recorded lists out (they are not copied: a big run holds them once).
    pub fn finish(&mut self, scenario: &Scenario, sim: &Sim) -> Value {
        let deliveries = std::mem::take(&mut self.deliveries);
        let dropped = std::mem::take(&mut self.dropped);
        self.assemble(scenario, sim, deliveries, dropped)
    }

    /// The result so far, leaving the recorder as it is (a run that goes on, such as
    /// the JavaScript package's, asks for it more than once).
    pub fn result(&self, scenario: &Scenario, sim: &Sim) -> Value {
        self.assemble(scenario, sim, self.deliveries.clone(), self.dropped.clone())
    }

    fn assemble(
        &self,
        scenario: &Scenario,
        sim: &Sim,
        deliveries: Vec<Value>,
        dropped: Vec<Value>,
    ) -> Value {
        let mut out = Map::new();
        out.insert("scenario".into(), json!(scenario.name));
        if let Some(b) = scenario.broker {
            // Only when the scenario names one: results of 3.10 files stay as they were.
            out.insert("broker".into(), json!(b.as_str()));
        }
        out.insert("deliveries".into(), Value::Array(deliveries));
        out.insert("dropped".into(), Value::Array(dropped));
        out.insert("returned".into(), Value::Array(self.returned.clone()));
        out.insert("errors".into(), Value::Array(self.errors.clone()));
        if self.with_confirms {
            out.insert("nacked".into(), Value::Array(self.nacked.clone()));
        }
        out.insert("final".into(), final_state(sim));
        out.insert(
            "lateness_ms".into(),
            LatenessSummary::of(&self.delivered_late_ms).to_json(),
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
        if let Some(stop) = sim.stopped() {
            out.insert(
                "stopped".into(),
                json!({"limit": stop.limit.as_str(), "at_ms": stop.at_ms, "consumer": stop.consumer}),
            );
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

/// Queue depths by queue name (`held` too when a quorum queue holds messages aside:
/// delayed retry, `x-opt-delivery-time`), and `messages_delayed` by delayed exchange name.
pub fn final_state(sim: &Sim) -> Value {
    let syms = sim.symbols();
    let mut queues: Vec<(&str, Value)> = sim
        .queues()
        .map(|q| {
            let mut depth = json!({"ready": q.ready_len(), "unacked": q.unacked_len()});
            if q.held_len() > 0 {
                depth["held"] = json!(q.held_len());
            }
            if q.dead_letter_len() > 0 {
                // At-least-once dead letters still waiting in it for a target.
                depth["dead_letters"] = json!(q.dead_letter_len());
            }
            (syms.str(q.name), depth)
        })
        .collect();
    crate::sort::sort_by(&mut queues, |a, b| a.0.cmp(b.0));
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

/// Runs a scenario to its end (`until`, or until nothing is left to happen), handing
/// every event to `on_event` as it happens. Returns the finished simulation.
pub fn run_with(
    scenario: &Scenario,
    limits: Limits,
    mut on_event: impl FnMut(&Event, &Sim),
) -> Sim {
    run_checked(scenario, limits, |e, sim| {
        on_event(e, sim);
        None
    })
}

/// As [`run_with`], and `on_event` may stop the run: what it returns becomes the run's
/// stop reason (`Sim::stop`), e.g. when what the caller keeps is over its limit.
pub fn run_checked(
    scenario: &Scenario,
    limits: Limits,
    mut on_event: impl FnMut(&Event, &Sim) -> Option<(LimitKind, String)>,
) -> Sim {
    let mut sim = Sim::with_limits(scenario, limits);
    let mut drain = |sim: &mut Sim| {
        while let Some(e) = sim.poll_event() {
            if let Some((limit, text)) = on_event(&e, sim) {
                sim.stop(limit, text);
            }
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
    let limits = Limits::default();
    let sim = run_checked(scenario, limits, |e, sim| {
        rec.on_event(e, sim);
        rec.over_budget(&limits)
    });
    rec.finish(scenario, &sim)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_estimate_counts_at_least_a_value_per_node() {
        assert!(
            std::mem::size_of::<Value>() as u64 <= 80,
            "NODE_BYTES is too small"
        );
        let v = json!({"a": "xyz", "b": [1, 2]});
        // object + 2 entries + "xyz" + array + 2 numbers
        assert_eq!(approx_heap_bytes(&v), 80 + 2 * 128 + 2 + 80 + 3 + 80 + 160);
    }
}
