//! The causes events carry (`delaylab_engine::cause`), one test per rule: each names the
//! right binding, TTL source, head, limit or reason. None of them is in any output
//! (the golden traces check that).
mod common;
use common::*;
use delaylab_engine::amqp::exchange_args::ExchangeKind;
use delaylab_engine::amqp::queue_args::Overflow;
use delaylab_engine::cause::{
    DropCause, HeldBy, Hold, HopBy, LateCause, LimitHit, Matched, ReturnCause, TtlFrom,
};
use delaylab_engine::death::Reason;
use delaylab_engine::ids::MsgId;
use delaylab_engine::scenario::load_value;
use delaylab_engine::snapshot::Snapshot;
use delaylab_engine::{DropReason, Event, EventKind, Progress, Sim};
use serde_json::{json, Value};

/// Runs `v` to its `until` (or to the end) and returns the simulation and every event.
fn events(v: Value) -> (Sim, Vec<Event>) {
    let s = load_value(&v).unwrap_or_else(|e| panic!("test scenario does not load: {e}"));
    let until = s.until_ms.unwrap_or(30 * 24 * 3_600_000);
    let mut sim = Sim::new(&s);
    let mut out = Vec::new();
    loop {
        let p = sim.advance(until);
        while let Some(e) = sim.poll_event() {
            out.push(e);
        }
        if p == Progress::Idle {
            break;
        }
    }
    (sim, out)
}

/// The id of the message published with `body`.
fn id(evs: &[Event], body: &str) -> MsgId {
    evs.iter()
        .find_map(|e| match &e.kind {
            EventKind::Published { msg, .. } if &*msg.body == body => Some(msg.id),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{body} was not published"))
}

/// The events of message `body` of kind `kind`, in order.
fn of<'a>(evs: &'a [Event], body: &str, kind: &str) -> Vec<&'a Event> {
    let m = id(evs, body);
    evs.iter()
        .filter(|e| e.kind.msg_id() == Some(m) && e.kind.name() == kind)
        .collect()
}

fn name(sim: &Sim, s: delaylab_engine::sym::Sym) -> String {
    sim.symbols().str(s).to_string()
}

/// The head-of-line lesson: A (30 min) then B (5 min, a minute later) in one queue.
fn head_of_line() -> Value {
    json!({
        "until": "40m",
        "topology": dlx_topology(json!({})),
        "actions": [
            publish("0s", "", "wait", "A", json!({"expiration": "1800000"})),
            publish("1m", "", "wait", "B", json!({"expiration": "300000"}))
        ]
    })
}

#[test]
fn an_expiry_behind_the_head_names_the_head_and_its_time_there() {
    let (_, evs) = events(head_of_line());
    let a = id(&evs, "A");
    let EventKind::Expired {
        late_ms,
        late_cause,
        after,
        ..
    } = &of(&evs, "B", "expired")[0].kind
    else {
        unreachable!()
    };
    assert_eq!(*late_ms, 1_440_000, "TTL passed at 6:00, left at 30:00");
    assert_eq!(*late_cause, LateCause::BehindHead);
    let after = after.expect("B names the head it waited behind");
    assert_eq!((after.msg, after.from_ms, after.to_ms), (a, 0, 1_800_000));
    // A itself was the head from its enqueue: on time, nobody before it.
    let EventKind::Expired {
        late_cause, after, ..
    } = &of(&evs, "A", "expired")[0].kind
    else {
        unreachable!()
    };
    assert_eq!((*late_cause, *after), (LateCause::OnTime, None));
}

