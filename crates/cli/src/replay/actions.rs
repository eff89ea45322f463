//! The timed actions on the actions' connection: publishes in confirm mode (their
//! confirms, returns and nacks collected before the next non-publish action, or up to
//! [`MAX_IN_FLIGHT`] in flight when publishes come back to back; a publish the broker
//! will refuse is sent alone), declarations, deletions, purges and `basic.get`, with
//! every name renamed by the engine's rule (`scenario::rename`: a key that names a
//! queue is renamed with it) and every duration scaled.

use lapin::options::{
    BasicGetOptions, BasicPublishOptions, ExchangeBindOptions, ExchangeDeclareOptions,
    ExchangeDeleteOptions, ExchangeUnbindOptions, QueueBindOptions, QueueDeclareOptions,
    QueueDeleteOptions, QueuePurgeOptions,
};
use lapin::types::{AMQPValue, LongString, ShortString};
use lapin::{BasicProperties, Channel, Confirmation, ExchangeKind};
use serde_json::json;

use delaylab_engine::amqp::delivery_time::DELIVERY_TIME_HEADER;
use delaylab_engine::scenario::rename::Rename;
use delaylab_engine::scenario::template::body_of_run;
use delaylab_engine::scenario::{
    ActionKind, BindingDef, Declare, Delete, DestinationKind, PublishSpec, QueueDef,
};

use super::convert;
use super::names::Scale;
use super::recording::{MsgInfo, Shared, ID_HEADER};
use super::session::{check, Actions};

/// One timed action (run `run` of its repeats). Everything but a publish first
/// collects the confirms in flight, so its effect follows theirs as in the simulation.
pub async fn act(
    shared: &Shared,
    actions: &mut Actions,
    kind: &ActionKind,
    run: u32,
) -> Result<(), String> {
    if !matches!(kind, ActionKind::Publish(_)) {
        flush(shared, actions).await?;
    }
    match kind {
        ActionKind::Publish(p) => publish(shared, actions, p, run).await,
        ActionKind::Declare(d) => declare(shared, actions, d).await,
        ActionKind::Delete(d) => delete(shared, actions, d).await,
        ActionKind::Purge { queue } => {
            let ch = actions.channel().await?;
            let r = ch
                .queue_purge(
                    shared.names.name(queue).as_str().into(),
                    QueuePurgeOptions::default(),
                )
                .await;
            check(shared, actions, r.map(|_| ()), None).await
        }
        ActionKind::Get { queue } => {
            let ch = actions.channel().await?;
            match ch
                .basic_get(
                    shared.names.name(queue).as_str().into(),
                    BasicGetOptions { no_ack: true },
                )
                .await
            {
                Ok(Some(m)) => {
                    shared.delivery(m.delivery, queue, "basic.get");
                    Ok(())
                }
                Ok(None) => Ok(()),
                Err(e) => check(shared, actions, Err(e), None).await,
            }
        }
        ActionKind::RestartNode { .. } | ActionKind::LoseNode | ActionKind::Upgrade { .. } => {
            Err("node actions cannot be replayed".into())
        }
    }
}

