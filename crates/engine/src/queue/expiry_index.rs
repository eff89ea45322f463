//! How many of a queue's ready messages have passed their expiry: the overdue count,
//! exact at any size, in a few steps (issue 29: a capped scan of 20,000 entries showed
//! 15,000 overdue where 150,000 were).
//!
//! Every ready entry with a TTL is in the index once, by its expiry time (fixed at
//! enqueue). Entries whose expiry is at or before `passed_at_ms` are only counted
//! (`passed`); the others are kept by expiry time (`upcoming`). As the clock moves
//! ([`ExpiryIndex::pass`], called by the sim once per advance), the upcoming times it
//! reaches join the count: each time is moved once, so the cost is O(log n) per entry
//! over a run, and answering at `now` sums only the times passed since the last call.
//!
//! ```text
//! t=0      A (exp 1800000), B (exp 360000) enqueued   upcoming {360000: 1, 1800000: 1}
//! t=600000 pass(600000)                               passed 1 (B), upcoming {1800000: 1}
//!          passed_by(600000) = 1: B waits behind A, overdue (A is the head, not overdue)
//! t=1800000 A and B leave (removed): passed 0, upcoming {}
//! ```

use std::collections::BTreeMap;

use super::NEVER;

#[derive(Debug, Default)]
pub(crate) struct ExpiryIndex {
    /// Indexed entries whose expiry is at or before `passed_at_ms`.
    passed: u64,
    passed_at_ms: u64,
    /// The other indexed entries: expiry time -> how many.
    upcoming: BTreeMap<u64, u32>,
}

impl ExpiryIndex {
    /// A ready entry expiring at `at_ms` (NEVER: no TTL, not indexed).
    pub(crate) fn add(&mut self, at_ms: u64) {
        if at_ms == NEVER {
            return;
        }
        if at_ms <= self.passed_at_ms {
            self.passed += 1;
        } else {
            *self.upcoming.entry(at_ms).or_default() += 1;
        }
    }

    /// A ready entry expiring at `at_ms` left the ready messages.
    pub(crate) fn remove(&mut self, at_ms: u64) {
        if at_ms == NEVER {
            return;
        }
        if at_ms <= self.passed_at_ms {
            assert!(self.passed > 0, "removed an entry the index does not hold");
            self.passed -= 1;
            return;
        }
        let n = self
            .upcoming
            .get_mut(&at_ms)
            .expect("removed an entry the index does not hold");
        *n -= 1;
        if *n == 0 {
            self.upcoming.remove(&at_ms);
        }
    }

    /// The clock is at `now_ms`: the times it reached join the passed count. An earlier
    /// time than the last (never, in a run) changes nothing.
    pub(crate) fn pass(&mut self, now_ms: u64) {
        if now_ms <= self.passed_at_ms {
            return;
        }
        while let Some(e) = self.upcoming.first_entry() {
            if *e.key() > now_ms {
                break;
            }
            self.passed += u64::from(e.remove());
        }
        self.passed_at_ms = now_ms;
    }

    /// Indexed entries whose expiry is at or before `now_ms` (`now_ms` at or after the
    /// last [`ExpiryIndex::pass`]: the sim's clock never goes back).
    pub(crate) fn passed_by(&self, now_ms: u64) -> u64 {
        debug_assert!(
            now_ms >= self.passed_at_ms,
            "the index was passed beyond now"
        );
        if now_ms <= self.passed_at_ms {
            return self.passed;
        }
        let since = self
            .upcoming
            .range(self.passed_at_ms.saturating_add(1)..=now_ms)
            .map(|(_, n)| u64::from(*n))
            .sum::<u64>();
        self.passed + since
    }

    /// Every entry left (purge, delete, node loss).
    pub(crate) fn clear(&mut self) {
        self.passed = 0;
        self.upcoming.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The timeline of the module docs.
    #[test]
    fn counts_what_passed_its_expiry_whether_or_not_the_clock_was_passed() {
        let mut ix = ExpiryIndex::default();
        ix.add(1_800_000);
        ix.add(360_000);
        ix.add(NEVER);
        assert_eq!(
            ix.passed_by(360_000),
            1,
            "exactly at its expiry, B has passed it"
        );
        assert_eq!(ix.passed_by(359_999), 0);
        ix.pass(600_000);
        assert_eq!(ix.passed_by(600_000), 1);
        assert_eq!(
            ix.passed_by(1_800_000),
            2,
            "without a pass, the range is summed"
        );
        ix.add(500_000); // a return whose TTL had passed
        assert_eq!(ix.passed_by(600_000), 2);
        ix.remove(360_000);
        ix.remove(500_000);
        ix.remove(1_800_000);
        ix.remove(NEVER);
        assert_eq!(ix.passed_by(2_000_000), 0);
        assert!(ix.upcoming.is_empty());
    }

    #[test]
    fn equal_expiries_share_a_key() {
        let mut ix = ExpiryIndex::default();
        for _ in 0..3 {
            ix.add(10);
        }
        ix.remove(10);
        assert_eq!(ix.upcoming.len(), 1);
        ix.pass(10);
        assert_eq!(ix.passed_by(10), 2);
        ix.clear();
        assert_eq!(ix.passed_by(20), 0);
    }
}
