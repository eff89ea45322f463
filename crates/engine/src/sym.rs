//! Interned names (exchanges, queues, routing keys, odd `expiration` texts), and shared
//! header keys.
//!
//! A message refers to its exchange and routing key by a 4-byte `Sym` instead of a
//! string, and its header keys share one `Rc<str>` per distinct key: with a million
//! messages waiting, that is the difference between fitting the memory budget and not.
//! The tables only grow, so only strings from a small set belong here (never one per
//! message, such as a TTL in ms). They are looked up (never iterated) through hash maps,
//! so iteration order can never leak into the simulation. Header keys are kept apart
//! from the names so that sharing them leaves every `Sym` (whose order does show, e.g.
//! in the exchange list) exactly as it was.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(u32);

impl Sym {
    /// Its number: symbols are numbered from 0 in the order they were interned.
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Debug, Default)]
pub struct Symbols {
    ids: HashMap<Rc<str>, Sym, FxBuild>,
    names: Vec<Rc<str>>,
    header_keys: HashSet<Rc<str>, FxBuild>,
    /// The last names `intern` returned, newest first: a stream of publishes names the
    /// same exchange and routing key again and again, and comparing with these is cheaper
    /// than hashing (a lookup is only ever a shortcut: the answer is the map's).
    recent: [Option<Sym>; RECENT],
    /// The header key `header_key` returned last: the same shortcut for the one header a
    /// stream of delayed publishes carries (`x-delay`, `x-opt-delivery-time`).
    recent_key: Option<Rc<str>>,
}

/// How many recently interned names `intern` compares before hashing: an exchange and
/// a routing key.
const RECENT: usize = 2;

type FxBuild = BuildHasherDefault<FxHasher>;

/// The Fx hash (rustc's own): a few instructions per 8 bytes, where std's SipHash took
/// a tenth of a publish (every publish looks up its exchange and routing key). Names
/// come from the scenario being simulated, so hash flooding is no concern.
#[derive(Default)]
struct FxHasher {
    hash: u64,
}

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        // Whole words read directly; only the tail is copied into a zero-padded word.
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.add(u64::from_le_bytes(word.try_into().expect("8 bytes")));
        }
        let tail = words.remainder();
        if !tail.is_empty() {
            // Little-endian, zero-padded, byte by byte (a copy into a word array is a
            // call to memcpy for a length only known at run time).
            let word = tail
                .iter()
                .rev()
                .fold(0u64, |w, b| (w << 8) | u64::from(*b));
            self.add(word);
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

/// `a == b`, a byte at a time. The text asked for was usually written a moment ago (a
/// publish's routing key, just copied into its string), by stores still in flight; a
/// library compare loads it in wide words that straddle those stores, and a load no
/// single store can forward to waits until every store before it has reached the cache
/// (`delaylab bench --topology qq-delivery-time`: a seventh of the engine's time, in
/// `memcmp` in this function). Single-byte loads each forward from the store that
/// holds the byte. Names are short; a long one is compared in full all the same.
#[inline]
fn same_text(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |diff, (x, y)| diff | (x ^ y))
            == 0
}

impl Symbols {
    pub fn intern(&mut self, s: &str) -> Sym {
        for (i, sym) in self.recent.iter().enumerate() {
            if let Some(sym) = *sym {
                if same_text(&self.names[sym.0 as usize], s) {
                    self.recent[..=i].rotate_right(1);
                    return sym;
                }
            }
        }
        let sym = match self.ids.get(s) {
            Some(&sym) => sym,
            None => {
                let sym = Sym(u32::try_from(self.names.len()).expect("fewer than 2^32 names"));
                let name: Rc<str> = Rc::from(s);
                self.names.push(name.clone());
                self.ids.insert(name, sym);
                sym
            }
        };
        self.recent.rotate_right(1);
        self.recent[0] = Some(sym);
        sym
    }

    /// The symbol of `s` if it was ever interned.
    pub fn get(&self, s: &str) -> Option<Sym> {
        self.ids.get(s).copied()
    }

    /// The one shared copy of header key `key`, to use instead of allocating another.
    pub fn header_key(&mut self, key: &str) -> Rc<str> {
        if let Some(recent) = self.recent_key.as_ref().filter(|r| ***r == *key) {
            return recent.clone();
        }
        let shared = match self.header_keys.get(key) {
            Some(shared) => shared.clone(),
            None => {
                let shared: Rc<str> = Rc::from(key);
                self.header_keys.insert(shared.clone());
                shared
            }
        };
        self.recent_key = Some(shared.clone());
        shared
    }

    pub fn name(&self, sym: Sym) -> &Rc<str> {
        &self.names[sym.0 as usize]
    }

    pub fn str(&self, sym: Sym) -> &str {
        &self.names[sym.0 as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_is_stable_and_round_trips() {
        let mut t = Symbols::default();
        let a = t.intern("order.delay.queue");
        let b = t.intern("");
        assert_eq!(t.intern("order.delay.queue"), a);
        assert_ne!(a, b);
        assert_eq!(t.str(a), "order.delay.queue");
        assert_eq!(t.get("missing"), None);
    }

    #[test]
    fn recent_names_answer_as_the_map_does() {
        let mut t = Symbols::default();
        let names = ["x", "k1", "x", "k2", "k1", "", "x", "", "k2"];
        let first: Vec<Sym> = names.iter().map(|n| t.intern(n)).collect();
        let mut fresh = Symbols::default();
        let order = ["x", "k1", "k2", ""].map(|n| fresh.intern(n));
        for (n, sym) in names.iter().zip(&first) {
            assert_eq!(t.get(n), Some(*sym));
            assert_eq!(t.str(*sym), *n);
        }
        assert_eq!(
            [first[0], first[1], first[3], first[5]],
            order,
            "first-seen order"
        );
    }

    #[test]
    fn header_keys_are_shared_whichever_was_asked_last() {
        let mut t = Symbols::default();
        let a = t.header_key("x-delay");
        let b = t.header_key("x-opt-delivery-time");
        let a2 = t.header_key("x-delay"); // not the recent one: from the set
        let b2 = t.header_key("x-opt-delivery-time");
        let b3 = t.header_key("x-opt-delivery-time"); // the recent one
        assert!(Rc::ptr_eq(&a, &a2));
        assert!(Rc::ptr_eq(&b, &b2) && Rc::ptr_eq(&b, &b3));
        assert_eq!((&*a, &*b), ("x-delay", "x-opt-delivery-time"));
        assert_eq!(t.header_keys.len(), 2);
    }

    #[test]
    fn the_hash_reads_whole_words_and_a_padded_tail() {
        let hash = |bytes: &[u8]| {
            let mut h = FxHasher::default();
            h.write(bytes);
            h.finish()
        };
        let mut by_word = FxHasher::default();
        by_word.add(u64::from_le_bytes(*b"delay.wa"));
        by_word.add(u64::from_le_bytes([b'i', b't', 0, 0, 0, 0, 0, 0]));
        assert_eq!(hash(b"delay.wait"), by_word.finish());
        assert_ne!(hash(b"ab"), hash(b"ba"));
    }
}
