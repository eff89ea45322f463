//! The scenario as JSON: what you did is written into it; edit it and load it.

use leptos::prelude::*;

use super::ctx;

#[component]
pub fn ScenarioJson() -> impl IntoView {
    use delaylab_engine::scenario::{load_str, save::to_string_pretty};
    let c = ctx();
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    // True while the text holds the user's own edits (not yet loaded).
    let edited = StoredValue::new(false);
    let fill = move || {
        text.set(c.runner.with_value(|r| to_string_pretty(&r.scenario)));
        error.set(None);
        edited.set_value(false);
    };
    // A new scenario always shows; a user input recorded into the same scenario shows
    // unless it would overwrite the user's own edits.
    Effect::new(move |prev: Option<String>| {
        let preset = c.preset.get();
        let _ = c.scenario_rev.get();
        if prev.as_ref() != Some(&preset) || !edited.get_value() {
            fill();
        }
        preset
    });
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
        <section class="panel json-editor" aria-labelledby="json-h">
            <details>
                <summary id="json-h">{move || c.tr("json_editor")}</summary>
                <p class="hint">{move || c.tr("json_hint")}</p>
                <textarea
                    class="json-text"
                    data-testid="scenario-json"
                    rows="16"
                    spellcheck="false"
                    aria-labelledby="json-h"
                    prop:value=move || text.get()
                    on:input=move |ev| {
                        edited.set_value(true);
                        text.set(event_target_value(&ev));
                    }
                ></textarea>
                <div class="json-actions">
                    <button class="primary" data-testid="json-load" on:click=move |_| apply()>{move || c.tr("json_load")}</button>
                    <button on:click=move |_| fill()>{move || c.tr("json_reset")}</button>
                </div>
                <p class="form-error" role="alert" data-testid="json-error">{move || error.get().map(|e| format!("⚠ {e}"))}</p>
            </details>
        </section>
    }
}