#[test]
fn a_chain_of_heads_is_named_one_expiry_at_a_time() {
    // A (10 min) heads until 10:00, then C (30 min, at 1 s) until 30:01; B (5 min) waits behind
    // both: B names C, C (on time) names A.
    let (_, evs) = events(json!({
        "until": "40m",
        "topology": dlx_topology(json!({})),
        "actions": [
            publish("0s", "", "wait", "A", json!({"expiration": "600000"})),
            publish("1s", "", "wait", "C", json!({"expiration": "1800000"})),
            publish("2s", "", "wait", "B", json!({"expiration": "300000"}))
        ]
    }));
    let expired = |b| match &of(&evs, b, "expired")[0].kind {
        EventKind::Expired {
            late_cause, after, ..
        } => (*late_cause, after.map(|a| (a.msg, a.from_ms, a.to_ms))),
        _ => unreachable!(),
    };
    let (a, c) = (id(&evs, "A"), id(&evs, "C"));
    assert_eq!(
        expired("B"),
        (LateCause::BehindHead, Some((c, 600_000, 1_801_000)))
    );
    assert_eq!(expired("C"), (LateCause::OnTime, Some((a, 0, 600_000))));
}

#[test]
fn the_snapshot_says_since_when_the_head_holds_the_queue() {
    let s = load_value(&head_of_line()).unwrap();
    let mut sim = Sim::new(&s);
    sim.advance(600_000);
    let snap = Snapshot::of(&sim);
    let q = snap.queue("wait").unwrap();
    assert_eq!(q.head_since_ms, Some(0), "A heads wait since 0:00");
    assert_eq!(q.head[1].body, "B");
    assert_eq!(
        q.head[1].overdue_ms,
        Some(240_000),
        "B's TTL passed at 6:00"
    );
}

#[test]
fn an_expiry_late_because_unacked_says_so() {
    // A consumer holds m (TTL 1 s) for 5 s and nacks it with requeue: it expires then.
    let (_, evs) = events(json!({
        "until": "10s",
        "topology": dlx_topology(json!({"x-message-ttl": 1000})),
        "consumers": [{"name": "slow", "queue": "wait", "ack": "manual", "prefetch": 1,
                       "handle": "5s", "outcome": "requeue", "to": "5s"}],
        "actions": [publish("0s", "", "wait", "m", json!({}))]
    }));
    let EventKind::Expired {
        late_ms,
        late_cause,
        ..
    } = &of(&evs, "m", "expired")[0].kind
    else {
        unreachable!()
    };
    assert_eq!((*late_ms, *late_cause), (4000, LateCause::Unacked));
}

#[test]
fn enqueued_names_the_binding_and_where_the_ttl_came_from() {
    let (sim, evs) = events(json!({
        "topology": {
            "exchanges": [{"name": "t", "type": "topic"}, {"name": "h", "type": "headers"}],
            "queues": [{"name": "q", "arguments": {"x-message-ttl": 60000}}, {"name": "r"}],
            "bindings": [
                {"source": "t", "destination": "q", "destination_type": "queue", "routing_key": "order.*"},
                {"source": "h", "destination": "r", "destination_type": "queue", "routing_key": "",
                 "arguments": {"x-match": "all", "kind": "vip"}}
            ]
        },
        "actions": [
            publish("0s", "t", "order.new", "both", json!({"expiration": "5000"})),
            publish("0s", "t", "order.new", "queue-only", json!({})),
            publish("0s", "h", "x", "headers", json!({"headers": {"kind": "vip"}, "expiration": "9000"})),
            publish("0s", "", "r", "default", json!({}))
        ]
    }));
    let why = |b| match &of(&evs, b, "enqueued")[0].kind {
        EventKind::Enqueued { why, .. } => why.clone(),
        _ => unreachable!(),
    };
    let both = why("both");
    assert_eq!(both.matched, Matched::Binding(ExchangeKind::Topic));
    assert_eq!(name(&sim, both.key), "order.*");
    assert_eq!(both.ttl, TtlFrom::Both);
    assert_eq!(both.more.unwrap().ttls, Some((60_000, 5_000)));
    let q = why("queue-only");
    assert_eq!(
        (q.ttl, q.more.is_none()),
        (TtlFrom::Queue, true),
        "nothing boxed"
    );
    let h = why("headers");
    assert_eq!(h.matched, Matched::Binding(ExchangeKind::Headers));
    assert_eq!(h.ttl, TtlFrom::Message);
    let args = h.more.unwrap().arguments.clone().unwrap();
    assert!(args.contains("\"kind\":\"vip\""), "{args}");
    let d = why("default");
    assert_eq!(
        (d.matched, name(&sim, d.key)),
        (Matched::Default, "r".into())
    );
    assert_eq!(d.ttl, TtlFrom::None);
}

