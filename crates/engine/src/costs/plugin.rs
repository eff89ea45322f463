//! The delayed-message plugin's scheduler: one process, one due-ms key per timer tick,
//! serialised with the inserts.
//!
//! Why: broker-costs.md section 3. `rabbit_delayed_message` keeps messages in a table
//! keyed by due time (ms) and, on each timer message, releases **one distinct due-ms
//! key**, then re-arms `erlang:start_timer(max(0, due - now))`, which fires after about
//! 1 ms even for 0 (1,008 us measured). Every publish is a synchronous call into the
//! same process (two Mnesia writes), slower as the table grows. So a backlog drains at
//! about 1,000 keys per second whatever the CPU (5,000 overdue keys: 5.05 s; 10,000:
//! 10.24 s), and at 100,000 messages (about 4.3 per due-ms, 99 % of milliseconds
//! non-empty) lateness grew to p99 2.7-3.8 s while 20,000 stayed flat (p99 99-133 ms).
//!
//! Model: one clock for the process. An insert costs `plugin_insert_us` plus
//! `plugin_insert_us_per_1k_stored` per 1,000 messages stored, and the publishing
//! channel waits for it (`ingress`). The timer for the earliest key fires at
//! `max(process free, key due) + plugin_tick_us`; when it fires (and the process is
//! free), that one key's messages go out in store order, `plugin_release_us` each (plus
//! `plugin_release_us_per_1k_stored`: the table slows as it grows), and the timer is
//! armed again for the next key. Release order is `delayed.rs`'s.
//!
//! ```text
//! keys due 1000 and 1001 (one message each), process idle:
//!   the timer for 1000 fires at 1000 + 1.008 ms -> released in ms 1001 (1 ms late)
//!   the next at max(free 1001.04, due 1001) + 1.008 = 1002.05 -> released in ms 1002
//! a backlog of 5,000 overdue keys: one per ~1.04 ms -> about 5.2 s
//! ```

use super::{ms_of, us_of, CostProfile};

#[derive(Debug, Default)]
pub struct Scheduler {
    /// The process's clock.
    pub free_us: u64,
    /// When the armed timer fires, to the microsecond.
    pub fire_us: Option<u64>,
}

impl Scheduler {
    /// An insert with `stored` messages in the table, called at `start_us`: when it is
    /// done.
    pub fn insert(&mut self, profile: &CostProfile, start_us: u64, stored: usize) -> u64 {
        let extra = profile.plugin_insert_us_per_1k_stored * stored as f64 / 1000.0;
        let cost = u64::from(profile.plugin_insert_us) + extra.round() as u64;
        self.free_us = self.free_us.max(start_us) + cost;
        self.free_us
    }

    /// When the timer for a key due at `due_ms` fires.
    pub fn fire_for(&self, profile: &CostProfile, due_ms: u64) -> u64 {
        self.free_us.max(us_of(due_ms)) + u64::from(profile.plugin_tick_us)
    }

    /// The process is busy past `now_ms`: the timer message waits in its mailbox until
    /// this millisecond.
    pub fn busy_until_ms(&self, now_ms: u64) -> Option<u64> {
        (ms_of(self.free_us) > now_ms).then_some(ms_of(self.free_us))
    }

    /// One key's `n` messages released, with `stored` left in the table, by the timer
    /// that fired at `fired_us`.
    pub fn released(&mut self, profile: &CostProfile, fired_us: u64, n: u64, stored: usize) {
        let each = f64::from(profile.plugin_release_us)
            + profile.plugin_release_us_per_1k_stored * stored as f64 / 1000.0;
        self.free_us = self.free_us.max(fired_us) + (n as f64 * each).round() as u64;
    }
}
