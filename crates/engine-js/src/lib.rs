//! delaylab's engine as a JavaScript package (`pkg/`, npm name `delaylab-engine`, built
//! by `bash scripts/build-js.sh` (cargo, then `wasm-bindgen --target web`): the simulation
//! without the playground, for training pages that draw their own timeline or grade an
//! exercise by running it.
//!
//! ```js
//! import init, { Simulation, linkOf, scenarioOfLink } from './pkg/delaylab_engine.js';
//! await init();
//! const sim = Simulation.fromJson(scenarioText);   // throws Error("topology.queues[0].name: ...")
//! sim.advanceTo(6 * 60_000);
//! for (const e of sim.drainEvents()) console.log(e.t_ms, e.event);   // `delaylab run --trace` lines
//! sim.handle({ publish: { exchange: '', routing_key: 'q', body: 'C' } }); // throws a refusal {code, text}
//! sim.runToEnd();
//! const result = JSON.parse(sim.resultJson());     // = `delaylab run --format json`
//! ```
//!
//! Times cross the boundary as JavaScript numbers (integral milliseconds up to 2^53),
//! never BigInt; objects cross as JSON text parsed once on the other side.
//! The logic is in [`session`] (plain Rust, tested natively); this file only converts.

pub mod command;
pub mod compare;
pub mod session;
pub mod snapshot_json;

use delaylab_engine::scenario::{self, LoadError};
use delaylab_share::{decode_fragment, make_link, ViewOptions};
use js_sys::{Error, Reflect, JSON};
use wasm_bindgen::prelude::*;

use session::{Refusal, Session};

/// Largest whole number a JavaScript number carries exactly (2^53 - 1; as ms, 285,000 years).
pub const MAX_SAFE_MS: f64 = 9_007_199_254_740_991.0;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Options of `Simulation.fromJson`. */
export interface SimulationOptions {
  /** Keep the trace for `drainEvents()` (default true). `false` runs as `delaylab run` without `--trace`. */
  trace?: boolean;
}
/** One engine event, a `delaylab run --trace` line: `t_ms`, `event` and the event's own fields. */
export interface TraceEvent {
  t_ms: number;
  event: string;
  msg?: number;
  [field: string]: unknown;
}
/** What `sim.handle` takes: one key, in the scenario format's words. */
export type Command =
  | { publish: { exchange?: string; routing_key?: string; body?: string; mandatory?: boolean; properties?: Record<string, unknown> } }
  | { add_consumer: { name: string; queue: string; ack?: "manual" | "auto"; prefetch?: number; handle?: number | string; outcome?: unknown; from?: number | string; to?: number | string } }
  | { stop_consumer: string };
/** The broker at the current virtual time (lists capped; counts exact). */
export interface Snapshot {
  now_ms: number;
  node_up: boolean;
  exchanges: Array<{ name: string; kind: string; wrapped: string | null; alternate: string | null; internal: boolean;
    bindings: Array<{ destination: string; to_exchange: boolean; routing_key: string; arguments: string }>; messages_delayed: number }>;
  queues: Array<{ name: string; quorum: boolean; durable: boolean; message_ttl_ms: number | null; dlx: string | null; dlrk: string | null;
    max_length: number | null; max_length_bytes: number | null; overflow: string; expires_ms: number | null;
    ready: number; unacked: number; ready_bytes: number; overdue: number;
    head: Array<{ msg: number; copy: number; body: string; expires_at_ms: number | null; remaining_ms: number | null; overdue_ms: number | null; redelivered: boolean }>;
    consumers: string[] }>;
  delayed: Array<{ msg: number; copy: number; body: string; exchange: string; due_ms: number; remaining_ms: number }>;
  delayed_total: number;
  consumers: Array<{ name: string; queue: string; attached: boolean; stopped: boolean; auto_ack: boolean; prefetch: number; unacked: number; handle_ms: number; outcome: string }>;
  orders: Record<string, unknown> | null;
}
/** One of the scenario's checks and its state (`sim.checks()`). */
export interface CheckState {
  /** The check's `name`, or `check-<n>`. */
  id: string;
  label: string;
  /** Its kind key in the scenario: delivered, enqueued, dead_lettered, dropped, returned, error, count, order, lateness, depth, orders. */
  kind: string;
  status: "pending" | "passed" | "failed" | "undecided";
  /** When it passed or failed (virtual ms). */
  at_ms: number | null;
  /** The figure seen: nothing, at (`ms`), other_headers (`ms`), count (`value`), duration (`ms`), order (`position`, `got`), missing. */
  seen: { kind: string; ms?: number; value?: number; position?: number; got?: string | null };
  /** The message concerned (its id, as in events' `msg`) and body, where there is one. */
  msg: number | null;
  body: string | null;
  /** What it expects, and its outcome, in English. */
  expected: string;
  text: string;
  undecided?: string;
  live?: boolean;
}
/** Options of `compare`. */
export interface CompareOptions {
  /** Strategy names (default: all nine, as `delaylab compare`). */
  strategies?: string[];
  /** Overrides the workload's task count (at most 2,000,000). */
  count?: number;
}
/** What `compare` gives: `result` as `delaylab compare --format json` prints it, and each strategy's wall time. */
export interface Compared {
  result: { workload: { name: string; tasks: number; seed: number }; strategies: Array<Record<string, unknown>> };
  wall_ms: Record<string, number>;
}
/** One RabbitMQ version the engine simulates (`brokerVersions()`). */
export interface BrokerVersionInfo {
  /** As a scenario's `broker` names it: `"3.10"` ... `"4.3"`. */
  version: string;
  /** The patch release it stands for (`"4.3.6"`). */
  release: string;
  /** Checked against a live broker of that release (the conformance suite). */
  live: boolean;
  /** The delayed-message plugin runs on it (3.10 to 4.2; not 4.3). */
  plugin: boolean;
}
/** A scenario or command that does not load: the loader's `path: message`. */
export interface LoadFailure extends Error { path: string; line?: number; column?: number }
/** What the broker refused (`message` is `"406 PRECONDITION_FAILED - ..."`). */
export interface Refused extends Error { code: number; text: string; scope: string; entry: Record<string, unknown> }
"#;

