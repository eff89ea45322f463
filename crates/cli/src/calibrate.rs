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
//! 2 dead-letter  a head (TTL >= MIN_HEAD_TTL_MS), N overdue       -> dead_letter_us
//!                behind, DLX fanout -> DLQ; time from the head's
//!                expiry until the DLQ holds them all (passive declares)
//! 3 delivery     one no-ack consumer drains the DLQ's N            (reported)
//! 4 drain        a no-ack consumer, 40,000 released behind a head  -> delivery_us
//!                on fresh queues: from its first delivery to its last
//! 5 manual ack   the same with a consumer that acks each delivery -> ack_us (beyond
//!                (prefetch 1,000), on a wait queue and DLQ of its    delivery_us)
//!                own
//! 6 prefetch 1   the same with P1 messages to a consumer with      -> round_trip_us
//!                prefetch 1 that acks each: every delivery waits   (beyond delivery
//!                for the previous ack, one round trip (10 s at     and ack)
//!                most), on fresh queues of its own
//! 7 expiry       lone messages with a 700 ms TTL, one every 50 ms, -> *_expiry_late_ms
//!                dead-lettered to step 3's consumer: how late each
//!                arrives (10th to 90th percentile)
//! ```
//! classic fills `publish_us`, `dead_letter_us`, `delivery_us`, `ack_us`,
//! `classic_expiry_late_ms`; quorum fills `quorum_publish_us`, `quorum_dead_letter_us`,
//! `quorum_delivery_us`, `quorum_ack_us`, `quorum_expiry_late_ms`; both `round_trip_us`.
//!
//! Why step 4 sets the consumer's cost and not step 3: the model's dead-letterer and
//! consumer are independent servers (a burst drains at the slower one's pace), but on the
//! broker they share the machine's cores with each other and with the client. broker-costs.md
//! saw it (section 1: the DLQ filled at 30-43k msg/s alone, "with the consumer attached the
//! same burst delivered 9.8k msg/s"), and so did the live costs check: a consumer that
//! drained a standing queue at 20-35k msg/s took 40,000 released behind a head at a steady
//! 19-21k msg/s (1.93 s and 2.06 s in two runs whose step 3 differed by 1.7x). Step 3 alone
//! swings with the machine's load; the fed drain, the case delayed messaging lives on, is
//! what `replay` sees. So the consumer's cost is the slower of the two; step 5 is fed the
//! same way, so a manual-ack consumer's extra is measured where it matters.
//!
//! Everything it declares has a unique prefix and is deleted at the end. Figures it
//! cannot measure here (persistent classic rates, the other queue type, the plugin, which
//! the Debian broker does not ship) keep the built-in `measured` profile's values for
//! `--broker` (3.10 by default), and the printout says so.

mod runs;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use delaylab_engine::costs::CostProfile;
use delaylab_engine::version::BrokerVersion;

use crate::replay::names::Names;
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

/// What the runs measured, in messages per second, microseconds and milliseconds.
struct Figures {
    queue_type: QueueType,
    publish_per_s: f64,
    dead_letter_per_s: f64,
    delivery_per_s: f64,
    /// Step 4: deliveries per second to a no-ack consumer fed by a dead-lettering burst.
    drain_per_s: f64,
    /// Step 5: the same to a consumer that acks each delivery (prefetch 1,000).
    manual_drain_per_s: f64,
    /// Step 6: deliveries per second with prefetch 1, acking each.
    prefetch1_per_s: f64,
    /// Step 7: how late each lone message arrived after its TTL, ms.
    expiry_late_ms: Vec<f64>,
}

/// One figure beside broker-costs.md's range (if it has one), and why it may lie outside.
fn line(what: &str, value: f64, unit: &str, range: Option<(f64, f64)>, why_not: &str) -> String {
    let Some(range) = range else {
        return format!(
            "{what:<22} {value:>9.0} {unit:<6} broker-costs.md: no figure ({why_not})\n"
        );
    };
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

/// The `p`-th percentile of `v` (sorted), by nearest rank.
fn percentile(v: &[f64], p: usize) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let i = (s.len() * p).div_ceil(100).max(1) - 1;
    s.get(i).copied().unwrap_or(0.0)
}

impl Figures {
    fn us(per_s: f64) -> u32 {
        (1e6 / per_s.max(1.0)).round() as u32
    }

    /// The expiry lateness range: the 10th to the 90th percentile, whole ms.
    fn expiry_range(&self) -> (u32, u32) {
        let lo = percentile(&self.expiry_late_ms, 10).max(0.0).floor() as u32;
        let hi = percentile(&self.expiry_late_ms, 90).max(0.0).round() as u32;
        (lo.min(1000), hi.clamp(lo, 1000))
    }

