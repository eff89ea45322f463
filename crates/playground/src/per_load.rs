//! A view's own value that belongs to one loaded scenario (a copied link, the last
//! export's note, what the user typed into a form box), so a new scenario needs no
//! effect to clear it: the value is stored with the load it was made under, and read
//! only while that load is current.
//!
//! ```text
//! load 3: user types source "orders"   -> PerLoad { load: 3, value: "orders" }
//! read at load 3                        -> Some("orders")   (re-renders keep it)
//! load 4 (a preset, an edit's reload)   -> None: the view shows its suggestion
//! ```
//!
//! The load counter is the app's (bumped once per scenario load, never on a restart of
//! the same scenario), so a restart keeps what the user typed. The key may say more than
//! the load: the topology's dragged boxes belong to (load, columns of the layout).

/// `value`, made while `key` (by default the load number) was the current one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerLoad<T, K = u64> {
    key: Option<K>,
    value: Option<T>,
}

impl<T, K> Default for PerLoad<T, K> {
    fn default() -> Self {
        PerLoad {
            key: None,
            value: None,
        }
    }
}

impl<T, K: PartialEq> PerLoad<T, K> {
    /// Stores `value` for `key` (replacing whatever an older key left).
    pub fn set(&mut self, key: K, value: T) {
        self.key = Some(key);
        self.value = Some(value);
    }

    /// Forgets the value (the view shows its default again for this key too).
    pub fn clear(&mut self) {
        self.value = None;
    }

    /// The value, if it was made under `key`.
    pub fn get(&self, key: &K) -> Option<&T> {
        self.value
            .as_ref()
            .filter(|_| self.key.as_ref() == Some(key))
    }
}

impl<T: Clone, K: PartialEq> PerLoad<T, K> {
    /// The value made under `key`, else `suggestion()` (computed only when needed).
    pub fn or_else(&self, key: &K, suggestion: impl FnOnce() -> T) -> T {
        self.get(key).cloned().unwrap_or_else(suggestion)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_read_only_under_the_load_it_was_made_in() {
        let mut v = PerLoad::default();
        assert_eq!(v.get(&0), None::<&String>, "nothing before any value");
        v.set(3, "orders".to_string());
        assert_eq!(v.get(&3).map(String::as_str), Some("orders"));
        assert_eq!(v.get(&4), None, "a new scenario does not see it");
        assert_eq!(v.or_else(&4, || "first.exchange".into()), "first.exchange");
        assert_eq!(v.or_else(&3, || unreachable!()), "orders");
    }

    #[test]
    fn a_value_set_under_a_new_load_replaces_the_old_one() {
        let mut v = PerLoad::default();
        v.set(1, 10);
        v.set(2, 20);
        assert_eq!(v.get(&1), None);
        assert_eq!(v.get(&2), Some(&20));
        v.clear();
        assert_eq!(v.get(&2), None);
        assert_eq!(v.or_else(&2, || 7), 7);
    }

    #[test]
    fn a_wider_key_needs_all_of_it_to_match() {
        let mut v: PerLoad<&str, (u64, usize)> = PerLoad::default();
        v.set((5, 3), "dragged");
        assert_eq!(v.get(&(5, 3)), Some(&"dragged"));
        assert_eq!(
            v.get(&(5, 4)),
            None,
            "another number of columns lays out afresh"
        );
        assert_eq!(v.get(&(6, 3)), None);
    }
}
