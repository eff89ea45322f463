//! Loading a scenario into the page: a preset (on the version it opens on or one
//! named), one an address fragment names, or one edited as JSON; each load resets the
//! views and is an entry in the page's history. A preset the start-up wasm does not
//! embed (below the gallery's fold, or from the field) has its file fetched first
//! (preset_fetch.rs), the first time it is opened.

use delaylab_engine::scenario::{self, Scenario};
use delaylab_engine::version::BrokerVersion;
use leptos::prelude::*;

use super::deferred::Pending;
use super::{history, preset_fetch, version, Ctx, PresetMeta, PresetRef, PRESETS, SANDBOX};

/// A preset's file: embedded, or once fetched (None before).
pub fn preset_text(id: &str) -> Option<&'static str> {
    if id == "sandbox" {
        return Some(SANDBOX);
    }
    PRESETS
        .iter()
        .find(|(k, _)| *k == id)
        .map(|(_, v)| *v)
        .or_else(|| preset_fetch::fetched_text(id))
}

/// Whether `id` names a preset (embedded or fetched when opened).
pub fn is_preset(id: &str) -> bool {
    id == "sandbox" || PRESETS.iter().any(|(k, _)| *k == id) || preset_fetch::is_fetched_preset(id)
}

impl Ctx {
    /// Loads a preset (or the sandbox) on the version it opens on, and resets everything
    /// (a new history entry).
    pub fn load(&self, id: &str) {
        self.load_on(id, None);
    }

    /// Loads a preset on `version` (None: the one it opens on, `PresetMeta::opens_on`).
    pub fn load_on(&self, id: &str, version: Option<BrokerVersion>) {
        self.load_preset_as(id, version, history::Entry::New);
    }

    /// The preset an address fragment names, maybe with its version
    /// (`fix-delayed-plugin@4.3`, with or without the `#`).
    fn preset_ref(fragment: &str) -> Option<PresetRef> {
        PresetRef::parse(fragment).filter(|r| !r.id.is_empty() && is_preset(&r.id))
    }

    /// Whether an address fragment (without the `#`) names a preset.
    pub fn fragment_names_preset(&self, fragment: &str) -> bool {
        Ctx::preset_ref(fragment).is_some()
    }

    /// Loads the preset an address fragment names (`head-of-line-blocking`,
    /// `fix-delayed-plugin@4.3`); false when it names none (an in-page anchor, a share link).
    pub fn load_address(&self, fragment: &str, entry: history::Entry) -> bool {
        let Some(r) = Ctx::preset_ref(fragment) else {
            return false;
        };
        self.load_preset_as(&r.id, r.version, entry);
        true
    }

    /// The address fragment of a load: the preset's name, and its version when it is not
    /// the one the preset opens on (`#head-of-line-blocking`, `#fix-delayed-plugin@4.3`);
    /// none for the sandbox on its own version and a custom scenario (its share link is a
    /// button away; the autosave keeps it).
    pub fn fragment_for(&self, id: &str, s: &Scenario) -> String {
        // Compared with the preset as its file has it (the gallery's entry).
        self.presets
            .with_value(|ps| ps.iter().find(|p| p.id == id).cloned())
            .map(|file| PresetRef::fragment(&file, s.broker_version()))
            .unwrap_or_default()
    }

    /// Loads a preset on `version` as [`Ctx::load_as`] does a scenario; a fetched preset
    /// not in yet once its file is in (counted as a deferred part meanwhile), unless
    /// another load came first. A failed fetch says so where a failed load does.
    pub fn load_preset_as(&self, id: &str, version: Option<BrokerVersion>, entry: history::Entry) {
        if let Some(text) = preset_text(id) {
            return self.load_preset_text(id, text, version, entry);
        }
        if !is_preset(id) {
            return;
        }
        let (c, id, asked_at) = (*self, id.to_string(), self.load_now());
        let pending = Pending::start();
        leptos::task::spawn_local(async move {
            let _pending = pending;
            let fetched = preset_fetch::fetch(&id).await;
            if c.load_now() != asked_at {
                return; // the reader opened something else meanwhile
            }
            match fetched {
                Ok(text) => c.load_preset_text(&id, text, version, entry),
                Err(e) => c.load_error.set(Some(format!(
                    "{id}: {}: {e}",
                    c.tr_untracked("preset_fetch_failed")
                ))),
            }
        });
    }

    fn load_preset_text(
        &self,
        id: &str,
        text: &str,
        version: Option<BrokerVersion>,
        entry: history::Entry,
    ) {
        match scenario::load_str(text) {
            Ok(mut s) => {
                let meta = PresetMeta::of(id, &s);
                let v = version.unwrap_or_else(|| meta.opens_on());
                // 3.10 is what an absent `broker` means: a file keeps its own meaning.
                if v != s.broker_version() {
                    s.broker = (v != BrokerVersion::default()).then_some(v);
                }
                self.load_as(id, s, entry)
            }
            Err(e) => self
                .load_error
                .set(Some(format!("{}: {}", e.path, e.message))),
        }
    }

    /// Loads a scenario (a preset, or one edited as JSON) and resets everything: a new
    /// entry in the browser's history (Back comes back to what is shown now), with an
    /// Undo note when it replaced the user's own work (history.rs).
    pub fn load_scenario(&self, id: &str, s: Scenario) {
        self.load_as(id, s, history::Entry::New);
    }

    /// As [`Ctx::load_scenario`]; `entry` says whether the load is a new history entry
    /// (a user's choice) or what the current entry shows (a link opened at start, Back
    /// and Forward).
    pub fn load_as(&self, id: &str, s: Scenario, entry: history::Entry) {
        let leaving = self
            .hist
            .leaving(self, id, self.fragment_for(id, &s), entry);
        self.notice.set(version::Notice::off_version(&s));
        self.meta.set(PresetMeta::of(id, &s));
        self.preset.set(id.to_string());
        self.load_error.set(None);
        self.runner.set_value(self.new_runner(s));
        self.reset_views();
        // Last: what is keyed by the load reads the new runner and snapshot.
        self.load_rev.update(|v| *v += 1);
        self.hist.arrived(self, leaving);
    }
    /// The current load, for a view value made now (see `load_rev`).
    pub fn load_now(&self) -> u64 {
        self.load_rev.get_untracked()
    }
}
