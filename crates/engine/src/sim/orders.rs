//! Hooks of the order-timeout lab (`crate::orders`) into the simulation.
//!
//! The lab runs on the simulation's clock, timers, event stream and seeded PRNG:
//! ```text
//! Create(i) timer  insert order, draw its payment/cancel times, publish its close
//!                  message (and reminder) through the scenario's topology
//! delivery         of a lab message to the lab's consumer: the policy's read
//! handled          the policy's write, stock release; then ack, whatever the consumer
//!                  spec says, unless crash_before_ack strikes (below)
//! Scan timer       the compensation scan, every N minutes while orders wait
//! ```
//! `crash_before_ack`: the consumer's process dies after the write, before the ack. The
//! broker sees its connection close: every delivery the consumer held unacked is
//! requeued (consume.rs rules: classic back in place, quorum by the return rules and
//! delivery limit, `redelivered`), no `rejected` event (no client sent a reject), their
//! reads are void. The service restarts `for` later (default 5 s) and subscribes on a
//! new channel (tags from 1), unless it was stopped meanwhile or an outage still holds:
//! ```text
//! prefetch 3, classic queue, handle 200 ms, crash on m2 (restart 5 s):
//! 30:00.000  delivered m1 m2 m3 (tags 1 2 3): three reads
//! 30:00.200  m1 handled: write, ack.  m2 handled: write, fault_injected crash_before_ack,
//!            consumer_detached, requeued m2 m3 (m3's read void, its timer stale)
//! 30:05.200  consumer_attached; m2 m3 delivered, redelivered=true, tags 1 2
//! ```
//! `lost_in_store`: the close message is published as usual (stored in the delayed
//! exchange or a wait queue, confirmed), then, at the same millisecond, every stored
//! copy is lost: `fault_injected`, then `dropped` with reason `lost_in_store` (a disk
//! losing what it had acknowledged). A copy already handed to a consumer was not stored.
//!
//! A simulation without `orders` never enters this file: no draws, no events, so every
//! other scenario runs exactly as before.

use super::Sim;
use crate::cause::DropCause;
use crate::event::{DropReason, EventKind};
use crate::ids::{ConsumerId, CopyId, MsgId};
use crate::orders::faults::{shortened, strikes};
use crate::orders::lab::{Handling, LabMsg, MsgKind};
use crate::orders::model::Status;
use crate::orders::policy::{self, Decision};
use crate::orders::{scan, Lab, LabTimer, OrderEvent, Skip};
use crate::queue::Entry;
use crate::scenario::orders::{message_delay, After, DelayField, FaultKind, ShareAfter};
use crate::scenario::{Outcome, PublishSpec, Scenario};
use crate::sym::Sym;
use crate::timers::Timer;
use crate::value::FieldValue;

/// What the lab makes of a delivery whose handling ended.
pub(crate) enum LabEnd {
    /// Apply this outcome (ack, or the consumer's own for a non-lab delivery).
    Apply(Outcome),
    /// The process crashed before the ack; it is back after `restart_ms`.
    Crash { restart_ms: u64 },
}

/// Where a just-published message's copy was stored.
enum StoredAt {
    Delayed { due_ms: u64 },
    Queue(Sym),
}

impl Sim {
    /// Builds the lab from the scenario (after its consumers were added).
    pub(crate) fn init_orders(&mut self, scenario: &Scenario) {
        let Some(spec) = scenario.orders.clone() else {
            return;
        };
        let find = |name: &str| {
            self.consumers
                .iter()
                .position(|c| c.spec.name == name)
                .map(|i| ConsumerId(i as u32))
        };
        let mut lab = Lab::new(spec, scenario.faults.clone());
        lab.consumer = find(&lab.spec.consumer);
        lab.reminder_consumer = lab.spec.reminder.as_ref().and_then(|r| find(&r.consumer));
        if lab.spec.count > 0 {
            self.arm(lab.created_at_ms(0), Timer::Order(LabTimer::Create(0)));
        }
        if let Some(every) = lab.spec.scan_every_ms {
            self.arm(
                lab.spec.start_ms.saturating_add(every),
                Timer::Order(LabTimer::Scan),
            );
        }
        for (i, f) in lab
            .faults
            .iter()
            .enumerate()
            .filter(|(_, f)| f.kind.is_timed())
        {
            self.timers
                .arm(f.at_ms, Timer::Order(LabTimer::Fault(i as u32)));
        }
        self.orders = Some(Box::new(lab));
    }