#[wasm_bindgen]
extern "C" {
    /// The page's monotonic clock, for `stats.wall_ms` only (the engine has no clock).
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// Milliseconds from some fixed point (wall time spent in the engine is a difference).
fn clock_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        performance_now()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::sync::OnceLock;
        use std::time::Instant;
        static START: OnceLock<Instant> = OnceLock::new();
        START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
    }
}

fn set(target: &JsValue, key: &str, value: JsValue) {
    // Setting a property on a fresh Error object cannot fail.
    let _ = Reflect::set(target, &JsValue::from_str(key), &value);
}

fn load_failure(e: &LoadError) -> JsValue {
    let err: JsValue = Error::new(&e.to_string()).into();
    set(&err, "path", JsValue::from_str(&e.path));
    if let (Some(line), Some(column)) = (e.line, e.column) {
        set(&err, "line", JsValue::from_f64(line as f64));
        set(&err, "column", JsValue::from_f64(column as f64));
    }
    err
}

fn refused(r: &Refusal) -> JsValue {
    let err: JsValue = Error::new(&format!("{} {}", r.code, r.text)).into();
    set(&err, "code", JsValue::from_f64(r.code as f64));
    set(&err, "text", JsValue::from_str(&r.text));
    set(
        &err,
        "scope",
        JsValue::from_str(r.entry["scope"].as_str().unwrap_or_default()),
    );
    set(&err, "entry", parse_json(&r.entry.to_string()));
    err
}

fn parse_json(text: &str) -> JsValue {
    // The engine wrote this JSON itself: it always parses.
    JSON::parse(text).unwrap_or(JsValue::NULL)
}

/// A count or a virtual time (ms) from JavaScript: a whole number from 0 to 2^53 - 1.
fn whole_arg(x: f64, what: &str) -> Result<u64, JsValue> {
    if x.is_finite() && x >= 0.0 && x.fract() == 0.0 && x <= MAX_SAFE_MS {
        Ok(x as u64)
    } else {
        Err(Error::new(&format!(
            "{what}: expected a whole number from 0 to 2^53 - 1, found {x}"
        ))
        .into())
    }
}

fn ms_out(ms: u64) -> f64 {
    ms as f64
}

/// One simulation: a scenario loaded and running in virtual time.
#[wasm_bindgen]
pub struct Simulation {
    session: Session,
    /// Wall time spent inside the engine so far (`stats.wall_ms`).
    busy_ms: f64,
}

impl Simulation {
    fn timed<T>(&mut self, f: impl FnOnce(&mut Session) -> T) -> T {
        let t0 = clock_ms();
        let out = f(&mut self.session);
        self.busy_ms += clock_ms() - t0;
        out
    }
}

