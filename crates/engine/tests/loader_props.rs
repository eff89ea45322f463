//! Properties of the scenario loader and writer:
//! - loading never panics, on arbitrary text, on damaged scenario text, and on JSON values
//!   made by mutating valid scenarios (fields dropped, replaced, added);
//! - whatever loads, saves and loads back to the same scenario;
//! - saving a random valid scenario and loading it gives it back (as a value and as text).
#![cfg(not(target_arch = "wasm32"))]

use delaylab_engine::scenario::load::MAX_DURATION_MS;
use delaylab_engine::scenario::*;
use delaylab_engine::value::{FieldValue, Table};
use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::Value;

// ---------------------------------------------------------------------------------
// Valid scenarios

/// Floats that survive a trip through JSON text exactly (serde_json is built without
/// `float_roundtrip`), or any finite float when the trip stays in `serde_json::Value`.
fn float(text_exact: bool) -> BoxedStrategy<f64> {
    if text_exact {
        (any::<i32>(), 0u32..4)
            .prop_map(|(n, s)| f64::from(n) / f64::from(1u32 << s))
            .boxed()
    } else {
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .boxed()
    }
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof!["[a-z0-9.#*_-]{0,12}", "\\PC{0,8}", Just(String::new()),]
}

fn field_value(text_exact: bool) -> impl Strategy<Value = FieldValue> {
    let leaf = prop_oneof![
        Just(FieldValue::Void),
        any::<bool>().prop_map(FieldValue::Bool),
        any::<i64>().prop_map(FieldValue::Int),
        float(text_exact).prop_map(FieldValue::Float),
        text().prop_map(|s| FieldValue::str(&s)),
        any::<u64>().prop_map(FieldValue::Timestamp),
        (any::<u8>(), any::<u32>()).prop_map(|(scale, value)| FieldValue::Decimal { scale, value }),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(|v| FieldValue::Array(v.into())),
            prop::collection::vec((text(), inner), 0..4)
                .prop_map(|entries| FieldValue::Table(entries.into_iter().collect())),
        ]
    })
}

fn table(text_exact: bool) -> impl Strategy<Value = Table> {
    prop::collection::vec((text(), field_value(text_exact)), 0..4)
        .prop_map(|e| e.into_iter().collect::<Table>())
}

fn duration() -> impl Strategy<Value = u64> {
    prop_oneof![
        0..=MAX_DURATION_MS,
        (0u64..=366).prop_map(|d| d * 86_400_000),
        (0u64..=100_000).prop_map(|s| s * 1000),
        0u64..5_000,
    ]
}

fn exchange(te: bool) -> impl Strategy<Value = ExchangeDef> {
    (
        text(),
        "[a-z-]{1,18}",
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        table(te),
    )
        .prop_map(
            |(name, kind, durable, auto_delete, internal, arguments)| ExchangeDef {
                name,
                kind,
                durable,
                auto_delete,
                internal,
                arguments,
            },
        )
}

