//! The run (same in every export): unique names, the time scale, the actions' connection
//! (one channel in confirm mode, reopened after a broker error), the consumers (a second
//! connection, a channel each), what was seen, the depths at the end, the cleanup and the
//! run contract JSON that `delaylab diff` compares with `delaylab run --format json`.

// One runtime for every scenario: a scenario uses only some of its helpers.
#![allow(dead_code, unused_imports)]

use std::collections::hash_map::RandomState;
use std::collections::BTreeMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

pub use lapin::options::*;
pub use lapin::types::{AMQPValue, FieldArray, FieldTable, LongString, ShortString};
use lapin::Confirmation;
pub use lapin::{BasicProperties, Channel, Connection, ConnectionProperties, ExchangeKind};
use serde_json::{json, Map, Value};

mod consumers;
mod seen;

use consumers::{attach, consume};
use seen::{Rec, Shared};
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// The header that carries a message's id, so that its publish time is known when it
/// is delivered (removed from the report).
const ID_HEADER: &str = "x-delaylab-id";
/// The default AMQP URL when none is given.
pub const DEFAULT_URL: &str = "amqp://guest:guest@127.0.0.1:5672/%2F";
/// How long a closing channel or connection is awaited before the next step (ms).
const SETTLE_MS: u64 = 200;
/// basic.qos takes a 16-bit prefetch count.
const MAX_PREFETCH: u32 = u16::MAX as u32;

/// TIME_SCALE multiplies every duration (1: real time).
pub static SCALE: LazyLock<f64> = LazyLock::new(|| {
    std::env::var("TIME_SCALE")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|f| f.is_finite() && *f > 0.0)
        .unwrap_or(1.0)
});

/// The unique prefix of this run's names: `dl-<8 hex digits>-`.
pub static PREFIX: LazyLock<String> = LazyLock::new(|| format!("dl-{:08x}-", random_u64() as u32));

/// Scaled expiration strings -> as the scenario wrote them (for the report).
static TTL_WRITTEN: Mutex<BTreeMap<String, String>> = Mutex::new(BTreeMap::new());

fn random_u64() -> u64 {
    let mut h = RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    h.finish()
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

// ---------------------------------------------------------------- names and durations

/// True for the names the broker owns (the default exchange, `amq.*`): they keep their name.
fn reserved(name: &str) -> bool {
    name.is_empty() || name.starts_with("amq.")
}

/// The broker-side name of a scenario exchange or queue (built-in names stay).
pub fn n(name: &str) -> ShortString {
    if reserved(name) {
        name.into()
    } else {
        format!("{}{name}", *PREFIX).into()
    }
}

/// A name as an argument or header value (a longstr, as the broker stores it).
pub fn name_arg(name: &str) -> AMQPValue {
    AMQPValue::LongString(n(name).as_str().into())
}

/// A string argument or header value (longstr).
fn long_str(v: &str) -> AMQPValue {
    AMQPValue::LongString(v.into())
}

/// An integer as the engine maps it: a signedint when it fits in 32 bits, else a long.
pub fn int(v: i64) -> AMQPValue {
    match i32::try_from(v) {
        Ok(i) => AMQPValue::LongInt(i),
        Err(_) => AMQPValue::LongLongInt(v),
    }
}

/// An argument or header table, entries in the order given.
pub fn table<'a>(entries: impl IntoIterator<Item = (&'a str, AMQPValue)>) -> FieldTable {
    let mut t = FieldTable::default();
    for (k, v) in entries {
        t.insert(k.into(), v);
    }
    t
}

/// A field array.
pub fn array(items: Vec<AMQPValue>) -> AMQPValue {
    AMQPValue::FieldArray(FieldArray::from(items))
}

/// Scenario ms -> real ms under TIME_SCALE; a positive duration stays >= 1 ms.
pub fn ms(d: i64) -> i64 {
    let scale = *SCALE;
    if scale == 1.0 || d <= 0 {
        return d;
    }
    ((d as f64 * scale).round() as i64).max(1)
}

