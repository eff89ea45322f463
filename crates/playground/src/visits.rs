//! The browser's Back and Forward over the scenarios a page loaded: which history entry
//! is current, and what each entry showed when it was left, so that going back to it
//! restores that scenario (its recorded publishes and edits, its time, its compare lanes)
//! and not just its address.
//!
//! The page pushes one history entry per scenario load and marks it with a [`Mark`]
//! (`history.state`): this page's session and the entry's key. Leaving an entry (a new
//! load, or Back/Forward away from it) keeps what it showed under its key; arriving at an
//! entry by Back/Forward gives that back. An entry of another session (the page was
//! reloaded since: the memory is gone) has only what its mark carries: the share-link
//! fragment the autosave last wrote for it, or else its address.
//!
//! ```text
//! load sandbox        entries [s0]            current s0
//! publish A, B        (recorded in the scenario)
//! gallery: HOL        keep s0 = sandbox+A,B   entries [s0, s1]   current s1
//! Back                keep s1 = HOL@6:00      current s0 -> restore sandbox+A,B
//! Forward             keep s0                 current s1 -> restore HOL@6:00
//! ```
//!
//! At most [`MAX_KEPT`] entries are kept; the oldest is forgotten first (Back to it then
//! opens its mark's link or address).

use std::collections::VecDeque;

/// Entries whose state is kept in memory.
pub const MAX_KEPT: usize = 50;
/// What a mark starts with: `history.state` strings that are not ours are ignored.
const PREFIX: &str = "delaylab";

/// A history entry's mark (its `history.state`): the page session that made it, its key,
/// and the share-link fragment the autosave last wrote for it (may be empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub session: u32,
    pub key: u64,
    pub link: String,
}

impl Mark {
    /// `delaylab:SESSION:KEY:LINK` (a link's fragment has no `:`; it is kept verbatim
    /// after the third one in any case).
    pub fn encode(&self) -> String {
        format!("{PREFIX}:{}:{}:{}", self.session, self.key, self.link)
    }

    /// The mark in a `history.state` string, or None (not ours, or damaged).
    pub fn decode(text: &str) -> Option<Mark> {
        let mut parts = text.splitn(4, ':');
        if parts.next()? != PREFIX {
            return None;
        }
        let session = parts.next()?.parse().ok()?;
        let key = parts.next()?.parse().ok()?;
        let link = parts.next().unwrap_or_default().to_string();
        Some(Mark { session, key, link })
    }
}

/// The entries of one page session; `T` is what an entry showed.
#[derive(Clone, Debug)]
pub struct Visits<T> {
    session: u32,
    current: u64,
    next: u64,
    kept: VecDeque<(u64, T)>,
}

impl<T: Clone> Visits<T> {
    /// A page's first entry is key 0 of `session` (a number unlikely to repeat across
    /// reloads: the page draws it at random).
    pub fn new(session: u32) -> Visits<T> {
        Visits {
            session,
            current: 0,
            next: 1,
            kept: VecDeque::new(),
        }
    }

    /// The current entry's mark, with `link`.
    pub fn mark(&self, link: &str) -> Mark {
        Mark {
            session: self.session,
            key: self.current,
            link: link.to_string(),
        }
    }

    pub fn current(&self) -> u64 {
        self.current
    }

    fn keep(&mut self, key: u64, shown: T) {
        self.kept.retain(|(k, _)| *k != key);
        if self.kept.len() >= MAX_KEPT {
            self.kept.pop_front();
        }
        self.kept.push_back((key, shown));
    }

    /// A new scenario is loaded: the current entry keeps `leaving`, and a new entry (its
    /// key returned) becomes current. Entries after the current one are the browser's
    /// to drop (a push forgets the Forward list): their kept states are never asked for.
    pub fn push(&mut self, leaving: T) -> u64 {
        self.keep(self.current, leaving);
        self.current = self.next;
        self.next += 1;
        self.current
    }

    /// Back or Forward arrived at the entry marked `mark` (None: an entry not made by this
    /// page, such as a typed address): the entry left keeps `leaving`; what the arrival
    /// showed is returned when this session kept it. An arrival without a kept state gets
    /// a fresh key (the page marks the entry with it).
    pub fn arrive(&mut self, mark: Option<&Mark>, leaving: T) -> Option<T> {
        self.keep(self.current, leaving);
        match mark.filter(|m| m.session == self.session) {
            Some(m) => {
                self.current = m.key;
                let found = self
                    .kept
                    .iter()
                    .find(|(k, _)| *k == m.key)
                    .map(|(_, t)| t.clone());
                if found.is_none() {
                    self.current = self.fresh();
                }
                found
            }
            None => {
                self.current = self.fresh();
                None
            }
        }
    }

    fn fresh(&mut self) -> u64 {
        self.next += 1;
        self.next - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_round_trips_and_a_stranger_is_none() {
        let m = Mark {
            session: 7,
            key: 3,
            link: "v1.AbC-_".into(),
        };
        assert_eq!(m.encode(), "delaylab:7:3:v1.AbC-_");
        assert_eq!(Mark::decode(&m.encode()), Some(m));
        let bare = Mark::decode("delaylab:7:0:").unwrap();
        assert_eq!((bare.key, bare.link.as_str()), (0, ""));
        assert_eq!(Mark::decode("other:7:3:"), None);
        assert_eq!(Mark::decode("delaylab:x:3"), None);
        assert_eq!(Mark::decode(""), None);
    }

    #[test]
    fn back_and_forward_give_back_what_each_entry_showed_when_left() {
        let mut v = Visits::new(9);
        let first = v.mark("");
        let s1 = v.push("sandbox + A, B");
        let hol = v.mark("");
        assert_eq!(s1, hol.key);
        assert_eq!(
            v.arrive(Some(&first), "HOL at 6:00"),
            Some("sandbox + A, B")
        );
        assert_eq!(v.current(), 0);
        assert_eq!(
            v.arrive(Some(&hol), "sandbox + A, B, C"),
            Some("HOL at 6:00")
        );
        assert_eq!(
            v.arrive(Some(&first), "HOL at 7:00"),
            Some("sandbox + A, B, C"),
            "what the entry showed when it was last left"
        );
    }

    #[test]
    fn another_sessions_entry_or_a_typed_address_is_not_restored_from_memory() {
        let mut v = Visits::new(1);
        v.push("a");
        let old = Mark {
            session: 2,
            key: 0,
            link: "v1.x".into(),
        };
        assert_eq!(v.arrive(Some(&old), "b"), None);
        let fresh = v.current();
        assert!(fresh > 1, "a key of its own: {fresh}");
        assert_eq!(v.arrive(None, "c"), None);
        assert_ne!(v.current(), fresh);
    }

    #[test]
    fn at_most_max_kept_states_are_kept_the_oldest_go_first() {
        let mut v = Visits::new(1);
        let first = v.mark("");
        for i in 0..MAX_KEPT + 5 {
            v.push(i);
        }
        assert_eq!(v.kept.len(), MAX_KEPT);
        assert_eq!(v.arrive(Some(&first), 999), None, "forgotten");
        let mut w = Visits::new(1);
        let a = w.mark("");
        w.push(1);
        assert_eq!(w.arrive(Some(&a), 2), Some(1));
    }
}
