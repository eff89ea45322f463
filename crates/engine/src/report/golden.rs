//! Golden forms of a run, for regression tests: the result and the trace as stored in
//! `crates/engine/tests/golden/`, shared by the native test (`tests/presets.rs`) and the
//! same test compiled to wasm and run in headless Chromium (`tests/wasm_golden.rs`), so
//! both prove the engine gives byte-identical output on both targets.
//!
//! Big runs keep the first `KEEP` trace lines and the first `RESULT_KEEP` entries of each
//! result list, plus counts and an FNV-1a hash of everything, so the repository stays
//! small while any change is still caught.

use serde_json::{json, Value};

use super::trace::event_json;
use crate::limits::Limits;
use crate::scenario::Scenario;

/// Trace lines stored in full up to this many.
pub const KEEP: usize = 2000;
/// Entries of each result list (deliveries, dropped, ...) stored in full up to this many.
pub const RESULT_KEEP: usize = 100;

/// 64-bit FNV-1a, fed line by line (each line followed by `\n`).
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    pub fn line(&mut self, s: &str) {
        for b in s.bytes().chain(std::iter::once(b'\n')) {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    pub fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

/// The result as stored: without `stats.wall_ms`, and with long lists cut to `RESULT_KEEP`
/// entries plus `<list>_total` and `<list>_fnv1a64` (over every entry's compact JSON).
pub fn result_golden(result: &Value) -> String {
    let mut out = serde_json::Map::new();
    let mut extra = Vec::new();
    for (key, value) in result.as_object().expect("the result is an object") {
        match value {
            Value::Array(items) if items.len() > RESULT_KEEP => {
                let mut h = Fnv::default();
                for item in items {
                    h.line(&item.to_string());
                }
                out.insert(key.clone(), Value::Array(items[..RESULT_KEEP].to_vec()));
                extra.push((format!("{key}_total"), json!(items.len())));
                extra.push((format!("{key}_fnv1a64"), json!(h.hex())));
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    out.extend(extra);
    if let Some(Value::Object(stats)) = out.get_mut("stats") {
        stats.remove("wall_ms");
    }
    serde_json::to_string_pretty(&Value::Object(out)).expect("json") + "\n"
}

/// The trace as stored (first `KEEP` lines, then a summary line with the total and the
/// hash of every line), and the number of events.
pub fn trace_golden(scenario: &Scenario) -> (String, u64) {
    let mut kept = String::new();
    let mut count: u64 = 0;
    let mut hash = Fnv::default();
    super::run_with(scenario, Limits::default(), |e, sim| {
        let line = event_json(e, sim).to_string();
        hash.line(&line);
        if count < KEEP as u64 {
            kept.push_str(&line);
            kept.push('\n');
        }
        count += 1;
    });
    if count > KEEP as u64 {
        kept.push_str(
            &json!({"truncated": true, "kept": KEEP, "total_events": count, "fnv1a64": hash.hex()})
                .to_string(),
        );
        kept.push('\n');
    }
    (kept, count)
}
