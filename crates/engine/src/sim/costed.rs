//! Where the broker's costs (`crate::costs`) meet the rules: each hook asks the cost
//! module of one mechanism *when* something may happen, and the rule modules keep
//! deciding *what* and in which order. With `costs: "ideal"` (`Sim::costs` is None)
//! none of these hooks changes anything, so ideal runs stay byte for byte as they were.
//!
//! ```text
//! publish action  -> send_publish   -> costs::ingress   (taken now, or Timer::Ingress later)
//! publish routed  -> charge_routed  -> costs::ingress   (a quorum queue's append)
//! expire_head     -> dead_letter_wait / charge_dead_letter   (costs::collect, dead_letter)
//! enqueue         -> charge_arrival                          (costs::arrival)
//! arm_head_timer  -> expiry_late_ms                          (costs::expiry)
//! pick_consumer   -> consumer_ready; deliver -> delivery_times (costs::delivery, round_trip)
//! store_delayed   -> plugin_insert; DelayedDue -> on_delayed_tick (costs::plugin)
//! ```

use super::Sim;
use crate::amqp::x_delay::{parse_x_delay, DelayDecision};
use crate::costs::{self, ms_of, us_of};
use crate::ids::{ConsumerId, CopyId, QueueId};
use crate::scenario::{Outcome, PublishSpec};
use crate::timers::Timer;

impl Sim {
    // ---- ingress ----

    /// A publish sent now goes through the channel's queue (`costs::ingress`).
    pub(crate) fn send_publish(&mut self, spec: PublishSpec, run: u32) {
        let now = self.now_ms();
        let stored = self.stored_by_plugin(&spec);
        let c = self.costs.as_mut().expect("costed");
        let cost = costs::ingress::cost_us(&c.profile, &spec, stored);
        match c.ingress.send(now, spec, run, cost) {
            costs::ingress::Take::Now(mut spec, run) => self.publish(&mut spec, run),
            costs::ingress::Take::Later(Some(at)) => self.arm(at, Timer::Ingress),
            costs::ingress::Take::Later(None) => {}
        }
    }

    pub(crate) fn on_ingress(&mut self) {
        let Some(c) = self.costs.as_mut() else { return };
        let Some((mut spec, run)) = c.ingress.take_head() else {
            return;
        };
        self.publish(&mut spec, run);
        let now = self.now_ms();
        let c = self.costs.as_mut().expect("costed");
        if let Some(at) = c.ingress.arm_head(now) {
            self.arm(at, Timer::Ingress);
        }
    }

    /// The publish just taken was routed to `queues`: a quorum queue among them makes
    /// it cost the channel `quorum_publish_us` (`costs::ingress`).
    pub(crate) fn charge_routed(&mut self, queues: impl IntoIterator<Item = QueueId>) {
        if self.costs.is_none() {
            return;
        }
        let quorum = queues
            .into_iter()
            .any(|q| self.queue(q).is_some_and(|q| q.is_quorum()));
        if quorum {
            let c = self.costs.as_mut().expect("costed");
            c.ingress.routed_to_quorum(&c.profile);
        }
    }

    /// The publish goes to a delayed exchange that will keep it (a positive `x-delay`,
    /// as `amqp::x_delay` reads it), as far as can be told before it is routed.
    fn stored_by_plugin(&self, spec: &PublishSpec) -> bool {
        let delayed = self
            .syms
            .get(&spec.exchange)
            .and_then(|x| self.exchanges.get(&x))
            .is_some_and(|x| x.delayed);
        delayed
            && matches!(
                parse_x_delay(&spec.properties.headers),
                Ok(DelayDecision::Delay(_))
            )
    }

    // ---- dead-lettering ----

    /// True if queue `qid` is still busy dead-lettering past now; it then resumes at the
    /// millisecond it is free (its head timer is armed for it). An expired head that
    /// starts a new run makes the queue collect the run first (`costs::collect`).
    pub(crate) fn dead_letter_wait(&mut self, qid: QueueId) -> bool {
        let now = self.now_ms();
        if self.costs.is_none() {
            return false;
        }
        self.collect_run(qid, now);
        let c = self.costs.as_ref().expect("costed");
        let Some(at) = c.dead_letter.busy_until_ms(qid.0 as usize, now) else {
            return false;
        };
        let q = self.queue_mut(qid).expect("queue");
        if q.head_timer_at_ms != Some(at) {
            q.head_timer_at_ms = Some(at);
            self.arm(at, Timer::QueueHead(qid));
        }
        true
    }

