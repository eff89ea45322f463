//! `delaylab calibrate --amqp URL [--out FILE]`: measures a live RabbitMQ with short,
//! bounded runs and writes a cost profile (`delaylab_engine::costs::CostProfile`) for
//! `--costs FILE` and a scenario's `costs` field.
//!
//! The runs use the client `delaylab replay` uses (lapin, one publishing channel with
//! confirms and up to `WINDOW` in flight, no-ack consumers), so a profile calibrated
//! here predicts what `replay` sees on that broker:
//!
//! ```text
//! 1 publish   N transient publishes with confirms            -> publish_us
//! 2 dead-letter  a head (TTL >= MIN_HEAD_TTL_MS), N overdue behind, -> dead_letter_us
//!             DLX fanout -> DLQ; time from the head's expiry
//!             until the DLQ holds them all (passive declares)
//! 3 delivery  one no-ack consumer drains the DLQ's N           (reported)
//! 4 drain     that consumer stays; 40,000 are released behind   -> delivery_us
//!             a head: time from its first delivery to its last
//! 5 round trip one message, a manual-ack consumer that nacks    -> round_trip_us
//!             it with requeue, for LOOP_MS
//! ```
//!
//! Why step 4 sets the consumer's cost and not step 3: the model's dead-letterer and
//! consumer are independent servers (a burst drains at the slower one's pace), but on the
//! broker they share the machine's cores with each other and with the client. broker-costs.md
//! saw it (section 1: the DLQ filled at 30-43k msg/s alone, "with the consumer attached the
//! same burst delivered 9.8k msg/s"), and so did the live costs check: a consumer that
//! drained a standing queue at 20-35k msg/s took 40,000 released behind a head at a steady
//! 19-21k msg/s (1.93 s and 2.06 s in two runs whose step 3 differed by 1.7x). Step 3 alone
//! swings with the machine's load; the fed drain, the case delayed messaging lives on, is
//! what `replay` sees. So the consumer's cost is the slower of the two.
//! Everything it declares has a unique prefix and is deleted at the end. Figures it
//! cannot measure here (persistent rates, expiry lateness, the plugin, which the
//! conformance broker does not enable) keep the built-in `measured` profile's values,
//! and the printout says so.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use lapin::options::{
    BasicConsumeOptions, BasicNackOptions, BasicPublishOptions, BasicQosOptions,
    ConfirmSelectOptions, ExchangeDeclareOptions, ExchangeDeleteOptions, QueueBindOptions,
    QueueDeclareOptions, QueueDeleteOptions,
};
use lapin::types::{AMQPValue, FieldTable, LongString};
use lapin::{BasicProperties, Channel, Connection, ConnectionProperties, Consumer, ExchangeKind};

use delaylab_engine::costs::CostProfile;

use crate::replay::names::Names;

/// Messages per burst: large enough that a run lasts about a second.
const BURST: usize = 20_000;
/// Messages in step 4's burst: the size broker-costs.md and the costs check release behind
/// a head. A fed drain has a start (the head's expiry timer, the first dead-letterings)
/// that a smaller burst over-weights: 20,000 drained at 14k msg/s where 40,000 went at 19k.
const DRAIN_BURST: usize = 40_000;
/// Publishes in flight at most (as `replay`).
const WINDOW: usize = 500;
/// The head every burst message waits behind: at least this, and at least four times the
/// time step 1 took to publish a burst (so the burst is all in before the head expires,
/// even when the shared machine slows down meanwhile).
const MIN_HEAD_TTL_MS: u64 = 5_000;
const HEAD_TTL_PER_PUBLISH_TIME: u64 = 4;
/// How long the requeue loop runs.
const LOOP_MS: u64 = 1_000;
/// The longest any one step may take before calibrate gives up.
const STEP_TIMEOUT: Duration = Duration::from_secs(60);
/// The steps of the module doc's table.
const STEPS: u32 = 5;
/// How often the DLQ's depth is asked for.
const POLL: Duration = Duration::from_millis(5);
/// A 20-byte body, as in broker-costs.md.
const BODY: &[u8] = b"delaylab-calibrate-0";

