//! The lab's state inside a simulation: the spec, the database, the counters, which
//! engine messages are about which order, the reads made at delivery, and why a lab
//! consumer is away (crashed, or in an outage).

use std::collections::BTreeMap;

use super::model::Db;
use super::outcome::Tally;
use super::policy::Read;
use crate::ids::{ConsumerId, CopyId};
use crate::scenario::orders::{FaultSpec, OrdersSpec};

/// The lab's timers (inside `Timer::Order`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LabTimer {
    /// Create the order with this 0-based index.
    Create(u32),
    Pay(u32),
    Cancel(u32),
    Scan,
    /// The timed fault at this index of `faults` strikes.
    Fault(u32),
    /// A consumer outage (fault index) ends.
    OutageEnd(u32),
    /// A consumer that crashed (`crash_before_ack`) has restarted and subscribes again.
    Restart(ConsumerId),
}

/// Why a lab consumer is away. It subscribes again only once nothing keeps it away, so
/// an outage ending during a crash's restart does not bring it back early (nor the
/// reverse), and a node restart's reconnect skips it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Away {
    /// Crashed: its service restarts at this time (`LabTimer::Restart`).
    pub restart_at_ms: Option<u64>,
    /// `consumer_outage` faults in progress (they may overlap).
    pub outages: u32,
}

impl Away {
    pub fn is_away(&self) -> bool {
        self.restart_at_ms.is_some() || self.outages > 0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MsgKind {
    Close,
    Reminder,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabMsg {
    pub order: u32,
    pub kind: MsgKind,
}

impl LabMsg {
    /// The idempotency key (also the AMQP `message_id` the producer sets).
    pub fn key(&self) -> String {
        match self.kind {
            MsgKind::Close => format!("close-{}", self.order),
            MsgKind::Reminder => format!("remind-{}", self.order),
        }
    }
}

/// A delivery the lab is handling, by copy (a copy is delivered to one consumer at a time).
#[derive(Clone, Copy, Debug)]
pub struct Handling {
    pub msg: LabMsg,
    pub read: Option<Read>,
}

#[derive(Debug)]
pub struct Lab {
    pub spec: OrdersSpec,
    pub faults: Vec<FaultSpec>,
    pub db: Db,
    pub tally: Tally,
    /// Engine message id -> the order and kind.
    pub msgs: BTreeMap<u32, LabMsg>,
    /// Reads made at delivery, until the handling ends or the copy goes back to the
    /// queue (a closed channel requeues it: that read is void).
    pub handling: BTreeMap<CopyId, Handling>,
    pub away: BTreeMap<ConsumerId, Away>,
    pub consumer: Option<ConsumerId>,
    pub reminder_consumer: Option<ConsumerId>,
}

impl Lab {
    pub fn new(spec: OrdersSpec, faults: Vec<FaultSpec>) -> Lab {
        let db = Db::new(spec.items, spec.stock);
        Lab {
            spec,
            faults,
            db,
            tally: Tally::default(),
            msgs: BTreeMap::new(),
            handling: BTreeMap::new(),
            away: BTreeMap::new(),
            consumer: None,
            reminder_consumer: None,
        }
    }

    /// When the order with 0-based index `i` is created.
    pub fn created_at_ms(&self, i: u32) -> u64 {
        let n = u64::from(self.spec.count.max(1));
        self.spec
            .start_ms
            .saturating_add(self.spec.over_ms.saturating_mul(u64::from(i)) / n)
    }

    /// Whether a lab fault keeps this consumer from subscribing now.
    pub fn keeps_away(&self, c: ConsumerId) -> bool {
        self.away.get(&c).is_some_and(Away::is_away)
    }

    /// Whether the consumer handles this kind of lab message.
    pub fn handles(&self, c: ConsumerId, kind: MsgKind) -> bool {
        match kind {
            MsgKind::Close => self.consumer == Some(c),
            MsgKind::Reminder => self.reminder_consumer == Some(c),
        }
    }
}
