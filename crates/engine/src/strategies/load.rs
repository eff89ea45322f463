//! Loading a workload file for `delaylab compare`: strict, with JSON-path errors in the
//! style of the scenario loader (`workload.delays[2].weight: expected ...`).
//!
//! ```json
//! {"version": 1, "name": "promotion-burst", "description": "...", "seed": 42,
//!  "workload": {"count": 200000, "over": "10m",
//!               "delays": [{"delay": "30m", "weight": 6}, {"delay": "1s", "up_to": "2h", "weight": 1}],
//!               "restart": {"at": "20m", "downtime": "1m"}},
//!  "strategies": {"polling-scan": {"period": "1m"}, "timing-wheel": {"tick": "100ms", "wheel_size": 512}}}
//! ```
//! `restart` (the holder stops for `downtime`) and `lose` (`{"at"}`: the node is gone
//! for good, replaced at once) are optional and exclusive. `strategies` only sets
//! parameters; which strategies run is chosen by the caller (all by default).
//! Durations use the scenario grammar (`"30m"`, `1500`).

use std::collections::BTreeMap;

use serde_json::Value;

use super::workload::{DelayMix, Outage, OutageKind, WorkloadSpec};
use super::{Config, NAMES};
use crate::scenario::load::{as_obj, expected, fail, index, unboxed, LoadError, Obj, R};
use crate::scenario::FORMAT_VERSION;

/// Tasks in one workload.
pub const MAX_TASKS: u64 = 2_000_000;
/// Entries in the delay mix.
pub const MAX_DELAY_ENTRIES: usize = 100;
/// The creation window.
pub const MAX_OVER_MS: u64 = 86_400_000;
/// One delay (30 days), and the outage time.
pub const MAX_DELAY_MS: u64 = 30 * 86_400_000;
/// Largest text `load_workload_str` accepts.
pub const MAX_TEXT_BYTES: usize = 256 * 1024;
/// Fastest scan or poll period: more runs than this makes a scan loop the bottleneck.
pub const MIN_PERIOD_MS: u64 = 100;
pub const MAX_WHEEL_SIZE: u64 = 1 << 20;
pub const MAX_FIXED_LEVELS: usize = 100;
pub const MAX_QUEUES: u64 = 10_000;

/// A loaded workload file.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkloadFile {
    pub name: String,
    pub description: String,
    pub spec: WorkloadSpec,
    /// Parameters set in the file, by strategy name (others use their defaults).
    pub configs: BTreeMap<String, Config>,
}

impl WorkloadFile {
    /// The configuration of a strategy: the file's, else the default; None for an
    /// unknown name.
    pub fn config(&self, name: &str) -> Option<Config> {
        self.configs
            .get(name)
            .cloned()
            .or_else(|| Config::default_for(name))
    }
}

pub fn load_workload_str(text: &str) -> Result<WorkloadFile, LoadError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(LoadError::new(
            "$",
            format!(
                "the workload is {} bytes; the limit is {MAX_TEXT_BYTES} bytes (MAX_TEXT_BYTES)",
                text.len()
            ),
        ));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| LoadError {
        path: "$".into(),
        message: format!("invalid JSON: {e}"),
        line: (e.line() > 0).then_some(e.line()),
        column: (e.line() > 0).then_some(e.column()),
    })?;
    load_workload_value(&value)
}

pub fn load_workload_value(v: &Value) -> Result<WorkloadFile, LoadError> {
    unboxed(workload_file(v))
}

