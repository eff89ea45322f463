//! Unique names on the live broker, and durations under `--time-scale`.
//!
//! Every exchange and queue of the scenario is declared as `dl-<random>-<name>`, so a
//! replay never touches what already lives on the broker and two replays can run side
//! by side. Which strings are names (exchange and queue names, keys that name a queue,
//! DLX/DLRK, alternate exchange, `CC`/`BCC`) and how they are renamed is the engine's
//! rule, shared with the code exporter: `delaylab_engine::scenario::rename`. Here: the
//! random prefix, and the scaling of durations.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

use delaylab_engine::amqp::expiration::parse_expiration;
use delaylab_engine::amqp::queue_args::MAX_EXPIRY_MS;
use delaylab_engine::scenario::rename::Rename;
use delaylab_engine::scenario::Scenario;
use delaylab_engine::value::{FieldValue, Table};

/// The broker's upper bound for TTLs and `x-expires` (10 years in ms).
const MAX_TTL_MS: i64 = MAX_EXPIRY_MS as i64;

#[derive(Clone, Debug)]
pub struct Names {
    pub prefix: String,
}

impl Names {
    /// A fresh `dl-xxxxxxxx-` prefix (random per process).
    pub fn random() -> Names {
        let mut h = RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        h.write_u32(std::process::id());
        Names {
            prefix: format!("dl-{:08x}-", h.finish() as u32),
        }
    }

    /// The renaming of scenario `s` under this prefix.
    pub fn rename(&self, s: &Scenario) -> Rename {
        Rename::new(s, &self.prefix)
    }
}

/// `--time-scale F`: every scenario duration is multiplied by F on the broker.
#[derive(Clone, Copy, Debug)]
pub struct Scale(pub f64);

impl Scale {
    pub fn is_one(&self) -> bool {
        self.0 == 1.0
    }

    /// Scenario ms -> real ms, rounded; a positive duration stays at least 1 ms.
    pub fn ms_i64(&self, ms: i64) -> i64 {
        if self.is_one() || ms <= 0 {
            return ms;
        }
        ((ms as f64 * self.0).round() as i64).max(1)
    }

    /// Real ms -> scenario ms (the inverse of [`Scale::ms_i64`], rounded).
    pub fn scenario_i64(&self, real_ms: i64) -> i64 {
        (real_ms as f64 / self.0).round() as i64
    }

    /// `x-opt-delivery-time` (a time, virtual 0:00 being the Unix epoch) as the broker
    /// gets it: Unix ms, the replay's start (`start_ms`) plus the scaled scenario time; a
    /// 64-bit long (a `timestamp`: whole seconds). Any other type is sent as written.
    pub fn delivery_time(&self, v: &FieldValue, start_ms: i64) -> Option<lapin::types::AMQPValue> {
        use lapin::types::AMQPValue;
        match v {
            FieldValue::Int(n) => Some(AMQPValue::LongLongInt(start_ms + self.ms_i64(*n))),
            FieldValue::Timestamp(s) => {
                let real_ms =
                    start_ms + self.ms_i64(i64::try_from(*s).unwrap_or(i64::MAX / 1000) * 1000);
                Some(AMQPValue::Timestamp((real_ms / 1000).max(0) as u64))
            }
            _ => None,
        }
    }

    /// A delivered `x-opt-delivery-time` back in scenario time (as the scenario wrote it).
    pub fn delivery_time_back(
        &self,
        v: &lapin::types::AMQPValue,
        start_ms: i64,
    ) -> Option<serde_json::Value> {
        use lapin::types::AMQPValue;
        let back = |real: i64| serde_json::json!(self.scenario_i64(real - start_ms));
        Some(match v {
            AMQPValue::LongLongInt(n) => back(*n),
            AMQPValue::LongInt(n) => back(i64::from(*n)),
            // Whole seconds, sent truncated: rounded up again (exact at scale 1).
            AMQPValue::Timestamp(s) => {
                let real = (*s as i64 * 1000 - start_ms) as f64 / self.0;
                serde_json::json!({"$timestamp": (real / 1000.0).ceil() as i64})
            }
            _ => return None,
        })
    }

    pub fn real(&self, ms: u64) -> std::time::Duration {
        std::time::Duration::from_secs_f64(ms as f64 * self.0 / 1000.0)
    }

