//! `consumers`: each consumer object (queue, ack mode, prefetch, handle time, when it is
//! subscribed) and its outcome plan: one outcome, a sequence, or weights. What its
//! client program does beyond that (`reconnect`, `eta_header`, `republish`,
//! `arguments`) is read in `client.rs`.

use std::collections::HashMap;

use serde_json::Value;

use super::client::client_behaviour;
use super::errors::{expected, fail, index, join, short_quote, R};
use super::json::{as_obj, Obj};
use super::limits::MAX_CONSUMERS;
use crate::scenario::duration::format_duration;
use crate::scenario::model::*;

pub(super) fn consumers(items: &[Value]) -> R<Vec<ConsumerSpec>> {
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
    "name",
    "queue",
    "ack",
    "prefetch",
    "global_qos",
    "handle",
    "outcome",
    "from",
    "to",
    "reconnect",
    "eta_header",
    "republish",
    "arguments",
];

/// One consumer object; `consumers` checks the list (its length, duplicate names).
pub(super) fn consumer(o: &Obj) -> R<ConsumerSpec> {
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
    let prefetch = o.uint_opt("prefetch", u64::from(u32::MAX))?.unwrap_or(0) as u32;
    let global_qos = o.bool_or("global_qos", false)?;
    if global_qos && (ack == AckMode::Auto || prefetch == 0) {
        // Only a manual-ack consumer's positive prefetch sets a limit basic.qos applies.
        return fail(
            o.p("global_qos"),
            "global_qos needs \"ack\": \"manual\" and a prefetch above 0 (it makes the prefetch a limit for the whole channel)",
        );
    }
    let outcome = match o.get("outcome") {
        None => OutcomePlan::Fixed(Outcome::Ack),
        Some(v) => outcome_plan(v, &o.p("outcome"))?,
    };
    let client = client_behaviour(o, &outcome, ack)?;
    Ok(ConsumerSpec {
        name,
        queue: o.name_req("queue")?,
        ack,
        prefetch,
        global_qos,
        handle_ms: o.dur_opt("handle")?.unwrap_or(0),
        outcome,
        from_ms,
        to_ms,
        client,
    })
}

const OUTCOME_NAMES: &str =
    "\"ack\", \"reject\", \"requeue\", \"reject_requeue\", \"nack_multiple\" or \"republish\"";

const OUTCOME_FORMS: &str =
    "\"ack\", \"reject\", \"requeue\", \"reject_requeue\", \"nack_multiple\" \
                             or \"republish\", a list of those, or an object of weights such as \
                             {\"ack\": 0.9, \"requeue\": 0.1}";

fn outcome_of(s: &str) -> Option<Outcome> {
    Outcome::from_name(s)
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
                    None => return fail(index(path, i), expected(OUTCOME_NAMES, item)),
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
                    return fail(p, format!("unknown outcome; expected {OUTCOME_NAMES}"));
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

#[cfg(test)]
mod tests {
    use super::super::limits::*;
    use crate::scenario::load::tests::{assert_err, ok};
    use crate::scenario::model::*;
    use serde_json::{json, Value};

    #[test]
    fn global_qos_needs_a_manual_consumer_with_a_prefetch() {
        let s = ok(json!({"consumers": [
            {"name": "c", "queue": "q", "prefetch": 5, "global_qos": true},
            {"name": "d", "queue": "q", "prefetch": 5}]}));
        assert!(s.consumers[0].global_qos && !s.consumers[1].global_qos);
        for bad in [
            json!({"name": "c", "queue": "q", "global_qos": true}),
            json!({"name": "c", "queue": "q", "ack": "auto", "prefetch": 5, "global_qos": true}),
        ] {
            assert_err(
                json!({"consumers": [bad]}),
                "consumers[0].global_qos",
                "needs \"ack\": \"manual\" and a prefetch above 0",
            );
        }
        assert_err(
            json!({"consumers": [{"name": "c", "queue": "q", "prefetch": 5, "global_qos": 1}]}),
            "consumers[0].global_qos",
            "true or false",
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
            "expected \"ack\", \"reject\", \"requeue\", \"reject_requeue\", \"nack_multiple\" or \"republish\", a list",
        );
        bad(json!([]), "consumers[0].outcome", "at least one entry");
        bad(
            json!(["ack", "drop"]),
            "consumers[0].outcome[1]",
            "expected \"ack\", \"reject\", \"requeue\", \"reject_requeue\", \"nack_multiple\" or \"republish\"",
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
}
