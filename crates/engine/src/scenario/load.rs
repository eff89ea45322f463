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

mod orders;

use std::collections::HashMap;
use std::fmt;

use serde_json::{Map, Value};

use super::duration::{duration_from_json, format_duration};
use super::model::*;
use crate::value::Table;

/// Largest scenario text `load_str` accepts.
pub const MAX_TEXT_BYTES: usize = 1024 * 1024;
/// Entries in `actions` (a repeated publish counts once here).
pub const MAX_ACTIONS: usize = 10_000;
/// Messages published by the whole scenario, repeat counts included.
pub const MAX_PUBLISHES_TOTAL: u64 = 2_000_000;
/// Length of one publish `body`.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// Exchange and queue names and routing keys (an AMQP `shortstr`); consumer names too.
pub const MAX_NAME_BYTES: usize = 255;
pub const MAX_CONSUMERS: usize = 256;
pub const MAX_QUEUES: usize = 10_000;
pub const MAX_EXCHANGES: usize = 10_000;
pub const MAX_BINDINGS: usize = 10_000;
/// Any duration, and the last run of a repeated publish (366 days).
pub const MAX_DURATION_MS: u64 = 366 * 86_400_000;
/// Nesting of tables and arrays in `headers` and `arguments` (the table itself is 1).
pub const MAX_HEADER_DEPTH: usize = 16;

/// Why a scenario could not be loaded: the JSON path of the problem and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// `actions[3].publish.properties.expiration`; `$` for the document as a whole
    /// (JSON syntax errors, size limit).
    pub path: String,
    pub message: String,
    /// 1-based line and column of a JSON syntax error, for an editor to point at.
    pub line: Option<usize>,
    pub column: Option<usize>,
}

