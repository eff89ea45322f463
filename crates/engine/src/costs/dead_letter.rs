//! Dead-lettering throughput: a queue dead-letters its expired heads one at a time.
//!
//! Why: broker-costs.md section 1, "dead-lettering alone": 100,000 messages due at the
//! same instant filled the DLQ at about 30k-43k msg/s transient (11.5k persistent); the
//! issue's 40,000 released at once behind a long head reached their consumer 1.62 s and
//! 1.71 s after the head expired, where the ideal engine delivers them all at once. In
//! RabbitMQ 3.10 the classic queue process republishes each expired message to its DLX
//! itself (`rabbit_amqqueue_process:drop_expired_msgs` -> `rabbit_dead_letter`), so one
//! queue's dead-lettering is serial, and nothing behind an expired head is delivered
//! before the queue got to it.
//!
//! Model: each queue has a clock; each expired head it dead-letters costs
//! `dead_letter_us` (or the persistent figure; a quorum queue's, whose leader
//! dead-letters through its log, `quorum_dead_letter_us`). When the clock has moved past the
//! current millisecond the queue stops and resumes at the millisecond it is in. The
//! order (head first, queue order) is `expire.rs`'s. Before the first dead letter of a
//! run, the queue collects the whole run (`collect`), on the same clock.
//!
//! ```text
//! t=10000 head expires, 40,000 overdue behind it, 28 us each:
//!   ~36 dead-lettered in ms 10000, ~36 in 10001, ... the last at about 11120
//! ```

use super::{ms_of, us_of, CostProfile};

#[derive(Debug, Default)]
pub struct DeadLetterers {
    free_us: Vec<u64>,
    /// Per queue: the instant its current run was collected (`collect`): an expired
    /// head that expired by then is part of it.
    run_collected_ms: Vec<Option<u64>>,
}

impl DeadLetterers {
    /// Whether an expired head of queue `q` that expired at `head_expired_ms` belongs
    /// to the run the queue is working through (it had expired when the run was
    /// collected); if not, a new run starts ([`DeadLetterers::collect`]).
    pub fn in_run(&self, q: usize, head_expired_ms: u64) -> bool {
        self.run_collected_ms
            .get(q)
            .copied()
            .flatten()
            .is_some_and(|at| head_expired_ms <= at)
    }

    /// Queue `q` starts a run of `run_len` expired messages now: it collects them all
    /// (`collect::cost_us`) before the first is dead-lettered.
    pub fn collect(
        &mut self,
        profile: &CostProfile,
        q: usize,
        now_ms: u64,
        quorum: bool,
        run_len: u64,
    ) {
        if self.run_collected_ms.len() <= q {
            self.run_collected_ms.resize(q + 1, None);
        }
        if self.free_us.len() <= q {
            self.free_us.resize(q + 1, 0);
        }
        self.run_collected_ms[q] = Some(now_ms);
        let cost = super::collect::cost_us(profile, quorum, run_len);
        self.free_us[q] = self.free_us[q].max(us_of(now_ms)) + cost;
    }

    /// The millisecond queue `q` can go on at, if it is busy past `now_ms`.
    pub fn busy_until_ms(&self, q: usize, now_ms: u64) -> Option<u64> {
        let free = *self.free_us.get(q)?;
        (ms_of(free) > now_ms).then_some(ms_of(free))
    }

    /// Queue `q` (a quorum queue or a classic one) dead-letters one message now.
    pub fn charge(
        &mut self,
        profile: &CostProfile,
        q: usize,
        now_ms: u64,
        quorum: bool,
        persistent: bool,
    ) {
        if self.free_us.len() <= q {
            self.free_us.resize(q + 1, 0);
        }
        let cost = if quorum {
            profile.quorum_dead_letter_us
        } else if persistent {
            profile.persistent_dead_letter_us
        } else {
            profile.dead_letter_us
        };
        self.free_us[q] = self.free_us[q].max(us_of(now_ms)) + u64::from(cost);
    }
}
