//! What the playground keeps from the engine's event stream: log entries, each message's
//! path, bodies and accumulated lateness, deliveries, and the moves a frame animates.
//! Filled by [`crate::runner::Runner`] as it drains the engine; read by the views.

use std::collections::{HashMap, VecDeque};

use delaylab_engine::report::lateness::Lateness;

use crate::stats::Delivered;
use delaylab_engine::body::Body;
use delaylab_engine::event::DropReason;
use delaylab_engine::sym::Sym;
use delaylab_engine::{Event, EventKind, Sim};

use crate::host::TapHandle;

/// Log lines kept (older ones are dropped).
pub const LOG_CAP: usize = 5000;
/// Messages whose whole path is kept for the inspector (by publish order).
pub const TRACK_MSGS: u32 = 20_000;
/// Steps kept per tracked message (a retry loop can go round many times).
pub const MAX_STEPS: usize = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MoveKind {
    Publish,
    Route,
    DeadLetter,
    Deliver,
}

/// Messages that went from one node to another during one batch (aggregated).
#[derive(Clone, Debug, PartialEq)]
pub struct Move {
    pub from: String,
    pub to: String,
    pub kind: MoveKind,
    pub count: u32,
    pub msg: u32,
    pub body: String,
    /// The virtual time of the last of them (a jump animates only what happens at the
    /// time it arrives at).
    pub at_ms: u64,
}

/// A broker refusal the publisher hears about: an error (406, 404, 541...), a return
/// (312) or a negative confirm (code 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Alert {
    /// The run it belongs to ([`Track::run`]) and its place in it: a key no other load's
    /// alert has.
    pub run: u64,
    pub seq: u64,
    pub t_ms: u64,
    pub code: u16,
    pub text: String,
    pub msg: Option<u32>,
    pub body: String,
}

/// One engine event kept for the log or a message's path; formatted only when shown.
#[derive(Clone)]
pub struct Entry {
    pub seq: u64,
    pub ev: Event,
    /// The message's accumulated lateness when this event happened.
    pub late: u64,
}

#[derive(Default)]
pub struct Batch {
    pub moves: Vec<Move>,
    pub alerts: Vec<Alert>,
    pub events: u64,
    pub delivered: bool,
    pub limit: Option<String>,
    /// A check's state changed (`crate::checks_run`): the Checks panel and an embed's
    /// host have news even when no event came (a window closed as the clock moved).
    pub checks: bool,
    /// Moves by (kind, from, to) symbols, turned into `moves` at the end of a drain.
    pub(crate) raw_moves: Vec<RawMove>,
}

/// (kind, from, to, count, first message, time of the last one).
pub(crate) type RawMove = (MoveKind, RawNode, RawNode, u32, u32, u64);

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum RawNode {
    Publisher,
    Exchange(Sym),
    Queue(Sym),
    Consumer(Option<u32>),
}

/// Where the scenario and the user publish: the exchanges (the publisher's edges), and
/// the routing keys published to the default exchange (its edge to the queue a key
/// names, as the topology draws a dead-letter route through it). Reads as the set of
/// exchanges.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PublishTargets {
    /// Each in order, once (sorted lists, not BTreeSets: their B-tree code was start-up
    /// code for these few names alone).
    pub exchanges: Vec<String>,
    pub default_keys: Vec<String>,
}

/// Adds `name` to a sorted list of names, once.
fn add_once(list: &mut Vec<String>, name: &str) {
    if let Err(i) = list.binary_search_by(|n| n.as_str().cmp(name)) {
        list.insert(i, name.to_string());
    }
}

impl PublishTargets {
    /// A publish to `exchange` with `routing_key`.
    pub fn add(&mut self, exchange: &str, routing_key: &str) {
        add_once(&mut self.exchanges, exchange);
        if exchange.is_empty() {
            add_once(&mut self.default_keys, routing_key);
        }
    }

    /// Published to `exchange`.
    pub fn contains(&self, exchange: &str) -> bool {
        self.exchanges
            .binary_search_by(|n| n.as_str().cmp(exchange))
            .is_ok()
    }
}

impl std::ops::Deref for PublishTargets {
    type Target = [String];
    fn deref(&self) -> &[String] {
        &self.exchanges
    }
}

/// What the app keeps from the event stream.
#[derive(Default)]
pub struct Track {
    /// This run's number, unique in the page (`crate::runner::Runner` gives it): what a
    /// view keys its rows by with `seq`, so a row of one load is never reused for another
    /// load's event of the same sequence number.
    pub run: u64,
    pub(crate) seq: u64,
    pub bodies: Vec<Body>,
    /// Each message's lateness so far (the engine's one rule).
    pub late: Lateness,
    /// Every delivery, in order: a first one with its lateness, or a retry.
    pub delivered: Vec<Delivered>,
    /// The path of each of the first TRACK_MSGS messages.
    pub msgs: HashMap<u32, Vec<Entry>>,
    /// Messages dropped with reason `node_lost` (lost with their node, never delivered).
    pub lost_with_node: u64,
    pub log: VecDeque<Entry>,
    pub publish_targets: PublishTargets,
    /// What the run did so far, counted from every event (`crate::outcome`).
    pub tally: crate::outcome::Tally,
    /// What an embed's host page hears about (host_api.rs); None when nobody listens.
    /// Shared with the app, which outlives this runner.
    pub(crate) tap: Option<TapHandle>,
}