    /// The expired head of `qid` (the next one, or 4.3's first ready behind a live
    /// return) starts a run unless it is part of the one being dead-lettered.
    fn collect_run(&mut self, qid: QueueId, now: u64) {
        let every = self.checks_every_head(qid);
        let Some(q) = self.queue(qid) else { return };
        let quorum = q.is_quorum();
        let Some(expired_ms) = q.expired_head(now, every).map(|h| h.expires_at_ms) else {
            return;
        };
        let c = self.costs.as_ref().expect("costed");
        if c.dead_letter.in_run(qid.0 as usize, expired_ms) {
            return;
        }
        let run = run_len(q, now, every);
        let c = self.costs.as_mut().expect("costed");
        c.dead_letter
            .collect(&c.profile, qid.0 as usize, now, quorum, run);
    }

    pub(crate) fn charge_dead_letter(&mut self, qid: QueueId, persistent: bool) {
        let now = self.now_ms();
        let quorum = self.queue(qid).is_some_and(|q| q.is_quorum());
        if let Some(c) = self.costs.as_mut() {
            c.dead_letter
                .charge(&c.profile, qid.0 as usize, now, quorum, persistent);
        }
    }

    // ---- arrivals ----

    /// A message was enqueued in `qid`: its process takes it, and the consumers
    /// attached to it wait meanwhile (`costs::arrival`).
    pub(crate) fn charge_arrival(&mut self, qid: QueueId) {
        let now = self.now_ms();
        let Some(c) = self.costs.as_mut() else { return };
        // The queue and the costs are separate fields: borrowed side by side.
        let Some(q) = self.queues.get(qid.0 as usize).and_then(Option::as_ref) else {
            return;
        };
        let cost = costs::arrival::cost_us(&c.profile, q.is_quorum());
        if cost == 0 {
            return;
        }
        for cid in &q.consumers {
            c.delivery.occupy(cid.0 as usize, now, cost);
        }
    }

    // ---- expiry ----

    /// How late the head timer of a queue fires after its head's expiry (0 if ideal).
    pub(crate) fn expiry_late_ms(&self, quorum: bool, copy: CopyId) -> u64 {
        self.costs.as_ref().map_or(0, |c| {
            costs::expiry::late_ms(&c.profile, quorum, copy.0, c.seed)
        })
    }

    // ---- delivery and round trip ----

    pub(crate) fn consumer_ready(&self, cid: ConsumerId) -> bool {
        self.costs
            .as_ref()
            .is_none_or(|c| c.delivery.ready(cid.0 as usize, self.now_ms()))
    }

    /// No consumer could take a message now: if one with prefetch room is only busy,
    /// wake the queue when it is free.
    pub(crate) fn wake_when_free(&mut self, qid: QueueId) {
        let Some(c) = self.costs.as_ref() else { return };
        let Some(q) = self.queue(qid) else { return };
        let now = self.now_ms();
        let at = q
            .consumers
            .iter()
            .filter(|cid| self.consumers[cid.0 as usize].has_capacity())
            .map(|cid| c.delivery.free_ms(cid.0 as usize))
            .min();
        let Some(at) = at.filter(|t| *t > now) else {
            return;
        };
        let c = self.costs.as_mut().expect("costed");
        if c.delivery.want_wake(qid.0 as usize, at) {
            self.arm(at, Timer::CostWake(qid));
        }
    }

    pub(crate) fn on_cost_wake(&mut self, qid: QueueId) {
        let now = self.now_ms();
        let Some(c) = self.costs.as_mut() else { return };
        if c.delivery.woke(qid.0 as usize, now) {
            self.try_deliver(qid);
        }
    }

    /// A delivery to `cid` now: when its `Handled` timer fires (ms, and the
    /// microseconds past it). Ideal: `handle_ms` after now.
    pub(crate) fn delivery_times(&mut self, cid: ConsumerId, handle_ms: u64) -> (u64, u16) {
        let now = self.now_ms();
        if self.costs.is_none() {
            return (now.saturating_add(handle_ms), 0);
        }
        let consumer = &self.consumers[cid.0 as usize];
        let manual = !consumer.auto_ack();
        let quorum = consumer
            .attached
            .and_then(|q| self.queue(q))
            .is_some_and(|q| q.is_quorum());
        let c = self.costs.as_mut().expect("costed");
        let cost = costs::delivery::cost_us(&c.profile, quorum, manual);
        let reached = c.delivery.deliver(cid.0 as usize, now, cost);
        let answer = costs::round_trip::answer_us(&c.profile, reached, handle_ms);
        let rem = (answer % costs::US_PER_MS) as u16;
        (ms_of(answer), rem)
    }

