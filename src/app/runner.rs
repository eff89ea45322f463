//! The non-reactive side of the playground: one scenario, its simulation, and what the
//! UI keeps from the event stream (log lines, per-message paths, lateness, moves).
//!
//! The app owns the clock: it calls [`Runner::advance_to`] with a virtual target time
//! every animation frame; the runner fires what is due, drains the engine's events and
//! returns them digested as a [`Batch`]. Nothing here holds a signal.
//!
//! An embed's host page listens through a [`TapHandle`] owned by the app, not by the
//! runner: [`Runner::with_tap`] attaches it before the new simulation's first event, so
//! a restart or a load (a new runner) never has a moment without it.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use delaylab_engine::report::{render, text::clock, trace};
use delaylab_engine::scenario::load::{MAX_ACTIONS, MAX_CONSUMERS};
use delaylab_engine::scenario::{Action, ActionKind, ConsumerSpec, Scenario};
use delaylab_engine::sym::Sym;
use delaylab_engine::{Command, Event, EventKind, Progress, Sim};

use super::host_api::TapHandle;
use super::i18n::{t, Lang};

/// Log lines kept (older ones are dropped).
pub const LOG_CAP: usize = 5000;
/// Messages whose whole path is kept for the inspector (by publish order).
pub const TRACK_MSGS: u32 = 20_000;
/// Steps kept per tracked message (a retry loop can go round many times).
const MAX_STEPS: usize = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Info,
    Good,
    Warn,
    Bad,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    pub seq: u64,
    pub t_ms: u64,
    pub kind: &'static str,
    pub msg: Option<u32>,
    pub body: String,
    pub place: String,
    pub detail: String,
    pub level: Level,
}

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
}

/// A broker refusal the publisher hears about: an error (406, 404, 541...), a return
/// (312) or a negative confirm (code 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Alert {
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
    /// Moves by (kind, from, to) symbols, turned into `moves` at the end of a drain.
    raw_moves: Vec<(MoveKind, RawNode, RawNode, u32, u32)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum RawNode {
    Publisher,
    Exchange(Sym),
    Queue(Sym),
    Consumer(Option<u32>),
}

/// What the app keeps from the event stream.
#[derive(Default)]
pub struct Track {
    seq: u64,
    pub bodies: Vec<Box<str>>,
    pub late: Vec<u64>,
    /// (msg, delivered at, lateness) per delivery, in order.
    pub delivered: Vec<(u32, u64, u64)>,
    /// The path of each of the first TRACK_MSGS messages.
    pub msgs: HashMap<u32, Vec<Entry>>,
    pub log: VecDeque<Entry>,
    pub publish_targets: BTreeSet<String>,
    /// What an embed's host page hears about (host_api.rs); None when nobody listens.
    /// Shared with the app, which outlives this runner.
    tap: Option<TapHandle>,
}

pub struct Runner {
    pub scenario: Scenario,
    pub sim: Sim,
    /// User publishes scheduled for later (repeat count > 1): (at, order, action).
    pending: BTreeMap<(u64, u64), ActionKind>,
    pending_seq: u64,
    pub track: Track,
    /// User inputs written into `scenario` since it was loaded.
    pub recorded: u32,
    /// Depth samples taken at fixed virtual-time steps, oldest first, for the UI to take.
    pub depth_log: VecDeque<(u64, Vec<(String, u64)>)>,
    depth_step_ms: u64,
    next_sample_ms: Option<u64>,
}

/// Depth samples kept until the UI takes them.
const DEPTH_LOG_CAP: usize = 1024;
/// Samples per scenario run (its `until`), and the step when it has none.
const DEPTH_SAMPLES: u64 = 300;
const DEPTH_STEP_DEFAULT_MS: u64 = 5_000;

pub fn ex_name(name: &str) -> String {
    if name.is_empty() {
        "(AMQP default)".to_string()
    } else {
        name.to_string()
    }
}

pub fn short(body: &str) -> String {
    if body.chars().count() <= 24 {
        body.to_string()
    } else {
        body.chars().take(22).collect::<String>() + "…"
    }
}

/// `m:ss.s` for short spans, `h:mm:ss` for long ones (countdowns, lateness).
pub fn span(ms: u64) -> String {
    if ms >= 3_600_000 {
        let s = ms / 1000;
        format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    } else {
        format!(
            "{}:{:02}.{}",
            ms / 60_000,
            (ms / 1000) % 60,
            (ms % 1000) / 100
        )
    }
}