impl LoadError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> LoadError {
        LoadError {
            path: path.into(),
            message: message.into(),
            line: None,
            column: None,
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for LoadError {}

pub(crate) type R<T> = Result<T, LoadError>;

pub(crate) fn fail<T>(path: impl Into<String>, message: impl Into<String>) -> R<T> {
    Err(LoadError::new(path, message))
}

/// Parses and loads a scenario file.
pub fn load_str(text: &str) -> Result<Scenario, LoadError> {
    if text.len() > MAX_TEXT_BYTES {
        return fail(
            "$",
            format!(
                "the scenario is {} bytes; the limit is {MAX_TEXT_BYTES} bytes (MAX_TEXT_BYTES)",
                text.len()
            ),
        );
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
    Ok(Scenario {
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
        costs: costs_mode(root.get("costs"))?,
    })
}

/// `broker`: one of the version profiles (`crate::version`), absent meaning 3.10.
fn broker_field(root: &Obj) -> R<Option<crate::version::BrokerVersion>> {
    version_value(root.get("broker"), &root.p("broker"))
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
    "costs",
];
const TOPOLOGY_LISTS: &[&str] = &["exchanges", "queues", "bindings"];
/// The other top-level sections of a RabbitMQ `definitions.json`.
const DEFINITIONS_KEYS: &[&str] = &[
    "rabbit_version",
    "rabbitmq_version",
    "product_name",
    "product_version",
    "users",
    "vhosts",
    "permissions",
    "topic_permissions",
    "parameters",
    "global_parameters",
    "policies",
];
const EXCHANGE_KEYS: &[&str] = &[
    "name",
    "vhost",
    "type",
    "durable",
    "auto_delete",
    "internal",
    "arguments",
];
const QUEUE_KEYS: &[&str] = &[
    "name",
    "vhost",
    "type",
    "durable",
    "auto_delete",
    "exclusive",
    "arguments",
];
const BINDING_KEYS: &[&str] = &[
    "source",
    "vhost",
    "destination",
    "destination_type",
    "routing_key",
    "arguments",
];
/// Keys some exports carry on objects, accepted without a note inside `topology`.
const EXPORT_ONLY_KEYS: &[&str] = &["owner"];

// ---------------------------------------------------------------------------------
// Topology

/// Unknown keys met inside `topology`, reported once per (list, key).
#[derive(Default)]
struct Unknowns {
    seen: Vec<(String, usize)>, // (first path, count)
    by_key: HashMap<(&'static str, String), usize>,
}

impl Unknowns {
    fn record(&mut self, list: &'static str, key: &str, path: String) {
        match self.by_key.get(&(list, key.to_string())) {
            Some(&i) => self.seen[i].1 += 1,
            None => {
                self.by_key.insert((list, key.to_string()), self.seen.len());
                self.seen.push((path, 1));
            }
        }
    }
}

fn topology(o: &Obj) -> R<Topology> {
    let mut t = Topology::default();
    let mut unknown = Unknowns::default();
    if let Some(v) = o.get("not_simulated") {
        let p = o.p("not_simulated");
        let Value::Array(items) = v else {
            return fail(p, expected("a list of strings", v));
        };
        for (i, item) in items.iter().enumerate() {
            match item {
                Value::String(s) => t.not_simulated.push(s.clone()),
                other => return fail(index(&p, i), expected("a string", other)),
            }
        }
    }
    let mut skipped: Vec<String> = Vec::new();
    let lists = [
        ("exchanges", MAX_EXCHANGES, "MAX_EXCHANGES"),
        ("queues", MAX_QUEUES, "MAX_QUEUES"),
        ("bindings", MAX_BINDINGS, "MAX_BINDINGS"),
    ];
    for (list, max, max_name) in lists {
        let items = o.array(list)?;
        if items.len() > max {
            return fail(
                o.p(list),
                format!("{} {list}; the limit is {max} ({max_name})", items.len()),
            );
        }
        let mut other_vhosts = 0usize;
        for (i, item) in items.iter().enumerate() {
            let io = as_obj(item, index(&o.p(list), i))?;
            if !vhost_is_default(&io)? {
                other_vhosts += 1;
                continue;
            }
            match list {
                "exchanges" => t.exchanges.push(exchange_def(&io, Some(&mut unknown))?),
                "queues" => t.queues.push(queue_def(&io, Some(&mut unknown))?),
                _ => t.bindings.push(binding_def(&io, Some(&mut unknown))?),
            }
        }
        if other_vhosts > 0 {
            skipped.push(format!(
                "{list}: {other_vhosts} {} in vhosts other than \"/\" {} not simulated (only the default vhost is)",
                plural(other_vhosts, &list[..list.len() - 1], list),
                if other_vhosts == 1 { "is" } else { "are" },
            ));
        }
    }
    for key in DEFINITIONS_KEYS {
        if let Some(v) = o.get(key) {
            if let Some(line) = definitions_note(key, v) {
                t.not_simulated.push(line);
            }
        }
    }
    t.not_simulated.extend(skipped);
    for key in o.m.keys() {
        let k = key.as_str();
        if !TOPOLOGY_LISTS.contains(&k) && !DEFINITIONS_KEYS.contains(&k) && k != "not_simulated" {
            unknown.record("topology", k, o.p(k));
        }
    }
    for (path, count) in unknown.seen {
        t.not_simulated.push(if count == 1 {
            format!("{path}: unknown key ignored")
        } else {
            format!(
                "{path}: unknown key ignored (here and in {} more objects)",
                count - 1
            )
        });
    }
    Ok(t)
}

/// The note for one non-simulated section of a definitions export, if it says anything.
fn definitions_note(key: &str, v: &Value) -> Option<String> {
    let n = match v {
        Value::Array(items) => items.len(),
        Value::Null => 0,
        Value::Object(m) => m.len(),
        _ => return None, // rabbit_version and the like: metadata, nothing to report
    };
    let count =
        |one: &str, many: &str| format!("{key}: {n} {} {}", plural(n, one, many), is_are(n));
    match key {
        "users" if n > 0 => Some(format!(
            "{} not simulated (no authentication or authorization)",
            count("user", "users")
        )),
        "permissions" if n > 0 => Some(format!(
            "{} not simulated",
            count("permission", "permissions")
        )),
        "topic_permissions" if n > 0 => Some(format!(
            "{} not simulated",
            count("topic permission", "topic permissions")
        )),
        "parameters" if n > 0 => Some(format!(
            "{} not simulated (shovels, federation and other runtime parameters)",
            count("parameter", "parameters")
        )),
        "global_parameters" if n > 0 => Some(format!(
            "{} not simulated",
            count("global parameter", "global parameters")
        )),
        "policies" if n > 0 => Some(format!(
            "{} not simulated (DLX/TTL set by policy is not applied)",
            count("policy", "policies")
        )),
        "vhosts" => {
            let Value::Array(items) = v else { return None };
            let others: Vec<String> = items
                .iter()
                .filter(|vh| vh.get("name").and_then(Value::as_str) != Some("/"))
                .map(|vh| match vh.get("name").and_then(Value::as_str) {
                    Some(name) => short_quote(name),
                    None => "(unnamed)".into(),
                })
                .collect();
            if others.is_empty() {
                return None;
            }
            const SHOWN: usize = 5;
            let mut names = others
                .iter()
                .take(SHOWN)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            if others.len() > SHOWN {
                names.push_str(", ...");
            }
            Some(format!(
                "vhosts: {} other than \"/\" {} not simulated: {names}",
                plural_n(others.len(), "vhost", "vhosts"),
                is_are(others.len())
            ))
        }
        _ => None,
    }
}

fn vhost_is_default(o: &Obj) -> R<bool> {
    match o.get("vhost") {
        None => Ok(true),
        Some(Value::String(s)) => Ok(s == "/"),
        Some(other) => fail(o.p("vhost"), expected("a string", other)),
    }
}

/// Checks an object's keys: strictly (an error) outside `topology`, with a note inside.
fn check_object_keys(
    o: &Obj,
    allowed: &[&str],
    list: &'static str,
    unknown: Option<&mut Unknowns>,
) -> R<()> {
    match unknown {
        None => o.check_keys(allowed),
        Some(u) => {
            for k in o.m.keys() {
                if !allowed.contains(&k.as_str()) && !EXPORT_ONLY_KEYS.contains(&k.as_str()) {
                    u.record(list, k, o.p(k));
                }
            }
            Ok(())
        }
    }
}

/// Outside `topology` only the default vhost may be named.
fn strict_vhost(o: &Obj, unknown: &Option<&mut Unknowns>) -> R<()> {
    if unknown.is_none() && !vhost_is_default(o)? {
        return fail(o.p("vhost"), "only the default vhost \"/\" is simulated");
    }
    Ok(())
}

fn exchange_def(o: &Obj, unknown: Option<&mut Unknowns>) -> R<ExchangeDef> {
    strict_vhost(o, &unknown)?;
    check_object_keys(o, EXCHANGE_KEYS, "exchanges", unknown)?;
    Ok(ExchangeDef {
        name: o.name_req("name")?,
        kind: o.str_req("type")?,
        durable: o.bool_or("durable", true)?,
        auto_delete: o.bool_or("auto_delete", false)?,
        internal: o.bool_or("internal", false)?,
        arguments: o.table_or_empty("arguments")?,
    })
}

fn queue_def(o: &Obj, unknown: Option<&mut Unknowns>) -> R<QueueDef> {
    strict_vhost(o, &unknown)?;
    check_object_keys(o, QUEUE_KEYS, "queues", unknown)?;
    let mut arguments = o.table_or_empty("arguments")?;
    // Newer definitions exports carry the queue type beside the arguments.
    if let Some(kind) = o.str_opt("type")? {
        if !arguments.contains_key("x-queue-type") {
            arguments.insert("x-queue-type", crate::value::FieldValue::str(&kind));
        }
    }
    Ok(QueueDef {
        name: o.name_req("name")?,
        durable: o.bool_or("durable", true)?,
        auto_delete: o.bool_or("auto_delete", false)?,
        exclusive: o.bool_or("exclusive", false)?,
        arguments,
    })
}

fn binding_def(o: &Obj, unknown: Option<&mut Unknowns>) -> R<BindingDef> {
    strict_vhost(o, &unknown)?;
    check_object_keys(o, BINDING_KEYS, "bindings", unknown)?;
    let destination_type = match o.get("destination_type") {
        None => DestinationKind::Queue,
        Some(Value::String(s)) if s == "queue" => DestinationKind::Queue,
        Some(Value::String(s)) if s == "exchange" => DestinationKind::Exchange,
        Some(other) => {
            return fail(
                o.p("destination_type"),
                expected("\"queue\" or \"exchange\"", other),
            )
        }
    };
    Ok(BindingDef {
        source: o.name_req("source")?,
        destination: o.name_req("destination")?,
        destination_type,
        routing_key: o.name_or("routing_key")?,
        arguments: o.table_or_empty("arguments")?,
    })
}

// ---------------------------------------------------------------------------------
// Consumers

fn consumers(items: &[Value]) -> R<Vec<ConsumerSpec>> {
    if items.len() > MAX_CONSUMERS {
        return fail(
            "consumers",
            format!(
                "{} consumers; the limit is {MAX_CONSUMERS} (MAX_CONSUMERS)",
                items.len()
            ),
        );
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let o = as_obj(item, index("consumers", i))?;
        o.check_keys(CONSUMER_KEYS)?;
        let name = o.name_req("name")?;
        if let Some(first) = seen.get(name.as_str()) {
            return fail(
                o.p("name"),
                format!(
                    "duplicate consumer name {} (also consumers[{first}])",
                    short_quote(&name)
                ),
            );
        }
        if let Some(Value::String(s)) = o.get("name") {
            seen.insert(s.as_str(), i);
        }
        out.push(consumer(&o)?);
    }
    Ok(out)
}

/// The keys a consumer object may have.
const CONSUMER_KEYS: &[&str] = &[
    "name", "queue", "ack", "prefetch", "handle", "outcome", "from", "to",
];

/// One consumer object; `consumers` checks the list (its length, duplicate names).
fn consumer(o: &Obj) -> R<ConsumerSpec> {
    o.check_keys(CONSUMER_KEYS)?;
    let name = o.name_req("name")?;
    let ack = match o.get("ack") {
        None => AckMode::Manual,
        Some(Value::String(s)) if s == "manual" => AckMode::Manual,
        Some(Value::String(s)) if s == "auto" => AckMode::Auto,
        Some(other) => return fail(o.p("ack"), expected("\"manual\" or \"auto\"", other)),
    };
    let from_ms = o.dur_opt("from")?.unwrap_or(0);
    let to_ms = o.dur_opt("to")?;
    if let Some(to) = to_ms {
        if to <= from_ms {
            return fail(
                o.p("to"),
                format!(
                    "to ({}) must be after from ({})",
                    format_duration(to),
                    format_duration(from_ms)
                ),
            );
        }
    }
    Ok(ConsumerSpec {
        name,
        queue: o.name_req("queue")?,
        ack,
        prefetch: o.uint_opt("prefetch", u64::from(u32::MAX))?.unwrap_or(0) as u32,
        handle_ms: o.dur_opt("handle")?.unwrap_or(0),
        outcome: match o.get("outcome") {
            None => OutcomePlan::Fixed(Outcome::Ack),
            Some(v) => outcome_plan(v, &o.p("outcome"))?,
        },
        from_ms,
        to_ms,
    })
}

const OUTCOME_FORMS: &str = "\"ack\", \"reject\", \"requeue\" or \"reject_requeue\", a list of \
                             those, or an object of weights such as {\"ack\": 0.9, \"requeue\": 0.1}";

fn outcome_of(s: &str) -> Option<Outcome> {
    match s {
        "ack" => Some(Outcome::Ack),
        "reject" => Some(Outcome::Reject),
        "requeue" => Some(Outcome::Requeue),
        "reject_requeue" => Some(Outcome::RejectRequeue),
        _ => None,
    }
}

fn outcome_plan(v: &Value, path: &str) -> R<OutcomePlan> {
    match v {
        Value::String(s) => match outcome_of(s) {
            Some(o) => Ok(OutcomePlan::Fixed(o)),
            None => fail(path, expected(OUTCOME_FORMS, v)),
        },
        Value::Array(items) => {
            if items.is_empty() {
                return fail(path, "an outcome list needs at least one entry");
            }
            let mut seq = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                match item.as_str().and_then(outcome_of) {
                    Some(o) => seq.push(o),
                    None => {
                        return fail(
                            index(path, i),
                            expected(
                                "\"ack\", \"reject\", \"requeue\" or \"reject_requeue\"",
                                item,
                            ),
                        )
                    }
                }
            }
            Ok(OutcomePlan::Sequence(seq))
        }
        Value::Object(m) => {
            if m.is_empty() {
                return fail(path, "an object of weights needs at least one outcome");
            }
            let mut weights = Vec::with_capacity(m.len());
            for (k, w) in m {
                let p = join(path, k);
                let Some(o) = outcome_of(k) else {
                    return fail(
                        p,
                        "unknown outcome; expected ack, reject, requeue or reject_requeue",
                    );
                };
                match w.as_f64() {
                    Some(x) if x.is_finite() && x > 0.0 => weights.push((o, x)),
                    _ => return fail(p, expected("a weight: a number greater than 0", w)),
                }
            }
            Ok(OutcomePlan::Weighted(weights))
        }
        other => fail(path, expected(OUTCOME_FORMS, other)),
    }
}

// ---------------------------------------------------------------------------------
// Actions

const ACTION_KINDS: &[&str] = &[
    "publish",
    "declare",
    "delete",
    "purge",
    "get",
    "restart_node",
    "lose_node",
    "upgrade",
];

fn actions(items: &[Value]) -> R<Vec<Action>> {
    if items.len() > MAX_ACTIONS {
        return fail(
            "actions",
            format!(
                "{} actions; the limit is {MAX_ACTIONS} (MAX_ACTIONS)",
                items.len()
            ),
        );
    }
    let mut publishes: u64 = 0;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let o = as_obj(item, index("actions", i))?;
        let action = action(&o)?;
        if let ActionKind::Publish(_) = action.kind {
            publishes = publishes.saturating_add(action.repeat.map_or(1, |r| u64::from(r.count)));
            if publishes > MAX_PUBLISHES_TOTAL {
                let path = if action.repeat.is_some() {
                    o.p("repeat") + ".count"
                } else {
                    o.path.clone()
                };
                return fail(
                    path,
                    format!(
                        "the scenario publishes more than {MAX_PUBLISHES_TOTAL} messages in total, repeat counts \
                         included (MAX_PUBLISHES_TOTAL)"
                    ),
                );
            }
        }
        out.push(action);
    }
    Ok(out)
}

fn action(o: &Obj) -> R<Action> {
    let mut allowed = vec!["at", "repeat"];
    allowed.extend_from_slice(ACTION_KINDS);
    o.check_keys(&allowed)?;
    let present: Vec<&str> = ACTION_KINDS
        .iter()
        .copied()
        .filter(|k| o.m.contains_key(*k))
        .collect();
    let kind_key = match present.as_slice() {
        [one] => *one,
        [] => {
            return fail(
                o.path.clone(),
                format!("an action needs one of {}", ACTION_KINDS.join(", ")),
            )
        }
        [a, b, ..] => {
            return fail(
                o.path.clone(),
                format!(
                    "an action has exactly one of {}; found {a} and {b}",
                    ACTION_KINDS.join(", ")
                ),
            )
        }
    };
    let at_ms = o.dur_req("at")?;
    let kp = o.p(kind_key);
    let kv = o.get(kind_key).unwrap_or(&Value::Null);
    let kind = match kind_key {
        "publish" => ActionKind::Publish(publish(&as_obj(kv, kp)?)?),
        "declare" => {
            let d = as_obj(kv, kp)?;
            match one_of(&d, &["queue", "exchange", "binding"])? {
                "queue" => ActionKind::Declare(Declare::Queue(queue_def(&d.obj("queue")?, None)?)),
                "exchange" => {
                    ActionKind::Declare(Declare::Exchange(exchange_def(&d.obj("exchange")?, None)?))
                }
                _ => ActionKind::Declare(Declare::Binding(binding_def(&d.obj("binding")?, None)?)),
            }
        }
        "delete" => {
            let d = as_obj(kv, kp)?;
            match one_of(&d, &["queue", "exchange", "binding"])? {
                "queue" => ActionKind::Delete(Delete::Queue {
                    name: name_ref(&d, "queue")?,
                }),
                "exchange" => ActionKind::Delete(Delete::Exchange {
                    name: name_ref(&d, "exchange")?,
                }),
                _ => ActionKind::Delete(Delete::Binding(binding_def(&d.obj("binding")?, None)?)),
            }
        }
        "purge" | "get" => {
            let d = as_obj(kv, kp)?;
            d.check_keys(&["queue"])?;
            if d.get("queue").is_none() {
                return fail(d.p("queue"), "missing (required)");
            }
            let queue = name_ref(&d, "queue")?;
            if kind_key == "purge" {
                ActionKind::Purge { queue }
            } else {
                ActionKind::Get { queue }
            }
        }
        "restart_node" => {
            let d = as_obj(kv, kp)?;
            d.check_keys(&["downtime"])?;
            ActionKind::RestartNode {
                downtime_ms: d.dur_opt("downtime")?.unwrap_or(0),
            }
        }
        "upgrade" => {
            let d = as_obj(kv, kp)?;
            d.check_keys(&["to", "downtime"])?;
            ActionKind::Upgrade {
                to: version_value(d.get("to"), &d.p("to"))?
                    .ok_or_else(|| LoadError::new(d.p("to"), "missing (required)"))?,
                downtime_ms: d.dur_opt("downtime")?.unwrap_or(0),
            }
        }
        _ => {
            let d = as_obj(kv, kp)?;
            d.check_keys(&[])?;
            ActionKind::LoseNode
        }
    };
    let repeat = match o.get("repeat") {
        None => None,
        Some(v) => {
            let rp = o.p("repeat");
            if kind_key != "publish" {
                return fail(rp, "repeat is only allowed with publish");
            }
            let r = as_obj(v, rp)?;
            r.check_keys(&["count", "every"])?;
            let count = match r.get("count") {
                None => return fail(r.p("count"), "missing (required)"),
                Some(c) => uint(c, &r.p("count"), u64::from(u32::MAX))?,
            };
            if count == 0 {
                return fail(
                    r.p("count"),
                    "count must be at least 1 (it includes the first run)",
                );
            }
            let every_ms = r.dur_req("every")?;
            let last = u128::from(at_ms) + u128::from(count - 1) * u128::from(every_ms);
            if last > u128::from(MAX_DURATION_MS) {
                return fail(
                    r.path.clone(),
                    format!(
                        "the last run would be at {}ms, after the limit of {} (MAX_DURATION_MS)",
                        last,
                        format_duration(MAX_DURATION_MS)
                    ),
                );
            }
            Some(Repeat {
                count: count as u32,
                every_ms,
            })
        }
    };
    Ok(Action {
        at_ms,
        kind,
        repeat,
    })
}

/// The single key among `keys` an object has (`{"queue": ...}` in declare and delete).
fn one_of(o: &Obj, keys: &[&'static str]) -> R<&'static str> {
    o.check_keys(keys)?;
    let present: Vec<&'static str> = keys
        .iter()
        .copied()
        .filter(|k| o.m.contains_key(*k))
        .collect();
    match present.as_slice() {
        [one] => Ok(one),
        [] => fail(
            o.path.clone(),
            format!("expected one of {}", keys.join(", ")),
        ),
        [a, b, ..] => fail(
            o.path.clone(),
            format!(
                "expected exactly one of {}; found {a} and {b}",
                keys.join(", ")
            ),
        ),
    }
}

/// A queue or exchange named as `"name"` or `{"name": "name"}`.
fn name_ref(o: &Obj, key: &str) -> R<String> {
    let p = o.p(key);
    match o.get(key) {
        Some(Value::String(s)) => check_name(s, &p),
        Some(Value::Object(m)) => {
            let inner = Obj { m, path: p };
            inner.check_keys(&["name", "vhost"])?;
            strict_vhost(&inner, &None)?;
            inner.name_req("name")
        }
        Some(other) => fail(p, expected("a name or an object {\"name\": ...}", other)),
        None => fail(p, "missing (required)"),
    }
}

fn publish(o: &Obj) -> R<PublishSpec> {
    o.check_keys(&["exchange", "routing_key", "body", "properties", "mandatory"])?;
    let body = o.str_or("body", "")?;
    if body.len() > MAX_BODY_BYTES {
        return fail(
            o.p("body"),
            format!(
                "the body is {} bytes; the limit is {MAX_BODY_BYTES} bytes (MAX_BODY_BYTES)",
                body.len()
            ),
        );
    }
    Ok(PublishSpec {
        exchange: o.name_or("exchange")?,
        routing_key: o.name_or("routing_key")?,
        body,
        properties: match o.get("properties") {
            None => Properties::default(),
            Some(v) => properties(&as_obj(v, o.p("properties"))?)?,
        },
        mandatory: o.bool_or("mandatory", false)?,
    })
}

fn properties(o: &Obj) -> R<Properties> {
    o.check_keys(&[
        "expiration",
        "delivery_mode",
        "priority",
        "message_id",
        "correlation_id",
        "content_type",
        "content_encoding",
        "reply_to",
        "timestamp",
        "type",
        "user_id",
        "app_id",
        "headers",
    ])?;
    let expiration = match o.get("expiration") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => {
            return fail(
                o.p("expiration"),
                format!(
                    "expiration must be a JSON string, found the number {n}: AMQP's expiration is a string of \
                     milliseconds, e.g. \"60000\""
                ),
            )
        }
        Some(other) => return fail(o.p("expiration"), expected("a string of milliseconds, e.g. \"60000\"", other)),
    };
    let delivery_mode = match o.get("delivery_mode") {
        None => None,
        Some(v) => match v.as_u64() {
            Some(m @ (1 | 2)) => Some(m as u8),
            _ => {
                return fail(
                    o.p("delivery_mode"),
                    expected("1 (transient) or 2 (persistent)", v),
                )
            }
        },
    };
    Ok(Properties {
        expiration,
        delivery_mode,
        priority: o.uint_opt("priority", 255)?.map(|p| p as u8),
        message_id: o.str_opt("message_id")?,
        correlation_id: o.str_opt("correlation_id")?,
        content_type: o.str_opt("content_type")?,
        content_encoding: o.str_opt("content_encoding")?,
        reply_to: o.str_opt("reply_to")?,
        timestamp: o.uint_opt("timestamp", u64::MAX)?,
        kind: o.str_opt("type")?,
        user_id: o.str_opt("user_id")?,
        app_id: o.str_opt("app_id")?,
        headers: o.table_or_empty("headers")?,
    })
}

// ---------------------------------------------------------------------------------
// One piece on its own: a command from a host page (`crates/engine-js`'s
// `sim.handle({publish: ...})`), checked exactly as the same piece of a scenario file.

/// A publish object (what an action's `publish` holds); error paths start at `path`
/// (`publish.properties.expiration: ...`).
pub fn publish_value(v: &Value, path: &str) -> Result<PublishSpec, LoadError> {
    publish(&as_obj(v, path)?)
}

/// A consumer object (what a `consumers` entry holds); error paths start at `path`.
pub fn consumer_value(v: &Value, path: &str) -> Result<ConsumerSpec, LoadError> {
    consumer(&as_obj(v, path)?)
}

// ---------------------------------------------------------------------------------
// Typed access with paths

pub(crate) struct Obj<'a> {
    m: &'a Map<String, Value>,
    path: String,
}

pub(crate) fn as_obj(v: &Value, path: impl Into<String>) -> R<Obj<'_>> {
    let path = path.into();
    match v {
        Value::Object(m) => Ok(Obj { m, path }),
        other => fail(path, expected("an object", other)),
    }
}

impl<'a> Obj<'a> {
    pub(crate) fn p(&self, key: &str) -> String {
        join(&self.path, key)
    }

