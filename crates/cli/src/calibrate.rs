//! `delaylab calibrate --amqp URL [--out FILE] [--broker V] [--queue-type classic|quorum]`:
//! measures a live RabbitMQ with short, bounded runs and writes a cost profile
//! (`delaylab_engine::costs::CostProfile`) for `--costs FILE` and a scenario's `costs` field.
//!
//! The runs use the client `delaylab replay` uses (lapin, one publishing channel with
//! confirms and up to `WINDOW` in flight; consumers no-ack, or acking each delivery), so a
//! profile calibrated here predicts what `replay` sees on that broker. Every queue is of
//! the `--queue-type` calibrated (`runs.rs`), and the figures go to that type's fields:
//!
//! ```text
//! 1 publish      N publishes with confirms                       -> publish_us
//! 2 dead-letter  a head (TTL >= MIN_HEAD_TTL_MS), N overdue       (reported; the
//!                behind, DLX fanout -> DLQ, no consumer; time     fallback of
//!                from the head's expiry until the DLQ holds them  dead_letter_us)
//!                all (passive declares)
//! 3 delivery     one no-ack consumer drains the DLQ's N            (reported)
//! 4 drain        a no-ack consumer, 40,000 released behind a head  -> delivery_us
//!                on fresh queues, its shape (figures.rs)
//! 5 manual ack   the same with a consumer that acks each delivery -> collect_us,
//!                (prefetch 1,000), on queues of its own; when the    dead_letter_us,
//!                burst was all in its queue (what it got + what    enqueue_us, ack_us
//!                the queue holds, polled)
//! 6 prefetch 1   the same with P1 messages to a consumer with      -> round_trip_us
//!                prefetch 1 that acks each: every delivery waits   (beyond delivery
//!                for the previous ack, one round trip (10 s at     and ack)
//!                most), on fresh queues of its own
//! 7 expiry       lone messages with a 700 ms TTL, one every 50 ms, -> *_expiry_late_ms
//!                dead-lettered to step 3's consumer: how late each
//!                arrives (10th to 90th percentile)
//! ```
//! classic fills `publish_us`, `dead_letter_us`, `delivery_us`, `ack_us`, `collect_us`,
//! `enqueue_us`, `classic_expiry_late_ms`; quorum the `quorum_` fields of the same; both
//! `round_trip_us`.
//!
//! Why the fed drains' shape and not their averages (issue 28 item 6): a burst released
//! behind a head does not drain at one pace. It starts late (the wait queue collects the
//! whole expired run before the first dead letter: `costs::collect`), goes slowly while
//! the burst is dead-lettered into the consumer's queue (that queue's process takes each
//! arrival, and the dead-lettering queue takes a core: `costs::arrival`), then fast. A
//! model calibrated on the average (the last costs work: the consumer's cost was the fed
//! drain's mean) sent the first half of a manual-ack drain out too early: p50 0.97 s
//! against 1.50 s live in a drain of about 2.2 s. Dead-lettering is timed in step 5 with
//! the consumer at work (twice as slow as step 2's alone on a busy machine: they share the
//! cores), so that the model's arrivals last what they lasted live.
//!
//! Why steps 4 to 6 and not step 3 set the consumer's cost: on the broker the
//! dead-letterer and the consumer share the machine's cores with each other and with the
//! client. broker-costs.md saw it (section 1: the DLQ filled at 30-43k msg/s alone, "with
//! the consumer attached the same burst delivered 9.8k msg/s"). Step 3 alone swings with
//! the machine's load; the fed drain, the case delayed messaging lives on, is what
//! `replay` sees.
//!
//! Everything it declares has a unique prefix and is deleted at the end. Figures it
//! cannot measure here (persistent classic rates, the other queue type, the plugin, which
//! the Debian broker does not ship) keep the built-in `measured` profile's values for
//! `--broker` (3.10 by default), and the printout says so.

mod figures;
mod fit;
mod runs;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use delaylab_engine::version::BrokerVersion;

use crate::replay::names::Names;
use figures::{percentile, Figures, Shape};
use runs::{Ack, STEP_TIMEOUT};

pub use runs::QueueType;