fn queue(te: bool) -> impl Strategy<Value = QueueDef> {
    (
        text(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        table(te),
    )
        .prop_map(
            |(name, durable, auto_delete, exclusive, arguments)| QueueDef {
                name,
                durable,
                auto_delete,
                exclusive,
                arguments,
            },
        )
}

fn binding(te: bool) -> impl Strategy<Value = BindingDef> {
    (text(), text(), any::<bool>(), text(), table(te)).prop_map(
        |(source, destination, to_exchange, routing_key, arguments)| BindingDef {
            source,
            destination,
            destination_type: if to_exchange {
                DestinationKind::Exchange
            } else {
                DestinationKind::Queue
            },
            routing_key,
            arguments,
        },
    )
}

fn outcome() -> impl Strategy<Value = Outcome> {
    prop_oneof![
        Just(Outcome::Ack),
        Just(Outcome::Reject),
        Just(Outcome::Requeue)
    ]
}

fn outcome_plan(te: bool) -> impl Strategy<Value = OutcomePlan> {
    let weight = float(te)
        .prop_map(|f| f.abs())
        .prop_filter("positive", |f| *f > 0.0);
    prop_oneof![
        outcome().prop_map(OutcomePlan::Fixed),
        prop::collection::vec(outcome(), 1..5).prop_map(OutcomePlan::Sequence),
        (
            prop::sample::subsequence(vec![Outcome::Ack, Outcome::Reject, Outcome::Requeue], 1..=3),
            prop::collection::vec(weight, 3)
        )
            .prop_map(|(outcomes, weights)| OutcomePlan::Weighted(
                outcomes.into_iter().zip(weights).collect()
            )),
    ]
}

fn consumer(te: bool) -> impl Strategy<Value = ConsumerSpec> {
    (
        text(),
        any::<bool>(),
        any::<u32>(),
        duration(),
        outcome_plan(te),
        0..MAX_DURATION_MS,
        prop::option::of(1u64..=MAX_DURATION_MS),
    )
        .prop_map(
            |(queue, auto, prefetch, handle_ms, outcome, from_ms, to)| ConsumerSpec {
                name: String::new(), // made unique below
                queue,
                ack: if auto { AckMode::Auto } else { AckMode::Manual },
                prefetch,
                global_qos: false,
                handle_ms,
                outcome,
                from_ms,
                to_ms: to.map(|t| from_ms + 1 + (t - 1) % (MAX_DURATION_MS - from_ms)),
            },
        )
}

fn properties(te: bool) -> impl Strategy<Value = Properties> {
    let s = || prop::option::of(text());
    (
        (
            s(),
            prop::option::of(1u8..=2),
            prop::option::of(any::<u8>()),
            s(),
            s(),
            s(),
            s(),
        ),
        (
            s(),
            prop::option::of(any::<u64>()),
            s(),
            s(),
            s(),
            table(te),
        ),
    )
        .prop_map(
            |(
                (
                    expiration,
                    delivery_mode,
                    priority,
                    message_id,
                    correlation_id,
                    content_type,
                    content_encoding,
                ),
                (reply_to, timestamp, kind, user_id, app_id, headers),
            )| Properties {
                expiration,
                delivery_mode,
                priority,
                message_id,
                correlation_id,
                content_type,
                content_encoding,
                reply_to,
                timestamp,
                kind,
                user_id,
                app_id,
                headers,
            },
        )
}

fn publish(te: bool) -> impl Strategy<Value = PublishSpec> {
    (text(), text(), "\\PC{0,20}", properties(te), any::<bool>()).prop_map(
        |(exchange, routing_key, body, properties, mandatory)| PublishSpec {
            exchange,
            routing_key,
            body,
            properties,
            mandatory,
        },
    )
}

fn action_kind(te: bool) -> impl Strategy<Value = ActionKind> {
    prop_oneof![
        3 => publish(te).prop_map(ActionKind::Publish),
        1 => exchange(te).prop_map(|e| ActionKind::Declare(Declare::Exchange(e))),
        1 => queue(te).prop_map(|q| ActionKind::Declare(Declare::Queue(q))),
        1 => binding(te).prop_map(|b| ActionKind::Declare(Declare::Binding(b))),
        1 => text().prop_map(|name| ActionKind::Delete(Delete::Exchange { name })),
        1 => text().prop_map(|name| ActionKind::Delete(Delete::Queue { name })),
        1 => binding(te).prop_map(|b| ActionKind::Delete(Delete::Binding(b))),
        1 => text().prop_map(|queue| ActionKind::Purge { queue }),
        1 => text().prop_map(|queue| ActionKind::Get { queue }),
        1 => duration().prop_map(|downtime_ms| ActionKind::RestartNode { downtime_ms }),
        1 => Just(ActionKind::LoseNode),
    ]
}

fn action(te: bool) -> impl Strategy<Value = Action> {
    (
        0..=MAX_DURATION_MS / 2,
        action_kind(te),
        prop::option::of((1u32..50, 0..=MAX_DURATION_MS / 100)),
    )
        .prop_map(|(at_ms, kind, repeat)| {
            let repeat = match kind {
                ActionKind::Publish(_) => {
                    repeat.map(|(count, every_ms)| Repeat { count, every_ms })
                }
                _ => None,
            };
            Action {
                at_ms,
                kind,
                repeat,
            }
        })
}

fn scenario(te: bool) -> impl Strategy<Value = Scenario> {
    (
        (
            text(),
            text(),
            text(),
            any::<u64>(),
            prop::option::of(duration()),
        ),
        (
            prop::collection::vec(exchange(te), 0..3),
            prop::collection::vec(queue(te), 0..3),
            prop::collection::vec(binding(te), 0..3),
            prop::collection::vec(text(), 0..2),
        ),
        prop::collection::vec(consumer(te), 0..3),
        prop::collection::vec(action(te), 0..6),
    )
        .prop_map(
            |(
                (name, description, watch, seed, until_ms),
                (exchanges, queues, bindings, not_simulated),
                mut consumers,
                actions,
            )| {
                for (i, c) in consumers.iter_mut().enumerate() {
                    c.name = format!("c{i}");
                }
                Scenario {
                    version: FORMAT_VERSION,
                    name,
                    description,
                    watch,
                    seed,
                    until_ms,
                    topology: Topology {
                        exchanges,
                        queues,
                        bindings,
                        not_simulated,
                    },
                    consumers,
                    actions,
                    orders: None,
                    faults: Vec::new(),
                    broker: None,
                    versions: Vec::new(),
                    costs: delaylab_engine::costs::CostMode::Ideal,
                    consumer_timeout: Default::default(),
                    checks: Vec::new(),
                }
            },
        )
}

// ---------------------------------------------------------------------------------
// Damaged scenarios

fn json_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        float(false).prop_map(Value::from),
        prop::sample::select(vec![
            "",
            "ack",
            "reject",
            "requeue",
            "manual",
            "auto",
            "queue",
            "exchange",
            "5s",
            "0ms",
            "366d",
            "367d",
            "1h30m",
            "-1s",
            "1.5s",
            "99999999999999999999d",
            "60000",
            "direct",
            "x-delayed-message",
            "/",
            "other",
        ])
        .prop_map(Value::from),
        "\\PC{0,10}".prop_map(Value::from),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    json_leaf().prop_recursive(4, 32, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "version",
            "name",
            "seed",
            "until",
            "topology",
            "consumers",
            "actions",
            "exchanges",
            "queues",
            "bindings",
            "type",
            "arguments",
            "vhost",
            "durable",
            "policies",
            "users",
            "not_simulated",
            "at",
            "publish",
            "declare",
            "delete",
            "purge",
            "get",
            "restart_node",
            "lose_node",
            "repeat",
            "count",
            "every",
            "properties",
            "expiration",
            "headers",
            "delivery_mode",
            "priority",
            "timestamp",
            "outcome",
            "ack",
            "prefetch",
            "handle",
            "from",
            "to",
            "queue",
            "exchange",
            "binding",
            "downtime",
            "body",
            "source",
            "destination",
            "destination_type",
            "routing_key",
        ])
        .prop_map(String::from),
        "\\PC{0,6}",
    ]
}

