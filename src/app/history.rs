//! Nothing lost without asking (issue 22 item 5): every scenario load is an entry in the
//! browser's history, Back and Forward restore what each entry showed, and a load that
//! replaced the user's own work offers Undo.
//!
//! Undo, not a confirm dialog: a dialog interrupts every load to ask about a loss that
//! is usually not one (the learner wanted the new scenario), and a reflexive "OK" loses
//! the work anyway; an Undo note costs nothing when unused and gives the work back, with
//! its publishes and edits, when it was a mistake. Undo is the browser's Back (one entry
//! back), so the note, the Back button and the history stay one story.
//!
//! ```text
//! sandbox, publish A and B        entry s0 (its address: the page, no fragment)
//! Compare: "Side by side"         s0 keeps sandbox+A,B; push s1 "#head-of-line-blocking"
//!                                 note: Loaded "Head-of-line blocking" over "Sandbox" ... [Undo]
//! Undo (or Back)                  s1 keeps HOL+lanes at its time; s0 restored: sandbox, A, B
//! Forward                         s1 restored: HOL, its lanes, its time
//! ```
//!
//! The bookkeeping (keys, what each entry showed) is `delaylab_playground::visits`,
//! tested natively; this file talks to `window.history` and draws the note. An embed has
//! no history of its own (its entries would be its host page's): [`History`] stays off.

use delaylab_engine::scenario::Scenario;
use delaylab_playground::per_load::PerLoad;
use delaylab_playground::visits::{Mark, Visits};
use delaylab_share::{looks_like_link, ViewOptions};
use leptos::prelude::*;
use web_sys::wasm_bindgen::JsValue;

use super::i18n::Lang;
use super::share::{self, Share};
use super::{AfterSeek, Ctx};

/// Whether a load is a new history entry or what the current one shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A user's choice (gallery, compare, an edit, Reset): Back comes back here.
    New,
    /// The current entry's own scenario: a link or the autosave opened at start, Back or
    /// Forward arriving.
    Same,
}

/// What an entry showed when it was left.
#[derive(Clone, Debug)]
pub struct Shown {
    id: String,
    scenario: Scenario,
    /// The user's inputs recorded into it (the autosave and the Undo note read them).
    recorded: u32,
    view: ViewOptions,
}

/// The user's work a load replaced: what the Undo note says.
#[derive(Clone, Debug, PartialEq)]
pub struct Replaced {
    old: String,
    new: String,
    inputs: u32,
}

/// What a load hands from before it to after it.
pub struct Leaving {
    shown: Option<Shown>,
    replaced: Option<(String, u32)>,
    entry: Entry,
    /// The new load's address fragment (`Ctx::fragment_for`).
    fragment: String,
}

#[derive(Clone, Copy)]
pub struct History {
    /// None while off: in an embed, and before [`start`] (the first load is the address's).
    visits: StoredValue<Option<Visits<Shown>>, LocalStorage>,
    /// The Undo note, for the load it was made under.
    note: RwSignal<PerLoad<Replaced>>,
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

fn browser_history() -> Option<web_sys::History> {
    web_sys::window().and_then(|w| w.history().ok())
}

/// This page's address with `fragment` (`#head-of-line-blocking`, or none).
fn address(fragment: &str) -> String {
    let path = web_sys::window()
        .map(|w| w.location())
        .map(|l| {
            format!(
                "{}{}",
                l.pathname().unwrap_or_default(),
                l.search().unwrap_or_default()
            )
        })
        .unwrap_or_default();
    format!("{path}{fragment}")
}

impl History {
    pub fn new() -> History {
        History {
            visits: StoredValue::new_local(None),
            note: RwSignal::new(PerLoad::default()),
        }
    }

    fn on(&self) -> bool {
        self.visits.with_value(Option::is_some)
    }