    /// The answer to a delivery reached the broker (the `Handled` timer): a consumer
    /// whose window was full, or that requeues, takes its next delivery only after it.
    pub(crate) fn costed_answer(
        &mut self,
        cid: ConsumerId,
        qid: QueueId,
        copy: CopyId,
        delivery: u64,
        rem_us: u16,
    ) {
        if self.costs.is_none() {
            return;
        }
        let Some(u) = self.queue(qid).and_then(|q| q.unacked.get(&copy)) else {
            return;
        };
        let full = !self.consumers[cid.0 as usize].has_capacity();
        if u.delivery != delivery || !(full || u.outcome == Outcome::Requeue) {
            return;
        }
        let at = us_of(self.now_ms()) + u64::from(rem_us);
        let c = self.costs.as_mut().expect("costed");
        c.delivery.resume(cid.0 as usize, at);
    }

    // ---- the delayed-message plugin ----

    /// An insert into the plugin's table; the publishing channel waits for it.
    pub(crate) fn plugin_insert(&mut self) {
        let now = self.now_ms();
        let stored = self.delayed.len();
        if let Some(c) = self.costs.as_mut() {
            // The call starts when the channel took the publish.
            let start_us = c.ingress.free_us.max(us_of(now));
            let done = c.plugin.insert(&c.profile, start_us, stored);
            c.ingress.wait_until(done);
        }
    }

    /// Arms the plugin's timer for its earliest key (`costs::plugin`).
    pub(crate) fn arm_plugin_timer(&mut self) {
        let Some(due) = self.delayed.next_due_ms() else {
            return;
        };
        let now = self.now_ms();
        let c = self.costs.as_mut().expect("costed");
        let fire = c.plugin.fire_for(&c.profile, due);
        let at = ms_of(fire).max(now);
        if self.delayed_timer_at_ms.is_none_or(|t| at < t) {
            c.plugin.fire_us = Some(fire);
            self.delayed_timer_at_ms = Some(at);
            self.arm(at, Timer::DelayedDue);
        }
    }

    /// The plugin's timer fired: one due-ms key goes out, then the timer is armed again.
    pub(crate) fn on_delayed_tick(&mut self) {
        let now = self.now_ms();
        if self.delayed_timer_at_ms != Some(now) {
            return; // stale: armed again since
        }
        self.delayed_timer_at_ms = None;
        if !self.node_up {
            return;
        }
        let c = self.costs.as_mut().expect("costed");
        let fired = c.plugin.fire_us.take().unwrap_or(us_of(now));
        if let Some(at) = c.plugin.busy_until_ms(now) {
            // The timer message waits behind the inserts in the process's mailbox.
            c.plugin.fire_us = Some(c.plugin.free_us);
            self.delayed_timer_at_ms = Some(at);
            return self.arm(at, Timer::DelayedDue);
        }
        let key = self.delayed.next_due_ms().filter(|d| *d <= now);
        let mut n = 0u64;
        while let Some(key) = key {
            if self.delayed.next_due_ms() != Some(key) {
                break;
            }
            let Some((due, copy, stored)) = self.delayed.pop_due(now) else {
                break;
            };
            self.release(due, copy, stored);
            n += 1;
        }
        let stored = self.delayed.len();
        let c = self.costs.as_mut().expect("costed");
        c.plugin.released(&c.profile, fired, n, stored);
        self.arm_plugin_timer();
    }
}

/// The run an expiry of `q` at `now_ms` takes: the expired messages at its head (the
/// returns first, then the ready messages, as `sim/expire.rs` takes them) and, where
/// every head is checked (4.3 quorum queues, rabbitmq-versions.md D15), also those at
/// the head of the ready messages behind a live return.
fn run_len(q: &crate::queue::Queue, now_ms: u64, every_head: bool) -> u64 {
    let expired = |e: &&crate::queue::Entry| e.expires_at_ms <= now_ms;
    let at_head = q.iter_ready().take_while(expired).count();
    let returns = q.returns_len();
    let behind = if every_head && at_head < returns {
        q.iter_ready().skip(returns).take_while(expired).count()
    } else {
        0
    };
    (at_head + behind) as u64
}