    pub fn orders_lab(&self) -> Option<&Lab> {
        self.orders.as_deref()
    }

    fn lab(&mut self) -> &mut Lab {
        self.orders
            .as_deref_mut()
            .expect("lab timers only exist with a lab")
    }

    fn order_event(&mut self, ev: OrderEvent) {
        self.emit(EventKind::Order(ev));
    }

    pub(crate) fn fire_order(&mut self, t: LabTimer) {
        match t {
            LabTimer::Create(i) => self.create_order(i),
            LabTimer::Pay(id) => {
                let now = self.now_ms();
                let accepted = self.lab().db.pay(id, now);
                let tally = &mut self.lab().tally;
                if accepted {
                    tally.paid += 1
                } else {
                    tally.payments_refused += 1
                }
                self.order_event(OrderEvent::Paid {
                    order: id,
                    accepted,
                    race: false,
                });
            }
            LabTimer::Cancel(id) => {
                let now = self.now_ms();
                let accepted = self.lab().db.cancel(id, now);
                if accepted {
                    self.lab().tally.canceled += 1;
                }
                self.order_event(OrderEvent::Canceled {
                    order: id,
                    accepted,
                });
                if accepted {
                    self.release_stock(id, false);
                }
            }
            LabTimer::Scan => self.run_scan(),
            LabTimer::Fault(i) => self.timed_fault(i),
            LabTimer::OutageEnd(_) => {
                if let Some(cid) = self.lab().consumer {
                    let away = self.lab().away.entry(cid).or_default();
                    away.outages = away.outages.saturating_sub(1);
                    self.attach_consumer(cid);
                }
            }
            LabTimer::Restart(cid) => self.restarted(cid),
        }
    }

    /// Whether a lab fault (crash, outage) keeps the consumer from subscribing now.
    pub(crate) fn lab_keeps_away(&self, cid: ConsumerId) -> bool {
        self.orders.as_deref().is_some_and(|l| l.keeps_away(cid))
    }

    /// The copy went back to its queue (closed channel, deleted queue): the read made
    /// at its delivery is void, and must not be applied to a later delivery of it.
    pub(crate) fn lab_forget(&mut self, copy: CopyId) {
        if let Some(lab) = self.orders.as_deref_mut() {
            lab.handling.remove(&copy);
        }
    }

    /// After a crash (its deliveries already requeued): the service restarts later.
    pub(crate) fn lab_restart_later(&mut self, cid: ConsumerId, restart_ms: u64) {
        let at = self.now_ms().saturating_add(restart_ms);
        self.lab().away.entry(cid).or_default().restart_at_ms = Some(at);
        self.arm(at, Timer::Order(LabTimer::Restart(cid)));
    }

    fn restarted(&mut self, cid: ConsumerId) {
        let now = self.now_ms();
        let away = self.lab().away.entry(cid).or_default();
        if away.restart_at_ms != Some(now) {
            return; // not this crash's restart
        }
        away.restart_at_ms = None;
        // A new channel; refused if `to` stopped it meanwhile or an outage holds; while
        // the node is down, the client retries until it is back.
        self.attach_consumer(cid);
    }

