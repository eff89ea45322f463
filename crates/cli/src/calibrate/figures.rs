//! What calibrate's runs measured, and the cost profile they give.
//!
//! A fed drain (steps 4 to 6: a burst released behind a head, dead-lettered to the
//! consumer's queue) is read by its shape ([`Shape`]), not its average alone:
//!
//! ```text
//!   head expires   first delivery                       burst all in      last
//!   |-- start ------|-- while the burst arrives: slow --|-- tail: steady --|
//!   start  - a lone message's lateness = collecting the run   -> collect_us / message
//!   tail   (the last quarter, per delivery)                     -> delivery_us, ack_us
//!   span   = n x (enqueue + tail) in the model's arrivals       -> enqueue_us
//! ```
//!
//! The model's queue takes each arrival on its consumers' clock (`costs::arrival`), so a
//! drain of n fed messages lasts n x (enqueue_us + the delivery's cost): what the span
//! takes beyond its steady tail is the arrivals' share. Step 5 (the consumer users write:
//! manual acks, prefetch 1,000) gives it; step 4 (no-ack) is reported beside it.

use delaylab_engine::costs::CostProfile;
use delaylab_engine::version::BrokerVersion;

use super::fit;
use super::runs::{Drain, QueueType};

/// What the runs measured, in messages per second, microseconds and milliseconds.
pub struct Figures {
    pub queue_type: QueueType,
    pub publish_per_s: f64,
    pub dead_letter_per_s: f64,
    /// Step 3: a standing queue drained by a no-ack consumer (reported).
    pub delivery_per_s: f64,
    /// Step 4: a no-ack consumer fed by a dead-lettering burst.
    pub drain: Shape,
    /// Step 5: the same to a consumer that acks each delivery (prefetch 1,000).
    pub manual: Shape,
    /// Step 6: prefetch 1, acking each, and the burst it was fed (it may stop early).
    pub prefetch1: Shape,
    pub prefetch1_burst: u64,
    /// Step 7: how late each lone message arrived after its TTL, ms.
    pub expiry_late_ms: Vec<f64>,
}

/// The shape of a fed drain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// Deliveries received (the head and the burst).
    pub n: usize,
    /// From the head's expiry to the first delivery, ms.
    pub start_ms: f64,
    /// From the first delivery to the last, s.
    pub span_s: f64,
    /// From the first delivery until the burst was all dead-lettered (the wait queue
    /// found empty), s, and how many were delivered by then; None if not told.
    pub arriving: Option<(f64, usize)>,
    /// Per delivery over the last quarter, us.
    pub tail_us: f64,
}

/// The last quarter of a drain: late enough that the burst is all in the consumer's
/// queue (a burst arrives in 0.3-0.5 of a fed drain here), long enough to average over
/// thousands of deliveries. Used where the end of the arrivals was not told.
const TAIL_SHARE: f64 = 0.25;

impl Shape {
    pub fn of(d: &Drain) -> Shape {
        let n = d.at.len();
        let (Some(first), Some(last)) = (d.at.first(), d.at.last()) else {
            return Shape {
                n,
                start_ms: 0.0,
                span_s: 0.0,
                arriving: None,
                tail_us: 0.0,
            };
        };
        let from = ((n as f64 * (1.0 - TAIL_SHARE)) as usize).min(n - 1);
        let tail = last.saturating_duration_since(d.at[from]).as_secs_f64();
        let arriving = d.dead_lettered.map(|t| {
            let by = d.at.iter().filter(|a| **a <= t).count();
            (t.saturating_duration_since(*first).as_secs_f64(), by)
        });
        Shape {
            n,
            start_ms: first.saturating_duration_since(d.released).as_secs_f64() * 1e3,
            span_s: last.saturating_duration_since(*first).as_secs_f64(),
            arriving,
            tail_us: tail * 1e6 / (n - 1 - from).max(1) as f64,
        }
    }

    /// Per delivery over the whole drain, us.
    pub fn mean_us(&self) -> f64 {
        self.span_s * 1e6 / (self.n.max(2) - 1) as f64
    }

    pub fn per_s(&self) -> f64 {
        1e6 / self.mean_us().max(1e-3)
    }

    /// The arrivals' phase, when told and inside the drain: (s, delivered by its end).
    fn phase(&self) -> Option<(f64, usize)> {
        self.arriving
            .filter(|(s, by)| *s > 0.0 && *s < self.span_s && *by < self.n)
    }

