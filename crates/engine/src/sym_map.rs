//! A map keyed by symbol: the exchanges and the queue names of a `Sim`.
//!
//! Every routing looks up the exchange it starts at and the queues it reaches, two or
//! three times per message; a B-tree search over a handful of entries cost about a
//! hundred instructions per message in `delaylab bench` (an eighth of routing). Here a
//! lookup reads one slot of a table indexed by the symbol's number, then the entry.
//!
//! Entries stay sorted by symbol, so iteration runs in the order a `BTreeMap<Sym, V>`
//! gave (symbol order is shown: the exchange list of a snapshot). Inserting or removing
//! shifts the entries after it and renumbers their slots: declarations are rare, lookups
//! are per message.
//!
//! Memory: the slot table covers symbols up to the largest key inserted, 4 bytes each
//! (a symbol itself costs its text and a hash entry, several times that).

use crate::sym::Sym;

#[derive(Clone, Debug)]
pub struct SymMap<V> {
    /// Per symbol number: 0 when absent, else the entry's index plus one.
    slot_of: Vec<u32>,
    /// Sorted by symbol, each symbol once.
    entries: Vec<(Sym, V)>,
}

impl<V> Default for SymMap<V> {
    fn default() -> Self {
        SymMap {
            slot_of: Vec::new(),
            entries: Vec::new(),
        }
    }
}

impl<V> SymMap<V> {
    pub fn new() -> Self {
        Self::default()
    }

    fn index_of(&self, key: Sym) -> Option<usize> {
        let slot = *self.slot_of.get(key.index())?;
        let i = (slot as usize).checked_sub(1)?;
        debug_assert_eq!(self.entries[i].0, key);
        Some(i)
    }

    pub fn get(&self, key: &Sym) -> Option<&V> {
        self.index_of(*key).map(|i| &self.entries[i].1)
    }

    pub fn get_mut(&mut self, key: &Sym) -> Option<&mut V> {
        self.index_of(*key).map(|i| &mut self.entries[i].1)
    }

    pub fn contains_key(&self, key: &Sym) -> bool {
        self.index_of(*key).is_some()
    }

    /// Inserts or replaces; returns the value replaced.
    pub fn insert(&mut self, key: Sym, value: V) -> Option<V> {
        if let Some(i) = self.index_of(key) {
            return Some(std::mem::replace(&mut self.entries[i].1, value));
        }
        let at = self.entries.partition_point(|(k, _)| *k < key);
        self.entries.insert(at, (key, value));
        if self.slot_of.len() <= key.index() {
            self.slot_of.resize(key.index() + 1, 0);
        }
        self.renumber_from(at);
        None
    }

    pub fn remove(&mut self, key: &Sym) -> Option<V> {
        let i = self.index_of(*key)?;
        let (_, value) = self.entries.remove(i);
        self.slot_of[key.index()] = 0;
        self.renumber_from(i);
        Some(value)
    }

    /// The slots of the entries from `from` on, after they moved.
    fn renumber_from(&mut self, from: usize) {
        for (i, (k, _)) in self.entries.iter().enumerate().skip(from) {
            self.slot_of[k.index()] = u32::try_from(i + 1).expect("fewer than 2^32 entries");
        }
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// In symbol order.
    #[cfg(test)]
    pub fn iter(&self) -> impl Iterator<Item = (&Sym, &V)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.entries.iter_mut().map(|(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sym::Symbols;
    use std::collections::BTreeMap;

    #[test]
    fn behaves_as_a_btree_map_through_inserts_replacements_and_removals() {
        let mut syms = Symbols::default();
        let keys: Vec<Sym> = (0..40).map(|i| syms.intern(&format!("k{i}"))).collect();
        let mut map = SymMap::new();
        let mut model = BTreeMap::new();
        // A fixed, shuffled-looking sequence of operations.
        for step in 0..400usize {
            let k = keys[(step * 7 + step / 3) % keys.len()];
            if step % 5 == 3 {
                assert_eq!(map.remove(&k), model.remove(&k), "remove at step {step}");
            } else {
                assert_eq!(
                    map.insert(k, step),
                    model.insert(k, step),
                    "insert at {step}"
                );
            }
            assert_eq!(map.len(), model.len());
            for key in &keys {
                assert_eq!(map.get(key), model.get(key));
                assert_eq!(map.contains_key(key), model.contains_key(key));
            }
            let ours: Vec<_> = map.iter().collect();
            let theirs: Vec<_> = model.iter().collect();
            assert_eq!(ours, theirs, "iteration order at step {step}");
        }
        for v in map.values_mut() {
            *v += 1;
        }
        assert!(map.values().zip(model.values()).all(|(a, b)| *a == b + 1));
    }

    #[test]
    fn a_symbol_never_inserted_is_absent_even_past_the_table() {
        let mut syms = Symbols::default();
        let a = syms.intern("a");
        let far = syms.intern("far");
        let mut map = SymMap::new();
        map.insert(a, 1);
        assert_eq!(map.get(&far), None);
        assert!(map.remove(&far).is_none());
        assert!(!map.is_empty());
    }
}
