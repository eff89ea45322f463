//! A cost profile: what each costed step of the broker takes, with its source.
//!
//! [`CostProfile::measured`] is broker-costs.md's RabbitMQ 3.10.8 on 2 vCPU (Python pika
//! clients, 20-byte bodies); [`CostProfile::measured_4_3`] (`measured_4_3.rs`) is RabbitMQ
//! 4.3.6 with quorum queues, calibrated here; [`CostProfile::measured_for`] picks one by
//! the scenario's broker. `delaylab calibrate` writes the same fields, measured on the
//! broker at hand, as JSON (see [`CostProfile::to_json`]). Every figure is a mean time per
//! step in microseconds, or a range of milliseconds. Classic and quorum queues have
//! figures of their own for what differs between them: a publish (a quorum queue appends
//! to its Raft log), a dead-lettering, a delivery and an ack, the expiry timer.

use serde_json::{json, Value};

use crate::version::BrokerVersion;

/// One publish taken by the channel, transient: 1e6 / 17,500 msg/s (the middle of the
/// measured 14.8k-20.8k msg/s with confirms, broker-costs.md section 1).
const PUBLISH_US: u32 = 57;
/// Persistent: 1e6 / 9,300 msg/s (8.6k-10.1k).
const PERSISTENT_PUBLISH_US: u32 = 107;
/// Dead-lettering one expired message: 1e6 / 36,000 msg/s (30k-43k msg/s transient).
const DEAD_LETTER_US: u32 = 28;
/// Persistent: 1e6 / 11,500 msg/s.
const PERSISTENT_DEAD_LETTER_US: u32 = 87;
/// One delivery to one consumer (prefetch 1,000, acks every 100): 1e6 / 11,500 msg/s
/// (the DLQ delivery rate, 10.2k-13.0k msg/s).
const DELIVERY_US: u32 = 87;
/// What a consumer that acks each delivery (`basic.ack` per message, the seed articles'
/// consumer) adds per delivery: broker-costs.md's consumer acked every 100 with
/// `multiple`, so it has no figure. Issue 23's live run on 3.10.8 (idle machine): 40,000
/// released behind a head drained in 2.48 s to a consumer acking each (prefetch 1,000)
/// where a no-ack consumer's calibrated cost gave 1.56 s: (2.48 - 1.56) s / 40,000 = 23 us.
/// The calibrations here on 2026-12-02 (`delaylab calibrate`, step 5 against step 4, a
/// machine at load 13-17) gave 2, 7, 24 and 83 us: the idle figure is kept.
const ACK_US: u32 = 23;
/// Quorum queues on 3.10.8: broker-costs.md measured none of their rates (only their
/// expiry, below); a quorum queue writes every message to its log, so the persistent
/// classic figures stand in, and a delivery and an ack cost what a classic one does.
const QUORUM_PUBLISH_US: u32 = PERSISTENT_PUBLISH_US;
const QUORUM_DEAD_LETTER_US: u32 = PERSISTENT_DEAD_LETTER_US;
const QUORUM_DELIVERY_US: u32 = DELIVERY_US;
const QUORUM_ACK_US: u32 = ACK_US;
/// A delivery's round trip, broker to consumer and its ack or nack back: not in
/// broker-costs.md; measured here by `delaylab calibrate` (lapin, loopback, a
/// nack-requeue loop of one message) at 0.2-0.4 ms per round.
const ROUND_TRIP_US: u32 = 300;
/// Expiry lateness of a classic queue's head timer: 1-2 ms (section 4).
const CLASSIC_EXPIRY_LATE_MS: (u32, u32) = (1, 2);
/// Of a quorum queue: 3-9 ms (section 4: a 700 ms TTL arrived after 704.8-709.5 ms).
const QUORUM_EXPIRY_LATE_MS: (u32, u32) = (3, 9);
/// The plugin's timer round: `erlang:start_timer(0, ...)` fires after 1,008 us
/// (section 3, "Why it drifts"), so a backlog drains at about 990 due-ms keys per second.
const PLUGIN_TICK_US: u32 = 1_008;
/// One insert into the plugin's table (two Mnesia disc-copy writes, a synchronous call
/// from the channel), beyond the channel's own `PUBLISH_US`: the 1,000-message run
/// published at 8.3k-14.3k msg/s (middle 11.3k: 88 us per publish with a few hundred
/// stored), 88 - 57 = 31 us. With the slope below, the 20,000 run's publishes come out at
/// 57 + 30 + 10 x 1.0 = 97 us with about 10,000 stored: 10.3k msg/s (measured 8.6k-10.4k).
const PLUGIN_INSERT_US: u32 = 30;
/// How an insert slows as the table grows (section 3: "the publish rate falls as the
/// delay table grows"; the 100,000 run published at 5.3k-6.3k msg/s, "falling to ≈4k as
/// the store grows"): 1 us per 1,000 stored keeps the 20,000 run inside 8.6k-10.4k and,
/// with the releases that share the process, gives the 100,000 run about 4.9k msg/s.
const PLUGIN_INSERT_US_PER_1K_STORED: f64 = 1.0;
/// Routing one due message out of the table (per message of a key): the 5,000
/// same-due-ms backlog drained at 12.9k msg/s, consumer-bound, so well below 77 us; and
/// the 20,000 run (about 2.5 messages per due-ms, 92 % of ms non-empty) did not drift,
/// so a key's round stays under 1 / 0.92 ms: 1,008 + 2.5 x release < 1,087 us.
const PLUGIN_RELEASE_US: u32 = 10;
/// Taking a message out of the table slows as it grows, as an insert does (the same
/// Mnesia table): fitted to the 100,000 run's drift, p50 1,892-3,068 ms and p99
/// 2,689-3,849 ms (p50 by due-time decile 326 -> 2,506 ms), while 20,000 (about 10,000
/// stored) stays flat (p99 99-133 ms). `costs_plugin_table.rs` prints the model's.
const PLUGIN_RELEASE_US_PER_1K_STORED: f64 = 1.0;