impl Runner {
    pub fn new(scenario: Scenario) -> Runner {
        Runner::with_tap(scenario, None)
    }

    /// A runner whose every event, from the topology declarations at t=0 on, also goes
    /// to `tap` (an embed's host page).
    pub fn with_tap(scenario: Scenario, tap: Option<TapHandle>) -> Runner {
        let sim = Sim::new(&scenario);
        let mut track = Track {
            tap,
            ..Track::default()
        };
        for a in &scenario.actions {
            if let ActionKind::Publish(p) = &a.kind {
                track.publish_targets.insert(p.exchange.clone());
            }
        }
        let depth_step_ms = scenario
            .until_ms
            .map_or(DEPTH_STEP_DEFAULT_MS, |u| (u / DEPTH_SAMPLES).max(100));
        let mut r = Runner {
            scenario,
            sim,
            pending: BTreeMap::new(),
            pending_seq: 0,
            track,
            recorded: 0,
            depth_log: VecDeque::new(),
            depth_step_ms,
            next_sample_ms: Some(depth_step_ms),
        };
        // Topology declarations at t=0 produce events; keep them out of the first frame's
        // animation but in the log.
        let _ = r.drain();
        r
    }

    /// Sends this runner's events from now on to `tap` too (a host that started
    /// listening after the runner was made).
    pub fn set_tap(&mut self, tap: Option<TapHandle>) {
        self.track.tap = tap;
    }

    /// Without depth samples (a compare lane has no depth chart to feed).
    pub fn without_depth_samples(mut self) -> Runner {
        self.next_sample_ms = None;
        self
    }

    pub fn now(&self) -> u64 {
        self.sim.now_ms()
    }