    fn create_order(&mut self, i: u32) {
        let now = self.now_ms();
        let lab = self.lab();
        let (timeout, count) = (lab.spec.timeout_ms, lab.spec.count);
        let id = lab.db.create(now, timeout);
        lab.tally.created += 1;
        let (item, deadline_ms) = lab
            .db
            .get(id)
            .map(|o| (o.item, o.deadline_ms))
            .unwrap_or_default();
        if i + 1 < count {
            let next = lab.created_at_ms(i + 1);
            self.arm(next, Timer::Order(LabTimer::Create(i + 1)));
        }
        self.order_event(OrderEvent::Created {
            order: id,
            item,
            deadline_ms,
        });
        // Draws, in a fixed order: payment, cancel, then the publish faults.
        let pay = self.lab().spec.pay.clone();
        let u = self.rng.next_f64();
        let mut acc = 0.0;
        if let Some(bucket) = pay.iter().find(|b| {
            acc += b.share;
            u < acc
        }) {
            self.schedule(*bucket, LabTimer::Pay(id));
        }
        if let Some(c) = self.lab().spec.cancel {
            if self.rng.next_f64() < c.share {
                self.schedule(c, LabTimer::Cancel(id));
            }
        }
        let faults = self.lab().faults.clone();
        let lost = strikes(&faults, FaultKind::LostInStore, &mut self.rng).is_some();
        let early_by =
            strikes(&faults, FaultKind::EarlyArrival, &mut self.rng).map(|f| f.duration_ms);
        let duplicate = strikes(&faults, FaultKind::DuplicateDelivery, &mut self.rng).is_some();
        let msg = LabMsg {
            order: id,
            kind: MsgKind::Close,
        };
        let delay = early_by.and_then(|by| self.lab_delay(msg.kind).map(|d| shortened(d, by)));
        let mark = self.events.len();
        let first = self.publish_lab_msg(msg, delay);
        if lost {
            self.fault(FaultKind::LostInStore, Some(id), first);
            if let Some(m) = first {
                self.lose_stored(m, mark);
            }
        } else if early_by.is_some() {
            self.fault(FaultKind::EarlyArrival, Some(id), first);
        }
        if duplicate {
            let again = self.publish_lab_msg(msg, delay);
            self.fault(FaultKind::DuplicateDelivery, Some(id), again);
        }
        if self.lab().spec.reminder.is_some() {
            self.publish_lab_msg(
                LabMsg {
                    order: id,
                    kind: MsgKind::Reminder,
                },
                None,
            );
        }
    }

    fn schedule(&mut self, rule: ShareAfter, timer: LabTimer) {
        let after = match rule.after {
            After::Never => return,
            After::Fixed(ms) => ms,
            After::Range(lo, hi) => self.rng.range_u64(lo, hi),
        };
        let at = self.now_ms().saturating_add(after);
        self.arm(at, Timer::Order(timer));
    }

    fn fault(&mut self, fault: FaultKind, order: Option<u32>, msg: Option<MsgId>) {
        self.lab().tally.faults += 1;
        self.order_event(OrderEvent::Fault { fault, order, msg });
    }

    fn lab_publish_spec(&mut self, kind: MsgKind) -> PublishSpec {
        let spec = &self.lab().spec;
        match (kind, &spec.reminder) {
            (MsgKind::Reminder, Some(r)) => r.publish.clone(),
            _ => spec.publish.clone(),
        }
    }

    /// The per-message delay the publish carries (`x-delay` or `expiration`), if any.
    fn lab_delay(&mut self, kind: MsgKind) -> Option<u64> {
        message_delay(&self.lab_publish_spec(kind).properties).map(|(_, d)| d)
    }

    /// Publishes a lab message (body `order-<id>`, message_id its idempotency key) with
    /// `delay_ms` replacing its per-message delay.
    fn publish_lab_msg(&mut self, msg: LabMsg, delay_ms: Option<u64>) -> Option<MsgId> {
        let mut spec = self.lab_publish_spec(msg.kind);
        spec.body = match msg.kind {
            MsgKind::Close => format!("order-{}", msg.order),
            MsgKind::Reminder => format!("remind order-{}", msg.order),
        };
        spec.properties.message_id = Some(msg.key());
        if let Some(d) = delay_ms {
            match message_delay(&spec.properties) {
                Some((DelayField::XDelay, _)) => spec
                    .properties
                    .headers
                    .insert("x-delay", FieldValue::Int(d as i64)),
                Some((DelayField::Expiration, _)) => {
                    spec.properties.expiration = Some(d.to_string())
                }
                None => {}
            }
        }
        let before = self.next_msg;
        self.publish(&mut spec, 0);
        if self.next_msg == before {
            return None;
        }
        let id = MsgId(self.next_msg);
        self.lab().msgs.insert(id.0, msg);
        Some(id)
    }

