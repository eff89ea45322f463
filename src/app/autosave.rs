//! Autosave: the current scenario (the input as loaded or edited, not the state it
//! reached) and its view options, kept in localStorage, so a reload or a crashed tab
//! loses nothing.
//!
//! The value is a share-link fragment (`delaylab-share`): compact, and read back with
//! the same checks as a link. Timeline: load a preset, edit it in the JSON editor (the
//! app loads the edited scenario as "custom"); ~0.4 s later the key holds it; reload
//! with no fragment in the address: it opens again. Content that does not decode (an
//! older, damaged or hand-edited value) is dropped with a notice, never a failed start.
//! "Reset" (share.rs) goes back to the sandbox and removes the key; the untouched
//! sandbox is never saved (a fresh start shows it anyway).

use leptos::prelude::*;

use super::share::{current_view, Share};
use super::{chunks, Ctx};

/// The localStorage key.
pub const KEY: &str = "delaylab.autosave";
/// Wait after a change before writing (a speed slider sends many changes).
const DELAY_MS: u32 = 400;

fn storage() -> Option<web_sys::Storage> {
    // Storage can be refused (privacy settings): then there is simply no autosave.
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// What was saved (a link's fragment, read back by `share::start`), if anything.
pub fn saved() -> Option<String> {
    storage().and_then(|s| s.get_item(KEY).ok().flatten())
}

pub fn clear() {
    if let Some(s) = storage() {
        let _ = s.remove_item(KEY);
    }
}

fn save(c: Ctx, sh: Share, last: StoredValue<String>) {
    // The sandbox is what a fresh start shows anyway: nothing to keep. The key is
    // forgotten only if this page wrote it (`last`): a page that opened on the sandbox
    // leaves alone what another tab has just written.
    if c.preset.get_untracked() == "sandbox" && c.runner.with_value(|r| r.recorded == 0) {
        if last.with_value(|l| !l.is_empty()) {
            clear();
            last.set_value(String::new());
        }
        return;
    }
    let s = c.runner.with_value(|r| r.scenario.clone());
    let mut view = current_view(
        &c,
        sh.link_read_only.get_untracked() || sh.read_only.get_untracked(),
    );
    // A reload reopens the scenario from its start, paused.
    view.start_ms = None;
    view.autoplay = false;
    let load = c.load_now();
    leptos::task::spawn_local(async move {
        // Not before the first screen's chunk is in: a first click on a card saves, and
        // the codec's chunk (44 KB gzip) would share the line with the topology's.
        super::deferred::after_first_parts().await;
        // The codec's chunk not loading only costs this save; the next change tries again.
        let Ok(fragment) = chunks::encode_link(s, view).await else {
            return;
        };
        if last.with_value(|l| *l == fragment) {
            return;
        }
        if let Some(st) = storage() {
            // A full storage (quota) only costs the autosave.
            if st.set_item(KEY, &fragment).is_ok() {
                // The history entry of this scenario carries it too (Back after a reload),
                // unless another scenario was loaded meanwhile.
                if c.load_now() == load {
                    c.hist.remember_link(&fragment);
                }
                last.set_value(fragment);
            }
        }
    });
}

/// Saves after every change of the scenario or the view options; nothing while
/// `restoring` (the saved scenario is being read back: a save now would overwrite it).
pub fn watch(c: Ctx, sh: Share, restoring: StoredValue<bool>) {
    let pending = StoredValue::new(false);
    let last = StoredValue::new(String::new());
    Effect::new(move |_| {
        // What a change can come through: a (re)load, an edit, the view options.
        let _ = (
            c.preset.get(),
            c.scenario_rev.get(),
            c.speed.get(),
            c.lang.get(),
            sh.read_only.get(),
            sh.link_read_only.get(),
        );
        if pending.get_value() {
            return;
        }
        pending.set_value(true);
        gloo_timers::callback::Timeout::new(DELAY_MS, move || {
            pending.set_value(false);
            if !restoring.get_value() {
                save(c, sh, last);
            }
        })
        .forget();
    });
}