/// [`load_workload_value`]'s body, with the loader's boxed errors.
fn workload_file(v: &Value) -> R<WorkloadFile> {
    if !v.is_object() {
        return fail("$", expected("a workload object", v));
    }
    let root = as_obj(v, "")?;
    root.check_keys(&[
        "version",
        "name",
        "description",
        "seed",
        "workload",
        "strategies",
    ])?;
    if let Some(version) = root.uint_opt("version", u64::MAX)? {
        if version == 0 || version > u64::from(FORMAT_VERSION) {
            return fail(
                "version",
                format!("workload format version {version} is not supported (this delaylab reads {FORMAT_VERSION})"),
            );
        }
    }
    let seed = root.uint_opt("seed", u64::MAX)?.unwrap_or(1);
    let w = root.obj("workload")?;
    w.check_keys(&["count", "over", "delays", "restart", "lose"])?;
    let count = w
        .uint_opt("count", MAX_TASKS)?
        .ok_or_else(|| LoadError::new(w.p("count"), "missing (required)"))?;
    let over_ms = bounded_dur(&w, "over", 0, MAX_OVER_MS)?.unwrap_or(0);
    let delays = delay_mix(&w)?;
    let outage = outage(&w)?;
    let mut configs = BTreeMap::new();
    if let Some(s) = root.get("strategies") {
        let s = as_obj(s, "strategies")?;
        s.check_keys(&NAMES)?;
        for name in NAMES {
            if let Some(v) = s.get(name) {
                configs.insert(name.to_string(), config(&as_obj(v, s.p(name))?, name)?);
            }
        }
    }
    Ok(WorkloadFile {
        name: root.str_or("name", "")?,
        description: root.str_or("description", "")?,
        spec: WorkloadSpec {
            seed,
            count,
            over_ms,
            delays,
            outage,
        },
        configs,
    })
}

fn delay_mix(w: &Obj) -> R<Vec<DelayMix>> {
    let items = w.array("delays")?;
    let p = w.p("delays");
    if items.is_empty() {
        return fail(p, "at least one delay is required");
    }
    if items.len() > MAX_DELAY_ENTRIES {
        return fail(
            p,
            format!(
                "{} entries; the limit is {MAX_DELAY_ENTRIES} (MAX_DELAY_ENTRIES)",
                items.len()
            ),
        );
    }
    let mut mix = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let o = as_obj(item, index(&p, i))?;
        o.check_keys(&["delay", "up_to", "weight"])?;
        let delay_ms = bounded_dur(&o, "delay", 0, MAX_DELAY_MS)?
            .ok_or_else(|| LoadError::new(o.p("delay"), "missing (required)"))?;
        let up_to_ms = bounded_dur(&o, "up_to", delay_ms, MAX_DELAY_MS)?;
        let weight = match o.get("weight") {
            None => 1.0,
            Some(v) => number(v, &o.p("weight"), f64::MIN_POSITIVE, 1e9)?,
        };
        mix.push(DelayMix {
            delay_ms,
            up_to_ms,
            weight,
        });
    }
    Ok(mix)
}

fn outage(w: &Obj) -> R<Option<Outage>> {
    match (w.get("restart"), w.get("lose")) {
        (Some(_), Some(_)) => fail(
            w.p("lose"),
            "a workload has one outage: restart or lose, not both",
        ),
        (Some(r), None) => {
            let o = as_obj(r, w.p("restart"))?;
            o.check_keys(&["at", "downtime"])?;
            let at_ms = bounded_dur(&o, "at", 0, MAX_DELAY_MS)?
                .ok_or_else(|| LoadError::new(o.p("at"), "missing (required)"))?;
            let downtime_ms = bounded_dur(&o, "downtime", 0, MAX_DELAY_MS)?.unwrap_or(0);
            Ok(Some(Outage {
                at_ms,
                kind: OutageKind::Restart { downtime_ms },
            }))
        }
        (None, Some(l)) => {
            let o = as_obj(l, w.p("lose"))?;
            o.check_keys(&["at"])?;
            let at_ms = bounded_dur(&o, "at", 0, MAX_DELAY_MS)?
                .ok_or_else(|| LoadError::new(o.p("at"), "missing (required)"))?;
            Ok(Some(Outage {
                at_ms,
                kind: OutageKind::Lose,
            }))
        }
        (None, None) => Ok(None),
    }
}