    pub(crate) fn get(&self, key: &str) -> Option<&'a Value> {
        self.m.get(key)
    }

    pub(crate) fn check_keys(&self, allowed: &[&str]) -> R<()> {
        match self.m.keys().find(|k| !allowed.contains(&k.as_str())) {
            Some(k) => fail(self.p(k), unknown_message(allowed)),
            None => Ok(()),
        }
    }

    pub(crate) fn obj(&self, key: &str) -> R<Obj<'a>> {
        let p = self.p(key);
        match self.get(key) {
            Some(v) => as_obj(v, p),
            None => fail(p, "missing (required)"),
        }
    }

    /// A list; absent means empty.
    pub(crate) fn array(&self, key: &str) -> R<&'a [Value]> {
        match self.get(key) {
            None => Ok(&[]),
            Some(Value::Array(items)) => Ok(items),
            Some(other) => fail(self.p(key), expected("a list", other)),
        }
    }

    fn str_opt(&self, key: &str) -> R<Option<String>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => fail(self.p(key), expected("a string", other)),
        }
    }

    pub(crate) fn str_or(&self, key: &str, default: &str) -> R<String> {
        Ok(self.str_opt(key)?.unwrap_or_else(|| default.to_string()))
    }

    fn str_req(&self, key: &str) -> R<String> {
        self.str_opt(key)?
            .ok_or_else(|| LoadError::new(self.p(key), "missing (required)"))
    }

    /// An exchange or queue name or a routing key, at most `MAX_NAME_BYTES`.
    fn name_req(&self, key: &str) -> R<String> {
        let s = self.str_req(key)?;
        check_name(&s, &self.p(key))
    }

    /// Like `name_req`, empty when absent.
    fn name_or(&self, key: &str) -> R<String> {
        let s = self.str_or(key, "")?;
        check_name(&s, &self.p(key))
    }

    pub(crate) fn bool_or(&self, key: &str, default: bool) -> R<bool> {
        match self.get(key) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => fail(self.p(key), expected("true or false", other)),
        }
    }

    pub(crate) fn uint_opt(&self, key: &str, max: u64) -> R<Option<u64>> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => uint(v, &self.p(key), max).map(Some),
        }
    }

    pub(crate) fn dur_opt(&self, key: &str) -> R<Option<u64>> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => duration(v, &self.p(key)).map(Some),
        }
    }

    pub(crate) fn dur_req(&self, key: &str) -> R<u64> {
        self.dur_opt(key)?
            .ok_or_else(|| LoadError::new(self.p(key), "missing (required)"))
    }

    /// A field table (`arguments`, `headers`); absent means empty.
    fn table_or_empty(&self, key: &str) -> R<Table> {
        match self.get(key) {
            None => Ok(Table::new()),
            Some(v) => table(v, &self.p(key)),
        }
    }
}