/// A duration argument (x-message-ttl, x-expires, x-delay), scaled, with its AMQP type
/// chosen as for any integer.
pub fn ms_arg(d: i64) -> AMQPValue {
    int(ms(d))
}

fn real(ms_: u64) -> Duration {
    Duration::from_secs_f64(ms_ as f64 * *SCALE / 1000.0)
}

/// The header a 4.4 quorum queue holds a message by.
const DELIVERY_TIME: &str = "x-opt-delivery-time";

/// Wall-clock Unix ms at the scenario's 0:00 (set when the run starts): the scenario's
/// times (x-opt-delivery-time) are offsets from it.
static START_MS: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(0);

fn start_ms() -> i64 {
    START_MS.load(std::sync::atomic::Ordering::Relaxed)
}

/// x-opt-delivery-time as a long, Unix ms: the program's start plus the scenario's time.
pub fn delivery_time(v: i64) -> i64 {
    start_ms() + ms(v)
}

/// x-opt-delivery-time as an AMQP timestamp (whole seconds), from the scenario's seconds.
pub fn delivery_time_s(v: u64) -> u64 {
    ((start_ms() + ms((v as i64).saturating_mul(1000))) / 1000).max(0) as u64
}

/// An expiration string of ms, scaled; still a string (the broker wants a shortstr).
pub fn ttl(expiration: &str) -> ShortString {
    ttl_read_as(expiration, expiration.parse().unwrap_or(0))
}

/// `read_as`: the ms the broker reads from a string such as "+500" or "0500".
pub fn ttl_read_as(expiration: &str, read_as: u64) -> ShortString {
    if *SCALE == 1.0 {
        return expiration.into();
    }
    let sent = ms(read_as as i64).to_string();
    lock(&TTL_WRITTEN).insert(sent.clone(), expiration.to_string());
    sent.into()
}

/// A string the broker hands back, with the name prefix taken off.
pub fn unmap(s: &str) -> String {
    s.replace(PREFIX.as_str(), "")
}

// ---------------------------------------------------------------- what a consumer does

/// What a consumer does with a delivery once it has held it `handle_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// basic.ack.
    Ack,
    /// basic.reject requeue=false: dead-lettered when the queue has a DLX, else dropped.
    Reject,
    /// basic.reject requeue=true.
    RejectRequeue,
    /// basic.nack requeue=true: back to the queue, redelivered.
    Requeue,
    /// basic.nack multiple=true requeue=true: this delivery and every earlier one the
    /// consumer still holds go back.
    NackMultiple,
}