#[test]
fn enqueued_names_the_hops_through_exchanges_and_alternates() {
    let (sim, evs) = events(json!({
        "topology": {
            "exchanges": [
                {"name": "front", "type": "direct", "arguments": {"alternate-exchange": "ae"}},
                {"name": "ae", "type": "fanout"},
                {"name": "inner", "type": "direct"}
            ],
            "queues": [{"name": "q"}, {"name": "lost"}],
            "bindings": [
                {"source": "front", "destination": "inner", "destination_type": "exchange", "routing_key": "k"},
                {"source": "inner", "destination": "q", "destination_type": "queue", "routing_key": "k"},
                {"source": "ae", "destination": "lost", "destination_type": "queue", "routing_key": ""}
            ]
        },
        "actions": [
            publish("0s", "front", "k", "e2e", json!({})),
            publish("0s", "front", "other", "alt", json!({}))
        ]
    }));
    let enq = |b| match &of(&evs, b, "enqueued")[0].kind {
        EventKind::Enqueued { why, via, .. } => (why.clone(), *via),
        _ => unreachable!(),
    };
    let (e2e, via) = enq("e2e");
    let hops = &e2e.more.as_ref().unwrap().hops;
    assert_eq!(hops.len(), 1);
    assert_eq!(
        (name(&sim, hops[0].from), name(&sim, hops[0].to)),
        ("front".into(), "inner".into())
    );
    assert!(matches!(
        hops[0].by,
        HopBy::Binding {
            kind: ExchangeKind::Direct,
            ..
        }
    ));
    assert_eq!(name(&sim, e2e.last_exchange(via)), "inner");
    let (alt, via) = enq("alt");
    let hop = alt.more.as_ref().unwrap().hops[0];
    assert_eq!(hop.by, HopBy::Alternate);
    assert_eq!(name(&sim, alt.last_exchange(via)), "ae");
    assert_eq!(alt.matched, Matched::Binding(ExchangeKind::Fanout));
}

#[test]
fn drops_name_why_no_route_no_dlx_missing_dlx_and_a_cycle() {
    let (sim, evs) = events(json!({
        "topology": {
            "exchanges": [{"name": "x", "type": "direct"}],
            "queues": [
                {"name": "no-dlx", "arguments": {"x-message-ttl": 10}},
                {"name": "gone-dlx", "arguments": {"x-message-ttl": 10, "x-dead-letter-exchange": "nowhere"}},
                {"name": "loop", "arguments": {"x-message-ttl": 10, "x-dead-letter-exchange": ""}}
            ]
        },
        "actions": [
            publish("0s", "x", "nobody", "unroutable", json!({})),
            publish("0s", "", "no-dlx", "nodlx", json!({})),
            publish("0s", "", "gone-dlx", "missing", json!({})),
            publish("0s", "", "loop", "cycle", json!({}))
        ]
    }));
    let why = |b| match &of(&evs, b, "dropped")[0].kind {
        EventKind::Dropped { why, reason, .. } => (why.clone(), *reason),
        _ => unreachable!(),
    };
    let x = sim.symbols().get("x").unwrap();
    assert_eq!(
        why("unroutable"),
        (DropCause::NoRoute { exchange: x }, DropReason::Unroutable)
    );
    assert_eq!(why("nodlx"), (DropCause::NoDlx, DropReason::Expired));
    let nowhere = sim.symbols().get("nowhere").unwrap();
    assert_eq!(
        why("missing"),
        (
            DropCause::DlxMissing { dlx: nowhere },
            DropReason::DlxMissing
        )
    );
    assert_eq!(
        why("cycle"),
        (
            DropCause::Cycle {
                earlier: Reason::Expired
            },
            DropReason::DeadLetterCycle
        )
    );
}

