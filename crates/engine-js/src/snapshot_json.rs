//! `sim.snapshot()`: the engine's [`Snapshot`] (what the playground draws from) as plain
//! JSON, field for field, in the package's snake_case like the trace and the result.
//! Lists are capped as the engine caps them (`snapshot::MAX_ENTRIES` per queue,
//! `MAX_DELAYED` of the store); counts are exact.

use delaylab_engine::orders::view::{OrderRow, OrdersView};
use delaylab_engine::snapshot::{
    BindingView, ConsumerView, DelayedView, EntryView, ExchangeView, QueueView, Snapshot,
};
use serde_json::{json, Value};

pub fn to_json(s: &Snapshot) -> Value {
    json!({
        "now_ms": s.now_ms,
        "node_up": s.node_up,
        "exchanges": s.exchanges.iter().map(exchange).collect::<Vec<_>>(),
        "queues": s.queues.iter().map(queue).collect::<Vec<_>>(),
        "delayed": s.delayed.iter().map(delayed).collect::<Vec<_>>(),
        "delayed_total": s.delayed_total,
        "consumers": s.consumers.iter().map(consumer).collect::<Vec<_>>(),
        "orders": s.orders.as_ref().map(orders),
    })
}

fn exchange(x: &ExchangeView) -> Value {
    json!({
        "name": x.name,
        "kind": x.kind,
        "wrapped": x.wrapped,
        "alternate": x.alternate,
        "internal": x.internal,
        "bindings": x.bindings.iter().map(binding).collect::<Vec<_>>(),
        "messages_delayed": x.messages_delayed,
    })
}

fn binding(b: &BindingView) -> Value {
    json!({
        "destination": b.destination,
        "to_exchange": b.to_exchange,
        "routing_key": b.routing_key,
        "arguments": b.arguments,
    })
}

fn queue(q: &QueueView) -> Value {
    json!({
        "name": q.name,
        "quorum": q.quorum,
        "durable": q.durable,
        "message_ttl_ms": q.message_ttl_ms,
        "dlx": q.dlx,
        "dlrk": q.dlrk,
        "max_length": q.max_length,
        "max_length_bytes": q.max_length_bytes,
        "overflow": q.overflow,
        "expires_ms": q.expires_ms,
        "ready": q.ready,
        "unacked": q.unacked,
        "ready_bytes": q.ready_bytes,
        "overdue": q.overdue,
        "head": q.head.iter().map(entry).collect::<Vec<_>>(),
        "consumers": q.consumers,
    })
}

fn entry(e: &EntryView) -> Value {
    json!({
        "msg": e.msg,
        "copy": e.copy,
        "body": e.body,
        "expires_at_ms": e.expires_at_ms,
        "remaining_ms": e.remaining_ms,
        "overdue_ms": e.overdue_ms,
        "redelivered": e.redelivered,
    })
}

fn delayed(d: &DelayedView) -> Value {
    json!({
        "msg": d.msg,
        "copy": d.copy,
        "body": d.body,
        "exchange": d.exchange,
        "due_ms": d.due_ms,
        "remaining_ms": d.remaining_ms,
    })
}

fn consumer(c: &ConsumerView) -> Value {
    json!({
        "name": c.name,
        "queue": c.queue,
        "attached": c.attached,
        "stopped": c.stopped,
        "auto_ack": c.auto_ack,
        "prefetch": c.prefetch,
        "unacked": c.unacked,
        "handle_ms": c.handle_ms,
        "outcome": c.outcome,
    })
}

fn orders(o: &OrdersView) -> Value {
    json!({
        "policy": o.policy,
        "total": o.total,
        "waiting": o.waiting,
        "paid": o.paid,
        "canceled": o.canceled,
        "closed": o.closed,
        "paid_closed": o.paid_closed,
        "stock_double_released": o.stock_double_released,
        "never_closed": o.never_closed,
        "lateness_mean_ms": o.lateness_mean_ms,
        "lateness_p99_ms": o.lateness_p99_ms,
        "lateness_max_ms": o.lateness_max_ms,
        "db_queries": o.db_queries,
        "rows_scanned": o.rows_scanned,
        "rows": o.rows.iter().map(order_row).collect::<Vec<_>>(),
    })
}

fn order_row(r: &OrderRow) -> Value {
    json!({
        "id": r.id,
        "item": r.item,
        "status": r.status,
        "created_ms": r.created_ms,
        "deadline_ms": r.deadline_ms,
        "paid_ms": r.paid_ms,
        "ended_ms": r.ended_ms,
        "mistake_msg": r.mistake_msg,
        "released_twice": r.released_twice,
        "overdue": r.overdue,
    })
}