async fn publish(
    shared: &Shared,
    actions: &mut Actions,
    p: &PublishSpec,
    run: u32,
) -> Result<(), String> {
    let names = &shared.names;
    let body = body_of_run(&p.body, run);
    let pr = &p.properties;
    let sent_exp = pr.expiration.as_deref().map(|e| shared.scale.expiration(e));
    let id = {
        let mut rec = shared.rec();
        let id = rec.msgs.len();
        let published_at_ms = shared.now_ms();
        rec.msgs.push(MsgInfo {
            published_at_ms,
            expiration: pr.expiration.clone().zip(sent_exp.clone()),
        });
        id
    };
    let mut headers = convert::to_table(&names.headers(&p.exchange, &pr.headers));
    // A time, not a duration: the replay's start plus the scaled scenario time, a long.
    if let Some(v) = pr.headers.get(DELIVERY_TIME_HEADER) {
        let start_ms = shared.start_ms.get().copied().unwrap_or(0);
        if let Some(sent) = shared.scale.delivery_time(v, start_ms) {
            headers.insert(DELIVERY_TIME_HEADER.into(), sent);
        }
    }
    headers.insert(
        ID_HEADER.into(),
        AMQPValue::LongString(LongString::from(id.to_string())),
    );
    let mut props = BasicProperties::default().with_headers(headers);
    let ss = |s: &String| ShortString::from(s.as_str());
    if let Some(e) = &sent_exp {
        props = props.with_expiration(e.as_str().into());
    }
    if let Some(x) = pr.delivery_mode {
        props = props.with_delivery_mode(x);
    }
    if let Some(x) = pr.priority {
        props = props.with_priority(x);
    }
    if let Some(x) = &pr.message_id {
        props = props.with_message_id(ss(x));
    }
    if let Some(x) = &pr.correlation_id {
        props = props.with_correlation_id(ss(x));
    }
    if let Some(x) = &pr.content_type {
        props = props.with_content_type(ss(x));
    }
    if let Some(x) = &pr.content_encoding {
        props = props.with_content_encoding(ss(x));
    }
    if let Some(x) = &pr.reply_to {
        props = props.with_reply_to(ss(x));
    }
    if let Some(x) = pr.timestamp {
        props = props.with_timestamp(x);
    }
    if let Some(x) = &pr.kind {
        props = props.with_type(ss(x));
    }
    if let Some(x) = &pr.user_id {
        props = props.with_user_id(ss(x));
    }
    if let Some(x) = &pr.app_id {
        props = props.with_app_id(ss(x));
    }
    // A publish the broker will refuse (bad expiration) is sent alone and its outcome
    // awaited, so the channel error is attributed to it and later publishes go out on a
    // fresh channel, as the simulation assumes.
    let risky = sent_exp
        .as_deref()
        .is_some_and(|e| delaylab_engine::amqp::expiration::parse_expiration(e).is_err());
    if risky {
        flush(shared, actions).await?;
    }
    let ch = actions.channel().await?;
    let sent = ch
        .basic_publish(
            names.name(&p.exchange).as_str().into(),
            names.key(&p.exchange, &p.routing_key).as_str().into(),
            BasicPublishOptions {
                mandatory: p.mandatory,
                immediate: false,
            },
            body.as_bytes(),
            props,
        )
        .await;
    match sent {
        Ok(c) => actions.pending.push((body, c)),
        Err(e) => return check(shared, actions, Err(e), Some(&body)).await,
    }
    if risky || actions.pending.len() >= MAX_IN_FLIGHT {
        flush(shared, actions).await?;
    }
    Ok(())
}

/// Publishes in flight at most (then the replay waits for their confirms).
const MAX_IN_FLIGHT: usize = 500;

/// Waits for the confirms of the publishes in flight and records returns, nacks and a
/// channel error (with the body of the publish that caused it).
pub async fn flush(shared: &Shared, actions: &mut Actions) -> Result<(), String> {
    let pending = std::mem::take(&mut actions.pending);
    let mut failed = false;
    let mut lost = 0usize;
    for (body, confirm) in pending {
        match confirm.await {
            Ok(c) => {
                let nack = matches!(c, Confirmation::Nack(_));
                let ret = match c {
                    Confirmation::Ack(r) | Confirmation::Nack(r) => r,
                    Confirmation::NotRequested => None,
                };
                let at = shared.now_ms();
                let mut rec = shared.rec();
                if let Some(r) = ret {
                    rec.returned.push(json!({"body": body, "at_ms": at, "code": r.reply_code, "text": r.reply_text.as_str()}));
                }
                if nack {
                    rec.nacked.push(json!({"body": body, "at_ms": at}));
                }
            }
            Err(e) if !failed => {
                failed = true;
                check(shared, actions, Err(e), Some(&body)).await?;
            }
            Err(_) => lost += 1,
        }
    }
    if lost > 0 {
        eprintln!("replay: warning: {lost} publish(es) sent right after a refused one went down with its channel");
    }
    Ok(())
}