#[test]
fn max_length_names_its_limit_policy_and_the_message_that_went_over() {
    let (_, evs) = events(json!({
        "topology": {
            "exchanges": [{"name": "dlx", "type": "fanout"}],
            "queues": [
                {"name": "head", "arguments": {"x-max-length": 2, "x-dead-letter-exchange": "dlx"}},
                {"name": "refuse", "arguments": {"x-max-length-bytes": 3, "x-overflow": "reject-publish"}},
                {"name": "dead"}
            ],
            "bindings": [{"source": "dlx", "destination": "dead", "destination_type": "queue", "routing_key": ""}]
        },
        "actions": [
            publish("0s", "", "head", "n1", json!({})),
            publish("0s", "", "head", "n2", json!({})),
            publish("0s", "", "head", "n3", json!({})),
            publish("0s", "", "refuse", "abc", json!({})),
            publish("0s", "", "refuse", "d", json!({}))
        ]
    }));
    let n3 = id(&evs, "n3");
    let EventKind::DeadLettered { limit, reason, .. } = &of(&evs, "n1", "dead_lettered")[0].kind
    else {
        unreachable!()
    };
    assert_eq!(*reason, Reason::Maxlen);
    assert_eq!(
        limit.as_deref(),
        Some(&LimitHit::Length {
            max: 2,
            bytes: false,
            overflow: Overflow::DropHead,
            by: Some(n3)
        })
    );
    let d = id(&evs, "d");
    let EventKind::Dropped { why, reason, .. } = &of(&evs, "d", "dropped")[0].kind else {
        unreachable!()
    };
    assert_eq!(*reason, DropReason::RejectPublish);
    assert_eq!(
        *why,
        DropCause::Limit(Box::new(LimitHit::Length {
            max: 3,
            bytes: true,
            overflow: Overflow::RejectPublish,
            by: Some(d)
        }))
    );
}

#[test]
fn the_delivery_limit_names_its_count_and_limit() {
    let (_, evs) = events(json!({
        "broker": "4.3",
        "until": "1s",
        "topology": {"queues": [{"name": "q", "arguments": {"x-queue-type": "quorum", "x-delivery-limit": 2}}]},
        "consumers": [{"name": "c", "queue": "q", "ack": "manual", "prefetch": 1, "handle": "10ms",
                       "outcome": "reject_requeue"}],
        "actions": [publish("0s", "", "q", "poison", json!({}))]
    }));
    let EventKind::Dropped { why, reason, .. } = &of(&evs, "poison", "dropped")[0].kind else {
        unreachable!()
    };
    assert_eq!(*reason, DropReason::DeliveryLimit);
    assert_eq!(
        *why,
        DropCause::Limit(Box::new(LimitHit::Delivery {
            count: 3,
            limit: 2,
            failed_only: true
        }))
    );
}

#[test]
fn a_delayed_retry_names_its_hold() {
    let (_, evs) = events(json!({
        "broker": "4.3",
        "until": "2s",
        "topology": {"queues": [{"name": "q", "arguments": {"x-queue-type": "quorum",
            "x-delayed-retry-type": "failed", "x-delayed-retry-min": 1000, "x-delayed-retry-max": 5000}}]},
        "consumers": [{"name": "c", "queue": "q", "ack": "manual", "prefetch": 1, "handle": "10ms",
                       "outcome": ["reject_requeue", "ack"]}],
        "actions": [publish("0s", "", "q", "m", json!({}))]
    }));
    let EventKind::Requeued { held, .. } = &of(&evs, "m", "requeued")[0].kind else {
        unreachable!()
    };
    assert_eq!(
        *held,
        Some(Hold {
            until_ms: 1010,
            by: HeldBy::DelayedRetry
        }),
        "delivered at 0, rejected at 10, min 1000"
    );
    let EventKind::Released { by, late_ms, .. } = &of(&evs, "m", "released")[0].kind else {
        unreachable!()
    };
    assert_eq!((*by, *late_ms), (HeldBy::DelayedRetry, 0));
}

