//! What an embed's host page hears and may say, without a browser: the [`Tap`] that
//! collects deliveries and events between two frames, and [`parse_request`], which
//! checks a host message's shape. The postMessage plumbing (origins, the listener) is
//! the app's (src/app/host_api.rs); the protocol is described there and in the README.

use std::cell::RefCell;
use std::rc::Rc;

use delaylab_engine::report::trace;
use delaylab_engine::scenario::duration::json_kind;
use delaylab_engine::{Event, EventKind, Sim};
use serde_json::{json, Value};

use crate::runner::Track;

/// Version of this message protocol, sent in `ready`.
pub const PROTOCOL_VERSION: u32 = 1;
/// A host message longer than this (as JSON) is refused before parsing.
pub const MAX_MESSAGE_CHARS: usize = 2 * 1024 * 1024;
/// `delivered` messages posted per frame; the rest are counted in `dropped`.
pub const MAX_DELIVERED_PER_FRAME: usize = 250;
/// Events sent per frame (in one `event` batch); the rest are counted in `dropped`.
pub const MAX_EVENTS_PER_FRAME: usize = 500;
/// A delivered body longer than this many characters is cut (with "…").
pub const MAX_BODY_CHARS: usize = 4096;
/// The furthest a `seek` may go: 30 days of virtual time.
pub const MAX_SEEK_MS: u64 = crate::clock::MAX_SEEK_MS;

/// The tap as the app and its runners share it: the app owns it, each runner holds a
/// clone from its creation on.
pub type TapHandle = Rc<RefCell<Tap>>;

/// What the runner's event stream hands to the host, collected between two frames.
#[derive(Default)]
pub struct Tap {
    events_on: bool,
    delivered: Vec<Value>,
    events: Vec<Value>,
    dropped_delivered: u64,
    dropped_events: u64,
    /// The checks' states, when one changed since the last frame (only the latest is
    /// sent: a host wants where they stand, not every step).
    checks: Option<Value>,
}

impl Tap {
    pub fn new(events_on: bool) -> TapHandle {
        Rc::new(RefCell::new(Tap {
            events_on,
            ..Tap::default()
        }))
    }

    /// Whether every engine event is collected too (`subscribe`), not only deliveries.
    pub fn set_events(&mut self, on: bool) {
        self.events_on = on;
    }

    /// Called by [`Track`] for every engine event, after its own bookkeeping.
    pub fn on_event(&mut self, e: &Event, sim: &Sim, track: &Track, late_ms: u64) {
        if let EventKind::Delivered { msg, queue, .. } = &e.kind {
            if self.delivered.len() < MAX_DELIVERED_PER_FRAME {
                let body = track.body(msg.id.0);
                let body = if body.chars().count() > MAX_BODY_CHARS {
                    body.chars().take(MAX_BODY_CHARS - 1).collect::<String>() + "…"
                } else {
                    body.to_string()
                };
                self.delivered.push(json!({
                    "type": "delivered",
                    "id": msg.id.0,
                    "body": body,
                    "queue": sim.symbols().str(*queue),
                    "at_ms": e.t_ms,
                    "late_ms": late_ms,
                }));
            } else {
                self.dropped_delivered += 1;
            }
        }
        if self.events_on {
            if self.events.len() < MAX_EVENTS_PER_FRAME {
                self.events.push(trace::event_json(e, sim));
            } else {
                self.dropped_events += 1;
            }
        }
    }

    /// The scenario's checks and their states (`delaylab_engine::checks::json`), after
    /// one changed, or for a new run (a load, a restart, a seek back: all pending again).
    pub fn set_checks(&mut self, states: Value) {
        self.checks = Some(states);
    }

    /// The messages to post for what was collected, emptying the tap: the deliveries,
    /// the events, then the checks (so a host hears of B's delivery before the check it
    /// passed).
    pub fn take_messages(&mut self) -> Vec<Value> {
        let mut out = std::mem::take(&mut self.delivered);
        if !self.events.is_empty() {
            out.push(json!({"type": "event", "events": std::mem::take(&mut self.events)}));
        }
        if let Some(checks) = self.checks.take() {
            out.push(json!({"type": "checks", "checks": checks}));
        }
        if self.dropped_delivered + self.dropped_events > 0 {
            out.push(json!({"type": "dropped", "delivered": self.dropped_delivered, "events": self.dropped_events}));
            self.dropped_delivered = 0;
            self.dropped_events = 0;
        }
        out
    }
}

/// A host message, checked.
#[derive(Debug, PartialEq)]
pub enum Request {
    Load(Value),
    Play,
    Pause,
    Seek(u64),
    Speed(f64),
    Subscribe(bool),
    Status,
}

const TYPES: &str = "load, play, pause, seek, speed, subscribe, status";

/// Checks a message's shape: `Err((type if known, what is wrong))`.
pub fn parse_request(v: &Value) -> Result<Request, (Option<String>, String)> {
    let Some(obj) = v.as_object() else {
        return Err((
            None,
            format!(
                "a message must be an object like {{\"type\": \"play\"}}, not {}",
                json_kind(v)
            ),
        ));
    };
    let Some(ty) = obj.get("type").and_then(Value::as_str) else {
        return Err((
            None,
            format!("a message needs a string \"type\" (one of {TYPES})"),
        ));
    };
    let short: String = ty.chars().take(40).collect();
    let fail = |m: String| Err((Some(short.clone()), m));
    match ty {
        "load" => match obj.get("scenario") {
            Some(s @ Value::Object(_)) => Ok(Request::Load(s.clone())),
            Some(other) => fail(format!(
                "\"scenario\" must be the scenario as a JSON object, not {}",
                json_kind(other)
            )),
            None => {
                fail("\"load\" needs a \"scenario\" (a JSON object in the scenario format)".into())
            }
        },
        "play" => Ok(Request::Play),
        "pause" => Ok(Request::Pause),
        "status" => Ok(Request::Status),
        "seek" => match obj.get("ms").and_then(Value::as_u64) {
            Some(ms) if ms <= MAX_SEEK_MS => Ok(Request::Seek(ms)),
            Some(ms) => fail(format!(
                "\"ms\" is {ms}; the furthest a seek goes is {MAX_SEEK_MS} (30 days)"
            )),
            None => fail(
                "\"seek\" needs \"ms\": a whole number of virtual milliseconds, 0 or more".into(),
            ),
        },
        "speed" => match obj.get("value").and_then(Value::as_f64) {
            Some(x) if (1.0..=100_000.0).contains(&x) => Ok(Request::Speed(x)),
            Some(x) => fail(format!(
                "\"value\" is {x}; a speed is 1 to 100000 (virtual ms per wall ms)"
            )),
            None => fail("\"speed\" needs \"value\": a number from 1 to 100000".into()),
        },
        "subscribe" => match obj.get("events").and_then(Value::as_bool) {
            Some(on) => Ok(Request::Subscribe(on)),
            None => fail("\"subscribe\" needs \"events\": true or false".into()),
        },
        _ => fail(format!(
            "unknown message type \"{short}\"; expected one of {TYPES}"
        )),
    }
}