fn config(o: &Obj, name: &str) -> R<Config> {
    let default = Config::default_for(name).expect("a known name");
    Ok(match default {
        Config::PollingScan {
            period_ms,
            indexed,
            batch,
        } => {
            o.check_keys(&["period", "indexed", "batch"])?;
            let batch = match o.uint_opt("batch", MAX_TASKS)? {
                Some(0) => return fail(o.p("batch"), "a batch handles at least 1 row"),
                Some(b) => Some(b),
                None => batch,
            };
            Config::PollingScan {
                period_ms: period(o, period_ms)?,
                indexed: o.bool_or("indexed", indexed)?,
                batch,
            }
        }
        Config::StorePoll { period_ms } => {
            o.check_keys(&["period"])?;
            Config::StorePoll {
                period_ms: period(o, period_ms)?,
            }
        }
        Config::StoreNotify {
            expire_cycle_ms,
            pressure_above,
            drop_share,
        } => {
            o.check_keys(&["expire_cycle", "pressure_above", "drop_share"])?;
            Config::StoreNotify {
                expire_cycle_ms: bounded_dur(o, "expire_cycle", 1, 60_000)?
                    .unwrap_or(expire_cycle_ms),
                pressure_above: o
                    .uint_opt("pressure_above", MAX_TASKS)?
                    .unwrap_or(pressure_above),
                drop_share: match o.get("drop_share") {
                    Some(v) => number(v, &o.p("drop_share"), 0.0, 1.0)?,
                    None => drop_share,
                },
            }
        }
        Config::TimingWheel {
            tick_ms,
            wheel_size,
        } => {
            o.check_keys(&["tick", "wheel_size"])?;
            let wheel_size = match o.uint_opt("wheel_size", MAX_WHEEL_SIZE)? {
                Some(0) => return fail(o.p("wheel_size"), "a wheel has at least 1 bucket"),
                Some(n) => n,
                None => wheel_size,
            };
            Config::TimingWheel {
                tick_ms: bounded_dur(o, "tick", 1, 3_600_000)?.unwrap_or(tick_ms),
                wheel_size,
            }
        }
        Config::DlxPerQueue { max_queues } => {
            o.check_keys(&["max_queues"])?;
            Config::DlxPerQueue {
                max_queues: o.uint_opt("max_queues", MAX_QUEUES)?.unwrap_or(max_queues),
            }
        }
        Config::DlxCascade { levels } => {
            o.check_keys(&["levels"])?;
            let max = u64::from(super::dlx_cascade::MAX_LEVELS);
            let levels = match o.uint_opt("levels", max)? {
                Some(0) => return fail(o.p("levels"), "a cascade has at least 1 level"),
                Some(n) => Some(n as u32),
                None => levels,
            };
            Config::DlxCascade { levels }
        }
        Config::FixedLevels { levels_ms } => {
            o.check_keys(&["levels"])?;
            match o.get("levels") {
                None => Config::FixedLevels { levels_ms },
                Some(_) => Config::FixedLevels {
                    levels_ms: fixed_levels(o)?,
                },
            }
        }
        other @ (Config::DlxPerMessage | Config::Plugin | Config::QuorumDeliveryTime) => {
            o.check_keys(&[])?;
            other
        }
    })
}

fn fixed_levels(o: &Obj) -> R<Vec<u64>> {
    let items = o.array("levels")?;
    let p = o.p("levels");
    if items.is_empty() || items.len() > MAX_FIXED_LEVELS {
        return fail(
            p,
            format!(
                "from 1 to {MAX_FIXED_LEVELS} levels (MAX_FIXED_LEVELS), found {}",
                items.len()
            ),
        );
    }
    let mut levels: Vec<u64> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let ip = index(&p, i);
        let ms = crate::scenario::load::duration(item, &ip)?;
        if ms == 0 || ms > MAX_DELAY_MS {
            return fail(ip, "a level is from 1 ms to 30 days");
        }
        if levels.last().is_some_and(|last| *last >= ms) {
            return fail(ip, "levels must be in increasing order");
        }
        levels.push(ms);
    }
    Ok(levels)
}

fn period(o: &Obj, default_ms: u64) -> R<u64> {
    Ok(bounded_dur(o, "period", MIN_PERIOD_MS, 86_400_000)?.unwrap_or(default_ms))
}

/// An optional duration within `[lo, hi]`.
fn bounded_dur(o: &Obj, key: &str, lo: u64, hi: u64) -> R<Option<u64>> {
    use crate::scenario::duration::format_duration;
    match o.dur_opt(key)? {
        Some(ms) if ms < lo || ms > hi => fail(
            o.p(key),
            format!(
                "{} is outside {} to {}",
                format_duration(ms),
                format_duration(lo),
                format_duration(hi)
            ),
        ),
        other => Ok(other),
    }
}

