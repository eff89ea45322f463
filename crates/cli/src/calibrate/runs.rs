//! The live runs of `delaylab calibrate`: each is short and bounded, declares what it
//! uses under the run's unique prefix (`cleanup` deletes it, also after a failure), and
//! returns a duration or a count that `calibrate.rs` turns into a figure.
//!
//! Every queue is of the calibrated queue type (`QueueType`): a classic queue, or a
//! durable quorum queue (`x-queue-type quorum`, the type 4.x recommends).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use lapin::options::{
    BasicAckOptions, BasicConsumeOptions, BasicPublishOptions, BasicQosOptions,
    ExchangeDeclareOptions, ExchangeDeleteOptions, QueueBindOptions, QueueDeclareOptions,
    QueueDeleteOptions,
};
use lapin::types::{AMQPValue, FieldTable, LongString};
use lapin::{BasicProperties, Channel, Connection, ConnectionProperties, Consumer, ExchangeKind};

use crate::replay::names::Names;
use crate::replay::ID_HEADER;

/// Publishes in flight at most (as `replay`).
pub const WINDOW: usize = 500;
/// The longest any one wait may take before calibrate gives up.
pub const STEP_TIMEOUT: Duration = Duration::from_secs(60);
/// How often a queue's depth is asked for.
const POLL: Duration = Duration::from_millis(5);
/// A 20-byte body, as in broker-costs.md.
const BODY: &[u8] = b"delaylab-calibrate-0";
/// The queues a calibration declares (under its prefix), besides its fed drains'.
pub const QUEUES: [&str; 3] = ["cal.ingress", "cal.wait", "cal.dlq"];
pub const DLX: &str = "cal.dlx";

/// One fed drain's fresh queues: a wait queue dead-lettering through a fanout exchange
/// to a DLQ its consumer drains.
#[derive(Clone, Copy, Debug)]
pub struct DrainQueues {
    pub wait: &'static str,
    pub dlx: &'static str,
    pub dlq: &'static str,
}

/// Steps 4 (no-ack), 5 (acking each, prefetch 1,000) and 6 (prefetch 1): each on queues
/// of its own. A queue that has just taken a burst drains the next one at another pace
/// (prefetch 1 on step 5's queues: 20,000 round trips in 8.4-9.5 s; on fresh ones 3.4-4.8
/// s, a replay's 4.2-4.7 s).
pub const FED: DrainQueues = DrainQueues {
    wait: "cal.fwait",
    dlx: "cal.fdlx",
    dlq: "cal.fdlq",
};
pub const MANUAL: DrainQueues = DrainQueues {
    wait: "cal.mwait",
    dlx: "cal.mdlx",
    dlq: "cal.mdlq",
};
pub const PREFETCH1: DrainQueues = DrainQueues {
    wait: "cal.pwait",
    dlx: "cal.pdlx",
    dlq: "cal.pdlq",
};
const DRAINS: [DrainQueues; 3] = [FED, MANUAL, PREFETCH1];

/// A burst: `n` messages behind a head with `head_ttl_ms`.
#[derive(Clone, Copy, Debug)]
pub struct Burst {
    pub head_ttl_ms: u64,
    pub n: usize,
}

/// The queue type calibrated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueType {
    Classic,
    Quorum,
}

impl QueueType {
    pub fn parse(s: &str) -> Option<QueueType> {
        match s {
            "classic" => Some(QueueType::Classic),
            "quorum" => Some(QueueType::Quorum),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            QueueType::Classic => "classic",
            QueueType::Quorum => "quorum",
        }
    }
}

pub async fn connect(url: &str) -> Result<Connection, String> {
    Connection::connect(
        url,
        ConnectionProperties::default().with_connection_name("delaylab calibrate".into()),
    )
    .await
    .map_err(|e| format!("cannot connect: {e}"))
}

pub fn err(what: &str) -> impl Fn(lapin::Error) -> String + '_ {
    move |e| format!("{what}: {e}")
}