/// Messages per burst: large enough that a run lasts about a second.
const BURST: usize = 20_000;
/// Messages in steps 4 and 5's bursts: the size broker-costs.md and the costs check
/// release behind a head. A fed drain has a start (the head's expiry timer, the first
/// dead-letterings) that a smaller burst over-weights: 20,000 drained at 14k msg/s where
/// 40,000 went at 19k.
const DRAIN_BURST: usize = 40_000;
/// The head every burst message waits behind: at least this, and at least four times the
/// time step 1 took to publish a burst (so the burst is all in before the head expires,
/// even when the shared machine slows down meanwhile).
const MIN_HEAD_TTL_MS: u64 = 5_000;
const HEAD_TTL_PER_PUBLISH_TIME: u64 = 4;
/// Step 6: messages drained one round trip at a time (a second or two's worth). Fed by
/// dead-lettering too: while the broker dead-letters a burst, a consumer that waits for
/// each round trip gets far fewer of them than from a standing queue (live: a few hundred
/// a second for seconds, then thousands), and that is the case the costs check replays.
const P1_COUNT: usize = 20_000;
/// ... measured over at most this long (a quorum queue on a busy machine took 184 a
/// second: 20,000 would take minutes).
const P1_LONGEST: Duration = Duration::from_secs(10);
/// Step 7: lone messages, their TTL, and the gap between two (wider than any lateness,
/// so each expires alone).
const EXPIRY_SAMPLES: usize = 20;
const EXPIRY_TTL_MS: u64 = 700;
const EXPIRY_GAP: Duration = Duration::from_millis(50);
/// The steps of the module doc's table.
const STEPS: u32 = 7;

pub fn main(url: &str, out: Option<&str>, broker: BrokerVersion, qt: QueueType) -> ExitCode {
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
        // On a worker thread, as `replay`'s consumers run (tokio::spawn): the same client
        // shape as the runs it predicts.
        let (u, n) = (url.to_string(), names.clone());
        let task = tokio::spawn(async move { measure(&u, &n, qt).await });
        let r = tokio::time::timeout(STEPS * STEP_TIMEOUT, task).await;
        runs::cleanup(url, &names).await;
        match r {
            Ok(Ok(figures)) => figures,
            Ok(Err(e)) => Err(format!("the calibration task failed: {e}")),
            Err(_) => Err("calibration took too long".into()),
        }
    });
    let figures = match result {
        Ok(f) => f,
        Err(e) => {
            eprintln!("calibrate: {e}");
            return ExitCode::from(1);
        }
    };
    let profile = figures.profile(broker);
    print!("{}", figures.report(broker));
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

