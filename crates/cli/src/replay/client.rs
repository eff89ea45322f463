//! A consumer's client program beyond its outcome, on a live broker, as the simulation
//! runs it (`engine sim/client.rs`): the `republish` outcome (a copy with the headers
//! the consumer got, or giving up at the retry count), `eta_header` (holding a delivery
//! until its due time), the consumer's `x-consumer-timeout` argument.

use lapin::options::BasicPublishOptions;
use lapin::types::{AMQPValue, FieldTable, LongString, ShortString};
use lapin::{BasicProperties, Channel};

use delaylab_engine::scenario::{ConsumerSpec, RetryCount};

use super::names::Scale;
use super::recording::{MsgInfo, Shared, ID_HEADER};

/// Headers a quorum queue adds for this one delivery: not part of what a client
/// republishes (as the simulation's copy, `Sim::republish_spec`).
const DELIVERY_COUNT_HEADERS: [&str; 2] = ["x-delivery-count", "x-acquired-count"];

/// `basic.consume` arguments: `x-consumer-timeout` (scaled) when the consumer sets one.
pub fn consume_args(c: &ConsumerSpec, scale: &Scale) -> FieldTable {
    let mut t = FieldTable::default();
    if let Some(ms) = c.client.consumer_timeout_ms {
        t.insert(
            ShortString::from("x-consumer-timeout"),
            AMQPValue::LongLongInt(scale.ms_i64(ms as i64)),
        );
    }
    t
}

/// How long to hold a delivery (scenario ms): `handle`, or until its `eta_header` time
/// when that is later.
pub fn hold_ms(shared: &Shared, c: &ConsumerSpec, props: &BasicProperties) -> u64 {
    let due = c
        .client
        .eta_header
        .as_deref()
        .and_then(|h| {
            props
                .headers()
                .as_ref()
                .and_then(|t| t.inner().get(h).cloned())
        })
        .and_then(|v| int(&v))
        .map_or(0, |t| t.max(0) as u64);
    c.handle_ms.max(due.saturating_sub(shared.now_ms()))
}

fn int(v: &AMQPValue) -> Option<i64> {
    Some(match v {
        AMQPValue::ShortShortInt(n) => i64::from(*n),
        AMQPValue::ShortShortUInt(n) => i64::from(*n),
        AMQPValue::ShortInt(n) => i64::from(*n),
        AMQPValue::ShortUInt(n) => i64::from(*n),
        AMQPValue::LongInt(n) => i64::from(*n),
        AMQPValue::LongUInt(n) => i64::from(*n),
        AMQPValue::LongLongInt(n) => *n,
        AMQPValue::Timestamp(n) => *n as i64,
        _ => return None,
    })
}

/// The `republish` outcome: publishes the copy on the consumer's channel (before its
/// ack, as a republishing recoverer does), or nothing when the count it reads reached
/// `give_up_at`. The copy is a new message of the replay (a new id, published now).
pub async fn republish(
    shared: &Shared,
    ch: &Channel,
    c: &ConsumerSpec,
    body: &[u8],
    props: &BasicProperties,
) -> Result<(), lapin::Error> {
    let r = c
        .client
        .republish
        .as_ref()
        .expect("a republish outcome has its target (loader)");
    let mut headers = props.headers().clone().unwrap_or_default();
    let count = match &r.count {
        RetryCount::XDeath => match headers.inner().get("x-death") {
            Some(AMQPValue::FieldArray(a)) => a
                .as_slice()
                .first()
                .and_then(|e| match e {
                    AMQPValue::FieldTable(t) => t.inner().get("count").and_then(int),
                    _ => None,
                })
                .unwrap_or(0),
            _ => 0,
        },
        RetryCount::Header(h) => headers.inner().get(h.as_str()).and_then(int).unwrap_or(0),
    };
    if count >= i64::from(r.give_up_at) {
        return Ok(());
    }
    let mut t = FieldTable::default();
    let old_id: Option<usize> = headers.inner().get(ID_HEADER).and_then(|v| match v {
        AMQPValue::LongString(s) => String::from_utf8_lossy(s.as_bytes()).parse().ok(),
        _ => None,
    });
    for (k, v) in headers.inner() {
        if !DELIVERY_COUNT_HEADERS.contains(&k.as_str()) && k.as_str() != ID_HEADER {
            t.insert(k.clone(), v.clone());
        }
    }
    if let RetryCount::Header(h) = &r.count {
        t.insert(
            ShortString::from(h.as_str()),
            AMQPValue::LongLongInt(count + 1),
        );
    }
    let id = {
        let mut rec = shared.rec();
        let expiration = old_id
            .and_then(|i| rec.msgs.get(i))
            .and_then(|m| m.expiration.clone());
        let id = rec.msgs.len();
        let published_at_ms = shared.now_ms();
        rec.msgs.push(MsgInfo {
            published_at_ms,
            expiration,
        });
        id
    };
    t.insert(
        ShortString::from(ID_HEADER),
        AMQPValue::LongString(LongString::from(id.to_string())),
    );
    headers = t;
    let props = props.clone().with_headers(headers);
    let names = &shared.names;
    ch.basic_publish(
        names.name(&r.exchange).as_str().into(),
        names.key(&r.exchange, &r.routing_key).as_str().into(),
        BasicPublishOptions::default(),
        body,
        props,
    )
    .await
    .map(|_| ())
}
