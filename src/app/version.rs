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

/// The notes of a version that is not checked live: each applied difference with its
/// row, its source and how it is known (the note texts are the engine's, in English).
#[component]
pub fn VersionNotes(version: BrokerVersion) -> impl IntoView {
    let c = expect_context::<Ctx>();
    view! {
        <p>{move || c.tr("ver_intro")}</p>
        <ul class="rules version-notes" data-testid="version-notes">
            {notes(version)
                .into_iter()
                .map(|n| {
                    view! {
                        <li>
                            <strong>{n.row}</strong>" "{n.text}" "
                            <span class="muted">
                                "(" {n.confidence.as_str()} "; " {n.source}
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
