//! Loading a scenario file (`shared/docs/scenario-format.md`) into the [`Scenario`] model.
//!
//! The loader checks the JSON's shape and types, and the size limits below; every
//! problem is a [`LoadError`] naming the JSON path (`actions[3].publish.properties.expiration`).
//! It does not judge RabbitMQ semantics (a negative `x-message-ttl`, an unknown exchange
//! type, an `expiration` that is not a number): those reach the simulated broker as they
//! are, and it refuses them at declare or publish time as the real one does.
//!
//! Unknown fields are errors, except inside `topology`, which may be a whole RabbitMQ
//! `definitions.json` export: its extra sections and per-object keys are accepted, and
//! what the simulation does not model is listed in [`Topology::not_simulated`].
//! `topology.not_simulated` (a list of strings) is this format's own extension, written
//! by `save` so those lines survive a save and load.
//!
//! One concept a file: `errors` (the error type and its JSON paths), `json` (typed
//! access with paths), `limits`, `topology` (exchanges, queues, bindings and the
//! definitions.json import), `consumers`, `actions` (actions, publishes and their
//! properties), `orders` (the order-timeout lab) and `checks` (what a run must show,
//! `crate::checks`); this file is the entry point and
//! the walk over the top-level fields.

mod actions;
mod check_figures;
mod checks;
mod client;
mod consumers;
mod errors;
mod json;
mod limits;
mod orders;
mod report;
mod topology;

use serde_json::Value;

use super::model::*;
use actions::{actions, publish};
use consumers::{consumer, consumers};
use errors::{describe, short_quote, unknown_message};
use topology::{topology, DEFINITIONS_KEYS, TOPOLOGY_LISTS};

pub use errors::LoadError;
pub(crate) use errors::{expected, fail, index, unboxed, R};
pub(crate) use json::{as_obj, duration, Obj};
pub use limits::*;

/// Parses and loads a scenario file.
pub fn load_str(text: &str) -> Result<Scenario, LoadError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(LoadError::new(
            "$",
            format!(
                "the scenario is {} bytes; the limit is {MAX_TEXT_BYTES} bytes (MAX_TEXT_BYTES)",
                text.len()
            ),
        ));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let (line, column) = if e.line() == 0 {
            (None, None)
        } else {
            (Some(e.line()), Some(e.column()))
        };
        LoadError {
            path: "$".into(),
            message: format!("invalid JSON: {e}"),
            line,
            column,
        }
    })?;
    load_value(&value)
}

/// Loads a scenario from parsed JSON.
pub fn load_value(v: &Value) -> Result<Scenario, LoadError> {
    unboxed(scenario(v))
}