    /// Called by `Ctx::load_as` before the new scenario replaces the current one.
    pub fn leaving(&self, c: &Ctx, id: &str, fragment: String, entry: Entry) -> Leaving {
        if !self.on() || entry == Entry::Same {
            return Leaving {
                shown: None,
                replaced: None,
                entry,
                fragment,
            };
        }
        let shown = shown(c);
        // The user's own work: inputs recorded into the scenario, or an edited scenario.
        // An edit itself (a "custom" load) is the user's doing: Back undoes it, no note.
        let work = shown.recorded > 0 || shown.id == "custom";
        // Read once, not tracked: a load is an event, not a view.
        let replaced =
            (work && id != "custom").then(|| (untrack(|| c.meta_texts()).name, shown.recorded));
        Leaving {
            shown: Some(shown),
            replaced,
            entry,
            fragment,
        }
    }

    /// Called by `Ctx::load_as` once the new scenario is in: its history entry.
    pub fn arrived(&self, c: &Ctx, l: Leaving) {
        let Some(h) = browser_history().filter(|_| self.on()) else {
            return;
        };
        let url = address(&l.fragment);
        match (l.entry, l.shown) {
            (Entry::New, Some(shown)) => {
                let mark = self
                    .visits
                    .try_update_value(|v| {
                        let v = v.as_mut()?;
                        v.push(shown);
                        Some(v.mark(""))
                    })
                    .flatten();
                if let Some(m) = mark {
                    let _ = h.push_state_with_url(&JsValue::from_str(&m.encode()), "", Some(&url));
                }
            }
            _ => self.mark_current(&h, Some(&url), ""),
        }
        if let Some((old, inputs)) = l.replaced {
            let new = untrack(|| c.meta_texts()).name;
            let load = c.load_now();
            self.note
                .update(|n| n.set(load, Replaced { old, new, inputs }));
        }
    }

    /// Writes the current entry's mark (and, with `url`, its address).
    fn mark_current(&self, h: &web_sys::History, url: Option<&str>, link: &str) {
        if let Some(m) = self.visits.with_value(|v| v.as_ref().map(|v| v.mark(link))) {
            let _ = h.replace_state_with_url(&JsValue::from_str(&m.encode()), "", url);
        }
    }