    fn profile(&self, broker: BrokerVersion) -> CostProfile {
        // The slower of a standing queue's drain and a fed one's (the module doc says why).
        let delivery_us = Self::us(self.delivery_per_s.min(self.drain_per_s));
        let ack_us = Self::us(self.manual_drain_per_s).saturating_sub(delivery_us);
        let round_trip_us = Self::us(self.prefetch1_per_s).saturating_sub(delivery_us + ack_us);
        let mut p = CostProfile::measured_for(broker);
        p.source = format!(
            "calibrated ({} queues): publish {:.0}/s, dead-letter {:.0}/s, delivery {:.0}/s ({:.0}/s fed by dead-lettering, {:.0}/s acking each), prefetch 1 {:.0}/s",
            self.queue_type.as_str(),
            self.publish_per_s,
            self.dead_letter_per_s,
            self.delivery_per_s,
            self.drain_per_s,
            self.manual_drain_per_s,
            self.prefetch1_per_s,
        );
        p.round_trip_us = round_trip_us;
        let expiry = self.expiry_range();
        match self.queue_type {
            QueueType::Classic => {
                p.publish_us = Self::us(self.publish_per_s);
                p.dead_letter_us = Self::us(self.dead_letter_per_s);
                p.delivery_us = delivery_us;
                p.ack_us = ack_us;
                p.classic_expiry_late_ms = expiry;
            }
            QueueType::Quorum => {
                p.quorum_publish_us = Self::us(self.publish_per_s);
                p.quorum_dead_letter_us = Self::us(self.dead_letter_per_s);
                p.quorum_delivery_us = delivery_us;
                p.quorum_ack_us = ack_us;
                p.quorum_expiry_late_ms = expiry;
            }
        }
        p
    }

    fn report(&self, broker: BrokerVersion) -> String {
        let classic = self.queue_type == QueueType::Classic;
        // broker-costs.md measured classic queues on 3.10.8 (and a quorum queue's expiry).
        let doc = |r: (f64, f64)| (classic && broker == BrokerVersion::V3_10).then_some(r);
        let mut s = format!(
            "calibrate: measured on this broker (RabbitMQ {}, {} queues, lapin client, 20-byte messages)\n",
            broker.as_str(),
            self.queue_type.as_str()
        );
        s += &line(
            "publish (confirms)",
            self.publish_per_s,
            "msg/s",
            doc((14_800.0, 20_800.0)),
            "broker-costs.md used pika with a window of 1,000 on 3.10.8's classic queues; this is lapin with 500, as replay publishes",
        );
        s += &line(
            "dead-lettering",
            self.dead_letter_per_s,
            "msg/s",
            doc((30_000.0, 43_000.0)),
            "a burst of 20,000 (the doc's was 100,000) on a machine shared with other work",
        );
        s += &line(
            "delivery (no-ack)",
            self.delivery_per_s,
            "msg/s",
            doc((10_200.0, 13_000.0)),
            "broker-costs.md's consumer was pika with manual acks; this one is lapin with no-ack, as replay consumes",
        );
        s += &line(
            "delivery fed by DLX",
            self.drain_per_s,
            "msg/s",
            doc((9_800.0, 9_800.0)),
            "broker-costs.md's one figure is pika with manual acks (9.8k msg/s for 100,000); this is lapin with no-ack",
        );
        s += &line(
            "fed, acking each",
            self.manual_drain_per_s,
            "msg/s",
            None,
            "broker-costs.md's consumer acked every 100 with multiple; this one acks each (prefetch 1,000)",
        );
        s += &line(
            "prefetch 1, acking",
            self.prefetch1_per_s,
            "msg/s",
            None,
            "one delivery per round trip",
        );
        let (lo, hi) = self.expiry_range();
        let quorum_doc = (!classic).then_some((3.0, 9.0));
        s += &line(
            "expiry late (p10)",
            f64::from(lo),
            "ms",
            quorum_doc.or(doc((1.0, 2.0))),
            "a lone TTL's lateness includes a publish and a delivery here",
        );
        s += &line(
            "expiry late (p90)",
            f64::from(hi),
            "ms",
            quorum_doc.or(doc((1.0, 2.0))),
            "a lone TTL's lateness includes a publish and a delivery here",
        );
        let other = if classic { "quorum" } else { "classic" };
        s += &format!(
            "not measured here (kept from the built-in measured profile for {}): persistent classic rates, {other} queues, the plugin\n",
            broker.as_str()
        );
        s
    }
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
    let drain_time = runs::span(&drain);
    let drain_per_s = DRAIN_BURST as f64 / drain_time.as_secs_f64().max(1e-3);
    eprintln!("calibrate: 4 drain: {} in {drain_time:?}", DRAIN_BURST + 1);