/// The outcome plan of a consumer.
#[derive(Clone, Copy, Debug)]
pub enum Outcomes {
    Fixed(Outcome),
    /// The k-th delivery gets the k-th outcome; the last one then repeats.
    Sequence(&'static [Outcome]),
    /// Drawn with this program's own random numbers (not the simulation's seeded ones).
    Weighted(&'static [(Outcome, f64)]),
}

impl Outcomes {
    fn pick(&self, k: usize, rng: &mut u64) -> Outcome {
        match self {
            Outcomes::Fixed(o) => *o,
            Outcomes::Sequence(l) => l[k.min(l.len() - 1)],
            Outcomes::Weighted(w) => {
                // xorshift64*: enough for a draw; not the simulation's generator.
                *rng ^= *rng >> 12;
                *rng ^= *rng << 25;
                *rng ^= *rng >> 27;
                let u =
                    (rng.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64;
                let total: f64 = w.iter().map(|(_, x)| x).sum();
                let mut acc = 0.0;
                for (o, x) in w.iter() {
                    acc += x;
                    if u * total < acc {
                        return *o;
                    }
                }
                w[w.len() - 1].0
            }
        }
    }
}

/// A consumer of the scenario.
#[derive(Clone, Debug)]
pub struct Consumer {
    pub name: &'static str,
    pub queue: &'static str,
    /// No-ack mode: the broker forgets a message as soon as it sends it.
    pub auto_ack: bool,
    pub prefetch: u32,
    pub handle_ms: u64,
    pub outcome: Outcomes,
    /// Attached at `from_ms`, closed at `to_ms` (closing requeues what it holds).
    pub from_ms: u64,
    pub to_ms: Option<u64>,
}

/// A timed action: action `index` at `at_ms`, `count` times every `every_ms`.
#[derive(Clone, Copy, Debug)]
pub struct Timed {
    pub index: usize,
    pub at_ms: u64,
    pub count: u32,
    pub every_ms: u64,
}

// ---------------------------------------------------------------- the run

async fn connect(url: &str) -> lapin::Result<Connection> {
    Connection::connect(
        url,
        ConnectionProperties::default().with_connection_name("delaylab export (rust)".into()),
    )
    .await
}

async fn confirm_channel(conn: &Connection) -> lapin::Result<Channel> {
    let ch = conn.create_channel().await?;
    ch.confirm_select(ConfirmSelectOptions::default()).await?;
    Ok(ch)
}

/// One run: a connection for the actions, one for the consumers; what was seen.
pub struct Run {
    url: String,
    conn: Connection,
    ch: Channel,
    cconn: Arc<Connection>,
    shared: Arc<Shared>,
    consumers: Vec<Consumer>,
    /// Consumers attached before the clock starts (`from_ms` 0), by consumer index.
    early: BTreeMap<usize, Attached>,
    tasks: Vec<JoinHandle<()>>,
}

pub(super) type Attached = Option<(Channel, lapin::Consumer)>;

impl Run {
    pub async fn connect(url: &str) -> lapin::Result<Run> {
        let conn = connect(url).await?;
        let ch = confirm_channel(&conn).await?;
        let cconn = Arc::new(connect(url).await?);
        Ok(Run {
            url: url.to_string(),
            conn,
            ch,
            cconn,
            shared: Arc::new(Shared {
                t0: OnceLock::new(),
                rec: Mutex::new(Rec {
                    rng: random_u64() | 1,
                    ..Rec::default()
                }),
            }),
            consumers: Vec::new(),
            early: BTreeMap::new(),
            tasks: Vec::new(),
        })
    }

    /// Scenario ms since the start of the clock (0 before it).
    pub fn now_ms(&self) -> u64 {
        self.shared.now_ms()
    }

    /// A usable channel: a new one after a channel error, a new connection after a
    /// connection error (503 ...).
    async fn channel(&mut self) -> lapin::Result<Channel> {
        if !self.conn.status().connected() {
            self.conn = connect(&self.url).await?;
            self.ch = confirm_channel(&self.conn).await?;
        } else if !self.ch.status().connected() {
            self.ch = confirm_channel(&self.conn).await?;
        }
        Ok(self.ch.clone())
    }

    /// Waits until a closing channel or connection is really gone, so that the next step
    /// opens a fresh one.
    async fn settle(&self) {
        for _ in 0..SETTLE_MS {
            if !self.ch.status().closing() && !self.conn.status().closing() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    /// Runs `f` on the actions' channel; a broker error is recorded (the next step gets a
    /// new channel) and gives None.
    pub async fn step<T>(&mut self, f: impl AsyncFnOnce(Channel) -> lapin::Result<T>) -> Option<T> {
        let r = match self.channel().await {
            Ok(ch) => f(ch).await,
            Err(e) => Err(e),
        };
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                self.shared.error(&e, None);
                self.settle().await;
                None
            }
        }
    }

    /// basic.publish in confirm mode: waits for the broker's ack. A return (312 NO_ROUTE)
    /// comes with the ack; a nack is recorded; so is the channel error a refused publish
    /// causes (with the body of the publish).
    pub async fn publish(
        &mut self,
        exchange: ShortString,
        routing_key: ShortString,
        body: &str,
        props: BasicProperties,
        mandatory: bool,
    ) {
        let id = {
            let at = self.now_ms();
            let mut rec = self.shared.rec();
            rec.published_at.push(at);
            rec.published_at.len() - 1
        };
        let mut headers = props.headers().clone().unwrap_or_default();
        headers.insert(ID_HEADER.into(), long_str(&id.to_string()));
        let props = props.with_headers(headers);
        let ch = match self.channel().await {
            Ok(ch) => ch,
            Err(e) => return self.failed(&e, body).await,
        };
        let opts = BasicPublishOptions {
            mandatory,
            immediate: false,
        };
        let confirm = match ch
            .basic_publish(exchange, routing_key, opts, body.as_bytes(), props)
            .await
        {
            Ok(c) => c,
            Err(e) => return self.failed(&e, body).await,
        };
        match confirm.await {
            Ok(c) => {
                let at = self.now_ms();
                let mut rec = self.shared.rec();
                let (ret, nack) = match c {
                    Confirmation::Ack(r) => (r, false),
                    Confirmation::Nack(r) => (r, true),
                    Confirmation::NotRequested => (None, false),
                };
                if let Some(r) = ret {
                    rec.returned.push(json!({"body": body, "at_ms": at, "code": r.reply_code, "text": r.reply_text.as_str()}));
                }
                if nack {
                    rec.nacked.push(json!({"body": body, "at_ms": at}));
                }
            }
            Err(e) => self.failed(&e, body).await,
        }
    }

    async fn failed(&self, e: &lapin::Error, body: &str) {
        self.shared.error(e, Some(body));
        self.settle().await;
    }

    /// basic.get with auto-ack: takes the head of the queue, if any.
    pub async fn get(&mut self, queue: &'static str) {
        let got = self
            .step(async |ch| {
                ch.basic_get(n(queue), BasicGetOptions { no_ack: true })
                    .await
            })
            .await;
        if let Some(Some(m)) = got {
            self.shared.record(&m.delivery, queue, "basic.get");
        }
    }

    /// Registers a consumer; one that starts at 0 is attached at once (before the clock
    /// starts), the others at their `from_ms`.
    pub async fn consume(&mut self, c: Consumer) {
        let idx = self.consumers.len();
        if c.from_ms == 0 {
            let a = attach(&self.shared, &self.cconn, &c).await;
            self.early.insert(idx, a);
        }
        self.consumers.push(c);
        let mut rec = self.shared.rec();
        rec.delivered.push(0);
        rec.held.push(0);
        rec.closed.push(false);
    }

    /// Starts the clock and the consumers; the timed actions, expanded and sorted by
    /// (time, repeat run > 1, action index, run), as (at ms, action index, run number).
    pub fn start(&mut self, timed: &[Timed], end_ms: u64) -> Vec<(u64, usize, u32)> {
        self.shared
            .t0
            .set(Instant::now())
            .expect("the run starts once");
        let wall_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        START_MS.store(wall_ms, std::sync::atomic::Ordering::Relaxed);
        for (i, c) in self.consumers.iter().enumerate() {
            let pre = self.early.remove(&i);
            self.tasks.push(tokio::spawn(consume(
                self.shared.clone(),
                self.cconn.clone(),
                i,
                c.clone(),
                pre,
            )));
        }
        let mut plan = Vec::new();
        for t in timed {
            for k in 1..=t.count {
                let at = t
                    .at_ms
                    .saturating_add(u64::from(k - 1).saturating_mul(t.every_ms));
                if at <= end_ms {
                    plan.push((at, t.index, k));
                }
            }
        }
        plan.sort_by_key(|&(at, i, k)| (at, k > 1, i, k));
        plan
    }

    /// Sleeps until scenario time `at_ms` (+ `extra_ms` real ms).
    pub async fn sleep_until(&self, at_ms: u64, extra_ms: u64) {
        tokio::time::sleep_until(self.shared.at(at_ms) + Duration::from_millis(extra_ms)).await;
    }

    /// Each queue's depth at the end: ready (passive declare) and unacked (held here).
    pub async fn depths(&mut self, queues: &[&str]) -> Value {
        let mut out = Map::new();
        for q in queues {
            let Ok(ch) = self.channel().await else {
                continue;
            };
            let passive = QueueDeclareOptions {
                passive: true,
                ..Default::default()
            };
            match ch.queue_declare(n(q), passive, FieldTable::default()).await {
                Ok(info) => {
                    let rec = self.shared.rec();
                    let held: i64 = self
                        .consumers
                        .iter()
                        .enumerate()
                        .filter(|(i, c)| c.queue == *q && !rec.closed[*i])
                        .map(|(i, _)| rec.held[i])
                        .sum();
                    out.insert(
                        q.to_string(),
                        json!({"ready": info.message_count(), "unacked": held.max(0)}),
                    );
                }
                // The queue is gone (deleted by an action, or never declared).
                Err(_) => self.settle().await,
            }
        }
        Value::Object(out)
    }

    /// Stops the consumers and deletes every prefixed queue and exchange the scenario
    /// could have created (on a fresh connection: the run's may be closed).
    pub async fn cleanup(self, queues: &[&str], exchanges: &[&str]) {
        for t in &self.tasks {
            t.abort();
        }
        let _ = self.cconn.close(200, "OK".into()).await;
        let _ = self.conn.close(200, "OK".into()).await;
        let conn = match connect(&self.url).await {
            Ok(c) => c,
            Err(e) => {
                eprintln!("cleanup: {e} (names start with {})", *PREFIX);
                return;
            }
        };
        let mut ch = match conn.create_channel().await {
            Ok(c) => c,
            Err(e) => {
                eprintln!("cleanup: {e} (names start with {})", *PREFIX);
                return;
            }
        };
        let names = queues
            .iter()
            .map(|q| (true, q))
            .chain(exchanges.iter().map(|x| (false, x)));
        for (is_queue, name) in names.filter(|(_, x)| !reserved(x)) {
            if !ch.status().connected() {
                match conn.create_channel().await {
                    Ok(c) => ch = c,
                    Err(_) => break,
                }
            }
            let _ = if is_queue {
                ch.queue_delete(n(name), QueueDeleteOptions::default())
                    .await
                    .map(drop)
            } else {
                ch.exchange_delete(n(name), ExchangeDeleteOptions::default())
                    .await
            };
        }
        let _ = conn.close(200, "OK".into()).await;
    }

    /// The run contract: what was seen, times in scenario ms.
    pub fn report(&self, name: &str, end_ms: u64, measured_at: u64, depths: Value) -> Value {
        let rec = self.shared.rec();
        let mut deliveries = rec.deliveries.clone();
        deliveries.sort_by_key(|d| d["delivered_at_ms"].as_u64().unwrap_or(0));
        json!({
            "scenario": name,
            "deliveries": deliveries,
            "dropped": [],
            "returned": rec.returned,
            "errors": rec.errors,
            "final": {"queues": depths, "delayed": {}},
            "stats": {"events": null, "end_ms": end_ms, "measured_at_ms": measured_at},
            "replay": {
                "client": "rust lapin",
                "prefix": *PREFIX,
                "time_scale": *SCALE,
                "nacked": rec.nacked,
                "note": "dropped messages cannot be observed on a live broker: compare final.queues instead",
            },
        })
    }

    /// An error of the program itself (not the broker's), recorded in `errors`.
    pub fn client_error(&self, text: &str) {
        self.shared.client_error(text);
    }
}

/// Resolves on Ctrl-C or SIGTERM (the program then still deletes what it declared).
pub async fn interrupted() {
    let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(s) => s,
        Err(_) => return std::future::pending().await,
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}
