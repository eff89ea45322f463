//! `delaylab replay SCENARIO --amqp URL [--time-scale F]`: the same scenario on a live
//! RabbitMQ, reported in the JSON of `delaylab run` so that `delaylab diff` can compare.
//!
//! How the run maps onto AMQP (the assumptions the simulation makes):
//!
//! - One connection does everything the scenario's actions do (declare, delete, purge,
//!   basic.get, publish in confirm mode; confirms, returns and nacks are collected
//!   before the next action, or up to 500 in flight when publishes come back to back,
//!   and a publish with a malformed `expiration` is always sent alone). When the broker
//!   closes its channel (a 406 for a bad `expiration`, a 404, ...) the error is recorded
//!   and a new channel is opened; a connection error (503) reconnects it.
//! - Consumers live on a second connection, one channel each (`basic.qos` = prefetch,
//!   no-ack for `ack: "auto"`), attached at `from` and closed at `to` (closing requeues
//!   what they hold). Each delivery is held `handle` ms, then acked, rejected
//!   (requeue=false) or nacked with requeue, following the outcome plan.
//! - Names get a unique prefix (`names.rs`) and are mapped back in the output; every
//!   duration is multiplied by `--time-scale`, and the times in the output divided by
//!   it again. Each message carries a header `x-delaylab-id` so its publish time is
//!   known at delivery; the header is removed from the output.
//! - What the broker drops cannot be seen: `dropped` stays empty. `final.queues` holds
//!   each queue's depth (passive declare: ready; unacked: what the replay's consumers
//!   hold) so that drops show up there.
//! - Everything declared is deleted at the end, also on Ctrl-C / SIGTERM.

mod convert;
pub mod names;

use std::collections::BTreeSet;
use std::process::ExitCode;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use lapin::options::{
    BasicConsumeOptions, BasicGetOptions, BasicNackOptions, BasicPublishOptions, BasicQosOptions,
    BasicRejectOptions, ConfirmSelectOptions, ExchangeBindOptions, ExchangeDeclareOptions,
    ExchangeDeleteOptions, ExchangeUnbindOptions, QueueBindOptions, QueueDeclareOptions,
    QueueDeleteOptions, QueuePurgeOptions,
};
use lapin::types::{AMQPValue, FieldTable, LongString, ShortString};
use lapin::Confirmation;
use lapin::{BasicProperties, Channel, Connection, ConnectionProperties, ErrorKind, ExchangeKind};
use serde_json::{json, Map, Value};

use delaylab_engine::report;
use delaylab_engine::rng::Rng;
use delaylab_engine::scenario::{
    AckMode, ActionKind, BindingDef, ConsumerSpec, Declare, Delete, DestinationKind, ExchangeDef,
    Outcome, OutcomePlan, PublishSpec, QueueDef, Scenario,
};

use names::{Names, Scale};

/// The header that carries a message's replay id (removed from the output).
const ID_HEADER: &str = "x-delaylab-id";
/// Extra real time to wait after the scenario's end for the broker's last steps.
const GRACE_UNTIL: Duration = Duration::from_millis(25);
const GRACE_IDLE: Duration = Duration::from_millis(300);

pub fn main(
    path: &str,
    url: &str,
    time_scale: f64,
    broker: Option<delaylab_engine::version::BrokerVersion>,
) -> ExitCode {
    let scenario = match crate::run::load(path) {
        Ok(mut s) => {
            if broker.is_some() {
                s.broker = broker; // the version of the broker given, as `run --broker`
            }
            s
        }
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if !(time_scale.is_finite() && time_scale > 0.0) {
        eprintln!("--time-scale must be a positive number, got {time_scale}");
        return ExitCode::from(2);
    }
    if let Some(why) = unsupported(&scenario) {
        eprintln!("{path}: cannot replay on a live broker: {why}");
        return ExitCode::from(2);
    }
    let names = Names::random();
    let scale = Scale(time_scale);
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("cannot start the async runtime: {e}");
            return ExitCode::from(1);
        }
    };
    let started = Instant::now();
    let outcome = rt.block_on(async {
        let run = replay(&scenario, url, names.clone(), scale);
        let outcome = tokio::select! {
            r = run => r,
            _ = interrupted() => Err("interrupted".to_string()),
        };
        if let Err(e) = cleanup(url, &scenario, &names).await {
            eprintln!("cleanup: {e} (names start with {})", names.prefix);
        }
        outcome
    });
    rt.shutdown_timeout(Duration::from_millis(500));
    match outcome {
        Ok(mut result) => {
            result["stats"]["wall_ms"] =
                json!((started.elapsed().as_secs_f64() * 1e6).round() / 1000.0);
            println!("{}", serde_json::to_string_pretty(&result).expect("json"));
            ExitCode::SUCCESS
        }
        Err(e) if e == "interrupted" => {
            eprintln!(
                "interrupted; removed what was declared (prefix {})",
                names.prefix
            );
            ExitCode::from(130)
        }
        Err(e) => {
            eprintln!("replay: {e}");
            ExitCode::from(1)
        }
    }
}