fn add_move(batch: &mut Batch, from: RawNode, to: RawNode, kind: MoveKind, msg: u32, t_ms: u64) {
    if let Some(m) = batch
        .raw_moves
        .iter_mut()
        .find(|m| m.0 == kind && m.1 == from && m.2 == to)
    {
        m.3 += 1;
        m.5 = m.5.max(t_ms);
        return;
    }
    if batch.raw_moves.len() < 64 {
        batch.raw_moves.push((kind, from, to, 1, msg, t_ms));
    }
}

impl Track {
    pub fn body(&self, id: u32) -> &str {
        self.bodies
            .get((id as usize).wrapping_sub(1))
            .map_or("", Body::as_str)
    }

    fn alert(&self, batch: &mut Batch, t_ms: u64, code: u16, text: String, msg: Option<u32>) {
        batch.alerts.push(Alert {
            run: self.run,
            seq: self.seq,
            t_ms,
            code,
            text,
            msg,
            body: msg.map(|i| self.body(i).to_string()).unwrap_or_default(),
        });
    }

    pub(crate) fn on_event(&mut self, e: Event, sim: &Sim, batch: &mut Batch) {
        batch.events += 1;
        self.seq += 1;
        let id = e.kind.msg_id().map(|m| m.0);
        self.late.on_event(&e.kind);
        match &e.kind {
            EventKind::Published { msg, .. } => {
                let i = msg.id.0 as usize;
                if self.bodies.len() < i {
                    self.bodies.resize(i, Body::default());
                }
                self.bodies[i - 1] = msg.body.clone();
                add_move(
                    batch,
                    RawNode::Publisher,
                    RawNode::Exchange(msg.exchange),
                    MoveKind::Publish,
                    msg.id.0,
                    e.t_ms,
                );
                let syms = sim.symbols();
                self.publish_targets
                    .add(syms.str(msg.exchange), syms.str(msg.routing_keys.first()));
            }
            EventKind::Error { code, text, .. } => {
                self.alert(batch, e.t_ms, *code, text.to_string(), id)
            }
            EventKind::Returned { code, text, .. } => {
                self.alert(batch, e.t_ms, *code, text.to_string(), id)
            }
            EventKind::Confirmed { ack: false, .. } => {
                self.alert(batch, e.t_ms, 0, "basic.nack".into(), id)
            }
            EventKind::Enqueued {
                msg, queue, via, ..
            } => {
                add_move(
                    batch,
                    RawNode::Exchange(*via),
                    RawNode::Queue(*queue),
                    MoveKind::Route,
                    msg.0,
                    e.t_ms,
                );
            }
            EventKind::DeadLettered {
                msg, queue, dlx, ..
            } => {
                add_move(
                    batch,
                    RawNode::Queue(*queue),
                    RawNode::Exchange(*dlx),
                    MoveKind::DeadLetter,
                    msg.0,
                    e.t_ms,
                );
            }
            EventKind::Delivered {
                msg,
                queue,
                consumer,
                ..
            } => {
                let kind = self.late.delivery(msg.id.0, e.t_ms);
                self.delivered.push(Delivered {
                    msg: msg.id.0,
                    t_ms: e.t_ms,
                    late_ms: self.late.of(msg.id.0),
                    kind,
                });
                batch.delivered = true;
                add_move(
                    batch,
                    RawNode::Queue(*queue),
                    RawNode::Consumer(consumer.map(|c| c.0)),
                    MoveKind::Deliver,
                    msg.id.0,
                    e.t_ms,
                );
            }
            EventKind::LimitReached { text } => batch.limit = Some(text.to_string()),
            EventKind::Dropped {
                reason: DropReason::NodeLost,
                ..
            } => self.lost_with_node += 1,
            _ => {}
        }
        let late = id.map_or(0, |i| self.late.of(i));
        self.tally.on_event(e.t_ms, &e.kind, late);
        if let Some(tap) = &self.tap {
            tap.borrow_mut().on_event(&e, sim, self, late);
        }
        let entry = Entry {
            seq: self.seq,
            ev: e,
            late,
        };
        if let Some(i) = id.filter(|i| *i <= TRACK_MSGS) {
            let steps = self.msgs.entry(i).or_default();
            if steps.len() < MAX_STEPS {
                steps.push(entry.clone());
            }
        }
        self.log.push_back(entry);
        if self.log.len() > LOG_CAP {
            self.log.pop_front();
        }
    }
}