/// Declares `name` of type `qt` (a quorum queue is durable), dead-lettering to `dlx`.
pub async fn declare(
    ch: &Channel,
    qt: QueueType,
    name: &str,
    dlx: Option<&str>,
) -> Result<(), String> {
    let mut args = FieldTable::default();
    if let Some(x) = dlx {
        args.insert(
            "x-dead-letter-exchange".into(),
            AMQPValue::LongString(LongString::from(x)),
        );
    }
    if qt == QueueType::Quorum {
        args.insert(
            "x-queue-type".into(),
            AMQPValue::LongString(LongString::from("quorum")),
        );
    }
    let opts = QueueDeclareOptions {
        durable: qt == QueueType::Quorum,
        ..Default::default()
    };
    ch.queue_declare(name.into(), opts, args)
        .await
        .map(|_| ())
        .map_err(err("queue.declare"))
}

/// A fanout exchange `x` and a queue `q` of type `qt` bound to it.
pub async fn declare_dlq(ch: &Channel, qt: QueueType, x: &str, q: &str) -> Result<(), String> {
    ch.exchange_declare(
        x.into(),
        ExchangeKind::Fanout,
        ExchangeDeclareOptions::default(),
        FieldTable::default(),
    )
    .await
    .map_err(err("exchange.declare"))?;
    declare(ch, qt, q, None).await?;
    ch.queue_bind(
        q.into(),
        x.into(),
        "".into(),
        QueueBindOptions::default(),
        FieldTable::default(),
    )
    .await
    .map_err(err("queue.bind"))
}

async fn depth(ch: &Channel, name: &str) -> Result<u32, String> {
    let passive = QueueDeclareOptions {
        passive: true,
        ..Default::default()
    };
    ch.queue_declare(name.into(), passive, FieldTable::default())
        .await
        .map(|q| q.message_count())
        .map_err(err("queue.declare passive"))
}

/// Waits until `queue` holds more than `n` messages; the instant it did.
pub async fn filled(ch: &Channel, queue: &str, n: usize) -> Result<Instant, String> {
    let deadline = Instant::now() + STEP_TIMEOUT;
    while Instant::now() < deadline {
        if depth(ch, queue).await? as usize > n {
            return Ok(Instant::now());
        }
        tokio::time::sleep(POLL).await;
    }
    Err(format!("queue {queue} did not fill in time"))
}

/// Publishes `n` messages to `queue` through the default exchange, `WINDOW` in flight.
pub async fn publish(
    ch: &Channel,
    queue: &str,
    n: usize,
    expiration: Option<&str>,
) -> Result<(), String> {
    let mut pending = Vec::with_capacity(WINDOW);
    for i in 0..n {
        // The header `replay` puts on every message it publishes (its id), so that the
        // broker handles (stores, dead-letters, delivers) what it handles in a replay.
        let mut headers = FieldTable::default();
        headers.insert(
            ID_HEADER.into(),
            AMQPValue::LongString(LongString::from(i.to_string())),
        );
        let mut props = BasicProperties::default().with_headers(headers);
        if let Some(e) = expiration {
            props = props.with_expiration(e.into());
        }
        let c = ch
            .basic_publish(
                "".into(),
                queue.into(),
                BasicPublishOptions::default(),
                BODY,
                props,
            )
            .await
            .map_err(err("basic.publish"))?;
        pending.push(c);
        if pending.len() >= WINDOW {
            for c in pending.drain(..) {
                c.await.map_err(err("confirm"))?;
            }
        }
    }
    for c in pending {
        c.await.map_err(err("confirm"))?;
    }
    Ok(())
}

/// Publishes a head with `head_ttl_ms` and `n` messages with a 1 ms TTL behind it to
/// `wait`; returns the instant the head expires, when all of them are released at once.
pub async fn release_burst(
    ch: &Channel,
    wait: &str,
    head_ttl_ms: u64,
    n: usize,
) -> Result<Instant, String> {
    let head_sent = Instant::now();
    publish(ch, wait, 1, Some(&head_ttl_ms.to_string())).await?;
    publish(ch, wait, n, Some("1")).await?;
    let released = head_sent + Duration::from_millis(head_ttl_ms);
    if Instant::now() >= released {
        return Err(format!(
            "publishing {n} messages took longer than the head's TTL ({head_ttl_ms} ms): the broker is too busy to calibrate"
        ));
    }
    Ok(released)
}

/// How a consumer takes its deliveries.
#[derive(Clone, Copy, Debug)]
pub enum Ack {
    /// no-ack (`ack: "auto"` in a scenario, as `replay` consumes).
    Auto,
    /// Manual ack, one `basic.ack` per delivery (the seed articles' consumer), with this
    /// prefetch.
    Each { prefetch: u16 },
}