async fn interrupted() {
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => return std::future::pending().await,
            };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Why a scenario cannot run on a stock broker (Debian has no delayed-message plugin,
/// and a replay does not stop the user's node).
pub fn unsupported(s: &Scenario) -> Option<String> {
    let plugin = |x: &ExchangeDef| x.kind == "x-delayed-message";
    if let Some(x) = s.topology.exchanges.iter().find(|x| plugin(x)) {
        return Some(format!(
            "exchange '{}' needs the delayed-message plugin (x-delayed-message), which the Debian package of RabbitMQ does not ship; the plugin rules are checked against the simulation only",
            x.name
        ));
    }
    for (i, a) in s.actions.iter().enumerate() {
        match &a.kind {
            ActionKind::Declare(Declare::Exchange(x)) if plugin(x) => {
                return Some(format!("actions[{i}] declares the delayed-message exchange '{}' (plugin not available)", x.name));
            }
            ActionKind::RestartNode { .. } => {
                return Some(format!(
                    "actions[{i}] restarts the node; a replay does not stop the broker it is given"
                ));
            }
            ActionKind::Upgrade { .. } => {
                return Some(format!(
                    "actions[{i}] upgrades the node; a replay does not change the broker it is given"
                ));
            }
            ActionKind::LoseNode => {
                return Some(format!(
                    "actions[{i}] loses the node; a replay cannot take a broker node away"
                ));
            }
            _ => {}
        }
    }
    None
}

/// Queues and exchanges a scenario may create (topology and `declare` actions).
fn declared_names(s: &Scenario) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut xs: BTreeSet<String> = s
        .topology
        .exchanges
        .iter()
        .map(|x| x.name.clone())
        .collect();
    let mut qs: BTreeSet<String> = s.topology.queues.iter().map(|q| q.name.clone()).collect();
    for a in &s.actions {
        match &a.kind {
            ActionKind::Declare(Declare::Exchange(x)) => {
                xs.insert(x.name.clone());
            }
            ActionKind::Declare(Declare::Queue(q)) => {
                qs.insert(q.name.clone());
            }
            _ => {}
        }
    }
    (xs, qs)
}

// ---------------------------------------------------------------- recording

struct MsgInfo {
    published_at_ms: u64,
    /// The `expiration` as the scenario wrote it, and as it was sent (scaled).
    expiration: Option<(String, String)>,
}

struct Rec {
    deliveries: Vec<Value>,
    returned: Vec<Value>,
    errors: Vec<Value>,
    nacked: Vec<Value>,
    msgs: Vec<MsgInfo>,
    rng: Rng,
    /// Per consumer: deliveries so far (outcome lists), held unacked, closed.
    delivered: Vec<usize>,
    held: Vec<i64>,
    closed: Vec<bool>,
}

struct Shared {
    names: Names,
    scale: Scale,
    t0: OnceLock<tokio::time::Instant>,
    rec: Mutex<Rec>,
}

impl Shared {
    fn now_ms(&self) -> u64 {
        self.t0
            .get()
            .map_or(0, |t0| self.scale.scenario_ms(t0.elapsed()))
    }

    fn at(&self, ms: u64) -> tokio::time::Instant {
        *self.t0.get().expect("t0 set") + self.scale.real(ms)
    }