fn number(v: &Value, path: &str, lo: f64, hi: f64) -> R<f64> {
    match v.as_f64() {
        Some(x) if x.is_finite() && x >= lo && x <= hi => Ok(x),
        _ => fail(path, expected(&format!("a number from {lo} to {hi}"), v)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err(v: Value) -> String {
        load_workload_value(&v)
            .expect_err("should fail")
            .to_string()
    }

    fn minimal() -> Value {
        json!({"workload": {"count": 10, "over": "1m", "delays": [{"delay": "30s"}]}})
    }

    #[test]
    fn minimal_file_loads_with_defaults() {
        let f = load_workload_value(&minimal()).expect("loads");
        assert_eq!(f.spec.count, 10);
        assert_eq!(f.spec.over_ms, 60_000);
        assert_eq!(f.spec.delays[0].delay_ms, 30_000);
        assert_eq!(f.spec.delays[0].weight, 1.0);
        assert_eq!(f.spec.seed, 1);
        assert_eq!(f.config("store-poll"), Config::default_for("store-poll"));
        assert_eq!(f.config("nope"), None);
    }

    #[test]
    fn errors_name_the_json_path() {
        let mut v = minimal();
        v["workload"]["delays"][0]["weight"] = json!(-1);
        assert!(err(v).starts_with("workload.delays[0].weight: expected a number"));
        let mut v = minimal();
        v["workload"]["delays"][0]["up_to"] = json!("1s");
        assert!(err(v).starts_with("workload.delays[0].up_to: 1s is outside"));
        let mut v = minimal();
        v["strategies"] = json!({"polling-scan": {"period": "10ms"}});
        assert!(err(v).starts_with("strategies.polling-scan.period: 10ms is outside"));
        let mut v = minimal();
        v["strategies"] = json!({"polling": {}});
        assert!(err(v).starts_with("strategies.polling: unknown field"));
        let mut v = minimal();
        v["workload"]["restart"] = json!({"at": "1m"});
        v["workload"]["lose"] = json!({"at": "1m"});
        assert!(err(v).starts_with("workload.lose: a workload has one outage"));
        let mut v = minimal();
        v["strategies"] = json!({"fixed-levels": {"levels": ["5s", "1s"]}});
        assert_eq!(
            err(v),
            "strategies.fixed-levels.levels[1]: levels must be in increasing order"
        );
        assert!(err(json!({"workload": {"count": 1}}))
            .starts_with("workload.delays: at least one delay"));
        assert!(err(json!({})).starts_with("workload: missing"));
    }

    #[test]
    fn strategy_parameters_are_read() {
        let mut v = minimal();
        v["workload"]["restart"] = json!({"at": "20s", "downtime": "5s"});
        v["strategies"] = json!({
            "polling-scan": {"period": "30s", "indexed": true, "batch": 100},
            "store-notify": {"drop_share": 0.5, "pressure_above": 3},
            "timing-wheel": {"tick": "10ms", "wheel_size": 64},
            "dlx-cascade": {"levels": 5},
            "fixed-levels": {"levels": ["1s", "1m"]}
        });
        let f = load_workload_value(&v).expect("loads");
        assert_eq!(
            f.spec.outage,
            Some(Outage {
                at_ms: 20_000,
                kind: OutageKind::Restart { downtime_ms: 5_000 }
            })
        );
        assert_eq!(
            f.config("polling-scan"),
            Some(Config::PollingScan {
                period_ms: 30_000,
                indexed: true,
                batch: Some(100)
            })
        );
        assert_eq!(
            f.config("store-notify"),
            Some(Config::StoreNotify {
                expire_cycle_ms: 100,
                pressure_above: 3,
                drop_share: 0.5
            })
        );
        assert_eq!(
            f.config("timing-wheel"),
            Some(Config::TimingWheel {
                tick_ms: 10,
                wheel_size: 64
            })
        );
        assert_eq!(
            f.config("dlx-cascade"),
            Some(Config::DlxCascade { levels: Some(5) })
        );
        assert_eq!(
            f.config("fixed-levels"),
            Some(Config::FixedLevels {
                levels_ms: vec![1_000, 60_000]
            })
        );
    }
}