#[test]
fn a_delayed_publish_returned_at_once_says_the_exchange_holds_it() {
    let (_, evs) = events(json!({
        "topology": {
            "exchanges": [{"name": "delayed", "type": "x-delayed-message", "arguments": {"x-delayed-type": "direct"}},
                          {"name": "x", "type": "direct"}]
        },
        "actions": [
            {"at": "0s", "publish": {"exchange": "delayed", "routing_key": "k", "body": "held", "mandatory": true,
                                     "properties": {"headers": {"x-delay": 1000}}}},
            {"at": "0s", "publish": {"exchange": "x", "routing_key": "k", "body": "lost", "mandatory": true}}
        ]
    }));
    let why = |b| match &of(&evs, b, "returned")[0].kind {
        EventKind::Returned { why, .. } => *why,
        _ => unreachable!(),
    };
    assert_eq!(why("held"), ReturnCause::DelayedHeld);
    assert_eq!(why("lost"), ReturnCause::NoRoute);
}

#[test]
fn a_release_late_because_the_node_was_down_says_so() {
    let (_, evs) = events(json!({
        "topology": {
            "exchanges": [{"name": "delayed", "type": "x-delayed-message", "arguments": {"x-delayed-type": "direct"}}],
            "queues": [{"name": "q"}],
            "bindings": [{"source": "delayed", "destination": "q", "destination_type": "queue", "routing_key": "k"}]
        },
        "actions": [
            {"at": "0s", "publish": {"exchange": "delayed", "routing_key": "k", "body": "m",
                                     "properties": {"headers": {"x-delay": 1000}}}},
            {"at": "500ms", "restart_node": {"downtime": "2s"}}
        ]
    }));
    let EventKind::DelayDue {
        late_ms,
        late_cause,
        ..
    } = &of(&evs, "m", "delay_due")[0].kind
    else {
        unreachable!()
    };
    assert_eq!((*late_ms, *late_cause), (1500, LateCause::NodeDown));
}

#[test]
fn an_expiry_late_because_held_for_retry_says_so() {
    let (_, evs) = events(json!({
        "broker": "4.3",
        "until": "3s",
        "topology": {"queues": [{"name": "q", "arguments": {"x-queue-type": "quorum", "x-message-ttl": 500,
            "x-delayed-retry-type": "failed", "x-delayed-retry-min": 1000}}]},
        "consumers": [{"name": "c", "queue": "q", "ack": "manual", "prefetch": 1, "handle": "10ms",
                       "outcome": "reject_requeue"}],
        "actions": [publish("0s", "", "q", "m", json!({}))]
    }));
    let EventKind::Expired {
        late_ms,
        late_cause,
        ..
    } = &of(&evs, "m", "expired")[0].kind
    else {
        unreachable!()
    };
    assert_eq!(
        (*late_ms, *late_cause),
        (510, LateCause::Held(HeldBy::DelayedRetry))
    );
}

#[test]
fn a_release_late_in_measured_mode_blames_the_busy_plugin() {
    let actions: Vec<Value> = (0..2000)
        .map(|i| {
            json!({"at": "0s", "publish": {"exchange": "delayed", "routing_key": "k", "body": format!("m{i}"),
                                           "properties": {"headers": {"x-delay": 1000 + i}}}})
        })
        .collect();
    let (_, evs) = events(json!({
        "costs": "measured",
        "topology": {
            "exchanges": [{"name": "delayed", "type": "x-delayed-message", "arguments": {"x-delayed-type": "direct"}}],
            "queues": [{"name": "q"}],
            "bindings": [{"source": "delayed", "destination": "q", "destination_type": "queue", "routing_key": "k"}]
        },
        "actions": actions
    }));
    let late: Vec<LateCause> = evs
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::DelayDue {
                late_ms,
                late_cause,
                ..
            } => Some((late_ms, late_cause)),
            _ => None,
        })
        .map(|(late_ms, cause)| {
            assert_eq!(late_ms == 0, cause == LateCause::OnTime);
            cause
        })
        .collect();
    assert!(late.contains(&LateCause::Busy), "some release was late");
    assert!(late
        .iter()
        .all(|c| matches!(c, LateCause::Busy | LateCause::OnTime)));
}