    /// Per delivery once the burst is all in (the queue's steady pace), us.
    pub fn steady_us(&self) -> f64 {
        match self.phase() {
            Some((s, by)) => (self.span_s - s) * 1e6 / (self.n - by) as f64,
            None => self.tail_us,
        }
    }

    /// Per message dead-lettered into the consumer's queue while it consumed, us.
    pub fn dead_letter_us(&self) -> Option<f64> {
        self.phase().map(|(s, _)| s * 1e6 / self.n as f64)
    }

    /// The share of the steady pace the consumer got while the burst arrived.
    pub fn share(&self) -> Option<f64> {
        self.phase()
            .map(|(s, by)| (by as f64 * self.steady_us() / (s * 1e6)).clamp(0.0, 1.0))
    }

    /// What each arrival cost the consumer's queue (`costs::arrival`): the part of each
    /// dead-lettering's time its consumer did not get; without the end of the arrivals,
    /// the mean beyond the steady tail.
    pub fn enqueue_us(&self) -> f64 {
        match (self.share(), self.dead_letter_us()) {
            (Some(share), Some(dl)) => (1.0 - share) * dl,
            _ => (self.mean_us() - self.tail_us).max(0.0),
        }
    }
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

/// The `p`-th percentile of `v`, by nearest rank.
pub fn percentile(v: &[f64], p: usize) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let i = (s.len() * p).div_ceil(100).max(1) - 1;
    s.get(i).copied().unwrap_or(0.0)
}

fn us(per_s: f64) -> u32 {
    (1e6 / per_s.max(1.0)).round() as u32
}

fn whole(us: f64) -> u32 {
    us.max(0.0).round() as u32
}

impl Figures {
    /// The expiry lateness range: the 10th to the 90th percentile, whole ms.
    fn expiry_range(&self) -> (u32, u32) {
        let lo = percentile(&self.expiry_late_ms, 10).max(0.0).floor() as u32;
        let hi = percentile(&self.expiry_late_ms, 90).max(0.0).round() as u32;
        (lo.min(1000), hi.clamp(lo, 1000))
    }

    /// Collecting one expired message: the manual-ack drain's start beyond a lone
    /// message's lateness (its timer, dead-lettering and delivery), over the run it
    /// collected. (A no-ack consumer of a quorum queue starts later still, 450-550 ms
    /// against 150-180 ms on 4.3.6: step 4's start is reported, not used.)
    fn collect_us(&self) -> f64 {
        let lone_ms = percentile(&self.expiry_late_ms, 50);
        let run = self.manual.n.max(1) as f64;
        ((self.manual.start_ms - lone_ms) * 1e3 / run).max(0.0)
    }

    pub fn profile(&self, broker: BrokerVersion) -> CostProfile {
        // The arrivals' cost is the queue's, read where it matters (acking each); a no-ack
        // consumer's delivery is what its fed drain took beyond it, so that the model's
        // drain lasts what the live one did for both.
        let enqueue = self.manual.enqueue_us();
        let delivery = (self.drain.mean_us() - enqueue).max(0.0);
        let manual = self.manual.steady_us().max(delivery);
        // Dead-lettering at the pace it had with the consumer at work (the same cores):
        // the arrivals' phase lasts what it lasted live.
        let dead_letter = self
            .manual
            .dead_letter_us()
            .map_or(us(self.dead_letter_per_s), whole);
        let mut p = CostProfile::measured_for(broker);
        p.source = format!(
            "calibrated ({} queues): publish {:.0}/s, dead-letter {:.0}/s, delivery {:.0}/s ({:.0}/s fed by dead-lettering, {:.0}/s acking each), prefetch 1 {:.0}/s",
            self.queue_type.as_str(),
            self.publish_per_s,
            self.dead_letter_per_s,
            self.delivery_per_s,
            self.drain.per_s(),
            self.manual.per_s(),
            self.prefetch1.per_s(),
        );
        let expiry = self.expiry_range();
        let (collect, enqueue) = (whole(self.collect_us()), whole(enqueue));
        let (delivery, ack) = (whole(delivery), whole(manual - delivery));
        match self.queue_type {
            QueueType::Classic => {
                p.publish_us = us(self.publish_per_s);
                p.dead_letter_us = dead_letter;
                p.delivery_us = delivery;
                p.ack_us = ack;
                p.collect_us = collect;
                p.enqueue_us = enqueue;
                p.classic_expiry_late_ms = expiry;
            }
            QueueType::Quorum => {
                p.quorum_publish_us = us(self.publish_per_s);
                p.quorum_dead_letter_us = dead_letter;
                p.quorum_delivery_us = delivery;
                p.quorum_ack_us = ack;
                p.quorum_collect_us = collect;
                p.quorum_enqueue_us = enqueue;
                p.quorum_expiry_late_ms = expiry;
            }
        }
        // A prefetch-1 round: the delivery and its ack, then the answer's way back, some
        // of it shared with the burst's arrivals: found by running step 6 in the model.
        p.round_trip_us = fit::round_trip_us(
            &p,
            self.queue_type,
            broker,
            self.prefetch1_burst,
            self.prefetch1.n,
            self.prefetch1.span_s * 1e6,
        );
        p
    }

