//! The RabbitMQ version the scenario runs on (issue 12): a selector next to the scenario's
//! name, and the notes that say where each difference from 3.10 comes from.
//!
//! Everything here is the engine's (`delaylab_engine::version`): the list of versions,
//! their labels, whether a version was checked live, and its notes. A change of version is
//! a change of the scenario (`broker`), so it is loaded again from 0:00 as the JSON editor
//! loads an edited scenario, and goes into the share link and the autosave with it.

use delaylab_engine::version::{notes, BrokerVersion};
use leptos::prelude::*;

use super::Ctx;

/// The version of the loaded scenario, following every load.
pub fn current(c: Ctx) -> Memo<BrokerVersion> {
    Memo::new(move |_| {
        c.preset.track();
        c.scenario_rev.track();
        c.runner.with_value(|r| r.scenario.broker_version())
    })
}

/// The `<select>` of versions; a change reloads the scenario on the chosen one.
#[component]
pub fn VersionPicker() -> impl IntoView {
    let c = expect_context::<Ctx>();
    let version = current(c);
    let on_change = move |ev: web_sys::Event| {
        let Some(v) = BrokerVersion::parse(&event_target_value(&ev)) else {
            return;
        };
        if v == version.get_untracked() {
            return;
        }
        let mut s = c.runner.with_value(|r| r.scenario.clone());
        // 3.10 is what an absent `broker` means: keep old files and links as they were.
        s.broker = (v != BrokerVersion::default()).then_some(v);
        c.load_scenario("custom", s);
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

/// The badge's words for `v`: "Checked against a live RabbitMQ 4.3.6" for a version the
/// conformance suite runs on live (`BrokerVersion::live_checked`), else where its rules
/// come from.
pub fn badge_text(c: Ctx, v: BrokerVersion) -> String {
    if v.live_checked() {
        c.tr("ver_badge_live").replace("{v}", v.patch_release())
    } else {
        format!("{}: {}", v.label(), c.tr("ver_badge"))
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
