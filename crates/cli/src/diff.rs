//! `delaylab diff A.json B.json [--tolerance-ms N]`: compares two results of the run
//! contract (typically `delaylab run` against `delaylab replay`) and says in words
//! where they differ. Exit 0: they agree; 1: they differ; 2: bad input.
//!
//! Compared:
//! - deliveries, matched by (body, queue) in order of delivery: consumer, redelivered,
//!   routing key, exchange, properties, headers (x-death compared entry by entry on
//!   count / reason / queue / routing-keys / exchange / original-expiration, `time`
//!   ignored), publish and delivery times within the tolerance; and the order of the
//!   deliveries in each queue;
//! - errors (code and text, in order; times within the tolerance);
//! - returned messages (body, code, text; time within the tolerance);
//! - final queue depths (ready, unacked) of the queues both sides know (a depth one
//!   side gives as null is unknown there and not compared);
//! - publisher nacks (`nacked`: body, time) when both sides carry them (`run` and
//!   `replay` do);
//! - `dropped` only when both sides report drops (a live broker cannot observe them);
//!   when only one side has drops, they are listed as not checked (a dead-letter
//!   cycle, a missing DLX, a reject-publish without confirms, ... drop silently live).

use std::collections::BTreeMap;
use std::process::ExitCode;

use serde_json::{Map, Value};

/// At most this many differences are printed.
const MAX_SHOWN: usize = 200;

pub fn main(a_path: &str, b_path: &str, tolerance_ms: u64, unordered: &[String]) -> ExitCode {
    let read = |p: &str| -> Result<Value, String> {
        let src = std::fs::read_to_string(p).map_err(|e| format!("{p}: cannot read: {e}"))?;
        let v: Value = serde_json::from_str(&src).map_err(|e| format!("{p}: not JSON: {e}"))?;
        if !v.is_object() || !v.get("deliveries").is_some_and(Value::is_array) {
            return Err(format!(
                "{p}: not a delaylab result (no `deliveries` array)"
            ));
        }
        Ok(v)
    };
    let (a, b) = match (read(a_path), read(b_path)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let diffs = compare(&a, &b, tolerance_ms, unordered);
    for note in unchecked_drops(&a, &b) {
        println!("not checked: {note}");
    }
    for q in unordered {
        println!("not checked: the order of deliveries from queue {q:?} (--unordered)");
    }
    if diffs.is_empty() {
        println!(
            "agree: {} deliveries, {} errors, {} returned, {} queues (tolerance {tolerance_ms} ms)",
            arr(&a, "deliveries").len(),
            arr(&a, "errors").len(),
            arr(&a, "returned").len(),
            a["final"]["queues"].as_object().map_or(0, Map::len)
        );
        ExitCode::SUCCESS
    } else {
        println!(
            "{} difference(s) between {a_path} (A) and {b_path} (B):",
            diffs.len()
        );
        for d in diffs.iter().take(MAX_SHOWN) {
            println!("- {d}");
        }
        if diffs.len() > MAX_SHOWN {
            println!("- ... and {} more", diffs.len() - MAX_SHOWN);
        }
        ExitCode::from(1)
    }
}

fn arr<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn s(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        Value::Null => "nothing".into(),
        other => other.to_string(),
    }
}

fn time(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| v.as_f64().map(|f| f.round() as i64))
}

/// Every difference, in words.
/// The order of deliveries within the queues named in `unordered` is not compared.
pub fn compare(a: &Value, b: &Value, tol: u64, unordered: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    deliveries(
        arr(a, "deliveries"),
        arr(b, "deliveries"),
        tol,
        unordered,
        &mut out,
    );
    listed(
        "error",
        arr(a, "errors"),
        arr(b, "errors"),
        &["code", "text", "scope"],
        tol,
        &mut out,
    );
    listed(
        "returned message",
        arr(a, "returned"),
        arr(b, "returned"),
        &["body", "code", "text"],
        tol,
        &mut out,
    );
    let (da, db) = (arr(a, "dropped"), arr(b, "dropped"));
    if !da.is_empty() && !db.is_empty() {
        listed(
            "dropped message",
            da,
            db,
            &["body", "queue", "reason"],
            tol,
            &mut out,
        );
    }
    if let (Some(Value::Array(na)), Some(Value::Array(nb))) = (a.get("nacked"), b.get("nacked")) {
        listed("publisher nack", na, nb, &["body"], tol, &mut out);
    }
    finals(&a["final"]["queues"], &b["final"]["queues"], &mut out);
    out
}

