//! Unique names on the live broker, and durations under `--time-scale`.
//!
//! Every exchange and queue of the scenario is declared as `dl-<random>-<name>`, so a
//! replay never touches what already lives on the broker and two replays can run side
//! by side. The built-in names (`""`, `amq.*`) are used as they are: the broker reserves
//! them, and refusing a declaration of `amq.x` is part of what is being checked.
//!
//! Routing keys are not names, except on the default exchange, where a routing key is a
//! queue name: there (publish routing key, `CC`/`BCC` entries, and a
//! `x-dead-letter-routing-key` whose DLX is `""`) they get the prefix too. Everything
//! the broker hands back is mapped back by removing the prefix.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

use delaylab_engine::amqp::expiration::parse_expiration;
use delaylab_engine::value::{FieldValue, Table};

/// The broker's upper bound for TTLs and `x-expires` (10 years in ms).
const MAX_TTL_MS: i64 = 315_360_000_000;

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

    /// True for names the broker reserves (kept as they are).
    pub fn reserved(name: &str) -> bool {
        name.is_empty() || name.starts_with("amq.")
    }

    /// The broker-side name of a scenario exchange or queue.
    pub fn map(&self, name: &str) -> String {
        if Names::reserved(name) {
            name.to_string()
        } else {
            format!("{}{}", self.prefix, name)
        }
    }

    /// A routing key used on exchange `exchange` (only the default exchange maps it).
    pub fn routing_key(&self, exchange: &str, key: &str) -> String {
        if exchange.is_empty() {
            self.map(key)
        } else {
            key.to_string()
        }
    }

    /// A string the broker returned, with the prefix taken off wherever it occurs.
    pub fn unmap(&self, s: &str) -> String {
        if s.contains(&self.prefix) {
            s.replace(&self.prefix, "")
        } else {
            s.to_string()
        }
    }

    /// Queue arguments: DLX names (and a default-exchange DLRK) mapped, TTLs scaled.
    pub fn queue_args(&self, args: &Table, scale: &Scale) -> Table {
        let dlx_is_default =
            matches!(args.get("x-dead-letter-exchange"), Some(FieldValue::Str(s)) if s.is_empty());
        let mut out = Table::new();
        for (k, v) in args.iter() {
            let v = match (k, v) {
                ("x-dead-letter-exchange", FieldValue::Str(s)) => FieldValue::str(&self.map(s)),
                ("x-dead-letter-routing-key", FieldValue::Str(s)) if dlx_is_default => {
                    FieldValue::str(&self.map(s))
                }
                ("x-message-ttl", FieldValue::Int(n)) if (0..=MAX_TTL_MS).contains(n) => {
                    FieldValue::Int(scale.ms_i64(*n))
                }
                ("x-expires", FieldValue::Int(n)) if (1..=MAX_TTL_MS).contains(n) => {
                    FieldValue::Int(scale.ms_i64(*n).max(1))
                }
                _ => v.clone(),
            };
            out.insert(k, v);
        }
        out
    }

    /// Exchange arguments: `alternate-exchange` mapped.
    pub fn exchange_args(&self, args: &Table) -> Table {
        let mut out = Table::new();
        for (k, v) in args.iter() {
            let v = match (k, v) {
                ("alternate-exchange", FieldValue::Str(s)) => FieldValue::str(&self.map(s)),
                _ => v.clone(),
            };
            out.insert(k, v);
        }
        out
    }

    /// Message headers: on the default exchange, `CC`/`BCC` entries are queue names.
    pub fn headers(&self, exchange: &str, headers: &Table) -> Table {
        let mut out = Table::new();
        for (k, v) in headers.iter() {
            let v = match (k, v) {
                ("CC" | "BCC", FieldValue::Array(items)) if exchange.is_empty() => {
                    FieldValue::Array(
                        items
                            .iter()
                            .map(|i| match i {
                                FieldValue::Str(s) => FieldValue::str(&self.map(s)),
                                other => other.clone(),
                            })
                            .collect(),
                    )
                }
                _ => v.clone(),
            };
            out.insert(k, v);
        }
        out
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

    pub fn real(&self, ms: u64) -> std::time::Duration {
        std::time::Duration::from_secs_f64(ms as f64 * self.0 / 1000.0)
    }

    /// Real elapsed time -> scenario ms.
    pub fn scenario_ms(&self, elapsed: std::time::Duration) -> u64 {
        (elapsed.as_secs_f64() * 1000.0 / self.0).round() as u64
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
    fn names_map_and_unmap() {
        let n = Names {
            prefix: "dl-1234abcd-".into(),
        };
        assert_eq!(n.map("q"), "dl-1234abcd-q");
        assert_eq!(n.map(""), "");
        assert_eq!(n.map("amq.direct"), "amq.direct");
        assert_eq!(n.routing_key("", "q"), "dl-1234abcd-q");
        assert_eq!(n.routing_key("x", "q"), "q");
        assert_eq!(
            n.unmap("NOT_FOUND - no queue 'dl-1234abcd-q' in vhost '/'"),
            "NOT_FOUND - no queue 'q' in vhost '/'"
        );
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
