//! What the lab reports, as one engine event kind (`EventKind::Order`), on the same
//! clock and stream as the broker's events: traces, timelines and the playground see
//! orders and messages interleaved.
//!
//! ```text
//! 0:00:00.000  order       #1 created (item 0), close message #1
//! 0:12:00.000  order       #1 paid
//! 0:30:00.000  order       #1 CLOSED by message #1 while PAID  <- mistake
//! 0:30:00.000  stock       #1 item 0 released
//! ```

use serde_json::{json, Map, Value};

use super::model::Status;
use crate::ids::MsgId;
use crate::scenario::orders::FaultKind;

/// Why a consumer did not close the order named in a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    /// It read (or conditionally updated) the row and the order was not WAITING_PAY.
    NotWaiting(Status),
    /// The idempotency record for this message id exists.
    Duplicate,
    /// Too early; acked and dropped (only a scan closes the order now).
    EarlyIgnored,
    /// Too early; published again with the time that is left.
    EarlyRepublished { delay_ms: u64 },
}

#[derive(Clone, Debug, PartialEq)]
pub enum OrderEvent {
    Created {
        order: u32,
        item: u32,
        deadline_ms: u64,
    },
    /// `accepted` false: the order was no longer WAITING_PAY (the payment is refunded).
    /// `race`: injected between a consumer's read and its update.
    Paid {
        order: u32,
        accepted: bool,
        race: bool,
    },
    Canceled {
        order: u32,
        accepted: bool,
    },
    /// `msg` None: closed by the compensation scan. `mistake`: it was PAID.
    Closed {
        order: u32,
        msg: Option<MsgId>,
        was: Status,
        mistake: bool,
        late_ms: u64,
        early_ms: u64,
    },
    Skipped {
        order: u32,
        msg: MsgId,
        reason: Skip,
    },
    StockReleased {
        order: u32,
        item: u32,
        twice: bool,
    },
    Reminded {
        order: u32,
        msg: MsgId,
        to_paid: bool,
    },
    ScanRun {
        rows_scanned: u64,
        closed: u32,
    },
    Fault {
        fault: FaultKind,
        order: Option<u32>,
        msg: Option<MsgId>,
    },
}

impl Skip {
    pub fn as_str(self) -> &'static str {
        match self {
            Skip::NotWaiting(_) => "not_waiting",
            Skip::Duplicate => "duplicate",
            Skip::EarlyIgnored => "early_ignored",
            Skip::EarlyRepublished { .. } => "early_republished",
        }
    }
}