/// [`load_value`]'s body, with the loader's boxed errors.
fn scenario(v: &Value) -> R<Scenario> {
    let Value::Object(map) = v else {
        return fail(
            "$",
            format!("a scenario is a JSON object, found {}", describe(v)),
        );
    };
    let root = Obj {
        m: map,
        path: String::new(),
    };
    // The version first: a newer file may well have fields this loader does not know.
    let version = match root.get("version") {
        None => FORMAT_VERSION,
        Some(x) => {
            let Some(n) = x.as_u64() else {
                return fail(
                    "version",
                    expected(&format!("an integer format version ({FORMAT_VERSION})"), x),
                );
            };
            if n == 0 {
                return fail("version", "the format version starts at 1");
            }
            if n > u64::from(FORMAT_VERSION) {
                return fail("version", format!("scenario format version {n} is newer than this delaylab ({FORMAT_VERSION})"));
            }
            n as u32
        }
    };
    for key in map.keys() {
        if !TOP_KEYS.contains(&key.as_str()) {
            let mut message = unknown_message(TOP_KEYS);
            if DEFINITIONS_KEYS.contains(&key.as_str()) || TOPOLOGY_LISTS.contains(&key.as_str()) {
                message = "unknown field; this looks like part of a RabbitMQ definitions export, \
                           which goes under \"topology\""
                    .into();
            }
            return fail(root.p(key), message);
        }
    }
    let topology = match root.get("topology") {
        None => Topology::default(),
        Some(t) => topology(&as_obj(t, "topology")?)?,
    };
    let consumers = consumers(root.array("consumers")?)?;
    let actions = actions(root.array("actions")?)?;
    let (orders, faults) = orders::load(&root, &consumers)?;
    let mut scenario = Scenario {
        version,
        name: root.str_or("name", "")?,
        description: root.str_or("description", "")?,
        watch: root.str_or("watch", "")?,
        seed: root.uint_opt("seed", u64::MAX)?.unwrap_or(1),
        until_ms: root.dur_opt("until")?,
        topology,
        consumers,
        actions,
        orders,
        faults,
        broker: broker_field(&root)?,
        versions: versions_field(&root)?,
        costs: costs_mode(root.get("costs"))?,
        consumer_timeout: consumer_timeout(&root)?,
        consumer_timeout_response: timeout_response(&root)?,
        dead_letter_retry_ms: dead_letter_retry(&root)?,
        report: report::report(&root)?,
        checks: Vec::new(),
    };
    // Last: a check names the queues, consumers and times of the rest of the file.
    scenario.checks = checks::checks(root.array("checks")?, &scenario)?;
    Ok(scenario)
}

/// `consumer_timeout`: a duration of at least 1 ms, or `false` for none; absent means
/// RabbitMQ's default (30 minutes).
fn consumer_timeout(root: &Obj) -> R<ConsumerTimeoutSetting> {
    let path = root.p("consumer_timeout");
    match root.get("consumer_timeout") {
        None => Ok(ConsumerTimeoutSetting::Default),
        Some(Value::Bool(false)) => Ok(ConsumerTimeoutSetting::Off),
        Some(v @ (Value::Number(_) | Value::String(_))) => match duration(v, &path)? {
            0 => fail(
                path,
                "a consumer timeout of 0 would time out every delivery; give at least 1ms, or false for no timeout",
            ),
            timeout_ms => Ok(ConsumerTimeoutSetting::After { timeout_ms }),
        },
        Some(other) => fail(
            path,
            expected(
                "a duration such as \"30m\" or 1800000 (ms), or false for no timeout",
                other,
            ),
        ),
    }
}

/// `consumer_timeout_response` (RabbitMQ 4.3.7): `notify_consumer` or `close_channel`.
fn timeout_response(root: &Obj) -> R<crate::version::TimeoutResponse> {
    use crate::version::TimeoutResponse;
    match root.get("consumer_timeout_response") {
        None => Ok(TimeoutResponse::NotifyConsumer),
        Some(Value::String(s)) if TimeoutResponse::parse(s).is_some() => {
            Ok(TimeoutResponse::parse(s).expect("checked"))
        }
        Some(other) => fail(
            root.p("consumer_timeout_response"),
            expected("\"notify_consumer\" (basic.cancel, the default) or \"close_channel\" (406, RabbitMQ 4.3.7+)", other),
        ),
    }
}

/// `dead_letter_worker_publisher_confirm_timeout`: a duration of at least 1 ms.
fn dead_letter_retry(root: &Obj) -> R<Option<u64>> {
    const KEY: &str = "dead_letter_worker_publisher_confirm_timeout";
    match root.dur_opt(KEY)? {
        Some(0) => fail(
            root.p(KEY),
            "0 would retry without end at one instant; give at least 1ms (RabbitMQ's default is 180000)",
        ),
        other => Ok(other),
    }
}

/// `broker`: one of the version profiles (`crate::version`), absent meaning 3.10.
fn broker_field(root: &Obj) -> R<Option<crate::version::BrokerVersion>> {
    version_value(root.get("broker"), &root.p("broker"))
}

