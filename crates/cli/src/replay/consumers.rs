//! The scenario's consumers, each on its own connection (opened before the clock starts)
//! with one channel, as the simulation models them: a connection error one consumer
//! causes (a quorum queue's 540 for global QoS) leaves the others be, and the channel in
//! a consumer-timeout 406 text is channel 1. Attached at `from` and closed at `to`,
//! no-ack for `ack: "auto"`, else `basic.qos` = prefetch (`global` as the consumer's
//! `global_qos` says) and each delivery held `handle` ms, then acked, rejected
//! (requeue=false), rejected with requeue or nacked with requeue, as the outcome plan
//! says (weighted outcomes drawn from the scenario's seeded PRNG, as the simulation
//! draws them), a `basic.nack multiple=true`, or a republished copy (`client.rs`).

use std::sync::Arc;

use futures_util::StreamExt;
use lapin::options::{BasicConsumeOptions, BasicNackOptions, BasicQosOptions, BasicRejectOptions};
use lapin::{Channel, Connection};

use delaylab_engine::scenario::{AckMode, ConsumerSpec, Outcome, OutcomePlan};

use super::client;
use super::recording::Shared;
use super::session::REPLY_SUCCESS;

/// A consumer's channel and its delivery stream, or None when attaching failed (the
/// error is recorded).
pub type Attached = Option<(Channel, lapin::Consumer)>;

/// Opens the consumer's channel (`basic.qos` = prefetch for manual acks) and consumes
/// (`round` > 0: its client subscribing again after the broker closed its channel, with a
/// consumer tag of its own).
pub async fn attach(shared: &Shared, conn: &Connection, c: &ConsumerSpec) -> Attached {
    attach_round(shared, conn, c, 0).await
}

async fn attach_round(
    shared: &Shared,
    conn: &Connection,
    c: &ConsumerSpec,
    round: u32,
) -> Attached {
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
    let stream = subscribe(shared, &ch, c, round).await?;
    Some((ch, stream))
}

/// `basic.consume` on `ch` (a new consumer tag each round: 4.3 keeps a cancelled tag).
async fn subscribe(
    shared: &Shared,
    ch: &Channel,
    c: &ConsumerSpec,
    round: u32,
) -> Option<lapin::Consumer> {
    let opts = BasicConsumeOptions {
        no_local: false,
        no_ack: c.ack == AckMode::Auto,
        exclusive: false,
        nowait: false,
    };
    let tag = if round == 0 {
        c.name.clone()
    } else {
        format!("{}-{round}", c.name)
    };
    match ch
        .basic_consume(
            shared.names.name(&c.queue).as_str().into(),
            tag.as_str().into(),
            opts,
            client::consume_args(c, &shared.scale),
        )
        .await
    {
        Ok(stream) => Some(stream),
        Err(e) => {
            shared.error(&e, None);
            None
        }
    }
}

/// How a subscription ended.
enum End {
    /// `to` passed: the consumer closed its channel.
    Stopped,
    /// The broker closed the channel (a consumer timeout's 406 up to 4.2).
    Closed,
    /// The broker cancelled the consumer (`basic.cancel`: 4.3's consumer timeout); the
    /// channel stays open with what it holds.
    Cancelled(Channel),
}

/// One consumer for the whole run: attaches at `from` (unless `pre` is already
/// attached, at 0), holds each delivery `handle` ms (or until its `eta_header` time),
/// then settles it as its outcome plan says, and closes its channel at `to` (which
/// requeues what it holds). With `reconnect`, it subscribes again after the broker
/// closed or cancelled it.
pub async fn consume(
    shared: Arc<Shared>,
    conn: Arc<Connection>,
    idx: usize,
    spec: ConsumerSpec,
    pre: Option<Attached>,
) {
    let mut attached = match pre {
        Some(a) => a,
        None => {
            tokio::time::sleep_until(shared.at(spec.from_ms)).await;
            if spec.to_ms.is_some_and(|to| to < spec.from_ms) {
                return;
            }
            attach(&shared, &conn, &spec).await
        }
    };
    let stop = spec.to_ms.map(|to| shared.at(to.max(spec.from_ms)));
    let mut round = 0;
    loop {
        let Some((ch, stream)) = attached else {
            return;
        };
        let end = serve(&shared, idx, &spec, ch, stream, stop).await;
        let Some(after) = spec.client.reconnect_ms else {
            return;
        };
        round += 1;
        let again = shared.at(shared.now_ms().saturating_add(after.max(1)));
        if matches!(end, End::Stopped) || stop.is_some_and(|s| again >= s) {
            return;
        }
        tokio::time::sleep_until(again).await;
        attached = match end {
            End::Stopped => return,
            End::Closed => {
                let a = attach_round(&shared, &conn, &spec, round).await;
                if a.is_some() {
                    let mut rec = shared.rec();
                    rec.closed[idx] = false;
                    rec.held[idx] = 0;
                    rec.outstanding[idx].clear();
                }
                a
            }
            End::Cancelled(ch) => subscribe(&shared, &ch, &spec, round)
                .await
                .map(|stream| (ch, stream)),
        };
    }
}

