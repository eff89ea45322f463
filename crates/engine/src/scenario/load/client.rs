//! A consumer's client program beyond its outcome (`consumers[]`): `reconnect` (a
//! duration), `eta_header` (a header name), `republish` (the `republish` outcome's
//! target and retry count) and `arguments` (its `basic.consume` arguments; only
//! `x-consumer-timeout` is simulated).
//!
//! ```json
//! {"name": "listener", "queue": "orders", "outcome": "republish",
//!  "republish": {"exchange": "", "routing_key": "orders.dlq",
//!                "count": "x-death", "give_up_at": 3}}
//! {"name": "worker", "queue": "tasks", "handle": "1s", "eta_header": "eta",
//!  "reconnect": "1s", "arguments": {"x-consumer-timeout": 3600000}}
//! ```

use serde_json::Value;

use super::errors::{expected, fail, R};
use super::json::{as_obj, Obj};
use crate::scenario::model::{
    AckMode, ClientBehaviour, Outcome, OutcomePlan, Republish, RetryCount,
};
use crate::value::FieldValue;

/// The most a republishing client counts up to before it gives up: a loop that needs
/// more is one the scenario shows going on (`give_up_at` is when the client stops).
pub const MAX_GIVE_UP_AT: u64 = 1_000;

pub(super) fn client_behaviour(o: &Obj, outcome: &OutcomePlan, ack: AckMode) -> R<ClientBehaviour> {
    let republishes = plan_has(outcome, Outcome::Republish);
    let republish = match o.get("republish") {
        None if republishes => {
            return fail(
                o.p("republish"),
                "missing: the outcome \"republish\" needs a \"republish\" object saying where the copy goes ({\"exchange\", \"routing_key\", \"count\", \"give_up_at\"})",
            )
        }
        None => None,
        Some(_) if !republishes => {
            return fail(
                o.p("republish"),
                "set, but no outcome of this consumer is \"republish\"",
            )
        }
        Some(v) => Some(republish(&as_obj(v, o.p("republish"))?)?),
    };
    let eta_header =
        match o.get("eta_header") {
            None => None,
            Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
            Some(other) => return fail(
                o.p("eta_header"),
                expected(
                    "a header name (its integer value, ms from the start, is when the task is due)",
                    other,
                ),
            ),
        };
    let reconnect_ms = o.dur_opt("reconnect")?;
    let consumer_timeout_ms = consumer_arguments(o)?;
    if ack == AckMode::Auto {
        let manual_only = [
            ("eta_header", eta_header.is_some()),
            ("republish", republish.is_some()),
        ];
        if let Some((key, _)) = manual_only.iter().find(|(_, set)| *set) {
            return fail(
                o.p(key),
                "needs \"ack\": \"manual\" (a no-ack consumer has nothing to hold or answer)",
            );
        }
    }
    Ok(ClientBehaviour {
        reconnect_ms,
        eta_header,
        republish,
        consumer_timeout_ms,
    })
}

fn plan_has(plan: &OutcomePlan, o: Outcome) -> bool {
    match plan {
        OutcomePlan::Fixed(x) => *x == o,
        OutcomePlan::Sequence(v) => v.contains(&o),
        OutcomePlan::Weighted(v) => v.iter().any(|(x, _)| *x == o),
    }
}

fn republish(r: &Obj) -> R<Republish> {
    r.check_keys(&["exchange", "routing_key", "count", "give_up_at"])?;
    let count = match r.get("count") {
        None => RetryCount::XDeath,
        Some(Value::String(s)) if s == "x-death" => RetryCount::XDeath,
        Some(Value::String(s)) if !s.is_empty() && !s.starts_with("x-") => {
            RetryCount::Header(s.clone())
        }
        Some(Value::String(s)) if s.starts_with("x-") => {
            return fail(
                r.p("count"),
                format!(
                    "\"{s}\": a header of the client's own cannot start with x- (those belong to the broker); use \"x-death\" to count with the broker's history"
                ),
            )
        }
        Some(other) => {
            return fail(
                r.p("count"),
                expected("\"x-death\" or the name of a header of the client's own", other),
            )
        }
    };
    let give_up_at = r.uint_opt("give_up_at", MAX_GIVE_UP_AT)?.ok_or_else(|| {
        super::errors::error(
            r.p("give_up_at"),
            "missing (required): the count at which the client stops republishing",
        )
    })?;
    if give_up_at == 0 {
        return fail(
            r.p("give_up_at"),
            "0 would give up before the first retry; give at least 1",
        );
    }
    Ok(Republish {
        exchange: r.name_or("exchange")?,
        routing_key: r.name_or("routing_key")?,
        count,
        give_up_at: give_up_at as u32,
    })
}