    /// `lost_in_store`: loses every copy of `msg` that its publish stored (the events
    /// from `mark` on say where), right after the confirm.
    fn lose_stored(&mut self, msg: MsgId, mark: usize) {
        // The publish just ran inside this call, so its events are still queued here:
        // they are the one record of which copies it made and where they went.
        let stored: Vec<(CopyId, StoredAt)> = self
            .events
            .range(mark..)
            .filter_map(|e| match e.kind {
                EventKind::Delayed {
                    msg: m,
                    copy,
                    due_ms,
                    ..
                } if m == msg => Some((copy, StoredAt::Delayed { due_ms })),
                EventKind::Enqueued {
                    msg: m,
                    copy,
                    queue,
                    ..
                } if m == msg => Some((copy, StoredAt::Queue(queue))),
                _ => None,
            })
            .collect();
        for (copy, at) in stored {
            self.lose_copy(msg, copy, at);
        }
    }

    fn lose_copy(&mut self, msg: MsgId, copy: CopyId, at: StoredAt) {
        let queue = match at {
            StoredAt::Delayed { due_ms } => {
                // A stale store timer, if this was the earliest, fires and re-arms.
                let Some(_) = self.delayed.remove(due_ms, copy) else {
                    return;
                };
                None
            }
            StoredAt::Queue(name) => {
                // Not there any more: delivered at once, or already dead-lettered.
                let Some(qid) = self.queue_id(name) else {
                    return;
                };
                let Some(_) = self.queue_mut(qid).and_then(|q| q.remove_ready(copy)) else {
                    return;
                };
                self.expire_head(qid); // re-arms the head timer if that was the head
                Some(name)
            }
        };
        let reason = DropReason::LostInStore;
        self.emit(EventKind::Dropped {
            msg,
            copy: Some(copy),
            queue,
            reason,
            why: DropCause::Plain,
        });
        self.end_copy();
    }

    /// At delivery: a lab message to the consumer that handles it gets the policy's read.
    /// Returns None when the lab has nothing to do with this delivery.
    pub(crate) fn lab_on_delivery(&mut self, cid: ConsumerId, entry: &Entry) -> Option<Outcome> {
        let now = self.now_ms();
        let lab = self.orders.as_deref_mut()?;
        let msg = *lab.msgs.get(&entry.msg.id.0)?;
        if !lab.handles(cid, msg.kind) {
            return None;
        }
        let read = policy::read(
            lab.spec.policy,
            &lab.db,
            msg.order,
            now,
            &mut lab.tally.db_queries,
        );
        lab.handling.insert(entry.copy, Handling { msg, read });
        Some(Outcome::Ack)
    }

    /// At the end of handling: the policy's write. Returns what to do with the delivery.
    pub(crate) fn lab_on_handled(
        &mut self,
        copy: CopyId,
        msg_id: MsgId,
        planned: Outcome,
    ) -> LabEnd {
        let Some(h) = self
            .orders
            .as_deref_mut()
            .and_then(|l| l.handling.remove(&copy))
        else {
            return LabEnd::Apply(planned);
        };
        let order = h.msg.order;
        let faults = self.lab().faults.clone();
        if h.read.is_none_or(|r| r.status == Status::WaitingPay)
            && self
                .lab()
                .db
                .get(order)
                .is_some_and(|o| o.status == Status::WaitingPay)
            && strikes(&faults, FaultKind::PayRace, &mut self.rng).is_some()
        {
            let now = self.now_ms();
            self.fault(FaultKind::PayRace, Some(order), Some(msg_id));
            self.lab().db.pay(order, now);
            self.lab().tally.paid += 1;
            self.order_event(OrderEvent::Paid {
                order,
                accepted: true,
                race: true,
            });
        }
        match h.msg.kind {
            MsgKind::Close => self.apply_close(h, msg_id),
            MsgKind::Reminder => self.apply_reminder(h, msg_id),
        }
        if let Some(f) = strikes(&faults, FaultKind::CrashBeforeAck, &mut self.rng) {
            self.fault(FaultKind::CrashBeforeAck, Some(order), Some(msg_id));
            return LabEnd::Crash {
                restart_ms: f.duration_ms,
            };
        }
        LabEnd::Apply(Outcome::Ack)
    }

    fn apply_close(&mut self, h: Handling, msg: MsgId) {
        let now = self.now_ms();
        let order = h.msg.order;
        let key = h.msg.key();
        let lab = self.lab();
        let (pol, early) = (lab.spec.policy, lab.spec.early);
        let decision = policy::close(
            (pol, early),
            &mut lab.db,
            order,
            &key,
            h.read,
            now,
            &mut lab.tally.db_queries,
        );
        match decision {
            Decision::Closed { was } => self.closed(order, Some(msg), was),
            Decision::Skipped(reason) => {
                self.lab().tally.skipped += 1;
                self.order_event(OrderEvent::Skipped { order, msg, reason });
                if let Skip::EarlyRepublished { delay_ms } = reason {
                    self.publish_lab_msg(h.msg, Some(delay_ms));
                }
            }
        }
    }