#[derive(Clone, Debug, PartialEq)]
pub struct CostProfile {
    /// Where the figures come from (shown in results).
    pub source: String,
    pub publish_us: u32,
    pub persistent_publish_us: u32,
    pub dead_letter_us: u32,
    pub persistent_dead_letter_us: u32,
    pub delivery_us: u32,
    /// Added to a delivery to a consumer that acks (or nacks) each one.
    pub ack_us: u32,
    pub quorum_publish_us: u32,
    pub quorum_dead_letter_us: u32,
    pub quorum_delivery_us: u32,
    pub quorum_ack_us: u32,
    pub round_trip_us: u32,
    pub classic_expiry_late_ms: (u32, u32),
    pub quorum_expiry_late_ms: (u32, u32),
    pub plugin_tick_us: u32,
    pub plugin_insert_us: u32,
    pub plugin_insert_us_per_1k_stored: f64,
    pub plugin_release_us: u32,
    pub plugin_release_us_per_1k_stored: f64,
}

/// The fields of a profile object, for error messages.
const KEYS: &[&str] = &[
    "source",
    "publish_us",
    "persistent_publish_us",
    "dead_letter_us",
    "persistent_dead_letter_us",
    "delivery_us",
    "ack_us",
    "quorum_publish_us",
    "quorum_dead_letter_us",
    "quorum_delivery_us",
    "quorum_ack_us",
    "round_trip_us",
    "classic_expiry_late_ms",
    "quorum_expiry_late_ms",
    "plugin_tick_us",
    "plugin_insert_us",
    "plugin_insert_us_per_1k_stored",
    "plugin_release_us",
    "plugin_release_us_per_1k_stored",
];

/// The longest step a profile may give (1 s): larger is a unit mistake.
const MAX_STEP_US: u64 = 1_000_000;