    fn rec(&self) -> std::sync::MutexGuard<'_, Rec> {
        self.rec.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Records a broker error (code, text with names mapped back, scope).
    fn error(&self, e: &lapin::Error, body: Option<&str>) {
        let (code, text, scope) = match e.kind() {
            ErrorKind::ProtocolError(p) => (
                p.get_id(),
                self.names.unmap(p.get_message().as_str()),
                if e.is_amqp_hard_error() {
                    "connection"
                } else {
                    "channel"
                },
            ),
            other => (0, format!("client: {other:?}"), "client"),
        };
        let mut m = Map::new();
        m.insert("at_ms".into(), json!(self.now_ms()));
        m.insert("code".into(), json!(code));
        m.insert("text".into(), json!(text));
        m.insert("scope".into(), json!(scope));
        if let Some(b) = body {
            m.insert("body".into(), json!(b));
        }
        self.rec().errors.push(Value::Object(m));
    }

    fn delivery(&self, d: &lapin::message::Delivery, queue: &str, consumer: &str) {
        let at = self.now_ms();
        let names = &self.names;
        let mut headers = match d.properties.headers() {
            Some(h) => match convert::table_json(h, names) {
                Value::Object(m) => m,
                _ => Map::new(),
            },
            None => Map::new(),
        };
        let id: Option<usize> = headers
            .remove(ID_HEADER)
            .and_then(|v| v.as_str().and_then(|s| s.parse().ok()));
        let mut props = convert::properties_json(&d.properties, names);
        let rec = self.rec();
        let info = id.and_then(|i| rec.msgs.get(i));
        // Scaled TTL strings back to what the scenario wrote.
        if let Some((orig, sent)) = info.and_then(|m| m.expiration.as_ref()) {
            if props.get("expiration").and_then(Value::as_str) == Some(sent.as_str()) {
                props.insert("expiration".into(), json!(orig));
            }
            if let Some(Value::Array(deaths)) = headers.get_mut("x-death") {
                for e in deaths.iter_mut() {
                    if e.get("original-expiration").and_then(Value::as_str) == Some(sent.as_str()) {
                        e["original-expiration"] = json!(orig);
                    }
                }
            }
        }
        let published = info.map_or(Value::Null, |m| json!(m.published_at_ms));
        drop(rec);
        let v = json!({
            "body": String::from_utf8_lossy(&d.data),
            "queue": queue,
            "consumer": consumer,
            "published_at_ms": published,
            "delivered_at_ms": at,
            "redelivered": d.redelivered,
            "routing_key": names.unmap(d.routing_key.as_str()),
            "exchange": names.unmap(d.exchange.as_str()),
            "properties": Value::Object(props),
            "headers": Value::Object(headers),
        });
        self.rec().deliveries.push(v);
    }
}

// ---------------------------------------------------------------- the run

async fn connect(url: &str) -> Result<Connection, String> {
    Connection::connect(
        url,
        ConnectionProperties::default().with_connection_name("delaylab replay".into()),
    )
    .await
    .map_err(|e| format!("cannot connect to {}: {e}", redact(url)))
}