/// `versions`: the versions the scenario is written for, a non-empty list of distinct
/// versions, kept oldest first. The one it runs on (`broker`, 3.10 when absent) need not
/// be among them: a preset switched to another version in the playground (and its share
/// link), like `delaylab run --broker`, runs there, and the page says what changes
/// (`version::impact::off_version`).
fn versions_field(root: &Obj) -> R<Vec<crate::version::BrokerVersion>> {
    versions_list(root, "the broker's version alone")
}

/// A `versions` key of `o` (the scenario's, or a check's): a non-empty list of distinct
/// versions, oldest first; absent: empty, which means `absent_means`.
pub(super) fn versions_list(o: &Obj, absent_means: &str) -> R<Vec<crate::version::BrokerVersion>> {
    let path = o.p("versions");
    let Some(v) = o.get("versions") else {
        return Ok(Vec::new());
    };
    let Some(items) = v.as_array() else {
        return fail(
            path,
            expected("a list of versions such as [\"4.0\", \"4.3\"]", v),
        );
    };
    if items.is_empty() {
        return fail(
            path,
            format!("an empty list; leave versions out to mean {absent_means}"),
        );
    }
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let item_path = format!("{path}[{i}]");
        let Some(b) = version_value(Some(item), &item_path)? else {
            unreachable!("a present value gives a version or an error")
        };
        if out.contains(&b) {
            return fail(item_path, format!("\"{b}\" is listed twice"));
        }
        out.push(b);
    }
    crate::sort::sort(&mut out);
    Ok(out)
}

/// A RabbitMQ version (`broker`, `upgrade.to`): one of `BrokerVersion::ALL`.
fn version_value(v: Option<&Value>, path: &str) -> R<Option<crate::version::BrokerVersion>> {
    use crate::version::BrokerVersion;
    let Some(v) = v else {
        return Ok(None);
    };
    let allowed = BrokerVersion::allowed_list();
    match v.as_str() {
        Some(s) => match BrokerVersion::parse(s) {
            Some(b) => Ok(Some(b)),
            None => fail(
                path,
                format!(
                    "unknown RabbitMQ version {}; expected {allowed}",
                    short_quote(s)
                ),
            ),
        },
        None => fail(path, expected(&format!("a version string ({allowed})"), v)),
    }
}

/// `costs`: "ideal" (the default), "measured", or a cost profile object
/// (`crate::costs::CostProfile`, what `delaylab calibrate` writes).
fn costs_mode(v: Option<&Value>) -> R<crate::costs::CostMode> {
    use crate::costs::{CostMode, CostProfile};
    match v {
        None => Ok(CostMode::Ideal),
        Some(Value::String(s)) if s == "ideal" => Ok(CostMode::Ideal),
        Some(Value::String(s)) if s == "measured" => Ok(CostMode::Measured),
        Some(Value::String(_)) => fail(
            "costs",
            "unknown cost mode; expected \"ideal\", \"measured\" or a cost profile object",
        ),
        Some(v) => CostProfile::from_json(v, "costs")
            .map(CostMode::Profile)
            .or_else(|(path, message)| fail(path, message)),
    }
}

const TOP_KEYS: &[&str] = &[
    "version",
    "name",
    "description",
    "watch",
    "seed",
    "until",
    "topology",
    "consumers",
    "actions",
    "orders",
    "faults",
    "broker",
    "versions",
    "costs",
    "consumer_timeout",
    "consumer_timeout_response",
    "dead_letter_worker_publisher_confirm_timeout",
    "report",
    "checks",
];

// ---------------------------------------------------------------------------------
// One piece on its own: a command from a host page (`crates/engine-js`'s
// `sim.handle({publish: ...})`), checked exactly as the same piece of a scenario file.

/// A publish object (what an action's `publish` holds); error paths start at `path`
/// (`publish.properties.expiration: ...`).
pub fn publish_value(v: &Value, path: &str) -> Result<PublishSpec, LoadError> {
    unboxed(as_obj(v, path).and_then(|o| publish(&o)))
}

