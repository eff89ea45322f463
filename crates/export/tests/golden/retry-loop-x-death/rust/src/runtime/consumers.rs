//! The consumers: each on a channel of its own on the consumers' connection, attached at
//! `from_ms`, closed at `to_ms`.

use std::sync::Arc;

use futures_util::StreamExt;
use lapin::options::*;
use lapin::types::FieldTable;
use lapin::Connection;

use super::seen::Shared;
use super::{n, real, Attached, Consumer, Outcome, MAX_PREFETCH};
/// basic.qos and basic.consume on a channel of its own.
pub(super) async fn attach(shared: &Shared, conn: &Connection, c: &Consumer) -> Attached {
    let ch = match conn.create_channel().await {
        Ok(ch) => ch,
        Err(e) => {
            shared.error(&e, None);
            return None;
        }
    };
    if !c.auto_ack && c.prefetch > 0 {
        let qos = ch
            .basic_qos(
                c.prefetch.min(MAX_PREFETCH) as u16,
                BasicQosOptions { global: false },
            )
            .await;
        if let Err(e) = qos {
            shared.error(&e, None);
            return None;
        }
    }
    let opts = BasicConsumeOptions {
        no_ack: c.auto_ack,
        ..Default::default()
    };
    match ch
        .basic_consume(n(c.queue), c.name.into(), opts, FieldTable::default())
        .await
    {
        Ok(stream) => Some((ch, stream)),
        Err(e) => {
            shared.error(&e, None);
            None
        }
    }
}

/// One consumer's life: attached at `from_ms`, each delivery held `handle_ms` and then
/// acked, rejected or requeued, closed at `to_ms` (closing its channel requeues what it
/// holds).
pub(super) async fn consume(
    shared: Arc<Shared>,
    conn: Arc<Connection>,
    idx: usize,
    c: Consumer,
    pre: Option<Attached>,
) {
    let attached = match pre {
        Some(a) => a,
        None => {
            tokio::time::sleep_until(shared.at(c.from_ms)).await;
            if c.to_ms.is_some_and(|to| to < c.from_ms) {
                return;
            }
            attach(&shared, &conn, &c).await
        }
    };
    let Some((ch, mut stream)) = attached else {
        return;
    };
    let stop = c.to_ms.map(|to| shared.at(to.max(c.from_ms)));
    loop {
        let next = tokio::select! {
            d = stream.next() => d,
            _ = async {
                match stop {
                    Some(t) => tokio::time::sleep_until(t).await,
                    None => std::future::pending().await,
                }
            } => {
                shared.rec().closed[idx] = true;
                let _ = ch.close(200, "OK".into()).await;
                return;
            }
        };
        let Some(Ok(delivery)) = next else {
            return; // cancelled by the broker (queue deleted) or the channel is gone
        };
        shared.record(&delivery, c.queue, c.name);
        if c.auto_ack {
            continue;
        }
        let outcome = {
            let mut rec = shared.rec();
            let k = rec.delivered[idx];
            rec.delivered[idx] += 1;
            rec.held[idx] += 1;
            let mut rng = rec.rng;
            let o = c.outcome.pick(k, &mut rng);
            rec.rng = rng;
            o
        };
        let handle = real(c.handle_ms);
        let shared = shared.clone();
        tokio::spawn(async move {
            tokio::time::sleep(handle).await;
            let acker = &delivery.acker;
            let r = match outcome {
                Outcome::Ack => acker.ack(BasicAckOptions::default()).await,
                Outcome::Reject => acker.reject(BasicRejectOptions { requeue: false }).await,
                Outcome::RejectRequeue => acker.reject(BasicRejectOptions { requeue: true }).await,
                Outcome::Requeue => {
                    acker
                        .nack(BasicNackOptions {
                            multiple: false,
                            requeue: true,
                        })
                        .await
                }
                Outcome::NackMultiple => {
                    acker
                        .nack(BasicNackOptions {
                            multiple: true,
                            requeue: true,
                        })
                        .await
                }
            };
            if r.is_ok() {
                let mut rec = shared.rec();
                if !rec.closed[idx] {
                    rec.held[idx] -= 1;
                }
            }
        });
    }
}
