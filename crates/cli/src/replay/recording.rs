//! What a replay records while it runs: every delivery (with the publish time its
//! `x-delaylab-id` header points to), returns, nacks and broker errors, and per consumer
//! how many deliveries it has seen and holds unacked. One [`Shared`] is read by the
//! actions' task and every consumer task; the clock (`t0`) starts once the topology and
//! the consumers that attach at 0 are in place, and every time is in scenario ms
//! (real elapsed time divided by `--time-scale`).

use std::sync::{Mutex, OnceLock};

use lapin::ErrorKind;
use serde_json::{json, Map, Value};

use delaylab_engine::amqp::delivery_time::DELIVERY_TIME_HEADER;
use delaylab_engine::rng::Rng;
use delaylab_engine::scenario::rename::Rename;
use delaylab_engine::scenario::Scenario;

use super::convert;
use super::names::Scale;

/// The header that carries a message's replay id (removed from the output).
pub const ID_HEADER: &str = "x-delaylab-id";

/// What the replay knows of one message it published (indexed by its replay id).
pub struct MsgInfo {
    pub published_at_ms: u64,
    /// The `expiration` as the scenario wrote it, and as it was sent (scaled).
    pub expiration: Option<(String, String)>,
}

/// A delivery as it came (see [`Shared::delivery`]).
pub struct RawDelivery {
    pub at_ms: u64,
    pub body: Vec<u8>,
    pub redelivered: bool,
    pub routing_key: String,
    pub exchange: String,
    pub properties: lapin::BasicProperties,
    pub queue: String,
    pub consumer: String,
}

/// Everything recorded so far (behind [`Shared::rec`]).
pub struct Rec {
    pub deliveries: Vec<RawDelivery>,
    pub returned: Vec<Value>,
    pub errors: Vec<Value>,
    pub nacked: Vec<Value>,
    pub msgs: Vec<MsgInfo>,
    /// Draws weighted outcomes (seeded by the scenario's seed, as the simulation).
    pub rng: Rng,
    /// Per consumer: deliveries so far (outcome lists), held unacked, closed.
    pub delivered: Vec<usize>,
    pub held: Vec<i64>,
    pub closed: Vec<bool>,
    /// Per consumer: cancelled by the broker (`basic.cancel`) with its channel open. Its
    /// channel keeps what the broker did not take back (4.3's consumer timeout returns
    /// only the timed-out deliveries), which a client cannot see: its queue's `unacked`
    /// is then left unknown (null) in the output, and `delaylab diff` does not compare it.
    pub cancelled: Vec<bool>,
}

impl Rec {
    /// Nothing recorded yet, one slot per consumer of `s`.
    pub fn new(s: &Scenario) -> Rec {
        let n = s.consumers.len();
        Rec {
            deliveries: Vec::new(),
            returned: Vec::new(),
            errors: Vec::new(),
            nacked: Vec::new(),
            msgs: Vec::new(),
            rng: Rng::new(s.seed),
            delivered: vec![0; n],
            held: vec![0; n],
            closed: vec![false; n],
            cancelled: vec![false; n],
        }
    }
}

/// The replay's state shared by the actions' task and the consumer tasks.
pub struct Shared {
    /// The run's renaming (names out, `unmap` on everything that comes back).
    pub names: Rename,
    pub scale: Scale,
    /// The real instant of scenario time 0 (set once, when the timed part starts).
    pub t0: OnceLock<tokio::time::Instant>,
    /// The wall clock (Unix ms) at `t0`: scenario times (`x-opt-delivery-time`) are
    /// offsets from it.
    pub start_ms: OnceLock<i64>,
    pub rec: Mutex<Rec>,
}

impl Shared {
    /// Scenario ms since `t0` (0 before it is set).
    pub fn now_ms(&self) -> u64 {
        self.t0
            .get()
            .map_or(0, |t0| self.scale.scenario_ms(t0.elapsed()))
    }

    /// The real instant of scenario time `ms`.
    pub fn at(&self, ms: u64) -> tokio::time::Instant {
        *self.t0.get().expect("t0 set") + self.scale.real(ms)
    }