/// Drops one side reports and the other cannot see (a live broker drops silently), by
/// reason: "A dropped 3 the other side cannot observe: dead_letter_cycle 2, dlx_missing 1".
pub fn unchecked_drops(a: &Value, b: &Value) -> Vec<String> {
    let (da, db) = (arr(a, "dropped"), arr(b, "dropped"));
    let mut notes = Vec::new();
    for (side, mine, other) in [("A", da, db), ("B", db, da)] {
        if mine.is_empty() || !other.is_empty() {
            continue;
        }
        let mut by: BTreeMap<String, usize> = BTreeMap::new();
        for d in mine {
            *by.entry(d["reason"].as_str().unwrap_or("?").to_string())
                .or_default() += 1;
        }
        let reasons: Vec<String> = by.iter().map(|(r, n)| format!("{r} {n}")).collect();
        notes.push(format!(
            "{side} dropped {} message(s) the other side cannot observe: {}",
            mine.len(),
            reasons.join(", ")
        ));
    }
    notes
}

fn deliveries(a: &[Value], b: &[Value], tol: u64, unordered: &[String], out: &mut Vec<String>) {
    // Group by (body, queue), keeping delivery order within a group.
    let group = |list: &[Value]| {
        let mut m: BTreeMap<(String, String), Vec<(usize, Value)>> = BTreeMap::new();
        for (i, d) in list.iter().enumerate() {
            let key = (
                d["body"].as_str().unwrap_or_default().to_string(),
                d["queue"].as_str().unwrap_or_default().to_string(),
            );
            m.entry(key).or_default().push((i, d.clone()));
        }
        m
    };
    let (ga, gb) = (group(a), group(b));
    let mut keys: Vec<&(String, String)> = ga.keys().chain(gb.keys()).collect();
    keys.sort();
    keys.dedup();
    let empty = Vec::new();
    for key in keys {
        let (la, lb) = (ga.get(key).unwrap_or(&empty), gb.get(key).unwrap_or(&empty));
        let (body, queue) = key;
        if la.len() != lb.len() {
            out.push(format!(
                "message {body:?} in queue {queue:?} was delivered {} time(s) in A {} but {} time(s) in B {}",
                la.len(),
                at_list(la),
                lb.len(),
                at_list(lb)
            ));
        }
        for (n, ((_, da), (_, db))) in la.iter().zip(lb.iter()).enumerate() {
            let what = if la.len() > 1 || lb.len() > 1 {
                format!("delivery #{} of {body:?} from {queue:?}", n + 1)
            } else {
                format!("delivery of {body:?} from {queue:?}")
            };
            one_delivery(&what, da, db, tol, out);
        }
    }
    // Order within each queue (by the matched pairs).
    let order = |list: &[Value]| {
        let mut m: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for d in list {
            m.entry(d["queue"].as_str().unwrap_or_default().to_string())
                .or_default()
                .push(d["body"].as_str().unwrap_or_default().to_string());
        }
        m
    };
    let (oa, ob) = (order(a), order(b));
    for (q, seq_a) in oa.iter().filter(|(q, _)| !unordered.contains(q)) {
        if let Some(seq_b) = ob.get(q) {
            let mut sa = seq_a.clone();
            let mut sb = seq_b.clone();
            sa.sort();
            sb.sort();
            if sa == sb && seq_a != seq_b {
                out.push(format!(
                    "queue {q:?} delivered in another order: A {seq_a:?}, B {seq_b:?}"
                ));
            }
        }
    }
}

fn at_list(l: &[(usize, Value)]) -> String {
    let t: Vec<String> = l
        .iter()
        .map(|(_, d)| d["delivered_at_ms"].to_string())
        .collect();
    format!("(at {} ms)", t.join(", "))
}