fn check_name(s: &str, path: &str) -> R<String> {
    if s.len() > MAX_NAME_BYTES {
        return fail(
            path,
            format!(
                "{} bytes; the limit is {MAX_NAME_BYTES} bytes (MAX_NAME_BYTES: names and routing keys are AMQP short strings)",
                s.len()
            ),
        );
    }
    Ok(s.to_string())
}

pub(crate) fn uint(v: &Value, path: &str, max: u64) -> R<u64> {
    match v.as_u64() {
        Some(n) if n <= max => Ok(n),
        _ => fail(path, expected(&format!("an integer from 0 to {max}"), v)),
    }
}

pub(crate) fn duration(v: &Value, path: &str) -> R<u64> {
    let ms = duration_from_json(v).map_err(|m| LoadError::new(path, m))?;
    if ms > MAX_DURATION_MS {
        return fail(
            path,
            format!(
                "{} is beyond the limit of {} (MAX_DURATION_MS)",
                format_duration(ms),
                format_duration(MAX_DURATION_MS)
            ),
        );
    }
    Ok(ms)
}

fn table(v: &Value, path: &str) -> R<Table> {
    let Value::Object(m) = v else {
        return fail(path, expected("an object (a field table)", v));
    };
    if let Some(mut segments) = too_deep(v, 1) {
        segments.reverse();
        let mut p = path.to_string();
        for seg in segments {
            match seg {
                Seg::Key(k) => p = join(&p, k),
                Seg::Index(i) => p = index(&p, i),
            }
        }
        return fail(
            p,
            format!("nested more than {MAX_HEADER_DEPTH} levels deep (MAX_HEADER_DEPTH)"),
        );
    }
    Ok(Table::from_json_map(m))
}

enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