/// A consumer object (what a `consumers` entry holds); error paths start at `path`.
pub fn consumer_value(v: &Value, path: &str) -> Result<ConsumerSpec, LoadError> {
    unboxed(as_obj(v, path).and_then(|o| consumer(&o)))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::value::FieldValue;
    use serde_json::json;

    /// Loads `{"actions": [...], ...}` built from `v` and returns the error's path and message.
    pub(crate) fn err(v: Value) -> (String, String) {
        match load_value(&v) {
            Ok(s) => panic!("loaded: {s:?}"),
            Err(e) => (e.path, e.message),
        }
    }

    pub(crate) fn assert_err(v: Value, path: &str, needle: &str) {
        let (p, m) = err(v);
        assert_eq!(p, path, "message: {m}");
        assert!(m.contains(needle), "message {m:?} lacks {needle:?}");
    }

    pub(crate) fn ok(v: Value) -> Scenario {
        load_value(&v).unwrap_or_else(|e| panic!("{e}"))
    }

    pub(crate) fn publish_with(props: Value) -> Value {
        json!({"actions": [{"at": 0, "publish": {"properties": props}}]})
    }

    /// The example of `shared/docs/scenario-format.md`, verbatim.
    pub(crate) const CONTRACT_EXAMPLE: &str = r#"{
  "version": 1,
  "name": "Head-of-line blocking",
  "description": "Two messages with different per-message TTLs in one DLX wait queue.",
  "seed": 7,
  "until": "40m",
  "topology": {
    "exchanges": [
      {"name": "order.delay.exchange", "type": "direct"},
      {"name": "order.dlx.exchange",   "type": "direct"},
      {"name": "delayed",              "type": "x-delayed-message",
       "arguments": {"x-delayed-type": "direct"}}
    ],
    "queues": [
      {"name": "order.delay.queue",
       "arguments": {"x-dead-letter-exchange": "order.dlx.exchange",
                     "x-dead-letter-routing-key": "order.timeout"}},
      {"name": "order.dlx.queue"}
    ],
    "bindings": [
      {"source": "order.delay.exchange", "destination": "order.delay.queue",
       "destination_type": "queue", "routing_key": "order.create"},
      {"source": "order.dlx.exchange", "destination": "order.dlx.queue",
       "destination_type": "queue", "routing_key": "order.timeout"}
    ]
  },
  "consumers": [
    {"name": "closer", "queue": "order.dlx.queue", "ack": "manual",
     "prefetch": 10, "handle": "100ms", "outcome": "ack"}
  ],
  "actions": [
    {"at": "0s", "publish": {"exchange": "order.delay.exchange", "routing_key": "order.create",
      "body": "A", "properties": {"expiration": "1800000", "delivery_mode": 2}}},
    {"at": "1m", "publish": {"exchange": "order.delay.exchange", "routing_key": "order.create",
      "body": "B", "properties": {"expiration": "300000"}}},
    {"at": "2m", "publish": {"exchange": "delayed", "routing_key": "order.timeout",
      "body": "C", "properties": {"headers": {"x-delay": 300000}}},
     "repeat": {"count": 3, "every": "10s"}}
  ]
}
"#;

    #[test]
    fn contract_example_loads() {
        let s = load_str(CONTRACT_EXAMPLE).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.name, "Head-of-line blocking");
        assert_eq!(s.seed, 7);
        assert_eq!(s.until_ms, Some(2_400_000));
        assert_eq!(s.topology.exchanges.len(), 3);
        assert_eq!(
            s.topology.exchanges[2].arguments.get("x-delayed-type"),
            Some(&FieldValue::str("direct"))
        );
        assert_eq!(s.topology.queues[0].arguments.len(), 2);
        assert_eq!(s.topology.bindings[1].routing_key, "order.timeout");
        assert_eq!(s.consumers[0].prefetch, 10);
        assert_eq!(s.consumers[0].handle_ms, 100);
        assert_eq!(s.actions.len(), 3);
        assert_eq!(s.actions[1].at_ms, 60_000);
        let ActionKind::Publish(p) = &s.actions[0].kind else {
            panic!()
        };
        assert_eq!(p.properties.expiration.as_deref(), Some("1800000"));
        assert_eq!(p.properties.delivery_mode, Some(2));
        let ActionKind::Publish(p) = &s.actions[2].kind else {
            panic!()
        };
        assert_eq!(
            p.properties.headers.get("x-delay"),
            Some(&FieldValue::Int(300_000))
        );
        assert_eq!(
            s.actions[2].repeat,
            Some(Repeat {
                count: 3,
                every_ms: 10_000
            })
        );
        assert!(s.topology.not_simulated.is_empty());
    }

    #[test]
    fn empty_object_gives_defaults() {
        let s = ok(json!({}));
        assert_eq!(
            s,
            Scenario {
                name: String::new(),
                ..Scenario::empty("")
            }
        );
        assert_eq!(s.version, 1);
        assert_eq!(s.seed, 1);
    }

    #[test]
    fn syntax_error_has_dollar_path_line_and_column() {
        let e = load_str("{\n  \"name\": \"x\",\n  oops\n}").unwrap_err();
        assert_eq!(e.path, "$");
        assert_eq!((e.line, e.column), (Some(3), Some(3)));
        assert!(e.message.contains("line 3 column 3"), "{}", e.message);
        assert!(e.to_string().starts_with("$: invalid JSON: "));
    }

    #[test]
    fn text_size_limit() {
        let text = format!("{{\"name\": \"{}\"}}", "x".repeat(MAX_TEXT_BYTES));
        let e = load_str(&text).unwrap_err();
        assert_eq!(e.path, "$");
        assert!(e.message.contains("MAX_TEXT_BYTES"));
    }

    #[test]
    fn non_object_document() {
        assert_err(json!([1]), "$", "a scenario is a JSON object, found a list");
    }

    #[test]
    fn unknown_top_level_field() {
        assert_err(
            json!({"nmae": "x"}),
            "nmae",
            "unknown field; expected one of: version, name",
        );
        assert_err(json!({"policies": []}), "policies", "definitions export");
    }

    #[test]
    fn consumer_timeout_setting() {
        assert_eq!(
            ok(json!({})).consumer_timeout,
            ConsumerTimeoutSetting::Default
        );
        assert_eq!(
            ok(json!({"consumer_timeout": "5m"})).consumer_timeout,
            ConsumerTimeoutSetting::After {
                timeout_ms: 300_000
            }
        );
        assert_eq!(
            ok(json!({"consumer_timeout": 1800000})).consumer_timeout,
            ConsumerTimeoutSetting::After {
                timeout_ms: 1_800_000
            }
        );
        assert_eq!(
            ok(json!({"consumer_timeout": false})).consumer_timeout,
            ConsumerTimeoutSetting::Off
        );
        assert_err(
            json!({"consumer_timeout": 0}),
            "consumer_timeout",
            "give at least 1ms, or false for no timeout",
        );
        assert_err(
            json!({"consumer_timeout": true}),
            "consumer_timeout",
            "expected a duration such as \"30m\" or 1800000 (ms), or false for no timeout, found true",
        );
        assert_err(
            json!({"consumer_timeout": "soon"}),
            "consumer_timeout",
            "invalid duration \"soon\"",
        );
        assert_err(
            json!({"consumer_timeout": "400d"}),
            "consumer_timeout",
            "MAX_DURATION_MS",
        );
        for v in [json!("90s"), json!(false)] {
            let s = ok(json!({"consumer_timeout": v}));
            let again = load_value(&crate::scenario::save::to_value(&s)).unwrap();
            assert_eq!(
                again.consumer_timeout, s.consumer_timeout,
                "saved and loaded"
            );
        }
    }

    #[test]
    fn version_rules() {
        assert_eq!(ok(json!({"version": 1})).version, 1);
        assert_err(
            json!({"version": 2}),
            "version",
            "scenario format version 2 is newer than this delaylab (1)",
        );
        // A newer file's unknown fields do not hide the version problem.
        assert_err(
            json!({"version": 7, "shiny": true}),
            "version",
            "version 7 is newer",
        );
        assert_err(json!({"version": 0}), "version", "starts at 1");
        assert_err(
            json!({"version": "1"}),
            "version",
            "expected an integer format version (1), found the string \"1\"",
        );
    }

    #[test]
    fn seed_and_until() {
        let s = ok(json!({"seed": u64::MAX, "until": "40m"}));
        assert_eq!(s.seed, u64::MAX);
        assert_eq!(s.until_ms, Some(2_400_000));
        assert_err(
            json!({"seed": -1}),
            "seed",
            "expected an integer from 0 to 18446744073709551615",
        );
        assert_err(json!({"seed": 1.5}), "seed", "found the number 1.5");
        assert_err(json!({"until": "1h30m"}), "until", "ms, s, m, h or d");
    }

    #[test]
    fn text_fields_must_be_strings() {
        let s = ok(json!({"name": "n", "description": "d", "watch": "w"}));
        assert_eq!(
            (s.name.as_str(), s.description.as_str(), s.watch.as_str()),
            ("n", "d", "w")
        );
        assert_err(
            json!({"watch": 3}),
            "watch",
            "expected a string, found the number 3",
        );
        assert_err(json!({"name": null}), "name", "found null");
    }

    #[test]
    fn versions_lists_what_the_scenario_is_written_for() {
        use crate::version::BrokerVersion::*;
        let s = ok(json!({}));
        assert!(s.versions.is_empty());
        assert_eq!(s.written_for(), vec![V3_10]);
        assert_eq!(ok(json!({"broker": "4.3"})).written_for(), vec![V4_3]);
        // Kept oldest first, whatever the file's order.
        let s = ok(json!({"broker": "4.0", "versions": ["4.3", "3.10", "4.0"]}));
        assert_eq!(s.versions, vec![V3_10, V4_0, V4_3]);
        assert_eq!(s.written_for(), vec![V3_10, V4_0, V4_3]);
        assert_err(json!({"versions": []}), "versions", "an empty list");
        assert_err(json!({"versions": "4.3"}), "versions", "a list of versions");
        assert_err(
            json!({"versions": ["3.10", "4.5"]}),
            "versions[1]",
            "unknown RabbitMQ version",
        );
        assert_err(
            json!({"versions": ["3.10", "3.10"]}),
            "versions[1]",
            "listed twice",
        );
        // Run on a version it is not written for (switched in the playground): allowed.
        let s = ok(json!({"broker": "4.3", "versions": ["3.10", "4.2"]}));
        assert_eq!(
            (s.broker_version(), s.written_for()),
            (V4_3, vec![V3_10, V4_2])
        );
        assert_eq!(ok(json!({"versions": ["4.3"]})).broker_version(), V3_10);
    }

    #[test]
    fn broker_field_is_strict_and_absent_means_3_10() {
        use crate::version::BrokerVersion;
        assert_eq!(ok(json!({})).broker, None);
        assert_eq!(ok(json!({})).broker_version(), BrokerVersion::V3_10);
        assert_eq!(
            ok(json!({"broker": "4.3"})).broker,
            Some(BrokerVersion::V4_3)
        );
        assert_eq!(
            ok(json!({"broker": "3.10"})).broker,
            Some(BrokerVersion::V3_10)
        );
        assert_eq!(
            ok(json!({"broker": "4.4"})).broker,
            Some(BrokerVersion::V4_4)
        );
        assert_err(
            json!({"broker": "4.5"}),
            "broker",
            "unknown RabbitMQ version \"4.5\"; expected \"3.10\", \"3.13\", \"4.0\", \"4.1\", \"4.2\", \"4.3\" or \"4.4\"",
        );
        assert_err(json!({"broker": 4.3}), "broker", "a version string");
    }
}