    /// The autosave wrote `link` for the scenario shown: the current entry carries it,
    /// so Back to it after a reload (the kept states are gone) opens it from its link.
    pub fn remember_link(&self, link: &str) {
        if let Some(h) = browser_history().filter(|_| self.on()) {
            self.mark_current(&h, None, link);
        }
    }
}

/// What the page shows now, as an entry keeps it.
fn shown(c: &Ctx) -> Shown {
    let (scenario, recorded) = c.runner.with_value(|r| (r.scenario.clone(), r.recorded));
    Shown {
        id: c.preset.get_untracked(),
        scenario,
        recorded,
        view: share::current_view(c, false),
    }
}

/// Shows `s` again as it was left: scenario, recorded inputs, lanes, speed, time (paused).
fn restore(c: &Ctx, s: Shown) {
    c.load_as(&s.id, s.scenario, Entry::Same);
    c.runner.update_value(|r| r.recorded = s.recorded);
    if s.view.compare.is_empty() {
        c.cmp.stop();
    } else {
        let _ = c.cmp.start_lanes(c, &s.view.compare, false);
    }
    c.set_speed(s.view.speed.unwrap_or(1.0));
    // Its time, 0:00 included: what the user did at 0:00 (a publish) is shown done, as
    // it was when it was left, not pending until Play.
    let _ = c.seek(s.view.start_ms.unwrap_or(0), AfterSeek::Pause);
}

/// Back or Forward arrived at an entry (or an in-page anchor was followed).
fn on_pop(c: Ctx, sh: Share, ev: web_sys::PopStateEvent) {
    let hist = c.hist;
    let mark = ev.state().as_string().and_then(|s| Mark::decode(&s));
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    let hash = hash.trim_start_matches('#').to_string();
    let scenario_address = c.fragment_names_preset(&hash) || looks_like_link(&hash);
    let here = hist.visits.with_value(|v| v.as_ref().map(|v| v.mark("")));
    let same_entry =
        matches!((&mark, &here), (Some(m), Some(h)) if m.session == h.session && m.key == h.key);
    // An entry this page did not make whose address names no scenario is an in-page
    // anchor (the skip link, `#main`): the scenario stays. So does the entry shown now.
    if same_entry || (mark.is_none() && !scenario_address) {
        return;
    }
    let leaving = shown(&c);
    let found = hist
        .visits
        .try_update_value(|v| v.as_mut().and_then(|v| v.arrive(mark.as_ref(), leaving)))
        .flatten();
    if let Some(s) = found {
        return restore(&c, s);
    }
    // Not kept (the page was reloaded since, or an address was typed): the entry's
    // link, else its address.
    match mark.map(|m| m.link).filter(|l| !l.is_empty()) {
        Some(link) => share::open_link(c, sh, link),
        None if looks_like_link(&hash) => share::open_link(c, sh, hash),
        None => {
            if !c.load_address(&hash, Entry::Same) {
                c.load_preset_as("sandbox", None, Entry::Same);
            }
        }
    }
}

/// Turns history on (the full playground, once the address's own scenario is loaded):
/// marks the first entry and listens for Back and Forward.
pub fn start(c: Ctx) {
    let session = (web_sys::js_sys::Math::random() * f64::from(u32::MAX)) as u32;
    c.hist.visits.set_value(Some(Visits::new(session)));
    if let Some(h) = browser_history() {
        c.hist.mark_current(&h, None, "");
    }
    let sh = expect_context::<Share>();
    // The page lives as long as the listener: it is never removed.
    let _ = window_event_listener(leptos::ev::popstate, move |ev| on_pop(c, sh, ev));
}

fn tr(lang: Lang, key: &'static str) -> &'static str {
    let (en, zh) = match key {
        "undo" => ("Undo", "撤销"),
        "dismiss" => ("Dismiss", "关闭"),
        "back_too" => (
            "(the browser's Back does the same)",
            "(浏览器的“后退”也可以)",
        ),
        _ => (key, key),
    };
    if lang == Lang::Zh {
        zh
    } else {
        en
    }
}

fn note_text(lang: Lang, r: &Replaced) -> String {
    match (lang, r.inputs) {
        (Lang::En, 0) => format!("Loaded “{}” over your edited “{}”.", r.new, r.old),
        (Lang::En, 1) => format!(
            "Loaded “{}” over “{}” and the 1 thing you did in it.",
            r.new, r.old
        ),
        (Lang::En, n) => format!(
            "Loaded “{}” over “{}” and the {n} things you did in it.",
            r.new, r.old
        ),
        (Lang::Zh, 0) => format!("已载入“{}”,替换了你编辑过的“{}”。", r.new, r.old),
        (Lang::Zh, n) => format!(
            "已载入“{}”,替换了“{}”以及你在其中做的 {n} 项操作。",
            r.new, r.old
        ),
    }
}

/// The note a load that replaced the user's work shows, with Undo: fixed at the foot of
/// the window, so it is seen wherever the load was asked for (the compare panel is at
/// the foot of the page, the scenario it replaces at the top).
#[component]
pub fn UndoNote() -> impl IntoView {
    let c = expect_context::<Ctx>();
    let note = c.hist.note;
    let lang = move || c.lang.get();
    move || {
        note.with(|n| n.get(&c.load_rev.get()).cloned()).map(|r| {
            view! {
                <div class="undo-note" role="status" data-testid="undo-note">
                    <p>
                        <span data-testid="undo-text">{move || note_text(lang(), &r)}</span>
                        " "
                        <span class="muted">{move || tr(lang(), "back_too")}</span>
                    </p>
                    <button
                        class="primary small"
                        data-testid="undo"
                        on:click=move |_| {
                            note.update(PerLoad::clear);
                            if let Some(h) = browser_history() {
                                let _ = h.back();
                            }
                        }
                    >
                        {move || tr(lang(), "undo")}
                    </button>
                    <button
                        class="small"
                        data-testid="undo-dismiss"
                        aria-label=move || tr(lang(), "dismiss")
                        title=move || tr(lang(), "dismiss")
                        on:click=move |_| note.update(PerLoad::clear)
                    >
                        "×"
                    </button>
                </div>
            }
        })
    }
}
