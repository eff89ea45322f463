//! The scenario's consumers, each on its own connection (opened before the clock starts)
//! with one channel, as the simulation models them: a connection error one consumer
//! causes (a quorum queue's 540 for global QoS) leaves the others be, and the channel in
//! a consumer-timeout 406 text is channel 1. Attached at `from` and closed at `to`,
//! no-ack for `ack: "auto"`, else `basic.qos` = prefetch (`global` as the consumer's
//! `global_qos` says) and each delivery held `handle` ms, then acked, rejected
//! (requeue=false), rejected with requeue or nacked with requeue, as the outcome plan
//! says (weighted outcomes drawn from the scenario's seeded PRNG, as the simulation
//! draws them).

use std::sync::Arc;

use futures_util::StreamExt;
use lapin::options::{BasicConsumeOptions, BasicNackOptions, BasicQosOptions, BasicRejectOptions};
use lapin::types::FieldTable;
use lapin::{Channel, Connection};

use delaylab_engine::scenario::{AckMode, ConsumerSpec, Outcome, OutcomePlan};

use super::recording::Shared;
use super::session::REPLY_SUCCESS;

/// A consumer's channel and its delivery stream, or None when attaching failed (the
/// error is recorded).
pub type Attached = Option<(Channel, lapin::Consumer)>;

/// Opens the consumer's channel (`basic.qos` = prefetch for manual acks) and consumes.
pub async fn attach(shared: &Shared, conn: &Connection, c: &ConsumerSpec) -> Attached {
    let ch = match conn.create_channel().await {
        Ok(ch) => ch,
        Err(e) => {
            shared.error(&e, None);
            return None;
        }
    };
    let auto = c.ack == AckMode::Auto;
    if !auto && c.prefetch > 0 {
        if let Err(e) = ch
            .basic_qos(
                c.prefetch.min(u32::from(u16::MAX)) as u16,
                BasicQosOptions {
                    global: c.global_qos,
                },
            )
            .await
        {
            shared.error(&e, None);
            return None;
        }
    }
    let opts = BasicConsumeOptions {
        no_local: false,
        no_ack: auto,
        exclusive: false,
        nowait: false,
    };
    match ch
        .basic_consume(
            shared.names.name(&c.queue).as_str().into(),
            c.name.as_str().into(),
            opts,
            FieldTable::default(),
        )
        .await
    {
        Ok(stream) => Some((ch, stream)),
        Err(e) => {
            shared.error(&e, None);
            None
        }
    }
}

/// One consumer for the whole run: attaches at `from` (unless `pre` is already
/// attached, at 0), holds each delivery `handle` ms, then settles it as its outcome plan
/// says, and closes its channel at `to` (which requeues what it holds).
pub async fn consume(
    shared: Arc<Shared>,
    conn: Arc<Connection>,
    idx: usize,
    spec: ConsumerSpec,
    pre: Option<Attached>,
) {
    let attached = match pre {
        Some(a) => a,
        None => {
            tokio::time::sleep_until(shared.at(spec.from_ms)).await;
            if spec.to_ms.is_some_and(|to| to < spec.from_ms) {
                return;
            }
            attach(&shared, &conn, &spec).await
        }
    };
    let Some((ch, mut stream)) = attached else {
        return;
    };
    let stop = spec.to_ms.map(|to| shared.at(to.max(spec.from_ms)));
    loop {
        let next = tokio::select! {
            d = stream.next() => d,
            _ = async { match stop { Some(t) => tokio::time::sleep_until(t).await, None => std::future::pending().await } } => {
                shared.rec().closed[idx] = true;
                let _ = ch.close(REPLY_SUCCESS, "OK".into()).await;
                return;
            }
        };
        let delivery = match next {
            Some(Ok(d)) => d,
            Some(Err(e)) => {
                // The broker closed the channel (a consumer timeout's 406 up to 4.2):
                // what it held went back to the queue.
                shared.error(&e, None);
                shared.rec().closed[idx] = true;
                return;
            }
            None => {
                let mut rec = shared.rec();
                if ch.status().connected() {
                    // basic.cancel from the broker (4.3's consumer timeout, a deleted
                    // queue): the channel keeps what was not returned, which AMQP does
                    // not say (see `Rec::cancelled`).
                    rec.cancelled[idx] = true;
                } else {
                    rec.closed[idx] = true;
                }
                return;
            }
        };
        if spec.ack == AckMode::Auto {
            shared.delivery(delivery, &spec.queue, &spec.name);
            continue;
        }
        let outcome = {
            let mut rec = shared.rec();
            let n = rec.delivered[idx];
            rec.delivered[idx] += 1;
            rec.held[idx] += 1;
            match &spec.outcome {
                OutcomePlan::Fixed(o) => *o,
                OutcomePlan::Sequence(list) => {
                    list.get(n).or(list.last()).copied().unwrap_or(Outcome::Ack)
                }
                OutcomePlan::Weighted(w) => {
                    let u = rec.rng.next_f64();
                    delaylab_engine::consumer::pick_weighted(w, u)
                }
            }
        };
        let handle = shared.scale.real(spec.handle_ms);
        let shared2 = shared.clone();
        let acker = delivery.acker.clone();
        tokio::spawn(async move {
            // No sleep for no handle time: a zero sleep still waits for the timer's next
            // tick (about 1 ms), which with prefetch 1 made one delivery per tick (440
            // msg/s live where calibrate's consumer took thousands, issue 23).
            if !handle.is_zero() {
                tokio::time::sleep(handle).await;
            }
            let acker = &acker;
            let r = match outcome {
                Outcome::Ack => acker.ack(Default::default()).await,
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
            };
            if r.is_ok() {
                let mut rec = shared2.rec();
                if !rec.closed[idx] {
                    rec.held[idx] -= 1;
                }
            }
        });
        // Recorded once its answer is on its way (the replay's bookkeeping is not the
        // consumer's handling time: with prefetch 1 it would lengthen every round trip).
        shared.delivery(delivery, &spec.queue, &spec.name);
    }
}
