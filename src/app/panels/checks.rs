//! The Checks panel: each of the scenario's `checks` with its label and where it stands
//! as the clock moves (pending; passed at T; failed at T with what was seen beside what
//! was expected), from the current run only: a restart, a seek back or a load starts
//! them again; a publish or an edit is evaluated as it happens. A failed check about a
//! message opens that message in the inspector (its story). The view model is
//! `delaylab_playground::checks_view`, the evaluation `checks_run` (fed by the runner).

use delaylab_engine::checks::Status;
use delaylab_playground::checks_view::{CheckRow, ChecksView};
use leptos::prelude::*;

use super::ctx;

/// An example a scenario without checks is shown (JSON editor syntax).
const EXAMPLE: &str =
    r#""checks": [{"label": "B is closed by 6:00", "delivered": {"body": "B", "by": "6m"}}]"#;

fn mark(s: Status) -> &'static str {
    match s {
        Status::Pending => "…",
        Status::Passed => "✓",
        Status::Failed => "✗",
        Status::Undecided => "?",
    }
}

/// Brings the inspector (the story of the message just selected) into view.
fn show_inspector() {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("insp-h"))
    {
        el.scroll_into_view();
    }
}

#[component]
fn Row(row: CheckRow) -> impl IntoView {
    let c = ctx();
    let status = row.status.as_str();
    // Not expected on this version: neither green nor red, "expected on 4.0–4.2 · on 4.3:
    // what this run saw". A failure check that passed: the failure, reproduced.
    let (class, icon) = match (&row.elsewhere, row.failure, row.status) {
        (Some(_), _, _) => ("elsewhere".to_string(), "◇"),
        (None, true, Status::Passed) => ("reproduced".to_string(), "⚑"),
        _ => (status.to_string(), mark(row.status)),
    };
    let elsewhere = row.elsewhere.clone();
    let expected = if elsewhere.is_some() {
        "elsewhere"
    } else {
        "here"
    };
    let differs = row.differs.clone();
    view! {
        <li
            class=format!("check-row st-{class}")
            data-testid="check"
            data-status=status
            data-expected=expected
            data-failure=if row.failure { "true" } else { "false" }
            data-id=row.id.clone()
        >
            <p class="check-head">
                <span class="check-mark" aria-hidden="true">{icon}</span>
                <span class="check-label" data-testid="check-label">{row.label.clone()}</span>
                <span class="check-state" data-testid="check-state">{row.state.clone()}</span>
            </p>
            {elsewhere.map(|e| view! {
                <p class="check-elsewhere" data-testid="check-elsewhere">{e}</p>
            })}
            {(!differs.is_empty()).then(|| view! {
                <ul class="check-differs" data-testid="check-differs">
                    {differs.into_iter().map(|d| view! { <li>{d}</li> }).collect_view()}
                </ul>
            })}
            <p class="check-detail">
                {row.seen.clone().map(|s| view! {
                    <span class="check-seen" data-testid="check-seen">{move || c.tr("check_seen")}" "<b>{s}</b></span>
                })}
                <span class="check-expected" data-testid="check-expected">{move || c.tr("check_expected")}" "{row.expected.clone()}</span>
                {row.why.clone().map(|w| view! { <span class="check-why">{w}</span> })}
            </p>
            {row.msg.clone().map(|(id, body)| view! {
                <button
                    class="small check-story"
                    data-testid="check-story"
                    on:click=move |_| {
                        c.selected.set(Some(id));
                        show_inspector();
                    }
                >
                    {move || c.tr("check_story")}" #"{id}" "{body.clone()}
                </button>
            })}
        </li>
    }
}

#[component]
pub fn Checks() -> impl IntoView {
    let c = ctx();
    // Rebuilt when the run moves (rev: events, or a check the clock settled) or the
    // language changes; drawn only when it differs.
    let model = Memo::new(move |_| {
        let _ = c.rev.get();
        let lang = c.lang.get();
        c.runner.with_value(|r| ChecksView::of(&r.checks, lang))
    });
    // Editing them is the playground's, not an embed's.
    let tools =
        (!crate::app::embed::requested()).then(|| view! { <crate::app::check_edit::CheckTools /> });
    view! {
        <section class="panel checks" aria-labelledby="checks-h" data-testid="checks">
            <h2 id="checks-h">{move || c.tr("checks")}</h2>
            {move || {
                let v = model.get();
                if v.rows.is_empty() {
                    return view! {
                        // Shown in an embed too (where `.hint`s are not); how to add some is
                        // for the playground's JSON editor.
                        <p class="muted check-none" data-testid="checks-none">{move || c.tr("checks_none")}</p>
                        <p class="hint">{move || c.tr("checks_how")}</p>
                        <pre class="json check-example hint">{EXAMPLE}</pre>
                    }
                    .into_any();
                }
                let lang = c.lang.get_untracked();
                view! {
                    <p class="hint">{move || c.tr("checks_hint")}</p>
                    <p class="check-summary" role="status" data-testid="checks-summary">
                        {v.summary(lang)}
                        {v.finished.then(|| view! { " · "{move || c.tr("checks_final")} })}
                    </p>
                    {v.no_end.then(|| view! { <p class="hint">{move || c.tr("checks_no_end")}</p> })}
                    <ol class="check-list">
                        {v.rows.into_iter().map(|row| view! { <Row row /> }).collect_view()}
                    </ol>
                }
                .into_any()
            }}
            {tools}
        </section>
    }
}