impl CostProfile {
    /// The built-in measured profile for a scenario on `version`: 4.3.6's for the 4.x
    /// lines (4.0-4.2 and 4.4 were not measured; 4.3.6 is the nearest measured release,
    /// with the same queue implementations: 4.4's quorum queue is 4.3's state machine
    /// plus held messages), broker-costs.md's 3.10.8 for 3.10 and 3.13.
    pub fn measured_for(version: BrokerVersion) -> CostProfile {
        match version {
            BrokerVersion::V3_10 | BrokerVersion::V3_13 => CostProfile::measured(),
            BrokerVersion::V4_0
            | BrokerVersion::V4_1
            | BrokerVersion::V4_2
            | BrokerVersion::V4_3
            | BrokerVersion::V4_4 => CostProfile::measured_4_3(),
        }
    }

    /// RabbitMQ 3.10.8 on 2 vCPU, as measured in broker-costs.md.
    pub fn measured() -> CostProfile {
        CostProfile {
            source: "measured: RabbitMQ 3.10.8, 2 cores (broker-costs.md)".into(),
            publish_us: PUBLISH_US,
            persistent_publish_us: PERSISTENT_PUBLISH_US,
            dead_letter_us: DEAD_LETTER_US,
            persistent_dead_letter_us: PERSISTENT_DEAD_LETTER_US,
            delivery_us: DELIVERY_US,
            ack_us: ACK_US,
            quorum_publish_us: QUORUM_PUBLISH_US,
            quorum_dead_letter_us: QUORUM_DEAD_LETTER_US,
            quorum_delivery_us: QUORUM_DELIVERY_US,
            quorum_ack_us: QUORUM_ACK_US,
            round_trip_us: ROUND_TRIP_US,
            classic_expiry_late_ms: CLASSIC_EXPIRY_LATE_MS,
            quorum_expiry_late_ms: QUORUM_EXPIRY_LATE_MS,
            plugin_tick_us: PLUGIN_TICK_US,
            plugin_insert_us: PLUGIN_INSERT_US,
            plugin_insert_us_per_1k_stored: PLUGIN_INSERT_US_PER_1K_STORED,
            plugin_release_us: PLUGIN_RELEASE_US,
            plugin_release_us_per_1k_stored: PLUGIN_RELEASE_US_PER_1K_STORED,
        }
    }

    pub fn to_json(&self) -> Value {
        json!({
            "source": self.source,
            "publish_us": self.publish_us,
            "persistent_publish_us": self.persistent_publish_us,
            "dead_letter_us": self.dead_letter_us,
            "persistent_dead_letter_us": self.persistent_dead_letter_us,
            "delivery_us": self.delivery_us,
            "ack_us": self.ack_us,
            "quorum_publish_us": self.quorum_publish_us,
            "quorum_dead_letter_us": self.quorum_dead_letter_us,
            "quorum_delivery_us": self.quorum_delivery_us,
            "quorum_ack_us": self.quorum_ack_us,
            "round_trip_us": self.round_trip_us,
            "classic_expiry_late_ms": [self.classic_expiry_late_ms.0, self.classic_expiry_late_ms.1],
            "quorum_expiry_late_ms": [self.quorum_expiry_late_ms.0, self.quorum_expiry_late_ms.1],
            "plugin_tick_us": self.plugin_tick_us,
            "plugin_insert_us": self.plugin_insert_us,
            "plugin_insert_us_per_1k_stored": self.plugin_insert_us_per_1k_stored,
            "plugin_release_us": self.plugin_release_us,
            "plugin_release_us_per_1k_stored": self.plugin_release_us_per_1k_stored,
        })
    }