pub fn main(url: &str, out: Option<&str>) -> ExitCode {
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("cannot start the async runtime: {e}");
            return ExitCode::from(1);
        }
    };
    let names = Names::random();
    let result = rt.block_on(async {
        let r = tokio::time::timeout(STEPS * STEP_TIMEOUT, measure(url, &names)).await;
        cleanup(url, &names).await;
        r.unwrap_or_else(|_| Err("calibration took too long".into()))
    });
    let figures = match result {
        Ok(f) => f,
        Err(e) => {
            eprintln!("calibrate: {e}");
            return ExitCode::from(1);
        }
    };
    let profile = figures.profile();
    print!("{}", figures.report());
    let text = serde_json::to_string_pretty(&profile.to_json()).expect("json");
    match out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, format!("{text}\n")) {
                eprintln!("{path}: cannot write: {e}");
                return ExitCode::from(1);
            }
            println!("cost profile written to {path}");
        }
        None => println!("{text}"),
    }
    ExitCode::SUCCESS
}

/// What the runs measured, in messages per second and microseconds.
struct Figures {
    publish_per_s: f64,
    dead_letter_per_s: f64,
    delivery_per_s: f64,
    /// Step 4: deliveries per second to a consumer fed by a dead-lettering burst.
    drain_per_s: f64,
    round_trip_us: f64,
}

/// One figure beside broker-costs.md's range, and why it may lie outside.
fn line(what: &str, value: f64, unit: &str, range: (f64, f64), why_not: &str) -> String {
    let inside = (range.0..=range.1).contains(&value);
    let verdict = if inside {
        "inside".to_string()
    } else {
        format!("outside: {why_not}")
    };
    format!(
        "{what:<22} {value:>9.0} {unit:<6} broker-costs.md {:.0}-{:.0}  {verdict}\n",
        range.0, range.1
    )
}

impl Figures {
    fn profile(&self) -> CostProfile {
        let us = |per_s: f64| (1e6 / per_s.max(1.0)).round() as u32;
        // The slower of a standing queue's drain and a fed one's (the module doc says why).
        let delivery_us = us(self.delivery_per_s.min(self.drain_per_s));
        CostProfile {
            source: format!(
                "calibrated: publish {:.0}/s, dead-letter {:.0}/s, delivery {:.0}/s ({:.0}/s fed by dead-lettering), round trip {:.0} us",
                self.publish_per_s,
                self.dead_letter_per_s,
                self.delivery_per_s,
                self.drain_per_s,
                self.round_trip_us
            ),
            publish_us: us(self.publish_per_s),
            dead_letter_us: us(self.dead_letter_per_s),
            delivery_us,
            // The loop's round is a delivery plus the answer's trip back.
            round_trip_us: (self.round_trip_us.round() as u32).saturating_sub(delivery_us),
            ..CostProfile::measured()
        }
    }

    fn report(&self) -> String {
        let mut s = String::from(
            "calibrate: measured on this broker (lapin client, 20-byte transient messages)\n",
        );
        s += &line(
            "publish (confirms)",
            self.publish_per_s,
            "msg/s",
            (14_800.0, 20_800.0),
            "broker-costs.md used pika with a window of 1,000; this is lapin with 500, as replay publishes",
        );
        s += &line(
            "dead-lettering",
            self.dead_letter_per_s,
            "msg/s",
            (30_000.0, 43_000.0),
            "a burst of 20,000 (the doc's was 100,000) on a machine shared with other work",
        );
        s += &line(
            "delivery (no-ack)",
            self.delivery_per_s,
            "msg/s",
            (10_200.0, 13_000.0),
            "broker-costs.md's consumer was pika with manual acks; this one is lapin with no-ack, as replay consumes",
        );
        s += &line(
            "delivery fed by DLX",
            self.drain_per_s,
            "msg/s",
            (9_800.0, 9_800.0),
            "broker-costs.md's one figure is pika with manual acks (9.8k msg/s for 100,000); this is lapin with no-ack, as replay consumes",
        );
        s += &line(
            "requeue round trip",
            self.round_trip_us,
            "us",
            (0.0, 1_000.0),
            "broker-costs.md has no figure; a round should stay under 1 ms on loopback",
        );
        s += "not measured here (kept from the built-in measured profile): persistent rates, expiry lateness, the plugin\n";
        s
    }
}

async fn connect(url: &str) -> Result<Connection, String> {
    Connection::connect(
        url,
        ConnectionProperties::default().with_connection_name("delaylab calibrate".into()),
    )
    .await
    .map_err(|e| format!("cannot connect: {e}"))
}

fn err(what: &str) -> impl Fn(lapin::Error) -> String + '_ {
    move |e| format!("{what}: {e}")
}

