//! The RabbitMQ version the scenario runs on (issue 12): a selector next to the scenario's
//! name, and the notes that say where each difference from 3.10 comes from.
//!
//! Everything here is the engine's (`delaylab_engine::version`): the list of versions,
//! their labels, whether a version was checked live, and its notes. A change of version is
//! a change of the scenario (`broker`), so it is loaded again from 0:00 as the JSON editor
//! loads an edited scenario, and goes into the share link and the autosave with it.

use std::rc::Rc;

use delaylab_engine::scenario::Scenario;
use delaylab_engine::version::impact::{self, Change};
use delaylab_engine::version::{notes, BrokerVersion};
use delaylab_playground::impact_words::{self, Why};
use leptos::prelude::*;

use super::Ctx;

/// What changes for the loaded scenario on the version it runs on: the engine's
/// impacts (`version::impact`), said by `impact_words`. The impacts are worked out where
/// the notice is drawn ([`VersionNotice`], in the page's first chunk): the engine's
/// impact rules and their words are not start-up code (issue 29 item 10), so the notice
/// keeps the scenario it is about, as it was loaded.
#[derive(Clone)]
pub struct Notice {
    pub why: Why,
    pub from: BrokerVersion,
    pub to: BrokerVersion,
    pub scenario: Rc<Scenario>,
}

impl Notice {
    /// A scenario that runs on a version it is not written for.
    pub fn off_version(s: &Scenario) -> Option<Notice> {
        impact::off_versions(s).map(|(from, to)| Notice {
            why: Why::WrittenFor,
            from,
            to,
            scenario: Rc::new(s.clone()),
        })
    }

    /// The selector moved `s` from `from` to its version now.
    pub fn switched(s: &Scenario, from: BrokerVersion) -> Notice {
        Notice {
            why: Why::Switched,
            from,
            to: s.broker_version(),
            scenario: Rc::new(s.clone()),
        }
    }
}

/// The version the loaded scenario names (its `broker`), following every load.
pub fn of_scenario(c: Ctx) -> Memo<BrokerVersion> {
    Memo::new(move |_| {
        c.preset.track();
        c.scenario_rev.track();
        c.runner.with_value(|r| r.scenario.broker_version())
    })
}

/// The version the node runs now: the scenario's, until an `upgrade` action brings it
/// back as another (the engine's profile, read as the run moves), so the selector and
/// the badge say 4.3 from the moment the node comes back as 4.3.
pub fn current(c: Ctx) -> Memo<BrokerVersion> {
    Memo::new(move |_| {
        c.preset.track();
        c.scenario_rev.track();
        c.rev.track();
        c.runner.with_value(|r| r.sim.profile().version)
    })
}

