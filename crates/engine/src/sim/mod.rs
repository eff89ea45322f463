//! The simulated broker: one RabbitMQ node, driven by commands and timers in virtual
//! time, reporting events.
//!
//! Which RabbitMQ is the scenario's `broker`: a version profile from 3.10 to 4.4
//! ([`crate::version::Profile`], 3.10 when the field is absent). The profile answers
//! every question where versions differ (`sim/*` never compares versions): whether the
//! delayed-message exchange plugin runs at all (3.10 to 4.2; 4.3 refuses its exchange
//! type), quorum queues' delivery limit, 4.3's delayed retry and 4.4's delivery time,
//! which declarations are refused. An `upgrade` action moves a running node to another profile (`upgrade`).
//!
//! Time is the rules' own by default (every step takes zero time). The scenario's
//! `costs` ([`crate::costs`], measured or a calibrated profile) add what a real broker
//! takes (`costed`): costs move times, never outcomes: what happens, and in which order
//! a rule puts it, stays the rule's.
//!
//! Sans-IO, in the style of quinn-proto: nothing here reads a clock. The caller passes
//! `now_ms` to every entry point; `advance` fires the timers due by then; `poll_event`
//! hands out what happened. Same scenario, same calls: same events, byte for byte.
//!
//! ```text
//! let mut sim = Sim::new(&scenario);          // topology declared at t=0
//! loop {
//!     let progress = sim.advance(t);          // fire timers due by t (in slices)
//!     while let Some(ev) = sim.poll_event() { /* animate, record, assert */ }
//!     if progress == Progress::Idle { break } // nothing left up to t
//! }
//! sim.handle(t, Command::Publish(spec));      // user input at virtual time t
//! ```
//!
//! Rules are grouped by concern: `publish` (channel checks, confirms, returns),
//! `route` (exchange graph), `enqueue` (TTL, length limits), `expire` (head-only
//! expiry), `dead_letter`, `consume` (delivery, ack, requeue), `delayed` (the plugin's
//! store), `topology` (declare, delete, purge), `node` (restart, loss), `ack_timeout`
//! (the consumer acknowledgement timeout), `hold` (what a quorum queue holds aside:
//! 4.3's delayed retry, 4.4's `x-opt-delivery-time`).

mod ack_timeout;
mod client;
mod consume;
mod costed;
mod dead_letter;
mod dead_letter_retry;
mod delayed;
mod enqueue;
mod expire;
mod hold;
mod node;
mod orders;
mod publish;
mod returns;
mod route;
mod topology;
mod upgrade;

use std::collections::VecDeque;
use std::rc::Rc;

use crate::consumer::Consumer;
use crate::delayed::DelayedStore;
use crate::event::{Event, EventKind};
use crate::exchange::Exchange;
use crate::ids::{ConsumerId, CopyId, MsgId, QueueId};
use crate::limits::{LimitKind, Limits, Stopped};
use crate::queue::Queue;
use crate::rng::Rng;
use crate::scenario::{Action, ActionKind, ConsumerSpec, Scenario};
use crate::sym::{Sym, Symbols};
use crate::sym_map::SymMap;
use crate::timers::{Timer, Timers};

/// How many events `advance` lets pile up before it returns, so that a caller (a
/// browser frame) gets control back and can drain them.
pub const EVENT_SLICE: usize = 4096;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Every timer due by the requested time has fired.
    Idle,
    /// Stopped early to let the caller drain events; call `advance` again.
    More,
}

/// Input from a user (the playground) at a virtual time.
// Mostly `Run` (a publish): boxing it would cost an allocation each for no gain.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Command {
    Run(ActionKind),
    AddConsumer(ConsumerSpec),
    StopConsumer(String),
}