    // 5. the same drain to a consumer that acks each delivery (prefetch 1,000)
    let each = Ack::Each { prefetch: 1_000 };
    let manual_time = runs::span(&drains.run(runs::MANUAL, fed, each, STEP_TIMEOUT).await?);
    let manual_drain_per_s = DRAIN_BURST as f64 / manual_time.as_secs_f64().max(1e-3);
    eprintln!(
        "calibrate: 5 manual ack: {} in {manual_time:?}",
        DRAIN_BURST + 1
    );

    // 6. prefetch 1, fed the same way: each delivery waits for the previous one's ack
    let one = Ack::Each { prefetch: 1 };
    let burst = runs::Burst {
        head_ttl_ms,
        n: P1_COUNT,
    };
    let p1 = drains.run(runs::PREFETCH1, burst, one, P1_LONGEST).await?;
    let p1_time = runs::span(&p1);
    let prefetch1_per_s = (p1.len() - 1) as f64 / p1_time.as_secs_f64().max(1e-3);
    eprintln!("calibrate: 6 prefetch 1: {} in {p1_time:?}", p1.len());

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
        drain_per_s,
        manual_drain_per_s,
        prefetch1_per_s,
        expiry_late_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(qt: QueueType, delivery_per_s: f64, drain_per_s: f64) -> Figures {
        Figures {
            queue_type: qt,
            publish_per_s: 20_000.0,
            dead_letter_per_s: 40_000.0,
            delivery_per_s,
            drain_per_s,
            manual_drain_per_s: 12_500.0,
            prefetch1_per_s: 2_500.0,
            expiry_late_ms: (0..20).map(|i| 1.0 + f64::from(i) / 10.0).collect(),
        }
    }

    #[test]
    fn the_consumer_costs_what_the_slower_drain_took() {
        // A standing queue drained at 35k/s, a fed one at 20k/s: replay sees the fed one.
        let p = figures(QueueType::Classic, 35_000.0, 20_000.0).profile(BrokerVersion::V3_10);
        assert_eq!(p.delivery_us, 50);
        assert_eq!(p.dead_letter_us, 25);
        assert_eq!(p.publish_us, 50);
        // Acking each: 80 us a delivery, 30 beyond a no-ack one.
        assert_eq!(p.ack_us, 30);
        // Prefetch 1: 400 us a delivery, of which 80 the delivery and its ack.
        assert_eq!(p.round_trip_us, 320);
        // 1.0 .. 2.9 ms late: p10 1.1 -> 1, p90 2.7 -> 3.
        assert_eq!(p.classic_expiry_late_ms, (1, 3));
        // And when the standing drain is the slower one, it counts.
        let slow = figures(QueueType::Classic, 10_000.0, 20_000.0);
        assert_eq!(slow.profile(BrokerVersion::V3_10).delivery_us, 100);
    }

    #[test]
    fn a_quorum_calibration_fills_the_quorum_fields_only() {
        let base = CostProfile::measured_for(BrokerVersion::V4_3);
        let p = figures(QueueType::Quorum, 35_000.0, 20_000.0).profile(BrokerVersion::V4_3);
        assert_eq!(p.quorum_publish_us, 50);
        assert_eq!(p.quorum_dead_letter_us, 25);
        assert_eq!(p.quorum_delivery_us, 50);
        assert_eq!(p.quorum_ack_us, 30);
        assert_eq!(p.quorum_expiry_late_ms, (1, 3));
        assert_eq!(p.round_trip_us, 320);
        assert_eq!(
            (
                p.publish_us,
                p.delivery_us,
                p.ack_us,
                p.classic_expiry_late_ms
            ),
            (
                base.publish_us,
                base.delivery_us,
                base.ack_us,
                base.classic_expiry_late_ms
            )
        );
    }

    #[test]
    fn the_report_names_every_measured_figure() {
        let r = figures(QueueType::Classic, 35_000.0, 20_000.0).report(BrokerVersion::V3_10);
        for what in [
            "publish (confirms)",
            "dead-lettering",
            "delivery (no-ack)",
            "delivery fed by DLX",
            "fed, acking each",
            "prefetch 1, acking",
            "expiry late (p10)",
        ] {
            assert!(r.contains(what), "{what} missing from:\n{r}");
        }
        let q = figures(QueueType::Quorum, 35_000.0, 20_000.0).report(BrokerVersion::V4_3);
        assert!(q.contains("4.3, quorum queues"), "{q}");
        assert!(q.contains("no figure"), "{q}");
    }
}
