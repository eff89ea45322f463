//! Writing the order-timeout lab's sections back (`load(save(s)) == s`).

use serde_json::{json, Map, Value};

use super::{dur, publish};
use crate::scenario::orders::*;

pub(super) fn orders(s: &OrdersSpec) -> Value {
    let mut m = Map::new();
    m.insert("count".into(), json!(s.count));
    if s.start_ms > 0 {
        m.insert("start".into(), dur(s.start_ms));
    }
    if s.over_ms > 0 {
        m.insert("over".into(), dur(s.over_ms));
    }
    m.insert("timeout".into(), dur(s.timeout_ms));
    m.insert("publish".into(), lab_publish(&s.publish));
    m.insert("consumer".into(), json!(s.consumer));
    m.insert("policy".into(), json!(s.policy.as_str()));
    if s.early != Early::Republish {
        m.insert("early".into(), json!(s.early.as_str()));
    }
    if !s.pay.is_empty() {
        m.insert("pay".into(), s.pay.iter().map(share_after).collect());
    }
    if let Some(c) = &s.cancel {
        m.insert("cancel".into(), share_after(c));
    }
    if s.items != 1 {
        m.insert("items".into(), json!(s.items));
    }
    if s.stock != s.count {
        m.insert("stock".into(), json!(s.stock));
    }
    if let Some(r) = &s.reminder {
        let mut rm = Map::new();
        rm.insert("publish".into(), lab_publish(&r.publish));
        if r.consumer != s.consumer {
            rm.insert("consumer".into(), json!(r.consumer));
        }
        m.insert("reminder".into(), Value::Object(rm));
    }
    if let Some(every) = s.scan_every_ms {
        m.insert("compensation".into(), json!({"every": dur(every)}));
    }
    Value::Object(m)
}

/// The lab sets the body itself, so it is never written.
fn lab_publish(p: &crate::scenario::PublishSpec) -> Value {
    let mut v = publish(p);
    if let Value::Object(m) = &mut v {
        m.remove("body");
    }
    v
}

fn share_after(r: &ShareAfter) -> Value {
    let after = match r.after {
        After::Never => json!("never"),
        After::Fixed(ms) => dur(ms),
        After::Range(lo, hi) => json!([dur(lo), dur(hi)]),
    };
    json!({"share": r.share, "after": after})
}

pub(super) fn fault(f: &FaultSpec) -> Value {
    let mut m = Map::new();
    m.insert("kind".into(), json!(f.kind.as_str()));
    match f.kind {
        FaultKind::LoseNode => {
            m.insert("at".into(), dur(f.at_ms));
        }
        FaultKind::ConsumerOutage => {
            m.insert("at".into(), dur(f.at_ms));
            m.insert("for".into(), dur(f.duration_ms));
        }
        FaultKind::EarlyArrival => {
            m.insert("share".into(), json!(f.share));
            m.insert("by".into(), dur(f.duration_ms));
        }
        FaultKind::CrashBeforeAck => {
            m.insert("share".into(), json!(f.share));
            // The default is left out, so scenarios saved before `for` existed stay as they were.
            if f.duration_ms != DEFAULT_RESTART_MS {
                m.insert("for".into(), dur(f.duration_ms));
            }
        }
        _ => {
            m.insert("share".into(), json!(f.share));
        }
    }
    Value::Object(m)
}