/// `arguments` of the consumer's `basic.consume`: `x-consumer-timeout`, a non-negative
/// integer of ms (4.3 validates it: `rabbit_amqqueue:consume_args/0`
/// `check_non_neg_int_arg/2`). Others are not simulated, so naming one is an error
/// rather than a silent no-op.
fn consumer_arguments(o: &Obj) -> R<Option<u64>> {
    let args = o.table_or_empty("arguments")?;
    let mut timeout = None;
    for (k, v) in args.iter() {
        let p = format!("{}.{k}", o.p("arguments"));
        match (k, v) {
            ("x-consumer-timeout", FieldValue::Int(n)) if *n >= 0 => timeout = Some(*n as u64),
            ("x-consumer-timeout", other) => {
                return fail(
                    p,
                    format!(
                        "a non-negative integer of ms, found {} (RabbitMQ 4.3 refuses it: PRECONDITION_FAILED)",
                        other.amqp_type_name()
                    ),
                )
            }
            _ => {
                return fail(
                    p,
                    "not simulated: the only consumer argument delaylab models is x-consumer-timeout",
                )
            }
        }
    }
    Ok(timeout)
}

#[cfg(test)]
mod tests {
    use crate::scenario::load::tests::{assert_err, ok};
    use crate::scenario::model::*;
    use serde_json::json;

    fn client(c: serde_json::Value) -> ClientBehaviour {
        ok(json!({"consumers": [c]})).consumers[0].client.clone()
    }

    #[test]
    fn republish_needs_its_target_and_gives_up_somewhere() {
        let c = client(json!({"name": "l", "queue": "q", "outcome": "republish",
            "republish": {"exchange": "", "routing_key": "q.dlq", "give_up_at": 3}}));
        assert_eq!(
            c.republish,
            Some(Republish {
                exchange: String::new(),
                routing_key: "q.dlq".into(),
                count: RetryCount::XDeath,
                give_up_at: 3
            })
        );
        let c = client(json!({"name": "l", "queue": "q", "outcome": "republish",
            "republish": {"routing_key": "q.dlq", "count": "retry-count", "give_up_at": 3}}));
        assert_eq!(
            c.republish.unwrap().count,
            RetryCount::Header("retry-count".into())
        );
        let bad = |c: serde_json::Value, path: &str, needle: &str| {
            assert_err(json!({"consumers": [c]}), path, needle)
        };
        bad(
            json!({"name": "l", "queue": "q", "outcome": "republish"}),
            "consumers[0].republish",
            "needs a \"republish\" object",
        );
        bad(
            json!({"name": "l", "queue": "q", "republish": {"give_up_at": 1}}),
            "consumers[0].republish",
            "no outcome of this consumer is \"republish\"",
        );
        bad(
            json!({"name": "l", "queue": "q", "outcome": "republish", "republish": {"routing_key": "d"}}),
            "consumers[0].republish.give_up_at",
            "missing (required)",
        );
        bad(
            json!({"name": "l", "queue": "q", "outcome": "republish", "republish": {"give_up_at": 0}}),
            "consumers[0].republish.give_up_at",
            "at least 1",
        );
        bad(
            json!({"name": "l", "queue": "q", "outcome": "republish", "republish": {"give_up_at": 2, "count": "x-retries"}}),
            "consumers[0].republish.count",
            "cannot start with x-",
        );
        bad(
            json!({"name": "l", "queue": "q", "outcome": "republish", "republish": {"give_up_at": 2, "count": 3}}),
            "consumers[0].republish.count",
            "\"x-death\" or the name",
        );
        bad(
            json!({"name": "l", "queue": "q", "outcome": "republish", "republish": {"give_up_at": 2, "to": "x"}}),
            "consumers[0].republish.to",
            "unknown field",
        );
    }

    #[test]
    fn eta_reconnect_and_the_consumer_timeout_argument() {
        let c = client(
            json!({"name": "w", "queue": "q", "eta_header": "eta", "reconnect": "1s",
            "arguments": {"x-consumer-timeout": 60000}}),
        );
        assert_eq!(c.eta_header.as_deref(), Some("eta"));
        assert_eq!(c.reconnect_ms, Some(1000));
        assert_eq!(c.consumer_timeout_ms, Some(60_000));
        assert_eq!(
            client(json!({"name": "w", "queue": "q"})),
            ClientBehaviour::default()
        );
        let bad = |c: serde_json::Value, path: &str, needle: &str| {
            assert_err(json!({"consumers": [c]}), path, needle)
        };
        bad(
            json!({"name": "w", "queue": "q", "arguments": {"x-consumer-timeout": -1}}),
            "consumers[0].arguments.x-consumer-timeout",
            "non-negative integer",
        );
        bad(
            json!({"name": "w", "queue": "q", "arguments": {"x-consumer-timeout": "60000"}}),
            "consumers[0].arguments.x-consumer-timeout",
            "found longstr",
        );
        bad(
            json!({"name": "w", "queue": "q", "arguments": {"x-priority": 5}}),
            "consumers[0].arguments.x-priority",
            "not simulated",
        );
        bad(
            json!({"name": "w", "queue": "q", "eta_header": ""}),
            "consumers[0].eta_header",
            "a header name",
        );
        bad(
            json!({"name": "w", "queue": "q", "ack": "auto", "eta_header": "eta"}),
            "consumers[0].eta_header",
            "needs \"ack\": \"manual\"",
        );
        bad(
            json!({"name": "w", "queue": "q", "reconnect": "soon"}),
            "consumers[0].reconnect",
            "",
        );
    }
}