    fn apply_reminder(&mut self, h: Handling, msg: MsgId) {
        let order = h.msg.order;
        let lab = self.lab();
        let status = lab.db.get(order).map_or(Status::Closed, |o| o.status);
        // A policy that reads skips orders that are no longer waiting; naive reminds anyway.
        if let Some(r) = h.read.filter(|r| r.status != Status::WaitingPay) {
            lab.tally.skipped += 1;
            return self.order_event(OrderEvent::Skipped {
                order,
                msg,
                reason: Skip::NotWaiting(r.status),
            });
        }
        let to_paid = status == Status::Paid;
        lab.tally.reminders_sent += 1;
        lab.tally.reminders_to_paid += u32::from(to_paid);
        self.order_event(OrderEvent::Reminded {
            order,
            msg,
            to_paid,
        });
    }

    /// The row was updated to CLOSED (by a message, or by the scan with `msg` None).
    fn closed(&mut self, order: u32, msg: Option<MsgId>, was: Status) {
        let now = self.now_ms();
        let lab = self.lab();
        let deadline = lab.db.get(order).map_or(now, |o| o.deadline_ms);
        let mistake = was == Status::Paid;
        let (mut late_ms, mut early_ms) = (0, 0);
        if was == Status::WaitingPay {
            late_ms = now.saturating_sub(deadline);
            early_ms = deadline.saturating_sub(now);
            lab.tally.closed += 1;
            lab.tally.lateness_ms.push(late_ms);
            lab.tally.closed_early += u32::from(early_ms > 0);
            lab.tally.closed_by_scan += u32::from(msg.is_none());
        }
        if mistake {
            lab.tally.paid_closed += 1;
            if let Some(o) = lab.db.orders.get_mut(order as usize - 1) {
                o.mistake_msg = o.mistake_msg.or(msg.map(|m| m.0));
            }
        }
        self.order_event(OrderEvent::Closed {
            order,
            msg,
            was,
            mistake,
            late_ms,
            early_ms,
        });
        self.release_stock(order, true);
    }

    /// `close_path`: counted in db_queries (a cancel is business traffic, not counted).
    fn release_stock(&mut self, order: u32, close_path: bool) {
        let lab = self.lab();
        lab.tally.db_queries += u64::from(close_path);
        let Some((item, first)) = lab.db.release_stock(order) else {
            return;
        };
        lab.tally.stock_double_released += u32::from(!first);
        self.order_event(OrderEvent::StockReleased {
            order,
            item,
            twice: !first,
        });
    }

    fn run_scan(&mut self) {
        let now = self.now_ms();
        let lab = self.lab();
        let r = scan::run(&mut lab.db, now);
        lab.tally.db_queries += r.queries;
        lab.tally.rows_scanned += r.rows_scanned;
        let every = lab.spec.scan_every_ms.unwrap_or(u64::MAX);
        let more_to_come = lab.tally.created < lab.spec.count || lab.db.waiting() > 0;
        self.order_event(OrderEvent::ScanRun {
            rows_scanned: r.rows_scanned,
            closed: r.closed.len() as u32,
        });
        for id in r.closed {
            self.closed(id, None, Status::WaitingPay);
        }
        if more_to_come {
            self.arm(now.saturating_add(every), Timer::Order(LabTimer::Scan));
        }
    }

    fn timed_fault(&mut self, i: u32) {
        let Some(f) = self.lab().faults.get(i as usize).cloned() else {
            return;
        };
        self.fault(f.kind, None, None);
        match f.kind {
            FaultKind::LoseNode => self.lose_node(),
            FaultKind::ConsumerOutage => {
                if let Some(cid) = self.lab().consumer {
                    self.lab().away.entry(cid).or_default().outages += 1;
                    self.detach_consumer(cid, false);
                    let back = self.now_ms().saturating_add(f.duration_ms);
                    self.arm(back, Timer::Order(LabTimer::OutageEnd(i)));
                }
            }
            _ => {}
        }
    }
}