    /// Real elapsed time -> scenario ms.
    pub fn scenario_ms(&self, elapsed: std::time::Duration) -> u64 {
        (elapsed.as_secs_f64() * 1000.0 / self.0).round() as u64
    }

    /// Queue arguments that are durations scaled when the broker accepts them
    /// (`x-message-ttl`, `x-expires`; the 4.3 quorum `x-delayed-retry-min/-max` and
    /// `x-consumer-timeout` when positive); anything else is kept, so the broker refuses
    /// it the same way.
    pub fn queue_args(&self, args: &Table) -> Table {
        let mut out = Table::new();
        for (k, v) in args.iter() {
            let v = match (k, v) {
                ("x-message-ttl", FieldValue::Int(n)) if (0..=MAX_TTL_MS).contains(n) => {
                    FieldValue::Int(self.ms_i64(*n))
                }
                ("x-expires", FieldValue::Int(n)) if (1..=MAX_TTL_MS).contains(n) => {
                    FieldValue::Int(self.ms_i64(*n).max(1))
                }
                (
                    "x-delayed-retry-min" | "x-delayed-retry-max" | "x-consumer-timeout",
                    FieldValue::Int(n),
                ) if *n > 0 => FieldValue::Int(self.ms_i64(*n)),
                _ => v.clone(),
            };
            out.insert(k, v);
        }
        out
    }

    /// An `expiration` string: scaled when it is one the broker accepts, else kept as
    /// written (so the broker refuses it with the same text).
    pub fn expiration(&self, e: &str) -> String {
        if self.is_one() {
            return e.to_string();
        }
        match parse_expiration(e) {
            Ok(ms) => self.ms_i64(ms as i64).to_string(),
            Err(_) => e.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_are_fresh_and_well_formed() {
        let n = Names::random();
        assert!(n.prefix.starts_with("dl-") && n.prefix.ends_with('-'));
        assert!(
            !n.prefix.contains('.'),
            "a topic word boundary in {}",
            n.prefix
        );
        let s = delaylab_engine::scenario::load_str(
            r#"{"version": 1, "name": "n", "topology": {"queues": [{"name": "q"}]}}"#,
        )
        .expect("loads");
        assert_eq!(n.rename(&s).name("q"), format!("{}q", n.prefix));
    }

    #[test]
    fn scales_queue_ttls_in_range_only() {
        let mut t = Table::new();
        t.insert("x-message-ttl", FieldValue::Int(1000));
        t.insert("x-expires", FieldValue::Int(3));
        t.insert("x-max-length", FieldValue::Int(1000));
        t.insert("x-dead-letter-exchange", FieldValue::str("dlx"));
        t.insert("x-delayed-retry-min", FieldValue::Int(500));
        t.insert("x-delayed-retry-max", FieldValue::Int(-1));
        let got = Scale(0.1).queue_args(&t);
        assert_eq!(got.get("x-delayed-retry-min"), Some(&FieldValue::Int(50)));
        assert_eq!(got.get("x-delayed-retry-max"), Some(&FieldValue::Int(-1)));
        assert_eq!(got.get("x-message-ttl"), Some(&FieldValue::Int(100)));
        assert_eq!(got.get("x-expires"), Some(&FieldValue::Int(1)));
        assert_eq!(got.get("x-max-length"), Some(&FieldValue::Int(1000)));
        assert_eq!(
            got.get("x-dead-letter-exchange"),
            Some(&FieldValue::str("dlx"))
        );
        let mut big = Table::new();
        big.insert("x-message-ttl", FieldValue::Int(MAX_TTL_MS + 1));
        assert_eq!(Scale(0.1).queue_args(&big), big);
    }

    #[test]
    fn scale_keeps_invalid_values() {
        let s = Scale(0.1);
        assert_eq!(s.expiration("1000"), "100");
        assert_eq!(s.expiration("+500"), "50");
        assert_eq!(s.expiration("abc"), "abc");
        assert_eq!(s.expiration("-1"), "-1");
        assert_eq!(s.expiration("0"), "0");
        assert_eq!(s.expiration("3"), "1");
        assert_eq!(Scale(1.0).expiration("007"), "007");
    }
}