/// A consumer on `queue`, on a connection of its own as `replay`'s consumers are, with
/// one channel (closing the connection ends the consumer and requeues what it holds).
pub struct Consuming {
    pub conn: Connection,
    pub stream: Consumer,
}

impl Consuming {
    pub async fn close(self) {
        let _ = self.conn.close(200, "OK".into()).await;
    }
}

pub async fn consume(url: &str, queue: &str, ack: Ack) -> Result<Consuming, String> {
    let conn = connect(url).await?;
    let ch = conn.create_channel().await.map_err(err("channel"))?;
    if let Ack::Each { prefetch } = ack {
        ch.basic_qos(prefetch, BasicQosOptions { global: false })
            .await
            .map_err(err("basic.qos"))?;
    }
    let opts = BasicConsumeOptions {
        no_ack: matches!(ack, Ack::Auto),
        ..Default::default()
    };
    let stream = ch
        .basic_consume(queue.into(), "cal".into(), opts, FieldTable::default())
        .await
        .map_err(err("basic.consume"))?;
    Ok(Consuming { conn, stream })
}

/// What every fed drain of one calibration shares: the publishing channel, the broker's
/// URL (each consumer connects on its own), the queue type and the run's name prefix.
pub struct Drains<'a> {
    pub ch: &'a Channel,
    pub url: &'a str,
    pub qt: QueueType,
    pub prefix: &'a str,
}

impl Drains<'_> {
    /// A fed drain on fresh queues `q`: declares them, attaches a consumer taking
    /// deliveries as `ack` says, releases `burst` behind its head, and receives the head
    /// and the burst (for `longest` at most from the first delivery).
    pub async fn run(
        &self,
        q: DrainQueues,
        burst: Burst,
        ack: Ack,
        longest: Duration,
    ) -> Result<Drain, String> {
        let [wait, dlx, dlq] = [q.wait, q.dlx, q.dlq].map(|x| format!("{}{x}", self.prefix));
        declare_dlq(self.ch, self.qt, &dlx, &dlq).await?;
        declare(self.ch, self.qt, &wait, Some(&dlx)).await?;
        let mut c = consume(self.url, &dlq, ack).await?;
        let got = match release_burst(self.ch, &wait, burst.head_ttl_ms, burst.n).await {
            Ok(released) => {
                let n = burst.n + 1;
                let (got, done) = (AtomicUsize::new(0), AtomicBool::new(false));
                let receiving = async {
                    let at = receive_counted(&mut c.stream, n, ack, longest, &got).await;
                    done.store(true, Ordering::Relaxed);
                    at
                };
                let (at, all_in) =
                    tokio::join!(receiving, all_in(self.ch, &dlq, n, released, &got, &done));
                at.map(|at| Drain {
                    released,
                    dead_lettered: all_in.ok(),
                    at,
                })
            }
            Err(e) => Err(e),
        };
        c.close().await;
        got
    }
}

/// The instant the burst was all in the consumer's queue `dlq` (dead-lettered): what the
/// consumer received (`got`) and what the queue holds ready add up to the burst's `n`.
/// Asked every `POLL` from `released` until the consumer is `done`. (The wait queue's
/// depth does not tell it: a quorum queue counts its expired run out before it has
/// dead-lettered any of it.)
async fn all_in(
    ch: &Channel,
    dlq: &str,
    n: usize,
    released: Instant,
    got: &AtomicUsize,
    done: &AtomicBool,
) -> Result<Instant, String> {
    tokio::time::sleep_until(released.into()).await;
    while !done.load(Ordering::Relaxed) {
        let ready = depth(ch, dlq).await? as usize;
        if got.load(Ordering::Relaxed) + ready >= n {
            return Ok(Instant::now());
        }
        tokio::time::sleep(POLL).await;
    }
    Err("the drain ended first".into())
}

/// What a fed drain saw: when the head expired (all of the burst overdue behind it) and
/// when each delivery arrived.
#[derive(Clone, Debug)]
pub struct Drain {
    pub released: Instant,
    /// When the burst was all in the consumer's queue (dead-lettered; None if it could
    /// not be told).
    pub dead_lettered: Option<Instant>,
    pub at: Vec<Instant>,
}

