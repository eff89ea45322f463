//! What each engine event means for the marks: a copy's TTL tracked while it is ready
//! (and set aside while a consumer or its quorum queue holds it), and the moments an
//! event is (see the parent module's docs).

use std::cmp::Reverse;

use delaylab_engine::body::Body;
use delaylab_engine::cause::{DropCause, LateCause, LimitHit};
use delaylab_engine::event::DropReason;
use delaylab_engine::ids::CopyId;
use delaylab_engine::{Event, EventKind};

use super::{Kind, Marks};

impl Marks {
    /// The copy left the queue for good.
    fn forget(&mut self, copy: u64) {
        // Its entry in `expiring` no longer counts (`Marks::settle`).
        self.copies.remove(&copy);
        self.held.remove(&copy);
        self.overdue.remove(&copy);
    }

    pub(super) fn observe(&mut self, ev: Event) {
        let t = ev.t_ms;
        match ev.kind {
            EventKind::Published { msg, .. } => {
                let i = msg.id.0 as usize;
                if self.bodies.len() < i {
                    self.bodies.resize(i, Body::default());
                }
                self.bodies[i - 1] = msg.body.clone();
            }
            EventKind::Enqueued {
                msg,
                copy,
                queue,
                expires_at_ms: Some(at),
                held,
                ..
            } => {
                let entry = (at, msg.0, self.name(queue));
                if held.is_some() {
                    // Held aside (4.3 delayed retry, 4.4 delivery time): no TTL is
                    // checked while held (D37), so none passes behind a head.
                    self.held.insert(copy.0, entry);
                } else {
                    self.copies.insert(copy.0, entry);
                    self.expiring.push(Reverse((at, copy.0)));
                }
            }
            // Back in the queue with the expiry it had (a return held by delayed retry
            // only once released).
            EventKind::Requeued {
                copy, held: None, ..
            } => self.ready_again(copy.0, t),
            EventKind::Released {
                msg,
                copy,
                queue,
                by,
                ..
            } => {
                self.ready_again(copy.0, t);
                let m = self.moment(Kind::Released(by), self.name(queue), Some(msg.0));
                let _ = self.add(t, m);
            }
            EventKind::Delivered { copy, .. } => {
                if let Some(entry) = self.copies.remove(&copy.0) {
                    self.held.insert(copy.0, entry);
                }
            }
            EventKind::Acked { copy, .. } => self.forget(copy.0),
            EventKind::Expired {
                msg,
                copy,
                queue,
                late_ms,
                late_cause,
                after,
            } => {
                let marked = self.overdue.get(&copy.0).copied();
                self.forget(copy.0);
                if late_cause == LateCause::BehindHead {
                    let head = after.map(|h| (h.msg.0, self.body(h.msg.0)));
                    match marked {
                        Some(Some((at, i))) => self.name_head(at, i, head),
                        // Counted in its episode (whose own moment names its head).
                        Some(None) => {}
                        None => {
                            // Marked only now (a copy that outlived a restart).
                            let mut m = self.moment(Kind::Overdue, self.name(queue), Some(msg.0));
                            m.behind = head;
                            let _ = self.add(t.saturating_sub(late_ms), m);
                        }
                    }
                }
            }
            EventKind::DeadLettered {
                msg,
                copy,
                queue,
                reason,
                limit,
                ..
            } => {
                let kind = Kind::DeadLettered(reason.as_str());
                let queue = self.name(queue);
                self.left(t, copy, limit.as_deref(), kind, queue, msg.0);
            }
            EventKind::Dropped {
                msg,
                copy,
                queue,
                reason,
                why,
            } => {
                let limit = match &why {
                    DropCause::Limit(l) => Some(&**l),
                    _ => None,
                };
                let kind = match reason {
                    DropReason::NodeLost => Kind::NodeLost,
                    r => Kind::Dropped(r.as_str()),
                };
                let place = queue.map(|q| self.name(q)).unwrap_or_default();
                self.left(t, copy, limit, kind, place, msg.0);
            }
            EventKind::Returned {
                msg,
                exchange,
                code,
                ..
            } => {
                let m = self.moment(Kind::Returned(code), self.name(exchange), Some(msg.0));
                let _ = self.add(t, m);
            }
            EventKind::Error { msg, code, .. } => {
                let m = self.moment(Kind::Refused(code), String::new(), msg.map(|m| m.0));
                let _ = self.add(t, m);
            }
            EventKind::DelayDue {
                msg,
                exchange,
                late_ms,
                late_cause,
                ..
            } => {
                // Late by the broker's own load (cost modes) is still a release at its
                // time as far as the lesson goes.
                let kind = if late_ms > 0 && late_cause != LateCause::Busy {
                    Kind::LateRelease
                } else {
                    Kind::DelayReleased
                };
                let m = self.moment(kind, self.name(exchange), Some(msg.0));
                let _ = self.add(t, m);
            }
            EventKind::NodeDown { lost } => {
                // What the node held is dropped (lost) or waits for it: no TTL passes
                // behind a head while it is down.
                self.expiring.clear();
                self.copies.clear();
                self.held.clear();
                let kind = if lost { Kind::NodeLost } else { Kind::NodeDown };
                let m = self.moment(kind, String::new(), None);
                let _ = self.add(t, m);
            }
            EventKind::NodeUp => {
                let m = self.moment(Kind::NodeUp, String::new(), None);
                let _ = self.add(t, m);
            }
            EventKind::BrokerUpgraded { to, .. } => {
                let m = self.moment(Kind::Upgraded, to.as_str().to_string(), None);
                let _ = self.add(t, m);
            }
            EventKind::ConsumerTimedOut { queue, msg, .. } => {
                let m = self.moment(Kind::ConsumerTimeout, self.name(queue), Some(msg.0));
                let _ = self.add(t, m);
            }
            EventKind::LimitReached { .. } => {
                let m = self.moment(Kind::Stopped, String::new(), None);
                let _ = self.add(t, m);
            }
            _ => {}
        }
    }

    /// A copy out of reach of its TTL (delivered, held aside) is ready again: only a TTL
    /// still ahead can pass behind a head from here (one already past expires at the
    /// head).
    fn ready_again(&mut self, copy: u64, t_ms: u64) {
        if let Some(entry) = self.held.remove(&copy) {
            if entry.0 > t_ms {
                self.expiring.push(Reverse((entry.0, copy)));
                self.copies.insert(copy, entry);
            }
        }
    }

    /// The head an overdue copy waited behind, now that the engine has said.
    fn name_head(&mut self, at_ms: u64, i: usize, head: Option<(u32, String)>) {
        if let Some(m) = self.moment_mut(at_ms, i) {
            m.behind = head;
            self.rev += 1;
        }
    }
}

impl Marks {
    /// A copy left its queue at `t` (dead-lettered or dropped): it is no longer tracked;
    /// the limit it hit, if any, is a mark of its own before the one of how it left.
    fn left(
        &mut self,
        t: u64,
        copy: Option<CopyId>,
        limit: Option<&LimitHit>,
        kind: Kind,
        place: String,
        msg: u32,
    ) {
        if let Some(c) = copy {
            self.forget(c.0);
        }
        if let Some(l) = limit {
            let m = self.moment(limit_kind(l), place.clone(), Some(msg));
            let _ = self.add(t, m);
        }
        let m = self.moment(kind, place, Some(msg));
        let _ = self.add(t, m);
    }
}

fn limit_kind(l: &LimitHit) -> Kind {
    match l {
        LimitHit::Length { .. } => Kind::LengthLimit,
        LimitHit::Delivery { .. } => Kind::DeliveryLimit,
    }
}