    /// The next time something happens by itself (a timer or a scheduled user publish).
    pub fn next_at(&self) -> Option<u64> {
        let p = self.pending.keys().next().map(|k| k.0);
        match (self.sim.next_timer_ms(), p) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Schedules a user action at `at_ms` (at or after now).
    pub fn schedule(&mut self, at_ms: u64, action: ActionKind) {
        if let ActionKind::Publish(p) = &action {
            self.track.publish_targets.insert(p.exchange.clone());
        }
        self.pending_seq += 1;
        self.pending.insert((at_ms, self.pending_seq), action);
    }

    /// Runs everything due up to `target` unless `out_of_time()` says the frame is over.
    /// Returns true when the clock reached `target`.
    pub fn advance_to(
        &mut self,
        target: u64,
        batch: &mut Batch,
        mut out_of_time: impl FnMut() -> bool,
    ) -> bool {
        loop {
            if self.sim.halted() {
                return true;
            }
            let due = self
                .pending
                .keys()
                .next()
                .copied()
                .filter(|k| k.0 <= target);
            let t = due.map_or(target, |k| k.0);
            // Stop at each depth-sampling boundary on the way (a jump draws a whole chart).
            let sample_at = self.next_sample_ms.filter(|&b| b < t);
            let progress = self.sim.advance(sample_at.unwrap_or(t));
            self.drain_into(batch);
            if progress == Progress::More {
                if out_of_time() {
                    return false;
                }
                continue;
            }
            if let Some(b) = sample_at {
                self.sample_depths(b);
                if out_of_time() {
                    return false;
                }
                continue;
            }
            match due {
                Some(k) => {
                    let action = self.pending.remove(&k).expect("pending action");
                    self.sim.handle(k.0, Command::Run(action));
                    self.drain_into(batch);
                    if out_of_time() {
                        return self.sim.now_ms() >= target
                            && self.pending.keys().next().is_none_or(|k| k.0 > target);
                    }
                }
                None => return true,
            }
        }
    }

    /// Queue depths (ready messages) at `at_ms`, kept for the depth chart; the next
    /// boundary is one step later.
    fn sample_depths(&mut self, at_ms: u64) {
        let syms = self.sim.symbols();
        let sample: Vec<(String, u64)> = self
            .sim
            .queues()
            .map(|q| (syms.str(q.name).to_string(), q.ready_len()))
            .collect();
        if self.depth_log.len() >= DEPTH_LOG_CAP {
            self.depth_log.pop_front();
        }
        self.depth_log.push_back((at_ms, sample));
        self.next_sample_ms = Some(at_ms.saturating_add(self.depth_step_ms));
    }

    /// Writes a user input into the scenario: an action at the time it happened. A share
    /// link, the autosave and a restart then replay the session, not just the preset.
    /// False (and nothing written) when the scenario already has the most actions a
    /// scenario file may have.
    pub fn record(&mut self, action: Action) -> bool {
        if self.scenario.actions.len() >= MAX_ACTIONS {
            return false;
        }
        self.scenario.actions.push(action);
        self.recorded += 1;
        true
    }

    /// A user action at the current virtual time, recorded into the scenario.
    pub fn run_now(&mut self, action: ActionKind, batch: &mut Batch) -> bool {
        let at_ms = self.sim.now_ms();
        let kept = self.record(Action {
            at_ms,
            kind: action.clone(),
            repeat: None,
        });
        self.run_unrecorded(action, batch);
        kept
    }

    /// A user action now that is already in the scenario (the first run of a repeat).
    pub fn run_unrecorded(&mut self, action: ActionKind, batch: &mut Batch) {
        if let ActionKind::Publish(p) = &action {
            self.track.publish_targets.insert(p.exchange.clone());
        }
        let now = self.sim.now_ms();
        self.sim.handle(now, Command::Run(action));
        self.drain_into(batch);
    }

    /// A consumer command (add / stop) at the current virtual time, recorded into the
    /// scenario's consumers (attach time, stop time).
    pub fn command(&mut self, cmd: Command, batch: &mut Batch) {
        let now = self.sim.now_ms();
        self.record_command(&cmd, now);
        self.sim.handle(now, cmd);
        self.drain_into(batch);
    }

    fn record_command(&mut self, cmd: &Command, now: u64) {
        let consumers = &mut self.scenario.consumers;
        match cmd {
            Command::AddConsumer(spec) => {
                if consumers.len() < MAX_CONSUMERS && consumers.iter().all(|c| c.name != spec.name)
                {
                    consumers.push(ConsumerSpec {
                        from_ms: spec.from_ms.max(now),
                        ..spec.clone()
                    });
                    self.recorded += 1;
                }
            }
            Command::StopConsumer(name) => {
                if let Some(c) = consumers.iter_mut().rev().find(|c| c.name == *name) {
                    if c.to_ms.is_none_or(|t| t > now) {
                        c.to_ms = Some(now.max(c.from_ms));
                        self.recorded += 1;
                    }
                }
            }
            Command::Run(_) => {}
        }
    }

    pub fn drain(&mut self) -> Batch {
        let mut b = Batch::default();
        self.drain_into(&mut b);
        b
    }

    fn drain_into(&mut self, batch: &mut Batch) {
        while let Some(e) = self.sim.poll_event() {
            self.track.on_event(e, &self.sim, batch);
        }
        let syms = self.sim.symbols();
        let node = |n: RawNode| match n {
            RawNode::Publisher => "p:publisher".to_string(),
            RawNode::Exchange(x) => format!("x:{}", syms.str(x)),
            RawNode::Queue(q) => format!("q:{}", syms.str(q)),
            RawNode::Consumer(c) => format!(
                "c:{}",
                c.map_or("basic.get".to_string(), |c| self.sim.consumers()
                    [c as usize]
                    .spec
                    .name
                    .clone())
            ),
        };
        for (kind, from, to, count, msg) in batch.raw_moves.drain(..) {
            batch.moves.push(Move {
                from: node(from),
                to: node(to),
                kind,
                count,
                msg,
                body: short(self.track.body(msg)),
            });
        }
    }

    /// A log line for people (formatted on demand), its words in `lang`.
    pub fn line(&self, e: &Entry, lang: Lang) -> LogLine {
        line(e, &self.sim, &self.track, lang)
    }
}

fn add_move(batch: &mut Batch, from: RawNode, to: RawNode, kind: MoveKind, msg: u32) {
    if let Some(m) = batch
        .raw_moves
        .iter_mut()
        .find(|m| m.0 == kind && m.1 == from && m.2 == to)
    {
        m.3 += 1;
        return;
    }
    if batch.raw_moves.len() < 64 {
        batch.raw_moves.push((kind, from, to, 1, msg));
    }
}

impl Track {
    pub fn body(&self, id: u32) -> &str {
        self.bodies
            .get((id as usize).wrapping_sub(1))
            .map_or("", |b| b)
    }