/// The `<select>` of versions; a change reloads the scenario on the chosen one.
#[component]
pub fn VersionPicker() -> impl IntoView {
    let c = expect_context::<Ctx>();
    let version = current(c);
    let named = of_scenario(c);
    let on_change = move |ev: web_sys::Event| {
        let Some(v) = BrokerVersion::parse(&event_target_value(&ev)) else {
            return;
        };
        // After an in-scenario upgrade the selector shows the node's version; picking
        // any version loads the scenario from 0:00 on it (its own one included).
        let from = named.get_untracked();
        if v == from && version.get_untracked() == from {
            return;
        }
        let id = c.preset.get_untracked();
        let untouched = id != "custom" && c.runner.with_value(|r| r.recorded == 0);
        if untouched {
            // The preset itself on that version: its name and the version in the address.
            c.load_on(&id, Some(v));
        } else {
            let mut s = c.runner.with_value(|r| r.scenario.clone());
            // 3.10 is what an absent `broker` means: keep old files and links as they were.
            s.broker = (v != BrokerVersion::default()).then_some(v);
            c.load_scenario("custom", s);
        }
        // Said for this scenario: what the switch changed for the objects it declares
        // (back to its own version after an upgrade: a restart, nothing to say).
        if v != from {
            let s = c.runner.with_value(|r| r.scenario.clone());
            c.notice.set(Some(Notice::switched(&s, from)));
        }
    };
    view! {
        <label class="version-picker" title=move || c.tr("ver_hint")>
            <span class="sr-only">{move || c.tr("ver_label")}</span>
            <select data-testid="broker-version" on:change=on_change>
                {BrokerVersion::ALL
                    .into_iter()
                    .map(|v| {
                        view! {
                            <option value=v.as_str() title=v.label() selected=move || version.get() == v>
                                {format!("RabbitMQ {}", v.as_str())}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </label>
    }
}

/// The notes of a version other than 3.10: each applied difference with its row, whether
/// it was seen on a live broker of this version or read in the source, its source and
/// how it is known (the note texts are the engine's, in English).
#[component]
pub fn VersionNotes(version: BrokerVersion) -> impl IntoView {
    let c = expect_context::<Ctx>();
    let intro = move || {
        if version.live_checked() {
            c.tr("ver_intro_live")
                .replace("{v}", version.patch_release())
        } else {
            c.tr("ver_intro").to_string()
        }
    };
    view! {
        <p>{intro}</p>
        <ul class="rules version-notes" data-testid="version-notes">
            {notes(version)
                .into_iter()
                .map(|n| {
                    let live = n.seen_live();
                    let how = move || {
                        if live {
                            format!("{} ({}, {})", c.tr("ver_seen_live"), version.patch_release(), n.checked_by)
                        } else {
                            format!("{} ({})", c.tr("ver_read_source"), n.confidence.as_str())
                        }
                    };
                    view! {
                        <li data-live=if live { "true" } else { "false" }>
                            <strong>{n.row}</strong>" "{n.text}" "
                            <span class="note-how" class:seen-live=live>{how}</span>" "
                            <span class="muted">
                                "(" {n.source}
                                {(!n.simulated).then(|| view! { "; " {move || c.tr("ver_not_simulated")} })}
                                ")"
                            </span>
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}

/// The notice: what changes for this scenario on the version it runs on, each
/// difference with the objects it touches, its row and its source (drawn from the page's
/// first chunk: chunks::version_notice).
#[component]
pub fn VersionNotice() -> impl IntoView {
    let c = expect_context::<Ctx>();
    move || {
        let lang = c.lang.get();
        c.notice.get().map(|n| {
            // Worked out here (again on a change of language: a few rows), not in a memo:
            // a memo's closure is called through a vtable, which the splitter keeps in the
            // start-up module with all it calls.
            let impacts = impact::impact(&n.scenario, n.from, n.to);
            let heading = impact_words::heading(lang, n.why, n.from, n.to, impacts.is_empty());
            let items = impacts
                .iter()
                .map(|i| {
                    let words = impact_words::words(lang, i, n.to);
                    let how = impact_words::how_known(lang, i, n.to);
                    // Words for people; the row and its source code stay one click away.
                    let source = impact_words::source(lang, i);
                    view! {
                        <li data-testid="notice-item" data-row=i.row>
                            {words} " " <span class="muted" data-testid="notice-how">"(" {how} ")"</span>
                            <details class="note-src">
                                <summary>{c.tr("source_detail")}</summary>
                                <span class="muted">{source}</span>
                            </details>
                        </li>
                    }
                })
                .collect_view();
            // The plugin cannot run on this version: what replaces it, side by side.
            let plugin_gone = impacts
                .iter()
                .any(|i| i.row == "D27" && matches!(i.change, Change::Refused { .. }));
            view! {
                <div class="version-notice" role="status" data-testid="version-notice" data-why=format!("{:?}", n.why)>
                    <p class="notice-head">
                        <span aria-hidden="true">"ⓘ "</span>
                        {heading}
                    </p>
                    <ul>{items}</ul>
                    {plugin_gone.then(|| view! { <crate::app::off_plugin::OffPluginLink /> })}
                </div>
            }
        })
    }
}