    /// Reads a profile object; a field left out takes the 3.10.8 measured profile's value.
    /// Errors are (JSON path below `path`, message).
    pub fn from_json(v: &Value, path: &str) -> Result<CostProfile, (String, String)> {
        let Value::Object(m) = v else {
            return Err((
                path.into(),
                "expected \"ideal\", \"measured\" or a cost profile object".into(),
            ));
        };
        let mut p = CostProfile::measured();
        p.source = "inline profile".into();
        for (k, val) in m {
            let at = format!("{path}.{k}");
            match k.as_str() {
                "source" => {
                    p.source = val
                        .as_str()
                        .ok_or((at.clone(), "expected a string".to_string()))?
                        .into()
                }
                "publish_us" => p.publish_us = step(val, &at)?,
                "persistent_publish_us" => p.persistent_publish_us = step(val, &at)?,
                "dead_letter_us" => p.dead_letter_us = step(val, &at)?,
                "persistent_dead_letter_us" => p.persistent_dead_letter_us = step(val, &at)?,
                "delivery_us" => p.delivery_us = step(val, &at)?,
                "ack_us" => p.ack_us = step(val, &at)?,
                "quorum_publish_us" => p.quorum_publish_us = step(val, &at)?,
                "quorum_dead_letter_us" => p.quorum_dead_letter_us = step(val, &at)?,
                "quorum_delivery_us" => p.quorum_delivery_us = step(val, &at)?,
                "quorum_ack_us" => p.quorum_ack_us = step(val, &at)?,
                "round_trip_us" => p.round_trip_us = step(val, &at)?,
                "classic_expiry_late_ms" => p.classic_expiry_late_ms = range(val, &at)?,
                "quorum_expiry_late_ms" => p.quorum_expiry_late_ms = range(val, &at)?,
                "plugin_tick_us" => p.plugin_tick_us = step(val, &at)?,
                "plugin_insert_us" => p.plugin_insert_us = step(val, &at)?,
                "plugin_insert_us_per_1k_stored" => {
                    p.plugin_insert_us_per_1k_stored = per_1k(val, &at)?
                }
                "plugin_release_us_per_1k_stored" => {
                    p.plugin_release_us_per_1k_stored = per_1k(val, &at)?
                }
                "plugin_release_us" => p.plugin_release_us = step(val, &at)?,
                _ => {
                    return Err((
                        at,
                        format!("unknown cost field; expected one of: {}", KEYS.join(", ")),
                    ))
                }
            }
        }
        Ok(p)
    }
}

fn step(v: &Value, at: &str) -> Result<u32, (String, String)> {
    v.as_u64()
        .filter(|x| *x <= MAX_STEP_US)
        .map(|x| x as u32)
        .ok_or((
            at.into(),
            format!("expected whole microseconds, 0 to {MAX_STEP_US}"),
        ))
}

fn per_1k(v: &Value, at: &str) -> Result<f64, (String, String)> {
    v.as_f64()
        .filter(|x| x.is_finite() && (0.0..=MAX_STEP_US as f64).contains(x))
        .ok_or((
            at.into(),
            "expected a number of microseconds, 0 or more".to_string(),
        ))
}

fn range(v: &Value, at: &str) -> Result<(u32, u32), (String, String)> {
    let bad = || {
        (
            at.to_string(),
            "expected [low, high] in whole milliseconds, low <= high <= 1000".to_string(),
        )
    };
    let a = v.as_array().filter(|a| a.len() == 2).ok_or_else(bad)?;
    let lo = a[0].as_u64().ok_or_else(bad)?;
    let hi = a[1].as_u64().ok_or_else(bad)?;
    if lo > hi || hi > 1000 {
        return Err(bad());
    }
    Ok((lo as u32, hi as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trips() {
        let p = CostProfile::measured();
        assert_eq!(CostProfile::from_json(&p.to_json(), "costs").unwrap(), p);
    }

    #[test]
    fn errors_name_the_field() {
        let e = CostProfile::from_json(&json!({"delivery_us": -1}), "costs").unwrap_err();
        assert_eq!(e.0, "costs.delivery_us");
        let e = CostProfile::from_json(&json!({"nope": 1}), "costs").unwrap_err();
        assert!(e.1.contains("unknown cost field"), "{}", e.1);
        let e =
            CostProfile::from_json(&json!({"quorum_expiry_late_ms": [9, 3]}), "costs").unwrap_err();
        assert_eq!(e.0, "costs.quorum_expiry_late_ms");
    }
}
