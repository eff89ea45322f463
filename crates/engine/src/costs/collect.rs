//! Collecting an expired run: a queue takes every expired message at its head out
//! before it dead-letters the first of them.
//!
//! Why: the live costs check (issue 28 item 6): 40,000 overdue behind a head whose TTL
//! ran out reached their consumer starting 100-450 ms after the head's expiry on
//! RabbitMQ 3.10.8 (a lone message: 2-11 ms), where the model sent the head at once. The
//! source says why. 3.10.8 `rabbit_amqqueue_process:drop_expired_msgs` dead-letters
//! through `BQ:fetchwhile`, and `rabbit_variable_queue:fetchwhile` ->
//! `fetch_by_predicate` first runs `collect_by_predicate` over the whole run (every
//! message at the head whose expiry has passed), then `process_queue_entries` reads and
//! dead-letters each (its `@todo`: "If there are 1 million messages expired, it will
//! first collect the 1 million messages and then process them"); `dropwhile` (no DLX)
//! goes through `remove_by_predicate`, the same collection. A trace of the queue
//! process (`erlang:trace`, receive and garbage collection) on the live 3.10.8: the
//! timer's `drop_expired` at 0 ms, the first dead letter in the DLQ's mailbox at 58-94
//! ms, the queue's heap growing and collected meanwhile. 4.3's quorum queue does the
//! same in its own way: `rabbit_fifo:expire_batch` takes the expired returns and
//! messages (`take_expired_returns`, `rabbit_fifo_pq:take_while`) and
//! `discard_or_dead_letter` reads them all from the log (one `{log, Idxs, Fun}` effect)
//! before one `rabbit_dead_letter:publish` of the list (v4.3.5, `rabbit_fifo.erl`).
//!
//! Model: when a queue's dead-letterer meets an expired head that is not part of the
//! run it is working through (expired after that run was collected), it counts the
//! run (every message at its head expired now: `sim/costed.rs`'s `run_len`, the
//! queue being a layer above this one) and its clock takes
//! `collect_us` (`quorum_collect_us`) per message before the first dead letter
//! (`dead_letter::DeadLetterers::collect`). The order is unchanged.
//!
//! ```text
//! t=20000 head expires, 40,000 overdue behind it, collect 2 us, dead-letter 28 us:
//!   collected until 20080; ~36 dead-lettered in each ms from 20080; the last at ~21200
//! ```

use super::CostProfile;

/// What collecting a run of `run_len` expired messages costs the queue.
pub fn cost_us(profile: &CostProfile, quorum: bool, run_len: u64) -> u64 {
    let each = if quorum {
        profile.quorum_collect_us
    } else {
        profile.collect_us
    };
    run_len.saturating_mul(u64::from(each))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_costs_its_length_at_the_queue_types_figure() {
        let mut p = CostProfile::measured();
        p.collect_us = 2;
        p.quorum_collect_us = 5;
        assert_eq!(cost_us(&p, false, 40_000), 80_000);
        assert_eq!(cost_us(&p, true, 40_000), 200_000);
        assert_eq!(cost_us(&p, false, 0), 0);
    }
}