/// Serves one subscription until `to`, or until the broker closes or cancels it.
async fn serve(
    shared: &Arc<Shared>,
    idx: usize,
    spec: &ConsumerSpec,
    ch: Channel,
    mut stream: lapin::Consumer,
    stop: Option<tokio::time::Instant>,
) -> End {
    loop {
        let next = tokio::select! {
            d = stream.next() => d,
            _ = async { match stop { Some(t) => tokio::time::sleep_until(t).await, None => std::future::pending().await } } => {
                shared.rec().closed[idx] = true;
                let _ = ch.close(REPLY_SUCCESS, "OK".into()).await;
                return End::Stopped;
            }
        };
        let delivery = match next {
            Some(Ok(d)) => d,
            Some(Err(e)) => {
                // The broker closed the channel (a consumer timeout's 406 up to 4.2):
                // what it held went back to the queue.
                shared.error(&e, None);
                shared.rec().closed[idx] = true;
                return End::Closed;
            }
            None => {
                let mut rec = shared.rec();
                if ch.status().connected() {
                    // basic.cancel from the broker (4.3's consumer timeout, a deleted
                    // queue): the channel keeps what was not returned, which AMQP does
                    // not say (see `Rec::cancelled`).
                    rec.cancelled[idx] = true;
                    return End::Cancelled(ch);
                }
                rec.closed[idx] = true;
                return End::Closed;
            }
        };
        if spec.ack == AckMode::Auto {
            shared.delivery(delivery, &spec.queue, &spec.name);
            continue;
        }
        let tag = delivery.delivery_tag;
        let outcome = {
            let mut rec = shared.rec();
            let n = rec.delivered[idx];
            rec.delivered[idx] += 1;
            rec.held[idx] += 1;
            rec.outstanding[idx].insert(tag);
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
        let handle = shared
            .scale
            .real(client::hold_ms(shared, spec, &delivery.properties));
        let shared2 = shared.clone();
        let acker = delivery.acker.clone();
        // What a republishing client sends again (taken before the delivery is recorded).
        let copy = (outcome == Outcome::Republish).then(|| {
            (
                delivery.data.clone(),
                delivery.properties.clone(),
                ch.clone(),
            )
        });
        let spec2 = spec.clone();
        tokio::spawn(async move {
            // No sleep for no handle time: a zero sleep still waits for the timer's next
            // tick (about 1 ms), which with prefetch 1 made one delivery per tick (440
            // msg/s live where calibrate's consumer took thousands, issue 23).
            if !handle.is_zero() {
                tokio::time::sleep(handle).await;
            }
            let acker = &acker;
            let nack = |multiple| BasicNackOptions {
                multiple,
                requeue: true,
            };
            let r = match outcome {
                Outcome::Ack => acker.ack(Default::default()).await,
                Outcome::Reject => acker.reject(BasicRejectOptions { requeue: false }).await,
                Outcome::RejectRequeue => acker.reject(BasicRejectOptions { requeue: true }).await,
                Outcome::Requeue => acker.nack(nack(false)).await,
                Outcome::NackMultiple => acker.nack(nack(true)).await,
                Outcome::Republish => {
                    let (body, props, ch) = copy.expect("taken above");
                    match client::republish(&shared2, &ch, &spec2, &body, &props).await {
                        Ok(()) => acker.ack(Default::default()).await,
                        Err(e) => Err(e),
                    }
                }
            };
            if r.is_ok() {
                let mut rec = shared2.rec();
                if !rec.closed[idx] {
                    let settled = if outcome == Outcome::NackMultiple {
                        let below: Vec<u64> = rec.outstanding[idx].range(..=tag).copied().collect();
                        for t in &below {
                            rec.outstanding[idx].remove(t);
                        }
                        below.len() as i64
                    } else {
                        i64::from(rec.outstanding[idx].remove(&tag))
                    };
                    rec.held[idx] -= settled;
                }
            }
        });
        // Recorded once its answer is on its way (the replay's bookkeeping is not the
        // consumer's handling time: with prefetch 1 it would lengthen every round trip).
        shared.delivery(delivery, &spec.queue, &spec.name);
    }
}
