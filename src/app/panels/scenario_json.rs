//! The scenario as JSON: what you did is written into it; edit it and load it.

use leptos::prelude::*;

use super::ctx;
use crate::app::for_load::ForLoad;

#[component]
pub fn ScenarioJson() -> impl IntoView {
    let c = ctx();
    view! {
        <section class="panel json-editor" aria-labelledby="json-h">
            <details>
                <summary id="json-h">{move || c.tr("json_editor")}</summary>
                // The editor is a chunk of its own (chunks.rs), fetched once the page works.
                <crate::app::deferred::Deferred load=crate::app::chunks::scenario_json />
            </details>
        </section>
    }
}

/// The folded panel's body: the scenario as JSON, load and reset.
#[component]
pub fn ScenarioJsonBody() -> impl IntoView {
    use delaylab_engine::scenario::{load_str, save::to_string_pretty};
    let c = ctx();
    // The scenario as it is now: a new load, or a user input recorded into it.
    let current = Memo::new(move |_| {
        let _ = (c.load_rev.get(), c.scenario_rev.get());
        c.runner.with_value(|r| to_string_pretty(&r.scenario))
    });
    // The user's own edits (not yet loaded) hold for this scenario over `current`; a new
    // scenario always shows.
    let text = ForLoad::<String>::new(c, current);
    let error = ForLoad::<Option<String>>::empty(c);
    let fill = move || {
        text.clear();
        error.clear();
    };
    let apply = move || match load_str(&text.get_untracked()) {
        Ok(s) => {
            error.set(None);
            c.load_scenario("custom", s);
        }
        Err(e) => {
            let at = match (e.line, e.column) {
                (Some(l), Some(col)) => format!("{} {l}, {} {col}: ", c.tr("line"), c.tr("column")),
                _ => String::new(),
            };
            error.set(Some(format!("{at}{}: {}", e.path, e.message)));
        }
    };
    view! {
        <p class="hint">{move || c.tr("json_hint")}</p>
        <textarea
            class="json-text"
            data-testid="scenario-json"
            rows="16"
            spellcheck="false"
            aria-labelledby="json-h"
            prop:value=move || text.get()
            on:input=move |ev| text.set(event_target_value(&ev))
        ></textarea>
        <div class="json-actions">
            <button class="primary" data-testid="json-load" on:click=move |_| apply()>{move || c.tr("json_load")}</button>
            <button on:click=move |_| fill()>{move || c.tr("json_reset")}</button>
        </div>
        <p class="form-error" role="alert" data-testid="json-error">{move || error.get().map(|e| format!("⚠ {e}"))}</p>
    }
}