fn redact(url: &str) -> String {
    // amqp://user:pass@host -> amqp://user:***@host
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let cred = &url[s + 3..at];
            match cred.find(':') {
                Some(c) => format!("{}{}:***{}", &url[..s + 3], &cred[..c], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// The actions' connection and channel (confirm mode), reopened after errors.
struct Actions {
    url: String,
    conn: Connection,
    ch: Channel,
    /// Publishes whose confirm has not been awaited yet (body, confirm).
    pending: Vec<(String, lapin::PublisherConfirm)>,
}

impl Actions {
    async fn open(url: &str) -> Result<Actions, String> {
        let conn = connect(url).await?;
        let ch = Actions::new_channel(&conn).await?;
        Ok(Actions {
            url: url.to_string(),
            conn,
            ch,
            pending: Vec::new(),
        })
    }

    async fn new_channel(conn: &Connection) -> Result<Channel, String> {
        let ch = conn
            .create_channel()
            .await
            .map_err(|e| format!("cannot open a channel: {e}"))?;
        ch.confirm_select(ConfirmSelectOptions::default())
            .await
            .map_err(|e| format!("confirm.select: {e}"))?;
        Ok(ch)
    }

    /// A usable channel: a new one after a channel error, a new connection after a
    /// connection error.
    async fn channel(&mut self) -> Result<Channel, String> {
        if !self.conn.status().connected() {
            self.conn = connect(&self.url).await?;
            self.ch = Actions::new_channel(&self.conn).await?;
        } else if !self.ch.status().connected() {
            self.ch = Actions::new_channel(&self.conn).await?;
        }
        Ok(self.ch.clone())
    }

    /// Waits until a closing channel/connection is really gone, so the next action
    /// opens a fresh one.
    async fn settle(&mut self) {
        for _ in 0..200 {
            if !self.ch.status().closing() && !self.conn.status().closing() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }
}

async fn replay(
    scenario: &Scenario,
    url: &str,
    names: Names,
    scale: Scale,
) -> Result<Value, String> {
    // How long to run: `until`, or as long as the simulation finds something to do.
    let (end_ms, grace) = match scenario.until_ms {
        Some(u) => (u, GRACE_UNTIL),
        None => {
            let sim = report::run(scenario);
            (sim["stats"]["end_ms"].as_u64().unwrap_or(0), GRACE_IDLE)
        }
    };
    let shared = Arc::new(Shared {
        names: names.clone(),
        scale,
        t0: OnceLock::new(),
        rec: Mutex::new(Rec {
            deliveries: Vec::new(),
            returned: Vec::new(),
            errors: Vec::new(),
            nacked: Vec::new(),
            msgs: Vec::new(),
            rng: Rng::new(scenario.seed),
            delivered: vec![0; scenario.consumers.len()],
            held: vec![0; scenario.consumers.len()],
            closed: vec![false; scenario.consumers.len()],
        }),
    });
    let mut actions = Actions::open(url).await?;
    let consumer_conn = Arc::new(connect(url).await?);

    // t = 0: the topology, then the consumers that attach at once.
    let t = &scenario.topology;
    for x in &t.exchanges {
        declare(&shared, &mut actions, &Declare::Exchange(x.clone())).await?;
    }
    for q in &t.queues {
        declare(&shared, &mut actions, &Declare::Queue(q.clone())).await?;
    }
    for b in &t.bindings {
        declare(&shared, &mut actions, &Declare::Binding(b.clone())).await?;
    }
    let mut early = Vec::new();
    for c in &scenario.consumers {
        early.push(if c.from_ms == 0 {
            Some(attach(&shared, &consumer_conn, c).await)
        } else {
            None
        });
    }
    shared.t0.set(tokio::time::Instant::now()).expect("t0 once");
    let mut tasks = Vec::new();
    for ((i, c), pre) in scenario.consumers.iter().enumerate().zip(early) {
        tasks.push(tokio::spawn(consume(
            shared.clone(),
            consumer_conn.clone(),
            i,
            c.clone(),
            pre,
        )));
    }

    // The timed actions, in (time, order) as the simulation fires them.
    let mut plan: Vec<(u64, usize, u32)> = Vec::new();
    for (i, a) in scenario.actions.iter().enumerate() {
        let (count, every) = a.repeat.map_or((1, 0), |r| (r.count, r.every_ms));
        for run in 0..count {
            let at = a.at_ms.saturating_add(u64::from(run).saturating_mul(every));
            if at <= end_ms {
                plan.push((at, i, run));
            }
        }
    }
    plan.sort_by_key(|&(at, i, run)| (at, run > 0, i, run));
    for (at, i, run) in plan {
        let due = shared.at(at);
        // Confirms are collected whenever there is time before the next action; a
        // dense stream of publishes keeps up to MAX_IN_FLIGHT in flight.
        if !actions.pending.is_empty()
            && due > tokio::time::Instant::now() + Duration::from_millis(3)
        {
            flush(&shared, &mut actions).await?;
        }
        tokio::time::sleep_until(due).await;
        act(&shared, &mut actions, &scenario.actions[i].kind, run).await?;
    }
    flush(&shared, &mut actions).await?;
    tokio::time::sleep_until(shared.at(end_ms) + grace).await;

    // The end: depths first (consumers still attached), then stop everything.
    let end_at = shared.now_ms();
    let (_, queues) = declared_names(scenario);
    let mut depths = Map::new();
    for q in &queues {
        let ch = actions.channel().await?;
        match ch
            .queue_declare(
                names.map(q).as_str().into(),
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
                let held: i64 = scenario
                    .consumers
                    .iter()
                    .enumerate()
                    .filter(|(i, c)| &c.queue == q && !rec.closed[*i])
                    .map(|(i, _)| rec.held[i])
                    .sum();
                depths.insert(
                    q.clone(),
                    json!({"ready": info.message_count(), "unacked": held.max(0)}),
                );
            }
            Err(_) => actions.settle().await,
        }
    }
    for t in &tasks {
        t.abort();
    }
    let _ = consumer_conn.close(200, "OK".into()).await;
    let _ = actions.conn.close(200, "OK".into()).await;

    let rec = shared.rec();
    let mut deliveries = rec.deliveries.clone();
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
        json!({"events": Value::Null, "end_ms": end_ms, "measured_at_ms": end_at, "wall_ms": 0.0}),
    );
    out.insert(
        "replay".into(),
        json!({
            "broker": redact(url),
            "prefix": names.prefix,
            "time_scale": scale.0,
            "nacked": rec.nacked.clone(),
            "note": "dropped messages cannot be observed on a live broker: compare final.queues instead",
        }),
    );
    Ok(Value::Object(out))
}

// ---------------------------------------------------------------- actions

async fn act(
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
                    shared.names.map(queue).as_str().into(),
                    QueuePurgeOptions::default(),
                )
                .await;
            check(shared, actions, r.map(|_| ()), None).await
        }
        ActionKind::Get { queue } => {
            let ch = actions.channel().await?;
            match ch
                .basic_get(
                    shared.names.map(queue).as_str().into(),
                    BasicGetOptions { no_ack: true },
                )
                .await
            {
                Ok(Some(m)) => {
                    shared.delivery(&m.delivery, queue, "basic.get");
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

/// Records a broker error (and lets the channel be reopened); Ok for success.
async fn check(
    shared: &Shared,
    actions: &mut Actions,
    r: lapin::Result<()>,
    body: Option<&str>,
) -> Result<(), String> {
    if let Err(e) = r {
        shared.error(&e, body);
        actions.settle().await;
    }
    Ok(())
}

async fn publish(
    shared: &Shared,
    actions: &mut Actions,
    p: &PublishSpec,
    run: u32,
) -> Result<(), String> {
    let names = &shared.names;
    let body = if p.body.contains("{n}") {
        p.body.replace("{n}", &(run + 1).to_string())
    } else {
        p.body.clone()
    };
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
            names.map(&p.exchange).as_str().into(),
            names
                .routing_key(&p.exchange, &p.routing_key)
                .as_str()
                .into(),
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
async fn flush(shared: &Shared, actions: &mut Actions) -> Result<(), String> {
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

async fn declare(shared: &Shared, actions: &mut Actions, d: &Declare) -> Result<(), String> {
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
                names.map(&x.name).as_str().into(),
                exchange_kind(&x.kind),
                opts,
                args,
            )
            .await
        }
        Declare::Queue(q) => declare_queue(&ch, names, shared.scale, q).await,
        Declare::Binding(b) => bind(&ch, names, b).await,
    };
    check(shared, actions, r, None).await
}

async fn declare_queue(
    ch: &Channel,
    names: &Names,
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
    let args = convert::to_table(&names.queue_args(&q.arguments, &scale));
    ch.queue_declare(names.map(&q.name).as_str().into(), opts, args)
        .await
        .map(|_| ())
}

async fn bind(ch: &Channel, names: &Names, b: &BindingDef) -> lapin::Result<()> {
    let args = convert::to_table(&b.arguments);
    let src = names.map(&b.source);
    let dst = names.map(&b.destination);
    match b.destination_type {
        DestinationKind::Queue => {
            ch.queue_bind(
                dst.as_str().into(),
                src.as_str().into(),
                b.routing_key.as_str().into(),
                QueueBindOptions::default(),
                args,
            )
            .await
        }
        DestinationKind::Exchange => {
            ch.exchange_bind(
                dst.as_str().into(),
                src.as_str().into(),
                b.routing_key.as_str().into(),
                ExchangeBindOptions::default(),
                args,
            )
            .await
        }
    }
}

async fn delete(shared: &Shared, actions: &mut Actions, d: &Delete) -> Result<(), String> {
    let names = &shared.names;
    let ch = actions.channel().await?;
    let r = match d {
        Delete::Exchange { name } => {
            ch.exchange_delete(
                names.map(name).as_str().into(),
                ExchangeDeleteOptions::default(),
            )
            .await
        }
        Delete::Queue { name } => ch
            .queue_delete(
                names.map(name).as_str().into(),
                QueueDeleteOptions::default(),
            )
            .await
            .map(|_| ()),
        Delete::Binding(b) => {
            let args = convert::to_table(&b.arguments);
            let (src, dst) = (names.map(&b.source), names.map(&b.destination));
            match b.destination_type {
                DestinationKind::Queue => {
                    ch.queue_unbind(
                        dst.as_str().into(),
                        src.as_str().into(),
                        b.routing_key.as_str().into(),
                        args,
                    )
                    .await
                }
                DestinationKind::Exchange => {
                    ch.exchange_unbind(
                        dst.as_str().into(),
                        src.as_str().into(),
                        b.routing_key.as_str().into(),
                        ExchangeUnbindOptions::default(),
                        args,
                    )
                    .await
                }
            }
        }
    };
    check(shared, actions, r, None).await
}

// ---------------------------------------------------------------- consumers

type Attached = Option<(Channel, lapin::Consumer)>;

async fn attach(shared: &Shared, conn: &Connection, c: &ConsumerSpec) -> Attached {
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
                BasicQosOptions { global: false },
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
            shared.names.map(&c.queue).as_str().into(),
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

async fn consume(
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
                let _ = ch.close(200, "OK".into()).await;
                return;
            }
        };
        let delivery = match next {
            Some(Ok(d)) => d,
            _ => return, // cancelled by the broker (queue deleted) or channel gone
        };
        shared.delivery(&delivery, &spec.queue, &spec.name);
        if spec.ack == AckMode::Auto {
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
        tokio::spawn(async move {
            tokio::time::sleep(handle).await;
            let acker = &delivery.acker;
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
    }
}

// ---------------------------------------------------------------- cleanup

/// Deletes every prefixed queue and exchange the scenario could have created.
async fn cleanup(url: &str, scenario: &Scenario, names: &Names) -> Result<(), String> {
    let conn = connect(url).await?;
    let (xs, qs) = declared_names(scenario);
    let mut ch = conn.create_channel().await.map_err(|e| e.to_string())?;
    for q in qs.iter().filter(|q| !Names::reserved(q)) {
        if !ch.status().connected() {
            ch = conn.create_channel().await.map_err(|e| e.to_string())?;
        }
        let _ = ch
            .queue_delete(names.map(q).as_str().into(), QueueDeleteOptions::default())
            .await;
    }
    for x in xs.iter().filter(|x| !Names::reserved(x)) {
        if !ch.status().connected() {
            ch = conn.create_channel().await.map_err(|e| e.to_string())?;
        }
        let _ = ch
            .exchange_delete(
                names.map(x).as_str().into(),
                ExchangeDeleteOptions::default(),
            )
            .await;
    }
    let _ = conn.close(200, "OK".into()).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_plugin_and_node_scenarios() {
        let load = |s: &str| delaylab_engine::scenario::load_str(s).expect("loads");
        let plugin = load(
            r#"{"version": 1, "name": "p", "topology": {"exchanges": [{"name": "d", "type": "x-delayed-message", "arguments": {"x-delayed-type": "direct"}}]}}"#,
        );
        assert!(unsupported(&plugin)
            .unwrap()
            .contains("delayed-message plugin"));
        let restart =
            load(r#"{"version": 1, "name": "r", "actions": [{"at": 0, "restart_node": {}}]}"#);
        assert!(unsupported(&restart).unwrap().contains("restarts the node"));
        let plain =
            load(r#"{"version": 1, "name": "ok", "topology": {"queues": [{"name": "q"}]}}"#);
        assert!(unsupported(&plain).is_none());
    }

    #[test]
    fn redacts_the_password() {
        assert_eq!(
            redact("amqp://guest:secret@127.0.0.1:5672/%2F"),
            "amqp://guest:***@127.0.0.1:5672/%2F"
        );
        assert_eq!(redact("amqp://127.0.0.1"), "amqp://127.0.0.1");
    }
}