/// The path (innermost segment first) to the first table or array nested deeper than
/// `MAX_HEADER_DEPTH`; recursion stops there, so its depth is bounded.
fn too_deep(v: &Value, depth: usize) -> Option<Vec<Seg<'_>>> {
    let nested = matches!(v, Value::Object(_) | Value::Array(_));
    if nested && depth > MAX_HEADER_DEPTH {
        return Some(Vec::new());
    }
    match v {
        Value::Object(m) => m.iter().find_map(|(k, c)| {
            too_deep(c, depth + 1).map(|mut s| {
                s.push(Seg::Key(k));
                s
            })
        }),
        Value::Array(items) => items.iter().enumerate().find_map(|(i, c)| {
            too_deep(c, depth + 1).map(|mut s| {
                s.push(Seg::Index(i));
                s
            })
        }),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------
// Paths and messages

/// `path.key`, or `path["odd key"]` for keys that are not plain words.
fn join(path: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && key.len() <= 64
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    match (path.is_empty(), plain) {
        (true, true) => key.to_string(),
        (false, true) => format!("{path}.{key}"),
        (_, false) => format!("{path}[{}]", short_quote(key)),
    }
}

pub(crate) fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

fn unknown_message(allowed: &[&str]) -> String {
    if allowed.is_empty() {
        "unknown field; this object takes no fields".into()
    } else {
        format!("unknown field; expected one of: {}", allowed.join(", "))
    }
}

pub(crate) fn expected(what: &str, found: &Value) -> String {
    format!("expected {what}, found {}", describe(found))
}

fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {}", short_quote(s)),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// JSON-quoted, cut to a readable length.
fn short_quote(s: &str) -> String {
    const MAX_CHARS: usize = 60;
    if s.chars().count() > MAX_CHARS {
        let head: String = s.chars().take(MAX_CHARS).collect();
        format!("{}...", Value::String(head))
    } else {
        Value::String(s.to_string()).to_string()
    }
}

fn plural<'s>(n: usize, one: &'s str, many: &'s str) -> &'s str {
    if n == 1 {
        one
    } else {
        many
    }
}

fn plural_n(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", plural(n, one, many))
}

fn is_are(n: usize) -> &'static str {
    if n == 1 {
        "is"
    } else {
        "are"
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::value::FieldValue;
    use serde_json::json;

    /// Loads `{"actions": [...], ...}` built from `v` and returns the error's path and message.
    fn err(v: Value) -> (String, String) {
        match load_value(&v) {
            Ok(s) => panic!("loaded: {s:?}"),
            Err(e) => (e.path, e.message),
        }
    }

    fn assert_err(v: Value, path: &str, needle: &str) {
        let (p, m) = err(v);
        assert_eq!(p, path, "message: {m}");
        assert!(m.contains(needle), "message {m:?} lacks {needle:?}");
    }

    fn ok(v: Value) -> Scenario {
        load_value(&v).unwrap_or_else(|e| panic!("{e}"))
    }

    fn publish_with(props: Value) -> Value {
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
    fn display_is_path_colon_message() {
        let e = LoadError::new("actions[3].at", "boom");
        assert_eq!(e.to_string(), "actions[3].at: boom");
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
    fn duration_limit() {
        assert_eq!(ok(json!({"until": "366d"})).until_ms, Some(MAX_DURATION_MS));
        assert_err(
            json!({"until": "367d"}),
            "until",
            "367d is beyond the limit of 366d (MAX_DURATION_MS)",
        );
        assert_err(json!({"until": u64::MAX}), "until", "MAX_DURATION_MS");
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
    fn exchange_fields_and_defaults() {
        let s = ok(json!({"topology": {"exchanges": [
            {"name": "e", "type": "topic"},
            {"name": "f", "type": "x-delayed-message", "durable": false, "auto_delete": true, "internal": true,
             "arguments": {"x-delayed-type": "direct"}}]}}));
        assert_eq!(s.topology.exchanges[0], ExchangeDef::new("e", "topic"));
        let f = &s.topology.exchanges[1];
        assert!(!f.durable && f.auto_delete && f.internal);
        assert_eq!(
            f.arguments.get("x-delayed-type"),
            Some(&FieldValue::str("direct"))
        );
        assert_err(
            json!({"topology": {"exchanges": [{"name": "e"}]}}),
            "topology.exchanges[0].type",
            "missing",
        );
        assert_err(
            json!({"topology": {"exchanges": [{"name": "e", "type": "direct", "durable": "yes"}]}}),
            "topology.exchanges[0].durable",
            "expected true or false",
        );
        assert_err(
            json!({"topology": {"exchanges": [{"name": "e", "type": "direct", "arguments": []}]}}),
            "topology.exchanges[0].arguments",
            "expected an object (a field table), found a list",
        );
    }

    #[test]
    fn queue_fields_defaults_and_type() {
        let s = ok(json!({"topology": {"queues": [
            {"name": "q"},
            {"name": "r", "type": "quorum", "durable": true, "exclusive": true},
            {"name": "s", "type": "quorum", "arguments": {"x-queue-type": "classic"}}]}}));
        assert_eq!(s.topology.queues[0], QueueDef::new("q"));
        assert_eq!(
            s.topology.queues[1].arguments.get("x-queue-type"),
            Some(&FieldValue::str("quorum"))
        );
        assert!(s.topology.queues[1].exclusive);
        assert_eq!(
            s.topology.queues[2].arguments.get("x-queue-type"),
            Some(&FieldValue::str("classic"))
        );
        assert_err(
            json!({"topology": {"queues": [{"durable": true}]}}),
            "topology.queues[0].name",
            "missing",
        );
        assert_err(
            json!({"topology": {"queues": [{"name": "q", "type": 1}]}}),
            "topology.queues[0].type",
            "a string",
        );
    }

    #[test]
    fn arguments_keep_types_and_are_not_judged() {
        let s = ok(json!({"topology": {"queues": [{"name": "q", "arguments":
            {"x-message-ttl": -5, "x-max-length": "10", "x-dead-letter-exchange": 1.5}}]}}));
        let a = &s.topology.queues[0].arguments;
        assert_eq!(a.get("x-message-ttl"), Some(&FieldValue::Int(-5)));
        assert_eq!(a.get("x-max-length"), Some(&FieldValue::str("10")));
        assert_eq!(
            a.get("x-dead-letter-exchange"),
            Some(&FieldValue::Float(1.5))
        );
    }

    #[test]
    fn binding_fields_and_defaults() {
        let s = ok(json!({"topology": {"bindings": [
            {"source": "e", "destination": "q"},
            {"source": "e", "destination": "f", "destination_type": "exchange", "routing_key": "k",
             "arguments": {"x-match": "any"}}]}}));
        assert_eq!(s.topology.bindings[0], BindingDef::queue("e", "q", ""));
        assert_eq!(
            s.topology.bindings[1].destination_type,
            DestinationKind::Exchange
        );
        assert_err(
            json!({"topology": {"bindings": [{"source": "e", "destination": "q", "destination_type": "stream"}]}}),
            "topology.bindings[0].destination_type",
            "expected \"queue\" or \"exchange\"",
        );
        assert_err(
            json!({"topology": {"bindings": [{"source": "e"}]}}),
            "topology.bindings[0].destination",
            "missing",
        );
    }

    #[test]
    fn real_definitions_export_loads_with_notes() {
        let defs = json!({
            "rabbit_version": "3.13.7", "rabbitmq_version": "3.13.7",
            "product_name": "RabbitMQ", "product_version": "3.13.7",
            "users": [{"name": "guest", "password_hash": "x", "hashing_algorithm": "rabbit_password_hashing_sha256",
                       "tags": ["administrator"], "limits": {}}],
            "vhosts": [{"name": "/"}, {"name": "staging"}],
            "permissions": [{"user": "guest", "vhost": "/", "configure": ".*", "write": ".*", "read": ".*"}],
            "topic_permissions": [],
            "parameters": [],
            "global_parameters": [{"name": "cluster_name", "value": "rabbit@host"}],
            "policies": [{"vhost": "/", "name": "dlx", "pattern": ".*", "apply-to": "queues",
                          "definition": {"dead-letter-exchange": "dlx"}, "priority": 0},
                         {"vhost": "/", "name": "ttl", "pattern": "^t", "apply-to": "queues",
                          "definition": {"message-ttl": 1000}, "priority": 1}],
            "queues": [{"name": "q", "vhost": "/", "durable": true, "auto_delete": false,
                        "arguments": {"x-queue-type": "classic"}},
                       {"name": "qq", "vhost": "/", "durable": true, "auto_delete": false, "type": "quorum",
                        "arguments": {}},
                       {"name": "s", "vhost": "staging", "durable": true, "auto_delete": false, "arguments": {}}],
            "exchanges": [{"name": "e", "vhost": "/", "type": "direct", "durable": true, "auto_delete": false,
                           "internal": false, "arguments": {}}],
            "bindings": [{"source": "e", "vhost": "/", "destination": "q", "destination_type": "queue",
                          "routing_key": "k", "arguments": {}}]
        });
        let s = ok(json!({"topology": defs}));
        assert_eq!(s.topology.exchanges, vec![ExchangeDef::new("e", "direct")]);
        assert_eq!(s.topology.queues.len(), 2);
        assert_eq!(
            s.topology.queues[1].arguments.get("x-queue-type"),
            Some(&FieldValue::str("quorum"))
        );
        assert_eq!(s.topology.bindings, vec![BindingDef::queue("e", "q", "k")]);
        assert_eq!(
            s.topology.not_simulated,
            vec![
                "users: 1 user is not simulated (no authentication or authorization)",
                "vhosts: 1 vhost other than \"/\" is not simulated: \"staging\"",
                "permissions: 1 permission is not simulated",
                "global_parameters: 1 global parameter is not simulated",
                "policies: 2 policies are not simulated (DLX/TTL set by policy is not applied)",
                "queues: 1 queue in vhosts other than \"/\" is not simulated (only the default vhost is)",
            ]
        );
    }

    #[test]
    fn unknown_keys_inside_topology_are_noted_not_errors() {
        let s = ok(json!({"topology": {
            "bindigns": [],
            "queues": [{"name": "a", "argumnets": {}}, {"name": "b", "argumnets": {}}, {"name": "c", "owner": "x"}]}}));
        assert_eq!(
            s.topology.not_simulated,
            vec![
                "topology.queues[0].argumnets: unknown key ignored (here and in 1 more objects)",
                "topology.bindigns: unknown key ignored",
            ]
        );
    }

    #[test]
    fn topology_shape_errors() {
        assert_err(
            json!({"topology": []}),
            "topology",
            "expected an object, found a list",
        );
        assert_err(
            json!({"topology": {"queues": {}}}),
            "topology.queues",
            "expected a list, found an object",
        );
        assert_err(
            json!({"topology": {"queues": ["q"]}}),
            "topology.queues[0]",
            "expected an object",
        );
        assert_err(
            json!({"topology": {"queues": [{"name": "q", "vhost": 1}]}}),
            "topology.queues[0].vhost",
            "a string",
        );
        assert_err(
            json!({"topology": {"not_simulated": [1]}}),
            "topology.not_simulated[0]",
            "expected a string",
        );
    }

    #[test]
    fn not_simulated_extension_is_read_back_first() {
        let s = ok(json!({"topology": {"not_simulated": ["saved note"], "policies": [{}]}}));
        assert_eq!(s.topology.not_simulated[0], "saved note");
        assert_eq!(s.topology.not_simulated.len(), 2);
    }

    #[test]
    fn topology_count_limits() {
        let queues: Vec<Value> = (0..=MAX_QUEUES)
            .map(|i| json!({"name": format!("q{i}")}))
            .collect();
        assert_err(
            json!({"topology": {"queues": queues}}),
            "topology.queues",
            "10001 queues; the limit is 10000 (MAX_QUEUES)",
        );
        let exchanges: Vec<Value> = (0..=MAX_EXCHANGES).map(|_| json!({})).collect();
        assert_err(
            json!({"topology": {"exchanges": exchanges}}),
            "topology.exchanges",
            "MAX_EXCHANGES",
        );
        let bindings: Vec<Value> = (0..=MAX_BINDINGS).map(|_| json!({})).collect();
        assert_err(
            json!({"topology": {"bindings": bindings}}),
            "topology.bindings",
            "MAX_BINDINGS",
        );
    }

    #[test]
    fn name_length_limit() {
        let long = "n".repeat(MAX_NAME_BYTES + 1);
        assert_eq!(
            ok(json!({"topology": {"queues": [{"name": "n".repeat(MAX_NAME_BYTES)}]}}))
                .topology
                .queues
                .len(),
            1
        );
        assert_err(
            json!({"topology": {"queues": [{"name": long}]}}),
            "topology.queues[0].name",
            "256 bytes; the limit is 255 bytes (MAX_NAME_BYTES",
        );
        assert_err(
            json!({"topology": {"bindings": [{"source": "e", "destination": "q", "routing_key": long}]}}),
            "topology.bindings[0].routing_key",
            "MAX_NAME_BYTES",
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {"exchange": long}}]}),
            "actions[0].publish.exchange",
            "MAX_NAME_BYTES",
        );
        assert_err(
            json!({"actions": [{"at": 0, "purge": {"queue": long}}]}),
            "actions[0].purge.queue",
            "MAX_NAME_BYTES",
        );
    }

    #[test]
    fn consumer_fields_and_defaults() {
        let s = ok(json!({"consumers": [{"name": "c", "queue": "q"},
            {"name": "d", "queue": "q", "ack": "auto", "prefetch": 10, "handle": "1h", "from": "1m", "to": "2m"}]}));
        let c = &s.consumers[0];
        assert_eq!(
            (c.ack, c.prefetch, c.handle_ms, c.from_ms, c.to_ms),
            (AckMode::Manual, 0, 0, 0, None)
        );
        assert_eq!(c.outcome, OutcomePlan::Fixed(Outcome::Ack));
        let d = &s.consumers[1];
        assert_eq!(
            (d.ack, d.prefetch, d.handle_ms, d.from_ms, d.to_ms),
            (AckMode::Auto, 10, 3_600_000, 60_000, Some(120_000))
        );
        assert_err(
            json!({"consumers": [{"queue": "q"}]}),
            "consumers[0].name",
            "missing (required)",
        );
        assert_err(
            json!({"consumers": [{"name": "c"}]}),
            "consumers[0].queue",
            "missing (required)",
        );
        assert_err(
            json!({"consumers": [{"name": "c", "queue": "q", "ack": "none"}]}),
            "consumers[0].ack",
            "\"manual\" or \"auto\"",
        );
        assert_err(
            json!({"consumers": [{"name": "c", "queue": "q", "prefetch": -1}]}),
            "consumers[0].prefetch",
            "from 0 to 4294967295",
        );
        assert_err(
            json!({"consumers": [{"name": "c", "queue": "q", "qos": 1}]}),
            "consumers[0].qos",
            "unknown field",
        );
    }

    #[test]
    fn consumer_names_are_unique() {
        assert_err(
            json!({"consumers": [{"name": "c", "queue": "q"}, {"name": "c", "queue": "r"}]}),
            "consumers[1].name",
            "duplicate consumer name \"c\" (also consumers[0])",
        );
    }

    #[test]
    fn consumer_to_after_from() {
        assert_err(
            json!({"consumers": [{"name": "c", "queue": "q", "from": "1m", "to": "1m"}]}),
            "consumers[0].to",
            "to (1m) must be after from (1m)",
        );
        assert_err(
            json!({"consumers": [{"name": "c", "queue": "q", "to": 0}]}),
            "consumers[0].to",
            "must be after",
        );
    }

    #[test]
    fn consumer_limit() {
        let cs: Vec<Value> = (0..=MAX_CONSUMERS)
            .map(|i| json!({"name": i.to_string(), "queue": "q"}))
            .collect();
        assert_err(
            json!({"consumers": cs}),
            "consumers",
            "257 consumers; the limit is 256 (MAX_CONSUMERS)",
        );
    }

    #[test]
    fn outcome_forms() {
        let plan = |o: Value| {
            ok(json!({"consumers": [{"name": "c", "queue": "q", "outcome": o}]})).consumers[0]
                .outcome
                .clone()
        };
        assert_eq!(plan(json!("requeue")), OutcomePlan::Fixed(Outcome::Requeue));
        assert_eq!(
            plan(json!(["reject", "ack"])),
            OutcomePlan::Sequence(vec![Outcome::Reject, Outcome::Ack])
        );
        assert_eq!(
            plan(json!({"ack": 0.9, "requeue": 1})),
            OutcomePlan::Weighted(vec![(Outcome::Ack, 0.9), (Outcome::Requeue, 1.0)])
        );
        let bad = |o: Value, path: &str, needle: &str| {
            assert_err(
                json!({"consumers": [{"name": "c", "queue": "q", "outcome": o}]}),
                path,
                needle,
            )
        };
        bad(
            json!("nack"),
            "consumers[0].outcome",
            "expected \"ack\", \"reject\", \"requeue\" or \"reject_requeue\", a list",
        );
        bad(json!([]), "consumers[0].outcome", "at least one entry");
        bad(
            json!(["ack", "drop"]),
            "consumers[0].outcome[1]",
            "expected \"ack\", \"reject\", \"requeue\" or \"reject_requeue\"",
        );
        assert_eq!(
            plan(json!("reject_requeue")),
            OutcomePlan::Fixed(Outcome::RejectRequeue)
        );
        bad(json!({}), "consumers[0].outcome", "at least one outcome");
        bad(
            json!({"ack": 0}),
            "consumers[0].outcome.ack",
            "greater than 0",
        );
        bad(
            json!({"ack": -1}),
            "consumers[0].outcome.ack",
            "greater than 0",
        );
        bad(
            json!({"ack": "1"}),
            "consumers[0].outcome.ack",
            "greater than 0",
        );
        bad(
            json!({"drop": 1}),
            "consumers[0].outcome.drop",
            "unknown outcome",
        );
        bad(json!(1), "consumers[0].outcome", "found the number 1");
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
        assert_err(
            json!({"broker": "4.4"}),
            "broker",
            "unknown RabbitMQ version \"4.4\"; expected \"3.10\", \"3.13\", \"4.0\", \"4.1\", \"4.2\" or \"4.3\"",
        );
        assert_err(json!({"broker": 4.3}), "broker", "a version string");
    }

    #[test]
    fn action_needs_at_and_exactly_one_kind() {
        assert_err(
            json!({"actions": [{"publish": {}}]}),
            "actions[0].at",
            "missing (required)",
        );
        assert_err(
            json!({"actions": [{"at": 0}]}),
            "actions[0]",
            "an action needs one of publish, declare",
        );
        assert_err(
            json!({"actions": [{"at": 0, "purge": {"queue": "q"}, "get": {"queue": "q"}}]}),
            "actions[0]",
            "found purge and get",
        );
        assert_err(
            json!({"actions": [{"at": 0, "sleep": {}}]}),
            "actions[0].sleep",
            "unknown field; expected one of: at, repeat, publish",
        );
        assert_err(
            json!({"actions": [{"at": "soon", "lose_node": {}}]}),
            "actions[0].at",
            "invalid duration \"soon\"",
        );
        assert_err(json!({"actions": {}}), "actions", "expected a list");
        assert_err(json!({"actions": [3]}), "actions[0]", "expected an object");
    }

    #[test]
    fn publish_fields_and_defaults() {
        let s = ok(json!({"actions": [{"at": "1s", "publish": {}},
            {"at": 0, "publish": {"exchange": "e", "routing_key": "k", "body": "b", "mandatory": true}}]}));
        let ActionKind::Publish(p) = &s.actions[0].kind else {
            panic!()
        };
        assert_eq!(
            (
                p.exchange.as_str(),
                p.routing_key.as_str(),
                p.body.as_str(),
                p.mandatory
            ),
            ("", "", "", false)
        );
        assert_eq!(p.properties, Properties::default());
        let ActionKind::Publish(p) = &s.actions[1].kind else {
            panic!()
        };
        assert_eq!(
            (
                p.exchange.as_str(),
                p.routing_key.as_str(),
                p.body.as_str(),
                p.mandatory
            ),
            ("e", "k", "b", true)
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {"body": 5}}]}),
            "actions[0].publish.body",
            "expected a string",
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {"mandatory": 1}}]}),
            "actions[0].publish.mandatory",
            "true or false",
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {"routingKey": "k"}}]}),
            "actions[0].publish.routingKey",
            "unknown field",
        );
    }

    #[test]
    fn body_limit() {
        let body = "b".repeat(MAX_BODY_BYTES + 1);
        assert_err(
            json!({"actions": [{"at": 0, "publish": {"body": body}}]}),
            "actions[0].publish.body",
            "65537 bytes; the limit is 65536 bytes (MAX_BODY_BYTES)",
        );
    }

    #[test]
    fn all_properties() {
        let s = ok(publish_with(
            json!({"expiration": "60000", "delivery_mode": 2, "priority": 255,
            "message_id": "m", "correlation_id": "c", "content_type": "text/plain", "content_encoding": "gzip",
            "reply_to": "r", "timestamp": 1700000000u64, "type": "t", "user_id": "guest", "app_id": "a",
            "headers": {"x-delay": 5000, "nested": {"a": [1, "b"]}}}),
        ));
        let ActionKind::Publish(p) = &s.actions[0].kind else {
            panic!()
        };
        let pr = &p.properties;
        assert_eq!(pr.expiration.as_deref(), Some("60000"));
        assert_eq!(
            (pr.delivery_mode, pr.priority, pr.timestamp),
            (Some(2), Some(255), Some(1_700_000_000))
        );
        assert_eq!(pr.kind.as_deref(), Some("t"));
        assert_eq!(pr.user_id.as_deref(), Some("guest"));
        assert_eq!(pr.headers.get("x-delay"), Some(&FieldValue::Int(5000)));
        assert_eq!(pr.headers.len(), 2);
    }

    #[test]
    fn expiration_must_be_a_string() {
        assert_err(
            publish_with(json!({"expiration": 60000})),
            "actions[0].publish.properties.expiration",
            "expiration must be a JSON string, found the number 60000: AMQP's expiration is a string of milliseconds, e.g. \"60000\"",
        );
        assert_err(
            publish_with(json!({"expiration": true})),
            "actions[0].publish.properties.expiration",
            "expected a string",
        );
        // The string's content is the broker's business (a 406 at publish).
        let s = ok(publish_with(json!({"expiration": "-5"})));
        let ActionKind::Publish(p) = &s.actions[0].kind else {
            panic!()
        };
        assert_eq!(p.properties.expiration.as_deref(), Some("-5"));
    }

    #[test]
    fn property_types() {
        let path = |k: &str| format!("actions[0].publish.properties.{k}");
        assert_err(
            publish_with(json!({"delivery_mode": 3})),
            &path("delivery_mode"),
            "expected 1 (transient) or 2 (persistent)",
        );
        assert_err(
            publish_with(json!({"priority": 256})),
            &path("priority"),
            "from 0 to 255",
        );
        assert_err(
            publish_with(json!({"timestamp": "now"})),
            &path("timestamp"),
            "expected an integer",
        );
        assert_err(
            publish_with(json!({"message_id": 5})),
            &path("message_id"),
            "expected a string",
        );
        assert_err(
            publish_with(json!({"headers": "x-delay"})),
            &path("headers"),
            "a field table",
        );
        assert_err(
            publish_with(json!({"ttl": "1"})),
            &path("ttl"),
            "unknown field",
        );
        assert_err(
            publish_with(json!({"headers": {"odd key": {"k": 1}, "x": 1}, "priority": -1})),
            &path("priority"),
            "from 0 to 255",
        );
    }

    #[test]
    fn header_depth_limit() {
        let mut deep = json!(1);
        for _ in 0..MAX_HEADER_DEPTH - 1 {
            deep = json!([deep]);
        }
        ok(publish_with(json!({"headers": {"a": deep.clone()}})));
        let s = publish_with(json!({"headers": {"a b": [deep]}}));
        // headers is level 1, the list under "a b" level 2, the innermost list level 17.
        let (p, m) = err(s);
        assert_eq!(
            p,
            format!(
                "actions[0].publish.properties.headers[\"a b\"]{}",
                "[0]".repeat(MAX_HEADER_DEPTH - 1)
            )
        );
        assert_eq!(m, "nested more than 16 levels deep (MAX_HEADER_DEPTH)");
        let mut deep_args = json!({});
        for _ in 0..MAX_HEADER_DEPTH {
            deep_args = json!({"k": deep_args});
        }
        assert_err(
            json!({"topology": {"queues": [{"name": "q", "arguments": deep_args}]}}),
            &format!(
                "topology.queues[0].arguments{}",
                ".k".repeat(MAX_HEADER_DEPTH)
            ),
            "nested more than 16 levels deep",
        );
    }

    #[test]
    fn repeat_rules() {
        let s = ok(
            json!({"actions": [{"at": "1m", "publish": {}, "repeat": {"count": 5, "every": "10s"}}]}),
        );
        assert_eq!(
            s.actions[0].repeat,
            Some(Repeat {
                count: 5,
                every_ms: 10_000
            })
        );
        assert_err(
            json!({"actions": [{"at": 0, "purge": {"queue": "q"}, "repeat": {"count": 2, "every": 1}}]}),
            "actions[0].repeat",
            "repeat is only allowed with publish",
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {}, "repeat": {"count": 0, "every": 1}}]}),
            "actions[0].repeat.count",
            "at least 1",
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {}, "repeat": {"every": 1}}]}),
            "actions[0].repeat.count",
            "missing",
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {}, "repeat": {"count": 2}}]}),
            "actions[0].repeat.every",
            "missing",
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {}, "repeat": {"count": 2, "every": 1, "until": 5}}]}),
            "actions[0].repeat.until",
            "unknown field",
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {}, "repeat": {"count": 5000000000u64, "every": 1}}]}),
            "actions[0].repeat.count",
            "from 0 to 4294967295",
        );
        assert_err(
            json!({"actions": [{"at": "366d", "publish": {}, "repeat": {"count": 2, "every": 1}}]}),
            "actions[0].repeat",
            "the last run would be at 31622400001ms, after the limit of 366d (MAX_DURATION_MS)",
        );
    }

    #[test]
    fn publish_total_limit() {
        let s = ok(
            json!({"actions": [{"at": 0, "publish": {}, "repeat": {"count": MAX_PUBLISHES_TOTAL, "every": 0}}]}),
        );
        assert_eq!(s.actions.len(), 1);
        assert_err(
            json!({"actions": [{"at": 0, "publish": {}, "repeat": {"count": MAX_PUBLISHES_TOTAL, "every": 0}},
                               {"at": 0, "lose_node": {}}, {"at": 0, "publish": {}}]}),
            "actions[2]",
            "more than 2000000 messages in total, repeat counts included (MAX_PUBLISHES_TOTAL)",
        );
        assert_err(
            json!({"actions": [{"at": 0, "publish": {}},
                               {"at": 0, "publish": {}, "repeat": {"count": MAX_PUBLISHES_TOTAL, "every": 0}}]}),
            "actions[1].repeat.count",
            "MAX_PUBLISHES_TOTAL",
        );
    }

    #[test]
    fn action_count_limit() {
        let acts: Vec<Value> = (0..=MAX_ACTIONS)
            .map(|_| json!({"at": 0, "lose_node": {}}))
            .collect();
        assert_err(
            json!({"actions": acts}),
            "actions",
            "10001 actions; the limit is 10000 (MAX_ACTIONS)",
        );
    }

    #[test]
    fn declare_actions() {
        let s = ok(json!({"actions": [
            {"at": 0, "declare": {"queue": {"name": "q", "type": "quorum"}}},
            {"at": 0, "declare": {"exchange": {"name": "e", "type": "fanout", "vhost": "/"}}},
            {"at": 0, "declare": {"binding": {"source": "e", "destination": "q"}}}]}));
        let ActionKind::Declare(Declare::Queue(q)) = &s.actions[0].kind else {
            panic!()
        };
        assert_eq!(
            q.arguments.get("x-queue-type"),
            Some(&FieldValue::str("quorum"))
        );
        assert_eq!(
            s.actions[1].kind,
            ActionKind::Declare(Declare::Exchange(ExchangeDef::new("e", "fanout")))
        );
        assert_eq!(
            s.actions[2].kind,
            ActionKind::Declare(Declare::Binding(BindingDef::queue("e", "q", "")))
        );
        // Outside the topology, unknown keys are errors again, and only vhost "/" exists.
        assert_err(
            json!({"actions": [{"at": 0, "declare": {"queue": {"name": "q", "owner": "x"}}}]}),
            "actions[0].declare.queue.owner",
            "unknown field",
        );
        assert_err(
            json!({"actions": [{"at": 0, "declare": {"queue": {"name": "q", "vhost": "v"}}}]}),
            "actions[0].declare.queue.vhost",
            "only the default vhost",
        );
        assert_err(
            json!({"actions": [{"at": 0, "declare": {}}]}),
            "actions[0].declare",
            "expected one of queue, exchange, binding",
        );
        assert_err(
            json!({"actions": [{"at": 0, "declare": {"queue": {"name": "q"}, "exchange": {}}}]}),
            "actions[0].declare",
            "found queue and exchange",
        );
        assert_err(
            json!({"actions": [{"at": 0, "declare": {"policy": {}}}]}),
            "actions[0].declare.policy",
            "unknown field",
        );
        assert_err(
            json!({"actions": [{"at": 0, "declare": {"exchange": "e"}}]}),
            "actions[0].declare.exchange",
            "expected an object",
        );
    }

    #[test]
    fn delete_actions() {
        let s = ok(json!({"actions": [
            {"at": 0, "delete": {"queue": "q"}},
            {"at": 0, "delete": {"queue": {"name": "q"}}},
            {"at": 0, "delete": {"exchange": "e"}},
            {"at": 0, "delete": {"binding": {"source": "e", "destination": "q", "routing_key": "k"}}}]}));
        assert_eq!(
            s.actions[0].kind,
            ActionKind::Delete(Delete::Queue { name: "q".into() })
        );
        assert_eq!(s.actions[1].kind, s.actions[0].kind);
        assert_eq!(
            s.actions[2].kind,
            ActionKind::Delete(Delete::Exchange { name: "e".into() })
        );
        assert_eq!(
            s.actions[3].kind,
            ActionKind::Delete(Delete::Binding(BindingDef::queue("e", "q", "k")))
        );
        assert_err(
            json!({"actions": [{"at": 0, "delete": {"queue": {}}}]}),
            "actions[0].delete.queue.name",
            "missing",
        );
        assert_err(
            json!({"actions": [{"at": 0, "delete": {"queue": {"name": "q", "if_empty": true}}}]}),
            "actions[0].delete.queue.if_empty",
            "unknown field",
        );
        assert_err(
            json!({"actions": [{"at": 0, "delete": {"queue": 1}}]}),
            "actions[0].delete.queue",
            "expected a name or an object",
        );
    }

    #[test]
    fn purge_and_get_actions() {
        let s = ok(
            json!({"actions": [{"at": 0, "purge": {"queue": "q"}}, {"at": 0, "get": {"queue": "q"}}]}),
        );
        assert_eq!(s.actions[0].kind, ActionKind::Purge { queue: "q".into() });
        assert_eq!(s.actions[1].kind, ActionKind::Get { queue: "q".into() });
        assert_err(
            json!({"actions": [{"at": 0, "purge": {}}]}),
            "actions[0].purge.queue",
            "missing (required)",
        );
        assert_err(
            json!({"actions": [{"at": 0, "get": {"queue": "q", "ack": true}}]}),
            "actions[0].get.ack",
            "unknown field",
        );
        assert_err(
            json!({"actions": [{"at": 0, "get": "q"}]}),
            "actions[0].get",
            "expected an object, found the string \"q\"",
        );
    }

    #[test]
    fn node_actions() {
        let s = ok(
            json!({"actions": [{"at": 0, "restart_node": {}}, {"at": 0, "restart_node": {"downtime": "30s"}},
            {"at": 0, "lose_node": {}}]}),
        );
        assert_eq!(
            s.actions[0].kind,
            ActionKind::RestartNode { downtime_ms: 0 }
        );
        assert_eq!(
            s.actions[1].kind,
            ActionKind::RestartNode {
                downtime_ms: 30_000
            }
        );
        assert_eq!(s.actions[2].kind, ActionKind::LoseNode);
        assert_err(
            json!({"actions": [{"at": 0, "lose_node": {"node": "a"}}]}),
            "actions[0].lose_node.node",
            "this object takes no fields",
        );
        assert_err(
            json!({"actions": [{"at": 0, "restart_node": {"downtime": -1}}]}),
            "actions[0].restart_node.downtime",
            "cannot be negative",
        );
        assert_err(
            json!({"actions": [{"at": 0, "lose_node": null}]}),
            "actions[0].lose_node",
            "expected an object, found null",
        );
    }

    #[test]
    fn odd_keys_are_quoted_in_paths() {
        assert_eq!(join("a", "b.c"), "a[\"b.c\"]");
        assert_eq!(join("", "x"), "x");
        assert_eq!(join("a", ""), "a[\"\"]");
        assert_err(json!({"a\"b": 1}), "[\"a\\\"b\"]", "unknown field");
    }
}