#[wasm_bindgen]
impl Simulation {
    /// Loads a scenario file's text (the format of `delaylab run`). Throws an `Error`
    /// whose message is the loader's `path: message`, with `path` (and `line`, `column`
    /// for a JSON syntax error) as properties.
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(
        text: &str,
        #[wasm_bindgen(unchecked_param_type = "SimulationOptions | undefined")] options: JsValue,
    ) -> Result<Simulation, JsValue> {
        let keep_trace = if options.is_object() {
            Reflect::get(&options, &JsValue::from_str("trace"))
                .ok()
                .and_then(|v| v.as_bool())
                .unwrap_or(true)
        } else {
            true
        };
        let t0 = clock_ms();
        let session = Session::load(text, keep_trace).map_err(|e| load_failure(&e))?;
        Ok(Simulation {
            session,
            busy_ms: clock_ms() - t0,
        })
    }

    /// Fires everything due at or before `ms` (virtual milliseconds) and moves the clock
    /// there. An earlier time than now means now (time never goes back).
    #[wasm_bindgen(js_name = advanceTo)]
    pub fn advance_to(&mut self, ms: f64) -> Result<(), JsValue> {
        let ms = whole_arg(ms, "advanceTo(ms)")?;
        self.timed(|s| s.advance_to(ms));
        Ok(())
    }

    /// Runs to the scenario's `until` (or until nothing is left to happen), as
    /// `delaylab run` does.
    #[wasm_bindgen(js_name = runToEnd)]
    pub fn run_to_end(&mut self) {
        self.timed(Session::run_to_end);
    }

    /// The virtual clock, in milliseconds.
    #[wasm_bindgen(js_name = nowMs)]
    pub fn now_ms(&self) -> f64 {
        ms_out(self.session.now_ms())
    }

    /// The scenario's `until` in milliseconds, or `undefined`.
    #[wasm_bindgen(js_name = untilMs)]
    pub fn until_ms(&self) -> Option<f64> {
        self.session.until_ms().map(ms_out)
    }

    /// The scenario's name.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.session.scenario().name.clone()
    }

    /// True once a run limit stopped the simulation (the result says which).
    pub fn halted(&self) -> bool {
        self.session.halted()
    }

    /// Events the engine has raised so far (a limit-reached note not counted).
    #[wasm_bindgen(js_name = eventsSoFar)]
    pub fn events_so_far(&self) -> f64 {
        self.session.events_so_far() as f64
    }

    /// Every event since the last call, each a plain object shaped as a
    /// `delaylab run --trace` line (`[]` when loaded with `{trace: false}`).
    #[wasm_bindgen(js_name = drainEvents, unchecked_return_type = "TraceEvent[]")]
    pub fn drain_events(&mut self) -> JsValue {
        parse_json(&self.session.drain_events_json())
    }

    /// Events not kept because too many waited undrained (`MAX_PENDING_EVENTS`).
    #[wasm_bindgen(js_name = droppedEvents)]
    pub fn dropped_events(&self) -> f64 {
        self.session.dropped_events() as f64
    }

    /// The broker now: queues with their head messages (remaining TTL, overdue marks),
    /// the delayed store in due order, consumers, exchanges and bindings.
    #[wasm_bindgen(unchecked_return_type = "Snapshot")]
    pub fn snapshot(&self) -> JsValue {
        parse_json(&snapshot_json::to_json(&self.session.snapshot()).to_string())
    }

    /// Each of the scenario's `checks` and its state now, in the scenario's order:
    /// pending until the run decides it, then passed or failed at a virtual time, with
    /// the figure seen and the message concerned (`CheckState`). `advanceTo` stops at
    /// each time a check reads the broker; `runToEnd` decides every check.
    #[wasm_bindgen(unchecked_return_type = "CheckState[]")]
    pub fn checks(&self) -> JsValue {
        parse_json(&self.session.checks_json().to_string())
    }

    /// The run so far as `delaylab run --format json` prints it (JSON text).
    #[wasm_bindgen(js_name = resultJson)]
    pub fn result_json(&self) -> String {
        serde_json::to_string_pretty(&self.session.result(self.busy_ms)).unwrap_or_default()
    }

    /// Does what the playground can do while running, now: `{publish: {...}}`,
    /// `{add_consumer: {...}}`, `{stop_consumer: "name"}`. A malformed command throws
    /// as `fromJson` does; what the broker refuses throws an `Error` with RabbitMQ's
    /// `code` and `text` (`406 PRECONDITION_FAILED - invalid expiration ...`).
    pub fn handle(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Command | string")] command: JsValue,
    ) -> Result<(), JsValue> {
        let text = match command.as_string() {
            Some(s) => s,
            None => JSON::stringify(&command)
                .ok()
                .and_then(|s| s.as_string())
                .unwrap_or_default(),
        };
        let value: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| load_failure(&LoadError::new("$", format!("invalid JSON: {e}"))))?;
        let cmd = command::parse(&value).map_err(|e| load_failure(&e))?;
        self.timed(|s| s.handle(cmd)).map_err(|r| refused(&r))
    }
}