    fn alert(&self, batch: &mut Batch, t_ms: u64, code: u16, text: String, msg: Option<u32>) {
        batch.alerts.push(Alert {
            seq: self.seq,
            t_ms,
            code,
            text,
            msg,
            body: msg.map(|i| self.body(i).to_string()).unwrap_or_default(),
        });
    }

    fn on_event(&mut self, e: Event, sim: &Sim, batch: &mut Batch) {
        batch.events += 1;
        self.seq += 1;
        let id = e.kind.msg_id().map(|m| m.0);
        match &e.kind {
            EventKind::Published { msg, .. } => {
                let i = msg.id.0 as usize;
                if self.bodies.len() < i {
                    self.bodies.resize(i, Box::from(""));
                    self.late.resize(i, 0);
                }
                self.bodies[i - 1] = msg.body.clone();
                add_move(
                    batch,
                    RawNode::Publisher,
                    RawNode::Exchange(msg.exchange),
                    MoveKind::Publish,
                    msg.id.0,
                );
                let x = sim.symbols().str(msg.exchange);
                if !self.publish_targets.contains(x) {
                    self.publish_targets.insert(x.to_string());
                }
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
            EventKind::DelayDue { msg, late_ms, .. } | EventKind::Expired { msg, late_ms, .. } => {
                if let Some(l) = self.late.get_mut((msg.0 as usize).wrapping_sub(1)) {
                    *l += late_ms;
                }
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
                );
            }
            EventKind::Delivered {
                msg,
                queue,
                consumer,
                ..
            } => {
                let late = self.late.get(msg.id.0 as usize - 1).copied().unwrap_or(0);
                self.delivered.push((msg.id.0, e.t_ms, late));
                batch.delivered = true;
                add_move(
                    batch,
                    RawNode::Queue(*queue),
                    RawNode::Consumer(consumer.map(|c| c.0)),
                    MoveKind::Deliver,
                    msg.id.0,
                );
            }
            EventKind::LimitReached { text } => batch.limit = Some(text.to_string()),
            _ => {}
        }
        let late = id
            .and_then(|i| self.late.get((i as usize).wrapping_sub(1)).copied())
            .unwrap_or(0);
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

/// Formats one kept event as a log line: our words (via, late, due...) in `lang`;
/// RabbitMQ's names, codes, texts and reasons as RabbitMQ writes them.
pub fn line(entry: &Entry, sim: &Sim, track: &Track, lang: Lang) -> LogLine {
    let w = |key| t(lang, key);
    let e = &entry.ev;
    let syms = sim.symbols();
    let s = |x| syms.str(x).to_string();
    let consumer = |c: Option<delaylab_engine::ids::ConsumerId>| {
        c.map_or("basic.get".to_string(), |c| {
            sim.consumers()[c.0 as usize].spec.name.clone()
        })
    };
    let id = e.kind.msg_id().map(|m| m.0);
    let mut level = Level::Info;
    let (place, detail): (String, String) = match &e.kind {
        EventKind::Published { msg, mandatory } => {
            let mut d = format!("[{}]", s(msg.routing_key()));
            if let Some(x) = msg.expiration {
                d.push_str(&format!(" expiration {}", x.text(syms)));
            }
            if let Some(x) = msg.headers.get("x-delay") {
                d.push_str(&format!(" x-delay {}", x.to_json()));
            }
            if *mandatory {
                d.push_str(" mandatory");
            }
            (ex_name(syms.str(msg.exchange)), d)
        }
        EventKind::Error {
            code, text, scope, ..
        } => {
            level = Level::Bad;
            (scope.as_str().to_string(), format!("{code} {text}"))
        }
        EventKind::Delayed {
            exchange, due_ms, ..
        } => (
            ex_name(syms.str(*exchange)),
            format!("{} {}", w("l_due"), clock(*due_ms)),
        ),
        EventKind::DelayDue {
            exchange, late_ms, ..
        } => {
            if *late_ms > 0 {
                level = Level::Warn;
            }
            (
                ex_name(syms.str(*exchange)),
                if *late_ms > 0 {
                    format!("{} {}", w("l_late"), clock(*late_ms))
                } else {
                    String::new()
                },
            )
        }
        EventKind::Enqueued {
            queue,
            via,
            expires_at_ms,
            ..
        } => {
            let mut d = format!("{} {}", w("l_via"), ex_name(syms.str(*via)));
            if let Some(at) = expires_at_ms {
                d.push_str(&format!(", {} {}", w("l_expires_at"), clock(*at)));
            }
            (s(*queue), d)
        }
        EventKind::Returned {
            exchange,
            routing_key,
            code,
            text,
            ..
        } => {
            level = Level::Bad;
            (
                ex_name(syms.str(*exchange)),
                format!("{code} {text} [{}]", s(*routing_key)),
            )
        }
        EventKind::Confirmed { ack, .. } => {
            if !ack {
                level = Level::Bad;
            }
            (
                String::new(),
                if *ack {
                    "basic.ack".into()
                } else {
                    "basic.nack".into()
                },
            )
        }
        EventKind::Expired { queue, late_ms, .. } => {
            if *late_ms > 0 {
                level = Level::Warn;
            }
            (
                s(*queue),
                if *late_ms > 0 {
                    format!("{} {}", w("l_late"), clock(*late_ms))
                } else {
                    String::new()
                },
            )
        }
        EventKind::DeadLettered {
            queue,
            reason,
            dlx,
            routing_keys,
            ..
        } => {
            let keys: Vec<String> = routing_keys.iter().map(|k| s(*k)).collect();
            (
                s(*queue),
                format!(
                    "{} → {} [{}]",
                    reason.as_str(),
                    ex_name(syms.str(*dlx)),
                    keys.join(", ")
                ),
            )
        }
        EventKind::Dropped { queue, reason, .. } => {
            level = Level::Bad;
            (
                queue.map(s).unwrap_or_default(),
                reason.as_str().to_string(),
            )
        }
        EventKind::Delivered {
            queue,
            consumer: c,
            redelivered,
            ..
        } => {
            level = Level::Good;
            let mut d = format!("→ {}", consumer(*c));
            if entry.late > 0 {
                d.push_str(&format!(", {} {}", w("l_late"), clock(entry.late)));
            }
            if *redelivered {
                d.push_str(", redelivered");
            }
            (s(*queue), d)
        }
        EventKind::Acked {
            queue, consumer: c, ..
        } => (s(*queue), consumer(*c)),
        EventKind::Rejected {
            queue,
            consumer: c,
            requeue,
            ..
        } => {
            level = Level::Warn;
            (
                s(*queue),
                format!("{} requeue={requeue}", consumer(Some(*c))),
            )
        }
        EventKind::Requeued { queue, .. } => (s(*queue), String::new()),
        EventKind::LimitReached { text } => {
            level = Level::Bad;
            (String::new(), text.to_string())
        }
        _ => {
            let mut v = trace::event_json(e, sim);
            if let Some(m) = v.as_object_mut() {
                m.remove("t_ms");
                m.remove("event");
            }
            (String::new(), v.to_string())
        }
    };
    LogLine {
        seq: entry.seq,
        t_ms: e.t_ms,
        kind: e.kind.name(),
        msg: id,
        body: id.map(|i| short(track.body(i))).unwrap_or_default(),
        place,
        detail,
        level,
    }
}

/// (properties, headers) as JSON text.
pub type PropsView = Option<(String, String)>;

/// (properties, headers) as JSON text, as published and as delivered, from a path.
pub fn message_views(steps: &[Entry], sim: &Sim) -> (PropsView, PropsView) {
    let syms = sim.symbols();
    let pretty = |v: serde_json::Value| serde_json::to_string_pretty(&v).unwrap_or_default();
    let mut published = None;
    let mut delivered = None;
    for s in steps {
        match &s.ev.kind {
            EventKind::Published { msg, .. } if published.is_none() => {
                published = Some((
                    pretty(render::properties(msg, syms)),
                    pretty(msg.headers.to_json()),
                ));
            }
            EventKind::Delivered { msg, returns, .. } => {
                delivered = Some((
                    pretty(render::properties(msg, syms)),
                    pretty(render::headers(msg, syms, *returns)),
                ));
            }
            _ => {}
        }
    }
    (published, delivered)
}