async fn declare(ch: &Channel, name: &str, args: FieldTable) -> Result<(), String> {
    ch.queue_declare(name.into(), QueueDeclareOptions::default(), args)
        .await
        .map(|_| ())
        .map_err(err("queue.declare"))
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

/// Publishes `n` messages to `queue` through the default exchange, `WINDOW` in flight.
async fn publish(
    ch: &Channel,
    queue: &str,
    n: usize,
    expiration: Option<&str>,
) -> Result<(), String> {
    let mut pending = Vec::with_capacity(WINDOW);
    for _ in 0..n {
        let mut props = BasicProperties::default();
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

async fn measure(url: &str, names: &Names) -> Result<Figures, String> {
    let conn = connect(url).await?;
    let ch = conn.create_channel().await.map_err(err("channel"))?;
    ch.confirm_select(ConfirmSelectOptions::default())
        .await
        .map_err(err("confirm.select"))?;
    let p = &names.prefix;
    let (ingress, wait, dlx, dlq, lp) = (
        format!("{p}cal.ingress"),
        format!("{p}cal.wait"),
        format!("{p}cal.dlx"),
        format!("{p}cal.dlq"),
        format!("{p}cal.loop"),
    );

    // 1. publish rate with confirms
    declare(&ch, &ingress, FieldTable::default()).await?;
    let t = Instant::now();
    publish(&ch, &ingress, BURST, None).await?;
    let publish_time = t.elapsed();
    let publish_per_s = BURST as f64 / publish_time.as_secs_f64();
    eprintln!("calibrate: 1 publish: {BURST} in {publish_time:?}");
    let head_ttl_ms =
        MIN_HEAD_TTL_MS.max(HEAD_TTL_PER_PUBLISH_TIME * publish_time.as_millis() as u64);
    ch.queue_delete(ingress.as_str().into(), QueueDeleteOptions::default())
        .await
        .map_err(err("queue.delete"))?;

    // 2. dead-lettering of a burst released at once behind a head
    ch.exchange_declare(
        dlx.as_str().into(),
        ExchangeKind::Fanout,
        ExchangeDeclareOptions::default(),
        FieldTable::default(),
    )
    .await
    .map_err(err("exchange.declare"))?;
    declare(&ch, &dlq, FieldTable::default()).await?;
    ch.queue_bind(
        dlq.as_str().into(),
        dlx.as_str().into(),
        "".into(),
        QueueBindOptions::default(),
        FieldTable::default(),
    )
    .await
    .map_err(err("queue.bind"))?;
    let mut args = FieldTable::default();
    args.insert(
        "x-dead-letter-exchange".into(),
        AMQPValue::LongString(LongString::from(dlx.as_str())),
    );
    declare(&ch, &wait, args).await?;
    let released = release_burst(&ch, &wait, head_ttl_ms, BURST).await?;
    let poll = conn.create_channel().await.map_err(err("channel"))?;
    let mut filled = None;
    let deadline = Instant::now() + STEP_TIMEOUT;
    while Instant::now() < deadline {
        if depth(&poll, &dlq).await? as usize > BURST {
            filled = Some(Instant::now());
            break;
        }
        tokio::time::sleep(POLL).await;
    }
    let filled = filled.ok_or("the dead-letter queue did not fill in time")?;
    let dead_letter_time = filled.saturating_duration_since(released);
    let dead_letter_per_s = (BURST + 1) as f64 / dead_letter_time.as_secs_f64().max(1e-3);
    eprintln!(
        "calibrate: 2 dead-letter: {} in {dead_letter_time:?}",
        BURST + 1
    );

    // 3. delivery rate: a no-ack consumer drains the DLQ
    let cch = conn.create_channel().await.map_err(err("channel"))?;
    let opts = BasicConsumeOptions {
        no_ack: true,
        ..Default::default()
    };
    let mut stream = cch
        .basic_consume(
            dlq.as_str().into(),
            "cal".into(),
            opts,
            FieldTable::default(),
        )
        .await
        .map_err(err("basic.consume"))?;
    let delivery_time = receive(&mut stream, BURST + 1).await?;
    let delivery_per_s = BURST as f64 / delivery_time.as_secs_f64().max(1e-3);
    eprintln!("calibrate: 3 delivery: {BURST} in {delivery_time:?}");

    // 4. the drain: the same consumer, fed by a second burst released behind a head;
    // timed from the first delivery to the last, as the costs check times a drain
    let drain_head_ttl_ms = head_ttl_ms * (DRAIN_BURST / BURST) as u64;
    release_burst(&ch, &wait, drain_head_ttl_ms, DRAIN_BURST).await?;
    let drain_time = receive(&mut stream, DRAIN_BURST + 1).await?;
    let drain_per_s = DRAIN_BURST as f64 / drain_time.as_secs_f64().max(1e-3);
    eprintln!("calibrate: 4 drain: {} in {drain_time:?}", DRAIN_BURST + 1);
    let _ = cch.close(200, "OK".into()).await;

    // 5. a delivery's round trip: one message nacked with requeue, again and again
    declare(&ch, &lp, FieldTable::default()).await?;
    publish(&ch, &lp, 1, None).await?;
    let lch = conn.create_channel().await.map_err(err("channel"))?;
    lch.basic_qos(1, BasicQosOptions { global: false })
        .await
        .map_err(err("basic.qos"))?;
    let mut stream = lch
        .basic_consume(
            lp.as_str().into(),
            "loop".into(),
            BasicConsumeOptions::default(),
            FieldTable::default(),
        )
        .await
        .map_err(err("basic.consume"))?;
    let start = Instant::now();
    let mut rounds = 0u64;
    while start.elapsed() < Duration::from_millis(LOOP_MS) {
        match tokio::time::timeout(STEP_TIMEOUT, stream.next()).await {
            Ok(Some(Ok(d))) => {
                d.acker
                    .nack(BasicNackOptions {
                        multiple: false,
                        requeue: true,
                    })
                    .await
                    .map_err(err("basic.nack"))?;
                rounds += 1;
            }
            _ => return Err("the requeue loop stopped".into()),
        }
    }
    let round_trip_us = start.elapsed().as_secs_f64() * 1e6 / rounds.max(1) as f64;
    eprintln!(
        "calibrate: 5 round trip: {rounds} rounds in {:?}",
        start.elapsed()
    );
    let _ = lch.close(200, "OK".into()).await;
    let _ = conn.close(200, "OK".into()).await;
    Ok(Figures {
        publish_per_s,
        dead_letter_per_s,
        delivery_per_s,
        drain_per_s,
        round_trip_us,
    })
}

/// Receives `n` deliveries (n >= 1); the time from the first to the last.
async fn receive(stream: &mut Consumer, n: usize) -> Result<Duration, String> {
    let mut first = None;
    for _ in 0..n {
        match tokio::time::timeout(STEP_TIMEOUT, stream.next()).await {
            Ok(Some(Ok(_))) => {
                first.get_or_insert_with(Instant::now);
            }
            _ => return Err("the consumer stopped receiving".into()),
        }
    }
    Ok(first.map_or(Duration::ZERO, |t| t.elapsed()))
}

/// Publishes a head with `head_ttl_ms` and `n` messages with a 1 ms TTL behind it to
/// `wait`; returns the instant the head expires, when all of them are released at once.
async fn release_burst(
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

/// Deletes what calibrate declared (also after a failed step).
async fn cleanup(url: &str, names: &Names) {
    let Ok(conn) = connect(url).await else { return };
    let p = &names.prefix;
    for q in ["cal.ingress", "cal.wait", "cal.dlq", "cal.loop"] {
        if let Ok(ch) = conn.create_channel().await {
            let _ = ch
                .queue_delete(
                    format!("{p}{q}").as_str().into(),
                    QueueDeleteOptions::default(),
                )
                .await;
        }
    }
    if let Ok(ch) = conn.create_channel().await {
        let _ = ch
            .exchange_delete(
                format!("{p}cal.dlx").as_str().into(),
                ExchangeDeleteOptions::default(),
            )
            .await;
    }
    let _ = conn.close(200, "OK".into()).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(delivery_per_s: f64, drain_per_s: f64) -> Figures {
        Figures {
            publish_per_s: 20_000.0,
            dead_letter_per_s: 40_000.0,
            delivery_per_s,
            drain_per_s,
            round_trip_us: 250.0,
        }
    }

    #[test]
    fn the_consumer_costs_what_the_slower_drain_took() {
        // A standing queue drained at 35k/s, a fed one at 20k/s: replay sees the fed one.
        let p = figures(35_000.0, 20_000.0).profile();
        assert_eq!(p.delivery_us, 50);
        assert_eq!(p.dead_letter_us, 25);
        assert_eq!(p.publish_us, 50);
        // A round is a delivery plus the answer's way back.
        assert_eq!(p.round_trip_us, 200);
        // And when the standing drain is the slower one, it counts.
        assert_eq!(figures(10_000.0, 20_000.0).profile().delivery_us, 100);
    }

    #[test]
    fn the_report_names_every_measured_figure() {
        let r = figures(35_000.0, 20_000.0).report();
        for what in [
            "publish (confirms)",
            "dead-lettering",
            "delivery (no-ack)",
            "delivery fed by DLX",
            "requeue round trip",
        ] {
            assert!(r.contains(what), "{what} missing from:\n{r}");
        }
    }
}