async fn measure(url: &str, names: &Names, qt: QueueType) -> Result<Figures, String> {
    let conn = runs::connect(url).await?;
    let ch = conn.create_channel().await.map_err(runs::err("channel"))?;
    ch.confirm_select(Default::default())
        .await
        .map_err(runs::err("confirm.select"))?;
    let n = |q: &str| format!("{}{q}", names.prefix);
    let (ingress, wait, dlx, dlq) = (n("cal.ingress"), n("cal.wait"), n(runs::DLX), n("cal.dlq"));

    // 1. publish rate with confirms
    runs::declare(&ch, qt, &ingress, None).await?;
    let t = Instant::now();
    runs::publish(&ch, &ingress, BURST, None).await?;
    let publish_time = t.elapsed();
    let publish_per_s = BURST as f64 / publish_time.as_secs_f64();
    eprintln!("calibrate: 1 publish: {BURST} in {publish_time:?}");
    let head_ttl_ms =
        MIN_HEAD_TTL_MS.max(HEAD_TTL_PER_PUBLISH_TIME * publish_time.as_millis() as u64);
    ch.queue_delete(ingress.as_str().into(), Default::default())
        .await
        .map_err(runs::err("queue.delete"))?;

    // 2. dead-lettering of a burst released at once behind a head
    runs::declare_dlq(&ch, qt, &dlx, &dlq).await?;
    runs::declare(&ch, qt, &wait, Some(&dlx)).await?;
    let released = runs::release_burst(&ch, &wait, head_ttl_ms, BURST).await?;
    let poll = conn.create_channel().await.map_err(runs::err("channel"))?;
    let filled = runs::filled(&poll, &dlq, BURST).await?;
    let dead_letter_time = filled.saturating_duration_since(released);
    let dead_letter_per_s = (BURST + 1) as f64 / dead_letter_time.as_secs_f64().max(1e-3);
    eprintln!(
        "calibrate: 2 dead-letter: {} in {dead_letter_time:?}",
        BURST + 1
    );

    // 3. delivery rate: a no-ack consumer drains the DLQ
    let runs::Consuming {
        conn: conn3,
        mut stream,
    } = runs::consume(url, &dlq, Ack::Auto).await?;
    let delivery_time = runs::span(&runs::receive(&mut stream, BURST + 1, Ack::Auto).await?);
    let delivery_per_s = BURST as f64 / delivery_time.as_secs_f64().max(1e-3);
    eprintln!("calibrate: 3 delivery: {BURST} in {delivery_time:?}");

    // 4. the drain: a no-ack consumer fed by a burst released behind a head; timed from
    // the first delivery to the last, as the costs check times a drain. Steps 4 to 6 each
    // run on fresh queues, as a replay's are (`runs::Drains`).
    let drains = runs::Drains {
        ch: &ch,
        url,
        qt,
        prefix: &names.prefix,
    };
    let fed = runs::Burst {
        head_ttl_ms: head_ttl_ms * (DRAIN_BURST / BURST) as u64,
        n: DRAIN_BURST,
    };
    let drain = drains.run(runs::FED, fed, Ack::Auto, STEP_TIMEOUT).await?;
    eprintln!("calibrate: 4 drain: {}", drain.shape());
    let drain = Shape::of(&drain);

    // 5. the same drain to a consumer that acks each delivery (prefetch 1,000)
    let each = Ack::Each { prefetch: 1_000 };
    let manual = drains.run(runs::MANUAL, fed, each, STEP_TIMEOUT).await?;
    eprintln!("calibrate: 5 manual ack: {}", manual.shape());
    let manual = Shape::of(&manual);

    // 6. prefetch 1, fed the same way: each delivery waits for the previous one's ack
    let one = Ack::Each { prefetch: 1 };
    let burst = runs::Burst {
        head_ttl_ms,
        n: P1_COUNT,
    };
    let p1 = drains.run(runs::PREFETCH1, burst, one, P1_LONGEST).await?;
    eprintln!("calibrate: 6 prefetch 1: {}", p1.shape());
    let prefetch1 = Shape::of(&p1);

    // 7. expiry lateness: lone messages into the (empty) wait queue, step 3's consumer
    // receiving them as they come
    let receiver =
        tokio::spawn(async move { runs::receive(&mut stream, EXPIRY_SAMPLES, Ack::Auto).await });
    let ttl = EXPIRY_TTL_MS.to_string();
    let mut sent = Vec::with_capacity(EXPIRY_SAMPLES);
    for _ in 0..EXPIRY_SAMPLES {
        sent.push(Instant::now());
        runs::publish(&ch, &wait, 1, Some(&ttl)).await?;
        tokio::time::sleep(EXPIRY_GAP).await;
    }
    let arrived = receiver
        .await
        .map_err(|e| format!("the expiry receiver failed: {e}"))??;
    let expiry_late_ms: Vec<f64> = sent
        .iter()
        .zip(&arrived)
        .map(|(s, a)| a.saturating_duration_since(*s).as_secs_f64() * 1e3 - EXPIRY_TTL_MS as f64)
        .collect();
    eprintln!(
        "calibrate: 7 expiry: {EXPIRY_SAMPLES} lone {EXPIRY_TTL_MS} ms TTLs, late {:.1}-{:.1} ms",
        percentile(&expiry_late_ms, 0),
        percentile(&expiry_late_ms, 100)
    );
    let _ = conn3.close(200, "OK".into()).await;
    let _ = conn.close(200, "OK".into()).await;
    Ok(Figures {
        queue_type: qt,
        publish_per_s,
        dead_letter_per_s,
        delivery_per_s,
        drain,
        manual,
        prefetch1,
        prefetch1_burst: P1_COUNT as u64,
        expiry_late_ms,
    })
}