impl Drain {
    /// The shape, for the printout: the first delivery after the head's expiry, then
    /// the time from the first delivery to the 10th, 25th, 50th, 75th percentile and last.
    pub fn shape(&self) -> String {
        let (Some(first), n) = (self.at.first(), self.at.len()) else {
            return "no deliveries".into();
        };
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let marks: Vec<String> = [10, 25, 50, 75, 100]
            .iter()
            .map(|p| {
                let i = (n * p).div_ceil(100).max(1) - 1;
                format!(
                    "{p}% {:.0} ms",
                    ms(self.at[i].saturating_duration_since(*first))
                )
            })
            .collect();
        let dl = self.dead_lettered.map_or("?".into(), |t| {
            let by = self.at.iter().filter(|a| **a <= t).count();
            format!(
                "{:.0} ms ({by} delivered by then)",
                ms(t.saturating_duration_since(*first))
            )
        });
        format!(
            "{n} in {:.0} ms, the first {:.1} ms after the head expired; from it, {}; all dead-lettered at {dl}",
            ms(self.at[n - 1].saturating_duration_since(*first)),
            ms(first.saturating_duration_since(self.released)),
            marks.join(", ")
        )
    }
}

/// Receives `n` deliveries (n >= 1), acking each one if `ack` says so (in a task of its
/// own, as `replay`'s consumer does, so the next delivery is read meanwhile); the
/// instants each arrived.
pub async fn receive(stream: &mut Consumer, n: usize, ack: Ack) -> Result<Vec<Instant>, String> {
    receive_for(stream, n, ack, STEP_TIMEOUT).await
}

/// As [`receive`], but stops once `longest` has passed since the first delivery (the
/// rest stay queued): a slow step is measured over a bounded time.
pub async fn receive_for(
    stream: &mut Consumer,
    n: usize,
    ack: Ack,
    longest: Duration,
) -> Result<Vec<Instant>, String> {
    receive_counted(stream, n, ack, longest, &AtomicUsize::new(0)).await
}

/// As [`receive_for`], counting the deliveries in `got` as they come.
async fn receive_counted(
    stream: &mut Consumer,
    n: usize,
    ack: Ack,
    longest: Duration,
    got: &AtomicUsize,
) -> Result<Vec<Instant>, String> {
    let mut at: Vec<Instant> = Vec::with_capacity(n);
    for _ in 0..n {
        if at.first().is_some_and(|t| t.elapsed() >= longest) {
            break;
        }
        match tokio::time::timeout(STEP_TIMEOUT, stream.next()).await {
            Ok(Some(Ok(d))) => {
                at.push(Instant::now());
                got.fetch_add(1, Ordering::Relaxed);
                if let Ack::Each { .. } = ack {
                    tokio::spawn(async move {
                        let _ = d.acker.ack(BasicAckOptions { multiple: false }).await;
                    });
                }
            }
            _ => return Err("the consumer stopped receiving".into()),
        }
    }
    Ok(at)
}

/// The time from the first to the last of `at`.
pub fn span(at: &[Instant]) -> Duration {
    match (at.first(), at.last()) {
        (Some(a), Some(b)) => b.saturating_duration_since(*a),
        _ => Duration::ZERO,
    }
}

/// Deletes what calibrate declared (also after a failed step).
pub async fn cleanup(url: &str, names: &Names) {
    let Ok(conn) = connect(url).await else { return };
    let p = &names.prefix;
    let drained = DRAINS.iter().flat_map(|d| [d.wait, d.dlq]);
    for q in QUEUES.into_iter().chain(drained) {
        if let Ok(ch) = conn.create_channel().await {
            let _ = ch
                .queue_delete(
                    format!("{p}{q}").as_str().into(),
                    QueueDeleteOptions::default(),
                )
                .await;
        }
    }
    for x in std::iter::once(DLX).chain(DRAINS.iter().map(|d| d.dlx)) {
        if let Ok(ch) = conn.create_channel().await {
            let _ = ch
                .exchange_delete(
                    format!("{p}{x}").as_str().into(),
                    ExchangeDeleteOptions::default(),
                )
                .await;
        }
    }
    let _ = conn.close(200, "OK".into()).await;
}