pub struct Sim {
    now_ms: u64,
    pub(crate) syms: Symbols,
    /// The symbol of `""`, the default exchange (compared on every routing).
    default_exchange_sym: Sym,
    pub(crate) exchanges: SymMap<Exchange>,
    pub(crate) queues: Vec<Option<Queue>>,
    pub(crate) queue_ids: SymMap<QueueId>,
    pub(crate) consumers: Vec<Consumer>,
    pub(crate) delayed: DelayedStore,
    delayed_timer_at_ms: Option<u64>,
    route_buffers: route::RouteBuffers,
    timers: Timers,
    events: VecDeque<Event>,
    plan: Vec<Action>,
    rng: Rng,
    limits: Limits,
    next_msg: u32,
    next_copy: u64,
    /// Deliveries so far (identifies a delivery across requeues and reconnects).
    pub(crate) next_delivery: u64,
    pub(crate) live_copies: u64,
    event_count: u64,
    /// Timers fired so far (bounded by `Limits::max_steps`).
    steps: u64,
    halted: bool,
    /// Why the run stopped early, once a limit stopped it.
    stopped: Option<Stopped>,
    /// Requeues per copy within the current millisecond (`Limits::max_requeues_per_instant`).
    pub(crate) requeue_streak: consume::RequeueStreak,
    pub(crate) node_up: bool,
    /// Durable copies of the topology taken when the node went down (restart).
    pub(crate) downtime: Option<node::Downtime>,
    /// The order-timeout lab, when the scenario has `orders` (see `sim/orders.rs`).
    orders: Option<Box<crate::orders::Lab>>,
    /// What the simulated RabbitMQ version does (`crate::version`; 3.10 by default).
    pub(crate) profile: crate::version::Profile,
    /// The node ran the delayed-message plugin at some point (an upgrade to 4.3 keeps
    /// its exchanges in the metadata store, see `sim/upgrade.rs`).
    pub(crate) plugin_was_loaded: bool,
    /// The broker's costs, unless ideal (`crate::costs`, hooks in `sim/costed.rs`).
    pub(crate) costs: Option<Box<crate::costs::CostState>>,
    /// The consumer acknowledgement timeout in force (`consumer_timeout`; D21), `None`
    /// when it is off.
    pub(crate) consumer_timeout_ms: Option<u64>,
    /// 4.3.7's `consumer_timeout_response` (applies where the profile has the setting).
    pub(crate) timeout_response: crate::version::TimeoutResponse,
    /// `dead_letter_worker_publisher_confirm_timeout` (`sim/dead_letter_retry.rs`).
    pub(crate) dead_letter_retry_ms: u64,
    /// When the node last went down, and its last downtime (from, to): what a late
    /// release names as its cause (`late_cause_at`).
    pub(crate) down_at_ms: u64,
    pub(crate) last_downtime: Option<(u64, u64)>,
}

impl Sim {
    pub fn new(scenario: &Scenario) -> Sim {
        Sim::with_limits(scenario, Limits::default())
    }

    pub fn with_limits(scenario: &Scenario, limits: Limits) -> Sim {
        let mut syms = Symbols::default();
        let default_exchange_sym = syms.intern(""); // the first name, as it always was
        let mut sim = Sim {
            now_ms: 0,
            syms,
            default_exchange_sym,
            exchanges: SymMap::new(),
            queues: Vec::new(),
            queue_ids: SymMap::new(),
            consumers: Vec::new(),
            delayed: DelayedStore::default(),
            delayed_timer_at_ms: None,
            route_buffers: route::RouteBuffers::default(),
            timers: Timers::default(),
            events: VecDeque::new(),
            plan: scenario.actions.clone(),
            rng: Rng::new(scenario.seed),
            limits,
            next_msg: 0,
            next_copy: 0,
            next_delivery: 0,
            live_copies: 0,
            event_count: 0,
            steps: 0,
            halted: false,
            stopped: None,
            requeue_streak: consume::RequeueStreak::default(),
            node_up: true,
            downtime: None,
            orders: None,
            profile: scenario.broker_version().profile(),
            plugin_was_loaded: false,
            costs: scenario
                .costs
                .profile(scenario.broker_version())
                .map(|p| Box::new(crate::costs::CostState::new(p, scenario.seed))),
            consumer_timeout_ms: scenario.consumer_timeout.timeout_ms(),
            timeout_response: scenario.consumer_timeout_response,
            dead_letter_retry_ms: scenario
                .dead_letter_retry_ms
                .unwrap_or(dead_letter_retry::DEAD_LETTER_RETRY_MS),
            down_at_ms: 0,
            last_downtime: None,
        };
        sim.plugin_was_loaded = sim.profile.delayed_plugin;
        sim.declare_builtins();
        sim.declare_topology(&scenario.topology);
        for spec in &scenario.consumers {
            sim.add_consumer(spec.clone());
        }
        sim.init_orders(scenario);
        for (i, action) in scenario.actions.iter().enumerate() {
            sim.timers.arm(
                action.at_ms,
                Timer::Action {
                    action: i as u32,
                    run: 0,
                },
            );
        }
        sim
    }

    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    pub fn symbols(&self) -> &Symbols {
        &self.syms
    }