fn exchange_kind(kind: &str) -> ExchangeKind {
    match kind {
        "direct" => ExchangeKind::Direct,
        "fanout" => ExchangeKind::Fanout,
        "topic" => ExchangeKind::Topic,
        "headers" => ExchangeKind::Headers,
        other => ExchangeKind::Custom(other.to_string()),
    }
}

/// Declares an exchange, a queue or a binding (topology at 0, or a `declare` action).
pub async fn declare(shared: &Shared, actions: &mut Actions, d: &Declare) -> Result<(), String> {
    let names = &shared.names;
    let ch = actions.channel().await?;
    let r = match d {
        Declare::Exchange(x) => {
            let opts = ExchangeDeclareOptions {
                passive: false,
                durable: x.durable,
                auto_delete: x.auto_delete,
                internal: x.internal,
                nowait: false,
            };
            let args = convert::to_table(&names.exchange_args(&x.arguments));
            ch.exchange_declare(
                names.name(&x.name).as_str().into(),
                exchange_kind(&x.kind),
                opts,
                args,
            )
            .await
        }
        Declare::Queue(q) => declare_queue(&ch, names, shared.scale, q).await,
        Declare::Binding(b) => bind(&ch, names, b, false).await,
    };
    check(shared, actions, r, None).await
}

async fn declare_queue(
    ch: &Channel,
    names: &Rename,
    scale: Scale,
    q: &QueueDef,
) -> lapin::Result<()> {
    let opts = QueueDeclareOptions {
        passive: false,
        durable: q.durable,
        exclusive: q.exclusive,
        auto_delete: q.auto_delete,
        nowait: false,
    };
    let args = convert::to_table(&scale.queue_args(&names.queue_args(&q.arguments)));
    ch.queue_declare(names.name(&q.name).as_str().into(), opts, args)
        .await
        .map(|_| ())
}

/// Binds (or unbinds) `b` with each of its broker-side keys (one, or on a topic
/// exchange the pattern and the renamed queue names it matched: `scenario::rename`).
async fn bind(ch: &Channel, names: &Rename, b: &BindingDef, unbind: bool) -> lapin::Result<()> {
    let src = names.name(&b.source);
    let dst = names.name(&b.destination);
    for key in names.binding_keys(b) {
        let args = convert::to_table(&b.arguments);
        let (s, d, k) = (
            src.as_str().into(),
            dst.as_str().into(),
            key.as_str().into(),
        );
        match (b.destination_type, unbind) {
            (DestinationKind::Queue, false) => {
                ch.queue_bind(d, s, k, QueueBindOptions::default(), args)
                    .await?
            }
            (DestinationKind::Queue, true) => ch.queue_unbind(d, s, k, args).await?,
            (DestinationKind::Exchange, false) => {
                ch.exchange_bind(d, s, k, ExchangeBindOptions::default(), args)
                    .await?
            }
            (DestinationKind::Exchange, true) => {
                ch.exchange_unbind(d, s, k, ExchangeUnbindOptions::default(), args)
                    .await?
            }
        }
    }
    Ok(())
}

async fn delete(shared: &Shared, actions: &mut Actions, d: &Delete) -> Result<(), String> {
    let names = &shared.names;
    let ch = actions.channel().await?;
    let r = match d {
        Delete::Exchange { name } => {
            ch.exchange_delete(
                names.name(name).as_str().into(),
                ExchangeDeleteOptions::default(),
            )
            .await
        }
        Delete::Queue { name } => ch
            .queue_delete(
                names.name(name).as_str().into(),
                QueueDeleteOptions::default(),
            )
            .await
            .map(|_| ()),
        Delete::Binding(b) => bind(&ch, names, b, true).await,
    };
    check(shared, actions, r, None).await
}
