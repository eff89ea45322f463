//! Loading the order-timeout lab's sections, `orders` and `faults` (see README,
//! "Order-timeout lab"), with the same JSON-path errors and limits as the rest.
//!
//! ```text
//! orders.pay[1].after: expected a duration, a [from, to] pair of durations, or "never", ...
//! faults[0].share: a share is a number from 0 to 1, found the number 1.5
//! ```

use serde_json::Value;

use super::{as_obj, duration, expected, fail, publish, Obj, R};
use crate::scenario::model::{AckMode, ConsumerSpec, PublishSpec};
use crate::scenario::orders::*;

pub const MAX_ORDERS: u64 = 100_000;
pub const MAX_ITEMS: u64 = 1_000;
pub const MAX_PAY_RULES: usize = 16;
pub const MAX_FAULTS: usize = 32;
/// The compensation scan runs at most every second.
pub const MIN_SCAN_EVERY_MS: u64 = 1_000;

const ORDERS_KEYS: &[&str] = &[
    "count",
    "start",
    "over",
    "timeout",
    "publish",
    "consumer",
    "policy",
    "early",
    "pay",
    "cancel",
    "items",
    "stock",
    "reminder",
    "compensation",
];

/// Reads `orders` and `faults` from the root object.
pub(super) fn load(
    root: &Obj,
    consumers: &[ConsumerSpec],
) -> R<(Option<OrdersSpec>, Vec<FaultSpec>)> {
    let spec = match root.get("orders") {
        None => None,
        Some(v) => Some(orders(&as_obj(v, "orders")?, consumers)?),
    };
    let items = root.array("faults")?;
    if !items.is_empty() && spec.is_none() {
        return fail(
            "faults",
            "faults are injected into the order-timeout lab; add an \"orders\" section",
        );
    }
    if items.len() > MAX_FAULTS {
        return fail(
            "faults",
            format!(
                "{} faults; the limit is {MAX_FAULTS} (MAX_FAULTS)",
                items.len()
            ),
        );
    }
    let mut faults = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let f = fault(&as_obj(item, format!("faults[{i}]"))?)?;
        if f.kind == FaultKind::EarlyArrival
            && spec
                .as_ref()
                .is_some_and(|s| !has_message_delay(&s.publish))
        {
            return fail(
                format!("faults[{i}].kind"),
                "early_arrival shortens the close message's own delay; orders.publish has none \
                 (give it properties.expiration or headers x-delay)",
            );
        }
        faults.push(f);
    }
    Ok((spec, faults))
}

fn has_message_delay(p: &PublishSpec) -> bool {
    message_delay(&p.properties).is_some()
}

fn orders(o: &Obj, consumers: &[ConsumerSpec]) -> R<OrdersSpec> {
    o.check_keys(ORDERS_KEYS)?;
    let count = o
        .uint_opt("count", MAX_ORDERS)?
        .ok_or_else(|| super::errors::error(o.p("count"), "missing (required)"))?;
    let timeout_ms = o.dur_req("timeout")?;
    if timeout_ms == 0 {
        return fail(o.p("timeout"), "the timeout must be more than 0");
    }
    let consumer = consumer_ref(o, "consumer", consumers)?;
    let policy = match o.get("policy") {
        None => {
            return fail(
                o.p("policy"),
                format!("missing (required): one of {}", names(POLICIES)),
            )
        }
        Some(v) => pick(v, &o.p("policy"), POLICIES)?,
    };
    let early = match o.get("early") {
        None => Early::Republish,
        Some(v) => pick(
            v,
            &o.p("early"),
            &[("republish", Early::Republish), ("ignore", Early::Ignore)],
        )?,
    };
    let pay_items = o.array("pay")?;
    if pay_items.len() > MAX_PAY_RULES {
        return fail(
            o.p("pay"),
            format!(
                "{} rules; the limit is {MAX_PAY_RULES} (MAX_PAY_RULES)",
                pay_items.len()
            ),
        );
    }
    let mut pay = Vec::new();
    let mut total = 0.0;
    for (i, item) in pay_items.iter().enumerate() {
        let rule = share_after(&as_obj(item, format!("{}[{i}]", o.p("pay")))?)?;
        total += rule.share;
        pay.push(rule);
    }
    if total > 1.0 + 1e-9 {
        return fail(
            o.p("pay"),
            format!("the shares add up to {total}; at most 1 (the rest never pays)"),
        );
    }
    let cancel = match o.get("cancel") {
        None => None,
        Some(v) => Some(share_after(&as_obj(v, o.p("cancel"))?)?),
    };
    let reminder = match o.get("reminder") {
        None => None,
        Some(v) => {
            let r = as_obj(v, o.p("reminder"))?;
            r.check_keys(&["publish", "consumer"])?;
            let consumer = match r.get("consumer") {
                None => consumer.clone(),
                Some(_) => consumer_ref(&r, "consumer", consumers)?,
            };
            Some(ReminderSpec {
                publish: lab_publish(&r.obj("publish")?)?,
                consumer,
            })
        }
    };
    let scan_every_ms = match o.get("compensation") {
        None => None,
        Some(v) => {
            let c = as_obj(v, o.p("compensation"))?;
            c.check_keys(&["every"])?;
            let every = c.dur_req("every")?;
            if every < MIN_SCAN_EVERY_MS {
                return fail(
                    c.p("every"),
                    "the scan runs at most every second (MIN_SCAN_EVERY_MS)",
                );
            }
            Some(every)
        }
    };
    Ok(OrdersSpec {
        count: count as u32,
        start_ms: o.dur_opt("start")?.unwrap_or(0),
        over_ms: o.dur_opt("over")?.unwrap_or(0),
        timeout_ms,
        publish: lab_publish(&o.obj("publish")?)?,
        consumer,
        policy,
        early,
        pay,
        cancel,
        items: o.uint_opt("items", MAX_ITEMS)?.unwrap_or(1).max(1) as u32,
        stock: o.uint_opt("stock", u64::from(u32::MAX))?.unwrap_or(count) as u32,
        reminder,
        scan_every_ms,
    })
}