fn one_delivery(what: &str, a: &Value, b: &Value, tol: u64, out: &mut Vec<String>) {
    for key in ["consumer", "redelivered", "routing_key", "exchange"] {
        if a[key] != b[key] {
            out.push(format!(
                "{what}: {key} is {} in A, {} in B",
                s(&a[key]),
                s(&b[key])
            ));
        }
    }
    for key in ["published_at_ms", "delivered_at_ms"] {
        if let (Some(x), Some(y)) = (time(&a[key]), time(&b[key])) {
            if x.abs_diff(y) > tol {
                out.push(format!(
                    "{what}: {key} is {x} in A, {y} in B (more than {tol} ms apart)"
                ));
            }
        } else if !a[key].is_null() && !b[key].is_null() {
            out.push(format!(
                "{what}: {key} is {} in A, {} in B",
                s(&a[key]),
                s(&b[key])
            ));
        }
    }
    let empty = Map::new();
    let (pa, pb) = (
        a["properties"].as_object().unwrap_or(&empty),
        b["properties"].as_object().unwrap_or(&empty),
    );
    for k in union(pa, pb) {
        let (x, y) = (
            pa.get(&k).unwrap_or(&Value::Null),
            pb.get(&k).unwrap_or(&Value::Null),
        );
        // A timestamp property is wall-clock on a broker; compare presence only.
        if x != y {
            out.push(format!(
                "{what}: property {k} is {} in A, {} in B",
                s(x),
                s(y)
            ));
        }
    }
    let (ha, hb) = (
        a["headers"].as_object().unwrap_or(&empty),
        b["headers"].as_object().unwrap_or(&empty),
    );
    for k in union(ha, hb) {
        let (x, y) = (
            ha.get(&k).unwrap_or(&Value::Null),
            hb.get(&k).unwrap_or(&Value::Null),
        );
        if k == "x-death" {
            x_death(what, x, y, out);
        } else if x != y && !same_number(x, y) {
            out.push(format!(
                "{what}: header {k} is {} in A, {} in B",
                s(x),
                s(y)
            ));
        }
    }
}

/// 1 and 1.0 are the same header value for this purpose.
fn same_number(x: &Value, y: &Value) -> bool {
    matches!((x.as_f64(), y.as_f64()), (Some(a), Some(b)) if a == b)
}

fn union(a: &Map<String, Value>, b: &Map<String, Value>) -> Vec<String> {
    let mut keys: Vec<String> = a.keys().chain(b.keys()).cloned().collect();
    keys.sort();
    keys.dedup();
    keys
}

const X_DEATH_FIELDS: [&str; 6] = [
    "count",
    "reason",
    "queue",
    "routing-keys",
    "exchange",
    "original-expiration",
];

fn x_death(what: &str, a: &Value, b: &Value, out: &mut Vec<String>) {
    let empty = Vec::new();
    let (la, lb) = (
        a.as_array().unwrap_or(&empty),
        b.as_array().unwrap_or(&empty),
    );
    if la.len() != lb.len() {
        out.push(format!(
            "{what}: x-death has {} entr(ies) in A {}, {} in B {}",
            la.len(),
            brief(la),
            lb.len(),
            brief(lb)
        ));
        return;
    }
    for (i, (x, y)) in la.iter().zip(lb).enumerate() {
        for f in X_DEATH_FIELDS {
            if x[f] != y[f] {
                out.push(format!(
                    "{what}: x-death[{i}].{f} is {} in A, {} in B",
                    s(&x[f]),
                    s(&y[f])
                ));
            }
        }
    }
}