#[derive(Clone, Debug)]
enum Mutation {
    Replace(Value),
    Remove(Index),
    Insert(String, Value),
}

fn mutation() -> impl Strategy<Value = (Vec<Index>, Mutation)> {
    // Removals often leave a valid scenario (defaults), so the Ok path gets exercised too.
    let m = prop_oneof![
        2 => json_value().prop_map(Mutation::Replace),
        1 => json_leaf().prop_map(Mutation::Replace),
        3 => any::<Index>().prop_map(Mutation::Remove),
        1 => (key(), json_value()).prop_map(|(k, v)| Mutation::Insert(k, v)),
    ];
    (prop::collection::vec(any::<Index>(), 0..7), m)
}

/// The node `path` leads to, stopping early at a scalar or an empty container.
fn walk<'a>(node: &'a mut Value, path: &[Index]) -> &'a mut Value {
    let Some((step, rest)) = path.split_first() else {
        return node;
    };
    let descend = match node {
        Value::Object(map) => !map.is_empty(),
        Value::Array(items) => !items.is_empty(),
        _ => false,
    };
    if !descend {
        return node;
    }
    match node {
        Value::Object(map) => {
            let i = step.index(map.len());
            walk(map.values_mut().nth(i).expect("index in range"), rest)
        }
        Value::Array(items) => {
            let i = step.index(items.len());
            walk(&mut items[i], rest)
        }
        _ => node,
    }
}

