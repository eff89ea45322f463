//! Interned names (exchanges, queues, routing keys, expiration strings).
//!
//! A message refers to its exchange and routing key by a 4-byte `Sym` instead of a
//! string: with a million messages waiting, that is the difference between fitting the
//! memory budget and not. The table only grows, and it is looked up (never iterated)
//! through its hash map, so iteration order can never leak into the simulation.

use std::collections::HashMap;
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(u32);

#[derive(Debug, Default)]
pub struct Symbols {
    ids: HashMap<Rc<str>, Sym>,
    names: Vec<Rc<str>>,
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
