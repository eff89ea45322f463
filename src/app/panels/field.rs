//! The gallery's "From the field" section: each reported failure with its project, date
//! and threads, what users saw, the broker rule in words, and two buttons: replay the
//! failure, open the fix. The entries are `delaylab_playground::field`'s; this view only
//! lays them out (mounted through `chunks::field_area`, below the first screen's list).

use leptos::prelude::*;

use super::ctx;
use crate::app::FIELD_TEXTS;
use delaylab_playground::field::{entries, FieldEntry};

/// A reported failure's English (what users saw, the rule): a table build.rs writes apart
/// from the gallery entries, read here only, so that it is in this section's chunk.
fn field_texts(id: &str) -> Option<(&'static str, &'static str)> {
    FIELD_TEXTS
        .iter()
        .find(|t| t.0 == id)
        .map(|&(_, saw, rule)| (saw, rule))
}

#[component]
pub fn FieldSection() -> impl IntoView {
    let c = ctx();
    let list = move || {
        c.presets
            .with_value(|ps| entries(c.lang.get(), ps, field_texts))
    };
    view! {
        <section class="field" aria-labelledby="field-h" data-testid="field">
            <h2 id="field-h">{move || c.tr("field_h")}</h2>
            <p class="hint">{move || c.tr("field_hint")}</p>
            <ul class="field-list">
                <For each=list key=|e: &FieldEntry| (e.id.clone(), e.name.clone()) let:e>
                    <FieldCard e />
                </For>
            </ul>
        </section>
    }
}

#[component]
fn FieldCard(e: FieldEntry) -> impl IntoView {
    let c = ctx();
    let (id, fix) = (e.id.clone(), e.fix.clone());
    let current = {
        let (id, fix) = (e.id.clone(), e.fix.clone());
        move || {
            let p = c.preset.get();
            p == id || fix.as_ref().is_some_and(|(f, _)| *f == p)
        }
    };
    let versions = e
        .versions
        .iter()
        .map(|v| v.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let heading = format!("field-{}-h", e.id);
    let heading_ref = heading.clone();
    view! {
        <li class="field-entry" data-testid=format!("field-{}", e.id) class:current=current>
            <article aria-labelledby=heading_ref>
                <h3 id=heading>{e.name.clone()}</h3>
                <p class="field-meta">
                    <span class="field-project">{e.project.clone()}</span>
                    " · "{move || c.tr("field_reported")}" "<time datetime=e.date.clone()>{e.date.clone()}</time>
                    " · "{move || c.tr("field_on")}" "{versions}
                </p>
                <p class="field-saw"><strong>{move || c.tr("field_saw")}": "</strong>{e.saw.clone()}</p>
                <p class="field-rule"><strong>{move || c.tr("field_rule")}": "</strong>{e.rule.clone()}</p>
                <p class="field-links" aria-label=move || c.tr("field_threads")>
                    {e.links.iter().map(|(href, label)| view! {
                        <a href=href.clone() target="_blank" rel="noopener noreferrer">{label.clone()}</a>
                    }).collect_view()}
                </p>
                <div class="field-actions">
                    <button
                        class="field-replay"
                        data-testid=format!("field-replay-{id}")
                        on:click={let id = id.clone(); move |_| c.load(&id)}
                    >
                        {move || c.tr("field_replay")}
                    </button>
                    {fix.map(|(fix_id, fix_name)| view! {
                        <button
                            class="field-fix"
                            data-testid=format!("field-fix-{id}")
                            title=fix_name
                            on:click=move |_| c.load(&fix_id)
                        >
                            {move || c.tr("field_fix")}
                        </button>
                    })}
                </div>
            </article>
        </li>
    }
}
