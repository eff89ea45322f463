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

#[derive(Debug, Default)]
pub struct Symbols {
    ids: HashMap<Rc<str>, Sym, FxBuild>,
    names: Vec<Rc<str>>,
    header_keys: HashSet<Rc<str>, FxBuild>,
}

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
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

impl Symbols {
    pub fn intern(&mut self, s: &str) -> Sym {
        if let Some(&sym) = self.ids.get(s) {
            return sym;
        }
        let sym = Sym(u32::try_from(self.names.len()).expect("fewer than 2^32 names"));
        let name: Rc<str> = Rc::from(s);
        self.names.push(name.clone());
        self.ids.insert(name, sym);
        sym
    }

    /// The symbol of `s` if it was ever interned.
    pub fn get(&self, s: &str) -> Option<Sym> {
        self.ids.get(s).copied()
    }

    /// The one shared copy of header key `key`, to use instead of allocating another.
    pub fn header_key(&mut self, key: &str) -> Rc<str> {
        if let Some(shared) = self.header_keys.get(key) {
            return shared.clone();
        }
        let shared: Rc<str> = Rc::from(key);
        self.header_keys.insert(shared.clone());
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
}
