//! Expiry lateness: a queue's expiry timer fires a little after the head's due time.
//!
//! Why: broker-costs.md section 4: TTL expiry lands 3-9 ms late on a quorum queue
//! (a lone 700 ms TTL arrived after 704.8-709.5 ms) and 1-2 ms late on a classic one
//! (its timer is an Erlang timer armed for the head, `rabbit_amqqueue_process`
//! `ensure_ttl_timer`; a quorum queue's expiry goes through the Raft log).
//!
//! Model: the head timer is armed `late` ms after the head's expiry, `late` spread over
//! the profile's range by a hash of the copy id and the scenario seed (deterministic,
//! no PRNG draw, so the scenario's own draws stay the same). A message that is already
//! past its expiry when something else makes the queue look at its head (a delivery,
//! a publish) still leaves then, as on the broker.
//!
//! ```text
//! classic, TTL 700: armed for 700 + (1 or 2) ms      quorum: 700 + (3..=9) ms
//! ```

use super::CostProfile;

/// How late a head with copy id `copy` expires.
pub fn late_ms(profile: &CostProfile, quorum: bool, copy: u64, seed: u64) -> u64 {
    let (lo, hi) = if quorum {
        profile.quorum_expiry_late_ms
    } else {
        profile.classic_expiry_late_ms
    };
    let span = u64::from(hi - lo) + 1;
    u64::from(lo) + mix(copy ^ seed.rotate_left(17)) % span
}

/// splitmix64's finaliser: a well-spread hash of a counter.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stays_in_range_and_spreads() {
        let p = CostProfile::measured();
        let q: Vec<u64> = (0..1000).map(|c| late_ms(&p, true, c, 7)).collect();
        assert!(q.iter().all(|l| (3..=9).contains(l)));
        assert!((3..=9).all(|l| q.contains(&l)));
        assert!((0..1000).all(|c| (1..=2).contains(&late_ms(&p, false, c, 7))));
    }
}