fn brief(l: &[Value]) -> String {
    let parts: Vec<String> = l
        .iter()
        .map(|e| {
            format!(
                "{}/{} x{}",
                e["queue"].as_str().unwrap_or("?"),
                e["reason"].as_str().unwrap_or("?"),
                e["count"]
            )
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

/// Lists compared in order on `fields`, times within the tolerance.
fn listed(what: &str, a: &[Value], b: &[Value], fields: &[&str], tol: u64, out: &mut Vec<String>) {
    let show = |v: &Value| {
        let parts: Vec<String> = fields
            .iter()
            .filter(|f| !v[**f].is_null())
            .map(|f| format!("{f} {}", s(&v[*f])))
            .collect();
        format!("{} at {} ms", parts.join(", "), v["at_ms"])
    };
    for i in 0..a.len().max(b.len()) {
        match (a.get(i), b.get(i)) {
            (Some(x), Some(y)) => {
                let diff: Vec<&&str> = fields.iter().filter(|f| x[**f] != y[**f]).collect();
                if !diff.is_empty() {
                    out.push(format!(
                        "{what} #{}: A has {}; B has {}",
                        i + 1,
                        show(x),
                        show(y)
                    ));
                } else if let (Some(tx), Some(ty)) = (time(&x["at_ms"]), time(&y["at_ms"])) {
                    if tx.abs_diff(ty) > tol {
                        out.push(format!("{what} #{} ({}): at {tx} ms in A, {ty} ms in B (more than {tol} ms apart)", i + 1, show(x)));
                    }
                }
            }
            (Some(x), None) => out.push(format!("{what} #{} only in A: {}", i + 1, show(x))),
            (None, Some(y)) => out.push(format!("{what} #{} only in B: {}", i + 1, show(y))),
            (None, None) => {}
        }
    }
}

fn finals(a: &Value, b: &Value, out: &mut Vec<String>) {
    let empty = Map::new();
    let (qa, qb) = (
        a.as_object().unwrap_or(&empty),
        b.as_object().unwrap_or(&empty),
    );
    for q in union(qa, qb) {
        match (qa.get(&q), qb.get(&q)) {
            (Some(x), Some(y)) => {
                for f in ["ready", "unacked"] {
                    // null: not known to that side (a replay's consumer the broker
                    // cancelled holds what AMQP does not tell).
                    if x[f] != y[f] && !x[f].is_null() && !y[f].is_null() {
                        out.push(format!(
                            "queue {q:?} ends with {} {f} message(s) in A, {} in B",
                            x[f], y[f]
                        ));
                    }
                }
            }
            (Some(_), None) => out.push(format!("queue {q:?} exists at the end in A, not in B")),
            (None, Some(_)) => out.push(format!("queue {q:?} exists at the end in B, not in A")),
            (None, None) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn result(deliveries: Value) -> Value {
        json!({"deliveries": deliveries, "dropped": [], "returned": [], "errors": [], "final": {"queues": {"q": {"ready": 0, "unacked": 0}}}})
    }

    #[test]
    fn an_unknown_depth_is_not_compared() {
        let a = result(json!([]));
        let mut b = result(json!([]));
        b["final"]["queues"]["q"]["unacked"] = Value::Null;
        assert!(compare(&a, &b, 50, &[]).is_empty());
        b["final"]["queues"]["q"]["ready"] = json!(1);
        assert_eq!(compare(&a, &b, 50, &[]).len(), 1, "ready is still compared");
    }

    #[test]
    fn an_unordered_queue_compares_its_deliveries_but_not_their_order() {
        let d = |body: &str, at: u64| json!({"body": body, "queue": "dead", "delivered_at_ms": at, "published_at_ms": 0});
        let a = result(json!([d("1", 10), d("2", 10)]));
        let b = result(json!([d("2", 10), d("1", 10)]));
        let diffs = compare(&a, &b, 50, &[]);
        assert_eq!(diffs.len(), 1, "{diffs:?}");
        assert!(diffs[0].contains("another order"), "{diffs:?}");
        assert!(compare(&a, &b, 50, &["dead".into()]).is_empty());
        let c = result(json!([d("2", 10)]));
        assert!(
            !compare(&a, &c, 50, &["dead".into()]).is_empty(),
            "a missing delivery is still a difference"
        );
    }

    #[test]
    fn drops_only_one_side_sees_are_listed() {
        let mut a = result(json!([]));
        a["dropped"] = json!([{"body": "x", "reason": "dead_letter_cycle"}, {"body": "y", "reason": "dlx_missing"}]);
        let b = result(json!([]));
        let notes = unchecked_drops(&a, &b);
        assert_eq!(notes.len(), 1);
        assert!(
            notes[0].contains("dead_letter_cycle 1, dlx_missing 1"),
            "{}",
            notes[0]
        );
        assert!(
            compare(&a, &b, 0, &[]).is_empty(),
            "a note, not a difference"
        );
    }

    #[test]
    fn publisher_nacks_are_compared() {
        let mut a = result(json!([]));
        let mut b = result(json!([]));
        a["nacked"] = json!([{"body": "n1", "at_ms": 0}]);
        b["nacked"] = json!([]);
        assert_eq!(compare(&a, &b, 0, &[]).len(), 1);
        b["nacked"] = json!([{"body": "n1", "at_ms": 3}]);
        assert!(compare(&a, &b, 5, &[]).is_empty());
    }

    #[test]
    fn times_within_tolerance_agree() {
        let a = result(
            json!([{"body": "A", "queue": "q", "consumer": "c", "published_at_ms": 0, "delivered_at_ms": 500, "redelivered": false, "routing_key": "k", "exchange": "x", "properties": {}, "headers": {"x-death": [{"count": 1, "reason": "expired", "queue": "w", "time": 0, "exchange": "x", "routing-keys": ["k"]}]}}]),
        );
        let mut b = a.clone();
        b["deliveries"][0]["delivered_at_ms"] = json!(502);
        b["deliveries"][0]["headers"]["x-death"][0]["time"] = json!(1764460000);
        assert!(compare(&a, &b, 50, &[]).is_empty());
        b["deliveries"][0]["delivered_at_ms"] = json!(600);
        assert_eq!(compare(&a, &b, 50, &[]).len(), 1);
    }

    #[test]
    fn missing_delivery_and_depth_are_reported() {
        let a = result(json!([{"body": "A", "queue": "q", "delivered_at_ms": 5}]));
        let mut b = result(json!([]));
        b["final"]["queues"]["q"]["ready"] = json!(1);
        let d = compare(&a, &b, 50, &[]);
        assert_eq!(d.len(), 2, "{d:?}");
    }
}