fn apply(root: &mut Value, path: &[Index], m: Mutation) {
    let node = walk(root, path);
    match m {
        Mutation::Replace(v) => *node = v,
        Mutation::Remove(i) => match node {
            Value::Object(map) if !map.is_empty() => {
                let k = map.keys().nth(i.index(map.len())).cloned();
                if let Some(k) = k {
                    map.shift_remove(&k);
                }
            }
            Value::Array(items) if !items.is_empty() => {
                items.remove(i.index(items.len()));
            }
            _ => *node = Value::Null,
        },
        Mutation::Insert(k, v) => match node {
            Value::Object(map) => {
                map.insert(k, v);
            }
            Value::Array(items) => items.push(v),
            _ => *node = v,
        },
    }
}

fn damaged_scenario() -> impl Strategy<Value = Value> {
    (scenario(false), prop::collection::vec(mutation(), 1..4)).prop_map(|(s, mutations)| {
        let mut v = save::to_value(&s);
        for (path, m) in mutations {
            apply(&mut v, &path, m);
        }
        v
    })
}

/// Whatever loads must save and load back to itself.
fn assert_stable(s: &Scenario) {
    let again = load_value(&save::to_value(s))
        .unwrap_or_else(|e| panic!("saved scenario does not load: {e}"));
    assert_eq!(&again, s);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn load_str_never_panics_on_arbitrary_text(text in "\\PC{0,200}") {
        if let Ok(s) = load_str(&text) {
            assert_stable(&s);
        }
    }

    #[test]
    fn load_str_never_panics_on_damaged_text(s in scenario(true), cuts in prop::collection::vec((any::<Index>(), any::<Index>(), "\\PC{0,4}"), 1..4)) {
        let mut text = save::to_string_pretty(&s);
        for (at, len, insert) in cuts {
            let start = at.index(text.len() + 1);
            let end = (start + len.index(8)).min(text.len());
            if text.is_char_boundary(start) && text.is_char_boundary(end) {
                text.replace_range(start..end, &insert);
            }
        }
        if let Ok(loaded) = load_str(&text) {
            let again = load_str(&save::to_string_pretty(&loaded)).unwrap_or_else(|e| panic!("{e}"));
            prop_assert_eq!(again, loaded);
        }
    }

    #[test]
    fn load_value_never_panics_on_arbitrary_json(v in json_value()) {
        if let Ok(s) = load_value(&v) {
            assert_stable(&s);
        }
    }

    #[test]
    fn load_value_never_panics_on_mutated_scenarios(v in damaged_scenario()) {
        if let Ok(s) = load_value(&v) {
            assert_stable(&s);
        }
        // The same document as text (its floats may move by an ulp; only no panic matters here).
        let _ = load_str(&v.to_string());
    }

    #[test]
    fn save_then_load_value_round_trips(s in scenario(false)) {
        let loaded = load_value(&save::to_value(&s)).unwrap_or_else(|e| panic!("{e}"));
        prop_assert_eq!(loaded, s);
    }

    #[test]
    fn save_then_load_text_round_trips(s in scenario(true)) {
        let loaded = load_str(&save::to_string_pretty(&s)).unwrap_or_else(|e| panic!("{e}"));
        prop_assert_eq!(loaded, s);
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!(
        "{{\"actions\": {}1{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let e = load_str(&deep).unwrap_err();
    assert_eq!(e.path, "$");
    let mut v = Value::from(1);
    for _ in 0..100 {
        v = Value::Array(vec![v]);
    }
    let doc = serde_json::json!({"actions": [{"at": 0, "publish": {"properties": {"headers": {"a": v}}}}]});
    assert!(load_value(&doc)
        .unwrap_err()
        .message
        .contains("MAX_HEADER_DEPTH"));
}