/// A publish whose body and message_id the lab sets (the order id, the idempotency key).
fn lab_publish(o: &Obj) -> R<PublishSpec> {
    if o.get("body").is_some() {
        return fail(
            o.p("body"),
            "the lab sets the body (order-<id>); leave it out",
        );
    }
    let p = publish(o)?;
    if p.properties.message_id.is_some() {
        return fail(
            format!("{}.message_id", o.p("properties")),
            "the lab sets message_id (its idempotency key); leave it out",
        );
    }
    Ok(p)
}

fn consumer_ref(o: &Obj, key: &str, consumers: &[ConsumerSpec]) -> R<String> {
    let name = o.name_req(key)?;
    match consumers.iter().find(|c| c.name == name) {
        None => fail(o.p(key), format!("no consumer named {name:?} in \"consumers\"")),
        Some(c) if c.ack == AckMode::Auto => fail(
            o.p(key),
            format!("consumer {name:?} uses auto ack; the lab's consumer acks after its database work (\"ack\": \"manual\")"),
        ),
        Some(_) => Ok(name),
    }
}

fn names<T>(list: &[(&str, T)]) -> String {
    list.iter()
        .map(|(n, _)| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn pick<T: Copy>(v: &Value, path: &str, list: &[(&str, T)]) -> R<T> {
    match v.as_str().and_then(|s| list.iter().find(|(n, _)| *n == s)) {
        Some((_, t)) => Ok(*t),
        None => fail(path, expected(&format!("one of {}", names(list)), v)),
    }
}

fn share(o: &Obj, key: &str) -> R<f64> {
    match o.get(key) {
        None => fail(o.p(key), "missing (required): a number from 0 to 1"),
        Some(v) => match v.as_f64() {
            Some(x) if (0.0..=1.0).contains(&x) => Ok(x),
            _ => fail(o.p(key), expected("a share, a number from 0 to 1", v)),
        },
    }
}

fn share_after(o: &Obj) -> R<ShareAfter> {
    o.check_keys(&["share", "after"])?;
    let path = o.p("after");
    let after = match o.get("after") {
        None => {
            return fail(
                path,
                "missing (required): a duration, a [from, to] pair, or \"never\"",
            )
        }
        Some(Value::String(s)) if s == "never" => After::Never,
        Some(Value::Array(pair)) if pair.len() == 2 => {
            let lo = duration(&pair[0], &format!("{path}[0]"))?;
            let hi = duration(&pair[1], &format!("{path}[1]"))?;
            if hi < lo {
                return fail(
                    format!("{path}[1]"),
                    "the end of the range is before its start",
                );
            }
            After::Range(lo, hi)
        }
        Some(v @ (Value::String(_) | Value::Number(_))) => After::Fixed(duration(v, &path)?),
        Some(v) => {
            return fail(
                path,
                expected(
                    "a duration, a [from, to] pair of durations, or \"never\"",
                    v,
                ),
            )
        }
    };
    Ok(ShareAfter {
        share: share(o, "share")?,
        after,
    })
}

/// `crash_before_ack`'s `for`: how long the crashed service takes to subscribe again.
/// 0 would bring it back in the same millisecond, which no restart does (and a crash on
/// every delivery would then loop without time passing).
fn restart_time(o: &Obj) -> R<u64> {
    match o.dur_opt("for")? {
        None => Ok(DEFAULT_RESTART_MS),
        Some(0) => fail(
            o.p("for"),
            "the crashed consumer's restart time must be more than 0 (it subscribes again after it; default 5s)",
        ),
        Some(ms) => Ok(ms),
    }
}

fn fault(o: &Obj) -> R<FaultSpec> {
    let kind = match o.get("kind") {
        None => {
            return fail(
                o.p("kind"),
                format!("missing (required): one of {}", names(FAULT_KINDS)),
            )
        }
        Some(v) => pick(v, &o.p("kind"), FAULT_KINDS)?,
    };
    let mut f = FaultSpec {
        kind,
        at_ms: 0,
        share: 0.0,
        duration_ms: 0,
    };
    match kind {
        FaultKind::LoseNode => {
            o.check_keys(&["kind", "at"])?;
            f.at_ms = o.dur_req("at")?;
        }
        FaultKind::ConsumerOutage => {
            o.check_keys(&["kind", "at", "for"])?;
            f.at_ms = o.dur_req("at")?;
            f.duration_ms = o.dur_req("for")?;
        }
        FaultKind::EarlyArrival => {
            o.check_keys(&["kind", "share", "by"])?;
            f.share = share(o, "share")?;
            f.duration_ms = o.dur_opt("by")?.unwrap_or(300_000);
        }
        FaultKind::CrashBeforeAck => {
            o.check_keys(&["kind", "share", "for"])?;
            f.share = share(o, "share")?;
            f.duration_ms = restart_time(o)?;
        }
        _ => {
            o.check_keys(&["kind", "share"])?;
            f.share = share(o, "share")?;
        }
    }
    Ok(f)
}