    /// The time of the next thing that will happen by itself, if any.
    pub fn next_timer_ms(&self) -> Option<u64> {
        if self.halted {
            return None;
        }
        self.timers.next_at_ms()
    }

    /// True once a limit stopped the run.
    pub fn halted(&self) -> bool {
        self.halted
    }

    /// Why a limit stopped the run, as typed data (None while it runs or ended well).
    pub fn stopped(&self) -> Option<&Stopped> {
        self.stopped.as_ref()
    }

    /// Stops the run from outside (a caller whose kept output reached its limit,
    /// `LimitKind::KeptBytes`): a `LimitReached` event, then nothing more happens.
    pub fn stop(&mut self, limit: LimitKind, text: String) {
        if !self.halted {
            self.halt(limit, text);
        }
    }

    pub(crate) fn set_stopped_consumer(&mut self, name: String) {
        if let Some(s) = self.stopped.as_mut() {
            s.consumer = Some(name);
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Message ids handed out so far: the next message published is this + 1 (what a
    /// publish form names its `{n}` after, so "#4" is "order-4").
    pub fn messages_so_far(&self) -> u32 {
        self.next_msg
    }

    pub fn events_so_far(&self) -> u64 {
        self.event_count
    }

    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// Fires every timer due at or before `now_ms`, in (time, sequence) order, and moves
    /// the clock to `now_ms`. Returns `More` early when `EVENT_SLICE` events wait.
    pub fn advance(&mut self, now_ms: u64) -> Progress {
        self.advance_inner(now_ms, true)
    }

    fn advance_inner(&mut self, now_ms: u64, sliced: bool) -> Progress {
        // Time never goes backward: an earlier `now` (a caller's rounding) means "now".
        let now_ms = now_ms.max(self.now_ms);
        while !self.halted {
            if sliced && self.events.len() >= EVENT_SLICE {
                return Progress::More;
            }
            let Some((t, timer)) = self.timers.pop_due(now_ms) else {
                break;
            };
            self.steps += 1;
            if self.steps > self.limits.max_steps {
                self.halt(
                    LimitKind::Steps,
                    format!(
                        "step limit: {} timers fired (a loop that produces no events)",
                        self.limits.max_steps
                    ),
                );
                break;
            }
            self.now_ms = t;
            if t > self.limits.max_time_ms {
                self.halt(
                    LimitKind::Time,
                    format!(
                        "time limit: the run reached {} ms (limit {} ms)",
                        t, self.limits.max_time_ms
                    ),
                );
                break;
            }
            self.fire(timer);
        }
        if !self.halted {
            self.now_ms = now_ms;
        }
        Progress::Idle
    }

    /// Applies a user command at `now_ms` (after everything due by then).
    pub fn handle(&mut self, now_ms: u64, mut cmd: Command) {
        self.advance_inner(now_ms, false);
        if self.halted {
            return;
        }
        // The command by reference: moved out of it, the 336-byte publish was copied once
        // more for every message (callgrind: 64 instructions a publish).
        match &mut cmd {
            Command::Run(kind) => self.run_action(kind, 0),
            Command::AddConsumer(spec) => self.add_consumer(spec.clone()),
            Command::StopConsumer(name) => {
                if let Some(i) = self
                    .consumers
                    .iter()
                    .position(|c| c.spec.name == *name && !c.stopped)
                {
                    self.detach_consumer(ConsumerId(i as u32), true);
                }
            }
        }
    }

    /// Adds a user action to the plan at `now_ms` and schedules it as the scenario's own
    /// actions are: each run is a `Timer::Action` (a `repeat` arms the next run when one
    /// fires; `{n}` in a body is the run number), so a repeated publish from the
    /// playground and the same action in a file run by one rule. A run due now (at or
    /// before `now_ms`) fires before this returns, after everything already due.
    pub fn schedule_action(&mut self, now_ms: u64, action: crate::scenario::Action) {
        self.advance_inner(now_ms, false);
        if self.halted {
            return;
        }
        let at_ms = action.at_ms.max(self.now_ms);
        let index = self.plan.len() as u32;
        self.plan.push(action);
        self.arm(
            at_ms,
            Timer::Action {
                action: index,
                run: 0,
            },
        );
        self.advance_inner(self.now_ms, false);
    }

    fn fire(&mut self, timer: Timer) {
        match timer {
            Timer::Action { action, run } => self.fire_action(action, run),
            Timer::QueueHead(q) => self.on_head_timer(q),
            Timer::QueueExpiry(q) => self.on_queue_expiry_timer(q),
            Timer::Handled {
                consumer,
                copy,
                queue,
                delivery,
                rem_us,
            } => {
                self.costed_answer(consumer, queue, copy, delivery, rem_us);
                self.on_handled(consumer, copy, queue, delivery)
            }
            Timer::Ingress => self.on_ingress(),
            Timer::CostWake(q) => self.on_cost_wake(q),
            Timer::AckTimeout {
                consumer,
                copy,
                queue,
                delivery,
                delivered_at_ms,
            } => self.on_ack_timeout(consumer, copy, queue, delivery, delivered_at_ms),
            Timer::ConsumerAttach(c) => self.attach_consumer(c),
            Timer::ConsumerDetach(c) => self.detach_consumer(c, true),
            Timer::Resubscribe(c) => self.resubscribe(c),
            Timer::DelayedDue if self.costs.is_some() => self.on_delayed_tick(),
            Timer::DelayedDue => self.on_delayed_timer(),
            Timer::NodeUp => self.node_up_again(),
            Timer::HoldRelease(q) => self.on_hold_timer(q),
            Timer::DeadLetterRetry(q) => self.on_dead_letter_timer(q),
            Timer::Order(t) => self.fire_order(t),
        }
    }

    fn fire_action(&mut self, action: u32, run: u32) {
        let a = &self.plan[action as usize];
        let mut kind = a.kind.clone();
        if let Some(rep) = a.repeat {
            if run + 1 < rep.count {
                let next = self.now_ms.saturating_add(rep.every_ms);
                self.timers.arm(
                    next,
                    Timer::Action {
                        action,
                        run: run + 1,
                    },
                );
            }
        }
        self.run_action(&mut kind, run);
    }

    /// Takes the caller's action: a publish keeps its body and headers (`mem::take`n from
    /// it), so the caller's copy is spent.
    fn run_action(&mut self, kind: &mut ActionKind, run: u32) {
        match kind {
            ActionKind::Publish(spec) if self.costs.is_some() => {
                self.send_publish(std::mem::take(spec), run)
            }
            ActionKind::Publish(spec) => self.publish(spec, run),
            ActionKind::Declare(d) => self.declare(d),
            ActionKind::Delete(d) => self.delete(d),
            ActionKind::Purge { queue } => self.purge(queue),
            ActionKind::Get { queue } => self.basic_get(queue),
            ActionKind::RestartNode { downtime_ms } => self.restart_node(*downtime_ms),
            ActionKind::LoseNode => self.lose_node(),
            ActionKind::Upgrade { to, downtime_ms } => self.upgrade(*to, *downtime_ms),
        }
    }

    // ---- shared helpers used by the rule modules ----

    /// Inlined, so that each event is built where it is queued: through a call, the
    /// caller stored it on the stack in parts and the call read it back whole, a read
    /// that waits for every store before it (a cold one included) to reach memory.
    #[inline(always)]
    pub(crate) fn emit(&mut self, kind: EventKind) {
        if self.halted {
            return;
        }
        self.event_count += 1;
        self.events.push_back(Event {
            t_ms: self.now_ms,
            kind,
        });
        if self.event_count >= self.limits.max_events {
            self.halt_at_event_limit();
        }
    }

    #[cold]
    #[inline(never)]
    fn halt_at_event_limit(&mut self) {
        self.halt(LimitKind::Events, format!("event limit: {} events (a consumer that requeues every delivery at once loops forever)", self.limits.max_events));
    }

    pub(crate) fn halt(&mut self, limit: LimitKind, text: String) {
        self.stopped = Some(Stopped {
            limit,
            at_ms: self.now_ms,
            consumer: None,
            text: text.clone(),
        });
        self.events.push_back(Event {
            t_ms: self.now_ms,
            kind: EventKind::LimitReached {
                text: Rc::from(text),
            },
        });
        self.halted = true;
    }

    /// Arms a timer; one for the past fires now (time never goes backward).
    pub(crate) fn arm(&mut self, at_ms: u64, timer: Timer) {
        self.timers.arm(at_ms.max(self.now_ms), timer);
    }

    pub(crate) fn new_msg_id(&mut self) -> Option<MsgId> {
        if u64::from(self.next_msg) >= self.limits.max_messages {
            self.halt(
                LimitKind::Messages,
                format!(
                    "message limit: {} messages published",
                    self.limits.max_messages
                ),
            );
            return None;
        }
        self.next_msg += 1;
        Some(MsgId(self.next_msg))
    }

    pub(crate) fn new_copy(&mut self) -> CopyId {
        self.next_copy += 1;
        self.live_copies += 1;
        if self.live_copies > self.limits.max_live_copies {
            self.halt(
                LimitKind::LiveCopies,
                format!(
                    "memory limit: more than {} messages held at once",
                    self.limits.max_live_copies
                ),
            );
        }
        CopyId(self.next_copy)
    }

    pub(crate) fn end_copy(&mut self) {
        self.live_copies -= 1;
    }

    /// Why something due at `due_ms` (an expiry with no head in front, a delayed
    /// release) happens only now: the node was down then, or else the broker's costs.
    pub(crate) fn late_cause_at(&self, due_ms: u64) -> crate::cause::LateCause {
        use crate::cause::LateCause;
        match self.last_downtime {
            Some((from, to)) if from <= due_ms && due_ms < to => LateCause::NodeDown,
            _ if self.costs.is_some() => LateCause::Busy,
            _ => LateCause::OnTime,
        }
    }

    pub(crate) fn queue(&self, id: QueueId) -> Option<&Queue> {
        self.queues.get(id.0 as usize).and_then(|q| q.as_ref())
    }

    pub(crate) fn queue_mut(&mut self, id: QueueId) -> Option<&mut Queue> {
        self.queues.get_mut(id.0 as usize).and_then(|q| q.as_mut())
    }

    pub(crate) fn queue_id(&self, name: Sym) -> Option<QueueId> {
        self.queue_ids.get(&name).copied()
    }

    pub(crate) fn sym(&mut self, s: &str) -> Sym {
        self.syms.intern(s)
    }

    // ---- read access for snapshots and output ----

    pub fn queues(&self) -> impl Iterator<Item = &Queue> {
        self.queues.iter().flatten()
    }

    pub fn exchanges(&self) -> impl Iterator<Item = &Exchange> {
        self.exchanges.values()
    }

    pub fn consumers(&self) -> &[Consumer] {
        &self.consumers
    }

    pub fn delayed_store(&self) -> &DelayedStore {
        &self.delayed
    }

    pub fn live_copies(&self) -> u64 {
        self.live_copies
    }

    pub fn pending_timers(&self) -> usize {
        self.timers.len()
    }
}

impl Sim {
    pub fn node_is_up(&self) -> bool {
        self.node_up
    }

    /// The RabbitMQ version profile the node runs now (an `upgrade` changes it).
    pub fn profile(&self) -> &crate::version::Profile {
        &self.profile
    }
}