    pub fn rec(&self) -> std::sync::MutexGuard<'_, Rec> {
        self.rec.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Records a broker error (code, text with names mapped back, scope).
    pub fn error(&self, e: &lapin::Error, body: Option<&str>) {
        let (code, text, scope) = match e.kind() {
            ErrorKind::ProtocolError(p) => (
                p.get_id(),
                self.names.unmap(p.get_message().as_str()),
                if e.is_amqp_hard_error() {
                    "connection"
                } else {
                    "channel"
                },
            ),
            other => (0, format!("client: {other:?}"), "client"),
        };
        let mut m = Map::new();
        m.insert("at_ms".into(), json!(self.now_ms()));
        m.insert("code".into(), json!(code));
        m.insert("text".into(), json!(text));
        m.insert("scope".into(), json!(scope));
        if let Some(b) = body {
            m.insert("body".into(), json!(b));
        }
        self.rec().errors.push(Value::Object(m));
    }

    /// Records a delivery (or a basic.get): its arrival time and what came, moved out of
    /// the delivery as is. Turned into the run contract's JSON only at the end
    /// ([`Shared::delivery_json`]): converting headers (an `x-death` array of tables) is
    /// the client's work, kept off the consumer's path so that a timed drain measures
    /// the broker (on two cores the broker shares with the client, every microsecond a
    /// delivery costs the client shows in the drain).
    pub fn delivery(&self, d: lapin::message::Delivery, queue: &str, consumer: &str) {
        let at_ms = self.now_ms();
        let raw = RawDelivery {
            at_ms,
            body: d.data,
            redelivered: d.redelivered,
            routing_key: d.routing_key.to_string(),
            exchange: d.exchange.to_string(),
            properties: d.properties,
            queue: queue.to_string(),
            consumer: consumer.to_string(),
        };
        self.rec().deliveries.push(raw);
    }

    /// A recorded delivery as the run contract spells it (names mapped back, the replay
    /// id header removed, scaled TTL strings back to what the scenario wrote).
    pub fn delivery_json(&self, rec: &Rec, d: &RawDelivery) -> Value {
        let names = &self.names;
        let start_ms = self.start_ms.get().copied().unwrap_or(0);
        let mut headers: Map<String, Value> =
            d.properties.headers().as_ref().map_or_else(Map::new, |h| {
                h.into_iter()
                    .map(|(k, v)| {
                        let key = k.as_str();
                        let json = (key == DELIVERY_TIME_HEADER)
                            .then(|| self.scale.delivery_time_back(v, start_ms))
                            .flatten()
                            .unwrap_or_else(|| convert::header_json(v, names));
                        (key.to_string(), json)
                    })
                    .collect()
            });
        let id: Option<usize> = headers
            .remove(ID_HEADER)
            .and_then(|v| v.as_str().and_then(|s| s.parse().ok()));
        let mut props = convert::properties_json(&d.properties, names);
        let info = id.and_then(|i| rec.msgs.get(i));
        if let Some((orig, sent)) = info.and_then(|m| m.expiration.as_ref()) {
            if props.get("expiration").and_then(Value::as_str) == Some(sent.as_str()) {
                props.insert("expiration".into(), json!(orig));
            }
            if let Some(Value::Array(deaths)) = headers.get_mut("x-death") {
                for e in deaths.iter_mut() {
                    if e.get("original-expiration").and_then(Value::as_str) == Some(sent.as_str()) {
                        e["original-expiration"] = json!(orig);
                    }
                }
            }
        }
        let published = info.map_or(Value::Null, |m| json!(m.published_at_ms));
        json!({
            "body": String::from_utf8_lossy(&d.body),
            "queue": d.queue,
            "consumer": d.consumer,
            "published_at_ms": published,
            "delivered_at_ms": d.at_ms,
            "redelivered": d.redelivered,
            "routing_key": names.unmap(&d.routing_key),
            "exchange": names.unmap(&d.exchange),
            "properties": Value::Object(props),
            "headers": Value::Object(headers),
        })
    }
}
