//! What a replay prints: the run contract of `delaylab run` (`deliveries` in delivery
//! order, `returned`, `errors`, `final.queues`, `stats`) filled from what was recorded,
//! so that `delaylab diff` compares it with the simulation, plus a `replay` section (the
//! broker without its password, the prefix, the time scale, the publisher nacks).
//!
//! What the broker drops cannot be seen: `dropped` stays empty. `final.queues` holds each
//! queue's depth at the end (passive declare: ready; unacked: what the replay's still
//! attached consumers hold), so that drops show up there.

use lapin::options::QueueDeclareOptions;
use lapin::types::FieldTable;
use serde_json::{json, Map, Value};

use delaylab_engine::scenario::rename::Rename;
use delaylab_engine::scenario::{ConsumerSpec, Scenario};

use super::names::Scale;
use super::recording::Shared;
use super::session::{redact, Actions};

/// Each queue's depth now, `{"ready": N, "unacked": M}` by scenario name (`unacked` null
/// when a consumer of it was cancelled by the broker, `Rec::cancelled`); a queue that
/// does not exist (deleted, never declared) is left out.
pub async fn depths<'a>(
    shared: &Shared,
    actions: &mut Actions,
    scenario: &Scenario,
    queues: impl IntoIterator<Item = &'a String>,
) -> Result<Map<String, Value>, String> {
    let mut depths = Map::new();
    for q in queues {
        let ch = actions.channel().await?;
        match ch
            .queue_declare(
                shared.names.name(q).as_str().into(),
                QueueDeclareOptions {
                    passive: true,
                    ..Default::default()
                },
                FieldTable::default(),
            )
            .await
        {
            Ok(info) => {
                let rec = shared.rec();
                let mine = |(i, c): &(usize, &ConsumerSpec)| &c.queue == q && !rec.closed[*i];
                let consumers = scenario.consumers.iter().enumerate();
                let unknown = consumers
                    .clone()
                    .filter(mine)
                    .any(|(i, _)| rec.cancelled[i]);
                let held: i64 = consumers.filter(mine).map(|(i, _)| rec.held[i]).sum();
                let unacked = if unknown {
                    Value::Null
                } else {
                    json!(held.max(0))
                };
                depths.insert(
                    q.clone(),
                    json!({"ready": info.message_count(), "unacked": unacked}),
                );
            }
            Err(_) => actions.settle().await,
        }
    }
    Ok(depths)
}

/// Where the run ended: the scenario's end (`until` or the simulation's) and the moment
/// the depths were measured, both in scenario ms.
pub struct End {
    pub end_ms: u64,
    pub measured_at_ms: u64,
}

/// The run contract of what `shared` recorded (`stats.wall_ms` is filled in by the
/// caller once everything is cleaned up).
pub fn contract(
    scenario: &Scenario,
    shared: &Shared,
    depths: Map<String, Value>,
    end: End,
    url: &str,
    names: &Rename,
    scale: Scale,
) -> Value {
    let rec = shared.rec();
    let mut deliveries: Vec<Value> = rec
        .deliveries
        .iter()
        .map(|d| shared.delivery_json(&rec, d))
        .collect();
    deliveries.sort_by_key(|d| d["delivered_at_ms"].as_u64().unwrap_or(0));
    let mut out = Map::new();
    out.insert("scenario".into(), json!(scenario.name));
    if let Some(b) = scenario.broker {
        out.insert("broker".into(), json!(b.as_str()));
    }
    out.insert("deliveries".into(), Value::Array(deliveries));
    out.insert("dropped".into(), json!([]));
    out.insert("returned".into(), Value::Array(rec.returned.clone()));
    out.insert("errors".into(), Value::Array(rec.errors.clone()));
    out.insert(
        "final".into(),
        json!({"queues": Value::Object(depths), "delayed": {}}),
    );
    out.insert(
        "stats".into(),
        json!({"events": Value::Null, "end_ms": end.end_ms, "measured_at_ms": end.measured_at_ms, "wall_ms": 0.0}),
    );
    out.insert(
        "replay".into(),
        json!({
            "broker": redact(url),
            "prefix": names.prefix(),
            "time_scale": scale.0,
            "nacked": rec.nacked.clone(),
            "note": "dropped messages cannot be observed on a live broker: compare final.queues instead",
        }),
    );
    Value::Object(out)
}

/// Fills in the wall-clock time of the whole replay (ms, three decimals).
pub fn set_wall_ms(result: &mut Value, wall: std::time::Duration) {
    const MICROS_PER_S: f64 = 1e6;
    const MICROS_PER_MS: f64 = 1000.0;
    result["stats"]["wall_ms"] = json!((wall.as_secs_f64() * MICROS_PER_S).round() / MICROS_PER_MS);
}