    pub fn report(&self, broker: BrokerVersion) -> String {
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
            self.drain.per_s(),
            "msg/s",
            doc((9_800.0, 9_800.0)),
            "broker-costs.md's one figure is pika with manual acks (9.8k msg/s for 100,000); this is lapin with no-ack",
        );
        s += &line(
            "fed, acking each",
            self.manual.per_s(),
            "msg/s",
            None,
            "broker-costs.md's consumer acked every 100 with multiple; this one acks each (prefetch 1,000)",
        );
        s += &line(
            "prefetch 1, acking",
            self.prefetch1.per_s(),
            "msg/s",
            None,
            "one delivery per round trip",
        );
        for (what, d) in [
            ("fed", &self.drain),
            ("acking each", &self.manual),
            ("prefetch 1", &self.prefetch1),
        ] {
            let arriving = match (d.dead_letter_us(), d.share(), d.phase()) {
                (Some(dl), Some(share), Some((_, by))) => format!(
                    "dead-lettered at {dl:.0} us each, {by} delivered meanwhile ({:.0} % of the steady pace)",
                    share * 100.0
                ),
                _ => "end of the dead-lettering not told".into(),
            };
            s += &format!(
                "  {what:<12} first delivery {:.0} ms after the head's expiry, {:.0} us each on average, {:.0} us once all in; {arriving}\n",
                d.start_ms,
                d.mean_us(),
                d.steady_us(),
            );
        }
        s += &format!(
            "  collecting the expired run: {:.1} us a message; the arrivals, beyond the tail: {:.0} us a message acking each ({:.0} us no-ack)\n",
            self.collect_us(),
            self.manual.enqueue_us(),
            self.drain.enqueue_us(),
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

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use delaylab_engine::report;
    use delaylab_engine::scenario::load_value;
    use serde_json::{json, Value};

    use super::*;

    /// A profile as the model's "broker": what the calibration should find again.
    fn truth() -> Value {
        json!({"publish_us": 0, "collect_us": 2, "dead_letter_us": 28, "enqueue_us": 14,
               "delivery_us": 50, "ack_us": 10, "round_trip_us": 300,
               "classic_expiry_late_ms": [0, 0]})
    }

    /// A fed drain of `n` behind a head expiring at 10 s, run by the engine with `truth`
    /// as calibrate's step would see it live: the instants of every delivery, the
    /// release, and when the burst was all in (the last dead letter: collecting the run,
    /// then dead-lettering it).
    fn drain(n: u64, consumer: Value) -> Drain {
        let mut c = json!({"name": "app", "queue": "due"});
        for (k, v) in consumer.as_object().unwrap() {
            c[k] = v.clone();
        }
        let v = json!({"name": "fed", "until": "60s", "costs": truth(),
            "topology": {
                "exchanges": [{"name": "dlx", "type": "fanout"}],
                "queues": [{"name": "wait", "arguments": {"x-dead-letter-exchange": "dlx"}},
                           {"name": "due"}],
                "bindings": [{"source": "dlx", "destination": "due", "destination_type": "queue"}]},
            "consumers": [c],
            "actions": [
                {"at": "0s", "publish": {"exchange": "", "routing_key": "wait", "body": "head",
                                         "properties": {"expiration": "10000"}}},
                {"at": "1ms", "publish": {"exchange": "", "routing_key": "wait", "body": "m{n}",
                                          "properties": {"expiration": "1000"}},
                 "repeat": {"count": n, "every": "0ms"}}]});
        let out = report::run(&load_value(&v).unwrap());
        let t0 = Instant::now();
        let at = |ms: f64| t0 + Duration::from_secs_f64(ms / 1e3);
        let all_in_ms = 10_000.0 + (n + 1) as f64 * (2.0 + 28.0) / 1e3;
        Drain {
            released: at(10_000.0),
            dead_lettered: Some(at(all_in_ms)),
            at: out["deliveries"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| at(d["delivered_at_ms"].as_f64().unwrap()))
                .collect(),
        }
    }

    fn figures(qt: QueueType) -> Figures {
        Figures {
            queue_type: qt,
            publish_per_s: 20_000.0,
            dead_letter_per_s: 40_000.0,
            delivery_per_s: 30_000.0,
            drain: Shape::of(&drain(40_000, json!({"ack": "auto"}))),
            manual: Shape::of(&drain(40_000, json!({"ack": "manual", "prefetch": 1000}))),
            prefetch1: Shape::of(&drain(2_000, json!({"ack": "manual", "prefetch": 1}))),
            prefetch1_burst: 2_000,
            expiry_late_ms: vec![0.0; 20],
        }
    }

    fn near(what: &str, got: u32, want: u32, within: u32) {
        assert!(
            got.abs_diff(want) <= within,
            "{what}: calibrated {got}, the model's broker has {want}"
        );
    }

    #[test]
    fn a_fed_drain_of_the_model_calibrates_to_the_model() {
        let p = figures(QueueType::Classic).profile(BrokerVersion::V3_10);
        near("collect_us", p.collect_us, 2, 1);
        near("dead_letter_us", p.dead_letter_us, 28, 2);
        near("enqueue_us", p.enqueue_us, 14, 3);
        near("delivery_us", p.delivery_us, 50, 3);
        near("ack_us", p.ack_us, 10, 3);
        near("round_trip_us", p.round_trip_us, 300, 30);
        assert_eq!(p.classic_expiry_late_ms, (0, 0));
        assert_eq!(p.publish_us, 50);
    }

    #[test]
    fn a_quorum_calibration_fills_the_quorum_fields_only() {
        let base = CostProfile::measured_for(BrokerVersion::V4_3);
        let p = figures(QueueType::Quorum).profile(BrokerVersion::V4_3);
        near("quorum_enqueue_us", p.quorum_enqueue_us, 14, 3);
        near("quorum_delivery_us", p.quorum_delivery_us, 50, 3);
        near("quorum_collect_us", p.quorum_collect_us, 2, 1);
        assert_eq!(p.quorum_publish_us, 50);
        assert_eq!(
            (p.publish_us, p.delivery_us, p.enqueue_us, p.collect_us),
            (
                base.publish_us,
                base.delivery_us,
                base.enqueue_us,
                base.collect_us
            )
        );
    }

    #[test]
    fn a_drain_without_the_end_of_its_arrivals_falls_back_on_its_tail() {
        let mut d = drain(40_000, json!({"ack": "manual", "prefetch": 1000}));
        let told = Shape::of(&d);
        d.dead_lettered = None;
        let untold = Shape::of(&d);
        assert_eq!(untold.share(), None);
        // The mean beyond the last quarter's pace: the arrivals' cost, as told.
        assert!((untold.enqueue_us() - told.enqueue_us()).abs() < 3.0);
        assert!((told.share().unwrap() - 0.5).abs() < 0.05, "{told:?}");
    }

    #[test]
    fn the_report_names_every_measured_figure() {
        let r = figures(QueueType::Classic).report(BrokerVersion::V3_10);
        for what in [
            "publish (confirms)",
            "dead-lettering",
            "delivery (no-ack)",
            "delivery fed by DLX",
            "fed, acking each",
            "prefetch 1, acking",
            "collecting the expired run",
            "of the steady pace",
            "expiry late (p10)",
        ] {
            assert!(r.contains(what), "{what} missing from:\n{r}");
        }
        let q = figures(QueueType::Quorum).report(BrokerVersion::V4_3);
        assert!(q.contains("4.3, quorum queues"), "{q}");
        assert!(q.contains("no figure"), "{q}");
    }
}