impl OrderEvent {
    pub fn name(&self) -> &'static str {
        match self {
            OrderEvent::Created { .. } => "order_created",
            OrderEvent::Paid { .. } => "order_paid",
            OrderEvent::Canceled { .. } => "order_canceled",
            OrderEvent::Closed { .. } => "order_closed",
            OrderEvent::Skipped { .. } => "close_skipped",
            OrderEvent::StockReleased { .. } => "stock_released",
            OrderEvent::Reminded { .. } => "order_reminded",
            OrderEvent::ScanRun { .. } => "scan_run",
            OrderEvent::Fault { .. } => "fault_injected",
        }
    }

    /// The message this event is about (the one that closed or skipped an order).
    pub fn msg(&self) -> Option<MsgId> {
        match self {
            OrderEvent::Closed { msg, .. } | OrderEvent::Fault { msg, .. } => *msg,
            OrderEvent::Skipped { msg, .. } | OrderEvent::Reminded { msg, .. } => Some(*msg),
            _ => None,
        }
    }

    pub fn order(&self) -> Option<u32> {
        match self {
            OrderEvent::Created { order, .. }
            | OrderEvent::Paid { order, .. }
            | OrderEvent::Canceled { order, .. }
            | OrderEvent::Closed { order, .. }
            | OrderEvent::Skipped { order, .. }
            | OrderEvent::StockReleased { order, .. }
            | OrderEvent::Reminded { order, .. } => Some(*order),
            OrderEvent::Fault { order, .. } => *order,
            OrderEvent::ScanRun { .. } => None,
        }
    }

    /// The trace fields besides `t_ms`, `event` and `msg`.
    pub fn json_fields(&self, m: &mut Map<String, Value>) {
        if let Some(o) = self.order() {
            m.insert("order".into(), json!(o));
        }
        let mut put = |k: &str, v: Value| {
            m.insert(k.into(), v);
        };
        match self {
            OrderEvent::Created {
                item, deadline_ms, ..
            } => {
                put("item", json!(item));
                put("deadline_ms", json!(deadline_ms));
            }
            OrderEvent::Paid { accepted, race, .. } => {
                put("accepted", json!(accepted));
                if *race {
                    put("race", json!(true));
                }
            }
            OrderEvent::Canceled { accepted, .. } => put("accepted", json!(accepted)),
            OrderEvent::Closed {
                msg,
                was,
                mistake,
                late_ms,
                early_ms,
                ..
            } => {
                put("by", json!(if msg.is_some() { "message" } else { "scan" }));
                put("was", json!(was.as_str()));
                put("mistake", json!(mistake));
                put("late_ms", json!(late_ms));
                if *early_ms > 0 {
                    put("early_ms", json!(early_ms));
                }
            }
            OrderEvent::Skipped { reason, .. } => {
                put("reason", json!(reason.as_str()));
                match reason {
                    Skip::NotWaiting(s) => put("status", json!(s.as_str())),
                    Skip::EarlyRepublished { delay_ms } => put("delay_ms", json!(delay_ms)),
                    _ => {}
                }
            }
            OrderEvent::StockReleased { item, twice, .. } => {
                put("item", json!(item));
                put("twice", json!(twice));
            }
            OrderEvent::Reminded { to_paid, .. } => put("to_paid", json!(to_paid)),
            OrderEvent::ScanRun {
                rows_scanned,
                closed,
            } => {
                put("rows_scanned", json!(rows_scanned));
                put("closed", json!(closed));
            }
            OrderEvent::Fault { fault, .. } => put("fault", json!(fault.as_str())),
        }
    }

    /// The timeline text (after the clock), as `report::text` prints it.
    pub fn text(&self, clock: impl Fn(u64) -> String) -> String {
        let via =
            |m: &Option<MsgId>| m.map_or("the scan".to_string(), |m| format!("message #{}", m.0));
        match self {
            OrderEvent::Created {
                order,
                item,
                deadline_ms,
            } => {
                format!(
                    "order       #{order} created (item {item}), close due {}",
                    clock(*deadline_ms)
                )
            }
            OrderEvent::Paid {
                order,
                accepted: true,
                race,
            } => {
                format!(
                    "order       #{order} paid{}",
                    if *race {
                        " (between the consumer's read and its update)"
                    } else {
                        ""
                    }
                )
            }
            OrderEvent::Paid {
                order,
                accepted: false,
                ..
            } => format!("order       #{order} payment refused (no longer WAITING_PAY)"),
            OrderEvent::Canceled { order, accepted } => {
                format!(
                    "order       #{order} {}",
                    if *accepted {
                        "canceled by the user"
                    } else {
                        "cancel refused"
                    }
                )
            }
            OrderEvent::Closed {
                order,
                msg,
                was,
                mistake,
                late_ms,
                early_ms,
            } => {
                let mut t = format!(
                    "order       #{order} closed by {} (was {})",
                    via(msg),
                    was.as_str()
                );
                if *mistake {
                    t.push_str("  MISTAKE: a paid order closed");
                } else if *early_ms > 0 {
                    t.push_str(&format!(", {} early", clock(*early_ms)));
                } else if *late_ms > 0 {
                    t.push_str(&format!(", {} late", clock(*late_ms)));
                }
                t
            }
            OrderEvent::Skipped { order, msg, reason } => match reason {
                Skip::NotWaiting(s) => format!(
                    "skip        #{order} message #{} (order is {})",
                    msg.0,
                    s.as_str()
                ),
                Skip::Duplicate => {
                    format!("skip        #{order} message #{} (already handled)", msg.0)
                }
                Skip::EarlyIgnored => format!(
                    "skip        #{order} message #{} came early, ignored",
                    msg.0
                ),
                Skip::EarlyRepublished { delay_ms } => {
                    format!(
                        "skip        #{order} message #{} came early, republished for {}",
                        msg.0,
                        clock(*delay_ms)
                    )
                }
            },
            OrderEvent::StockReleased { order, item, twice } => {
                format!(
                    "stock       #{order} item {item} released{}",
                    if *twice {
                        " AGAIN (stock overstated)"
                    } else {
                        ""
                    }
                )
            }
            OrderEvent::Reminded {
                order,
                msg,
                to_paid,
            } => {
                format!(
                    "remind      #{order} by message #{}{}",
                    msg.0,
                    if *to_paid { " (already paid)" } else { "" }
                )
            }
            OrderEvent::ScanRun {
                rows_scanned,
                closed,
            } => format!("scan        {rows_scanned} rows scanned, {closed} closed"),
            OrderEvent::Fault { fault, order, msg } => {
                let mut t = format!("FAULT       {}", fault.as_str());
                if let Some(o) = order {
                    t.push_str(&format!(" order #{o}"));
                }
                if let Some(m) = msg {
                    t.push_str(&format!(" message #{}", m.0));
                }
                t
            }
        }
    }
}
