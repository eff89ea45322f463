//! A view value that belongs to the loaded scenario, read as a signal: the user's own
//! value while that load is current, else the view's suggestion for the scenario shown.
//! Replaces effects that rewrote a view's state when the scenario changed (the rule is
//! `delaylab_playground::per_load::PerLoad`, tested natively).

use delaylab_playground::per_load::PerLoad;
use leptos::prelude::*;

use super::Ctx;

pub struct ForLoad<T: Send + Sync + 'static> {
    load: RwSignal<u64>,
    typed: RwSignal<PerLoad<T>>,
    suggest: Signal<T>,
}

impl<T: Send + Sync + 'static> Clone for ForLoad<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Send + Sync + 'static> Copy for ForLoad<T> {}

impl<T: Clone + Send + Sync + 'static> ForLoad<T> {
    /// `suggest` is what the view shows for a scenario the user has not touched; it may
    /// read signals (it is re-read when they change).
    pub fn new(c: Ctx, suggest: impl Into<Signal<T>>) -> ForLoad<T> {
        ForLoad {
            load: c.load_rev,
            typed: RwSignal::new(PerLoad::default()),
            suggest: suggest.into(),
        }
    }

    pub fn get(&self) -> T {
        let load = self.load.get();
        let suggest = self.suggest;
        self.typed.with(|t| t.or_else(&load, || suggest.get()))
    }

    pub fn get_untracked(&self) -> T {
        let load = self.load.get_untracked();
        let suggest = self.suggest;
        self.typed
            .with_untracked(|t| t.or_else(&load, || suggest.get_untracked()))
    }

    /// The user's value, for the scenario loaded now.
    pub fn set(&self, v: T) {
        let load = self.load.get_untracked();
        self.typed.update(|t| t.set(load, v));
    }

    /// Back to the suggestion.
    pub fn clear(&self) {
        self.typed.update(PerLoad::clear);
    }
}

impl<T: Clone + Default + Send + Sync + 'static> ForLoad<T> {
    /// A value whose suggestion is its default (a note no scenario has yet).
    pub fn empty(c: Ctx) -> ForLoad<T> {
        ForLoad::new(c, Signal::stored(T::default()))
    }
}