/// The share link of a scenario's text: `base` + `#v1.…` (the playground's "Copy
/// link", `delaylab link`). Without `base`, just the fragment `#v1.…`, to append to
/// wherever the playground is served.
/// The RabbitMQ versions the engine simulates, oldest first (what a page offers as a
/// version choice: a scenario's `broker`), each with its patch release, whether it was
/// checked against a live broker and whether the delayed-message plugin runs on it.
#[wasm_bindgen(js_name = brokerVersions, unchecked_return_type = "BrokerVersionInfo[]")]
pub fn broker_versions() -> JsValue {
    let list: Vec<serde_json::Value> = delaylab_engine::version::BrokerVersion::ALL
        .iter()
        .map(|v| {
            serde_json::json!({"version": v.as_str(), "release": v.patch_release(),
                "live": v.live_checked(), "plugin": v.profile().delayed_plugin})
        })
        .collect();
    parse_json(&serde_json::Value::Array(list).to_string())
}

#[wasm_bindgen(js_name = linkOf)]
pub fn link_of(scenario_text: &str, base: Option<String>) -> Result<String, JsValue> {
    let s = scenario::load_str(scenario_text).map_err(|e| load_failure(&e))?;
    Ok(make_link(
        base.as_deref().unwrap_or_default(),
        &s,
        &ViewOptions::default(),
    ))
}

/// The scenario in a share link (a URL, `#v1.…` or `v1.…`), as scenario JSON text
/// for `Simulation.fromJson`. A bad link throws an `Error` saying what is wrong.
#[wasm_bindgen(js_name = scenarioOfLink)]
pub fn scenario_of_link(link: &str) -> Result<String, JsValue> {
    let shared =
        decode_fragment(link).map_err(|e| JsValue::from(Error::new(&format!("bad link: {e}"))))?;
    Ok(
        serde_json::to_string_pretty(&scenario::save::to_value(&shared.scenario))
            .unwrap_or_default(),
    )
}

/// Every selected delay strategy (polling, stores, timing wheel, the DLX variants, the
/// plugin) on one workload file (`delaylab compare`'s format): `result` is what
/// `delaylab compare --format json` prints, `wall_ms` each strategy's wall time.
/// Only with the `compare` feature: the package's main module is built without it and
/// its `compare()` (scripts/build-js.sh) loads the module built with it, pkg/compare/.
#[cfg(feature = "compare")]
#[wasm_bindgen(unchecked_return_type = "Compared")]
pub fn compare(
    workload_text: &str,
    #[wasm_bindgen(unchecked_param_type = "CompareOptions | undefined")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let opt = |key: &str| {
        options
            .is_object()
            .then(|| Reflect::get(&options, &JsValue::from_str(key)).ok())
            .flatten()
            .filter(|v| !v.is_undefined())
    };
    let names: Option<Vec<String>> = match opt("strategies") {
        None => None,
        Some(v) => Some(
            js_sys::Array::is_array(&v)
                .then(|| js_sys::Array::from(&v))
                .and_then(|a| a.iter().map(|x| x.as_string()).collect())
                .ok_or_else(|| {
                    JsValue::from(Error::new("strategies: expected a list of strategy names"))
                })?,
        ),
    };
    let count = match opt("count") {
        None => None,
        Some(v) => Some(whole_arg(v.as_f64().unwrap_or(f64::NAN), "count")?),
    };
    let compared = compare::compare(workload_text, names.as_deref(), count, clock_ms).map_err(
        |e| match e {
            compare::CompareError::Load(e) => load_failure(&e),
            compare::CompareError::Options(text) => Error::new(&text).into(),
        },
    )?;
    let wall: serde_json::Map<String, serde_json::Value> = compared
        .wall_ms
        .iter()
        .map(|(name, ms)| (name.to_string(), serde_json::json!(ms)))
        .collect();
    Ok(parse_json(
        &serde_json::json!({"result": compared.doc, "wall_ms": wall}).to_string(),
    ))
}
