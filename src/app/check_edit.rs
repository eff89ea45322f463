//! Editing the scenario's checks without writing JSON by hand (under the Checks panel):
//! a form that adds one of the common checks (`delaylab_playground::check_form`), and a
//! roomy editor of the `checks` list as JSON (a wide dialog, monospaced) whose errors
//! stand at their line and column (the loader's JSON path, found in the text by
//! `delaylab_playground::json_at`), the caret put there. Either writes the checks into
//! the scenario as any edit does (`Ctx::load_scenario`: a history entry, so Undo and
//! Back; the autosave; the share link) and the run starts again from 0:00.

use delaylab_engine::scenario::load::{load_value, LoadError};
use delaylab_engine::scenario::save::to_value;
use delaylab_engine::scenario::Scenario;
use delaylab_playground::check_form::{
    field_of, with_check, CheckForm, Field, FormError, Kind, BOUNDS, COUNT_OF,
};
use delaylab_playground::i18n::Lang;
use delaylab_playground::json_at;
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsCast;

use super::Ctx;

const DIALOG_ID: &str = "checks-json-dialog";
const TEXT_ID: &str = "checks-json-text";

/// The scenario as it is now, as JSON.
fn scenario_value(c: Ctx) -> Value {
    c.runner.with_value(|r| to_value(&r.scenario))
}

/// Loads `v` as an edit (Undo brings back what was there).
fn load_edit(c: Ctx, v: &Value) -> Result<(), LoadError> {
    let s: Scenario = load_value(v)?;
    c.load_scenario("custom", s);
    Ok(())
}

#[component]
pub fn CheckTools() -> impl IntoView {
    view! {
        <div class="check-tools" data-testid="check-tools">
            <AddCheck />
            <ChecksJson />
        </div>
    }
}

/// The "Add a check" form.
#[component]
fn AddCheck() -> impl IntoView {
    let c = expect_context::<Ctx>();
    let form = RwSignal::new(CheckForm::default());
    let problem = RwSignal::new(None::<FormError>);
    let added = RwSignal::new(false);
    let add = move || {
        added.set(false);
        let lang = c.lang.get_untracked();
        let f = form.get_untracked();
        let spec = match f.spec(lang) {
            Ok(s) => s,
            Err(e) => return problem.set(Some(e)),
        };
        match load_edit(c, &with_check(scenario_value(c), spec)) {
            Ok(()) => {
                problem.set(None);
                added.set(true);
                form.set(CheckForm {
                    kind: f.kind,
                    ..CheckForm::default()
                });
            }
            Err(e) => problem.set(Some(FormError {
                field: field_of(&e.path),
                text: format!("{}: {}", e.path, e.message),
            })),
        }
    };
    let tr = move |k: &'static str| c.tr(k);
    let err_at = move |field: Field| {
        move || {
            problem
                .get()
                .filter(|p| p.field == field)
                .map(|p| view! { <p class="form-error" role="alert" data-testid="check-form-error">{format!("⚠ {}", p.text)}</p> })
        }
    };
    let shows = move |field: Field| move || form.with(|f| f.kind.uses(field));
    let text_box = move |field: Field,
                         key: &'static str,
                         testid: &'static str,
                         get: fn(&CheckForm) -> String,
                         set: fn(&mut CheckForm, String)| {
        let id = format!("cf-{testid}");
        view! {
            <div class="field" class:hidden=move || !shows(field)()>
                <label for=id.clone()>{move || tr(key)}</label>
                <input
                    id=id
                    data-testid=format!("cf-{testid}")
                    autocomplete="off"
                    prop:value=move || form.with(get)
                    on:input=move |ev| form.update(|f| set(f, event_target_value(&ev)))
                />
                {err_at(field)}
            </div>
        }
    };
    view! {
        <details class="check-add" data-testid="check-add">
            <summary>{move || tr("cf_add")}</summary>
            <form
                class="check-form"
                on:submit=move |ev| {
                    ev.prevent_default();
                    add();
                }
            >
                <div class="field">
                    <label for="cf-kind">{move || tr("cf_kind")}</label>
                    <select
                        id="cf-kind"
                        data-testid="cf-kind"
                        on:change=move |ev| {
                            if let Some(k) = Kind::of(&event_target_value(&ev)) {
                                form.update(|f| f.kind = k);
                                problem.set(None);
                            }
                        }
                    >
                        {Kind::ALL.into_iter().map(|k| view! {
                            <option value=k.as_str() selected=move || form.with(|f| f.kind == k)>
                                {move || tr(match k {
                                    Kind::DeliveredBy => "cf_k_delivered",
                                    Kind::NeverDropped => "cf_k_dropped",
                                    Kind::Order => "cf_k_order",
                                    Kind::Count => "cf_k_count",
                                })}
                            </option>
                        }).collect_view()}
                    </select>
                </div>
                {text_box(Field::Body, "cf_body", "body", |f| f.body.clone(), |f, v| f.body = v)}
                {text_box(Field::Bodies, "cf_bodies", "bodies", |f| f.bodies.clone(), |f, v| f.bodies = v)}
                {text_box(Field::By, "cf_by", "by", |f| f.by.clone(), |f, v| f.by = v)}
                <div class="field" class:hidden=move || !shows(Field::Of)()>
                    <label for="cf-of">{move || tr("cf_of")}</label>
                    <select id="cf-of" data-testid="cf-of" on:change=move |ev| form.update(|f| f.of = event_target_value(&ev))>
                        {COUNT_OF.into_iter().map(|o| view! { <option value=o selected=move || form.with(|f| f.of == o)>{o}</option> }).collect_view()}
                    </select>
                </div>
                <div class="field" class:hidden=move || !shows(Field::Bound)()>
                    <label for="cf-bound">{move || tr("cf_bound")}</label>
                    <select id="cf-bound" data-testid="cf-bound" on:change=move |ev| form.update(|f| f.bound = event_target_value(&ev))>
                        {BOUNDS.into_iter().map(|o| view! { <option value=o selected=move || form.with(|f| f.bound == o)>{o}</option> }).collect_view()}
                    </select>
                </div>
                {text_box(Field::Count, "cf_count", "count", |f| f.count.clone(), |f, v| f.count = v)}
                {text_box(Field::Queue, "cf_queue", "queue", |f| f.queue.clone(), |f, v| f.queue = v)}
                {text_box(Field::Label, "cf_label", "label", |f| f.label.clone(), |f, v| f.label = v)}
                <p class="hint">{move || {
                    let lang = c.lang.get();
                    format!("{} {}", tr("cf_label_default"), form.with(|f| f.label_or_default(lang)))
                }}</p>
                <button type="submit" class="primary" data-testid="cf-add">{move || tr("cf_add_btn")}</button>
                <p class="hint" role="status">{move || added.get().then(|| tr("cf_added"))}</p>
            </form>
        </details>
    }
}

fn dialog() -> Option<web_sys::HtmlDialogElement> {
    web_sys::window()?
        .document()?
        .get_element_by_id(DIALOG_ID)?
        .dyn_into()
        .ok()
}

/// Puts the caret at a line and column of the editor's text.
fn caret_at(text: &str, line: usize, col: usize) {
    let Some(area) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(TEXT_ID))
        .and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
    else {
        return;
    };
    // The textarea counts UTF-16 units.
    let off = json_at::offset_of(text, line, col);
    let units = text[..off].encode_utf16().count() as u32;
    let _ = area.focus();
    let _ = area.set_selection_range(units, units);
}

/// The checks list as JSON in a roomy dialog.
#[component]
fn ChecksJson() -> impl IntoView {
    let c = expect_context::<Ctx>();
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<(usize, usize, String)>);
    let open = move || {
        let checks = scenario_value(c)
            .get("checks")
            .cloned()
            .unwrap_or(Value::Array(vec![]));
        text.set(serde_json::to_string_pretty(&checks).unwrap_or_default());
        error.set(None);
        if let Some(d) = dialog() {
            let _ = d.show_modal();
        }
    };
    let close = move || {
        if let Some(d) = dialog() {
            d.close();
        }
    };
    let apply = move || {
        let t = text.get_untracked();
        let lang = c.lang.get_untracked();
        let problem = match serde_json::from_str::<Value>(&t) {
            Err(e) => Some((e.line().max(1), e.column().max(1), e.to_string())),
            Ok(Value::Array(checks)) => {
                let mut v = scenario_value(c);
                if let Value::Object(m) = &mut v {
                    if checks.is_empty() {
                        m.remove("checks");
                    } else {
                        m.insert("checks".into(), Value::Array(checks));
                    }
                }
                match load_edit(c, &v) {
                    Ok(()) => None,
                    Err(e) => {
                        let inner = e.path.strip_prefix("checks").unwrap_or("$");
                        let (l, col) = json_at::locate(&t, inner);
                        Some((l, col, format!("{}: {}", e.path, e.message)))
                    }
                }
            }
            Ok(_) => Some((1, 1, c.tr("cj_not_list").to_string())),
        };
        match problem {
            None => {
                error.set(None);
                close();
            }
            Some((l, col, msg)) => {
                caret_at(&t, l, col);
                let at = if lang == Lang::Zh {
                    format!("第 {l} 行,第 {col} 列:")
                } else {
                    format!("line {l}, column {col}: ")
                };
                error.set(Some((l, col, format!("{at}{msg}"))));
            }
        }
    };
    view! {
        <button type="button" class="small" data-testid="checks-json-open" on:click=move |_| open()>
            {move || c.tr("cj_open")}
        </button>
        <dialog id=DIALOG_ID class="checks-dialog" data-testid="checks-json" aria-labelledby="cj-h">
            <form method="dialog" class="cj-form" on:submit=move |ev| ev.prevent_default()>
                <h2 id="cj-h">{move || c.tr("cj_title")}</h2>
                <p class="hint">{move || c.tr("cj_hint")}</p>
                <textarea
                    id=TEXT_ID
                    class="cj-text"
                    data-testid="checks-json-text"
                    spellcheck="false"
                    rows="22"
                    wrap="off"
                    aria-labelledby="cj-h"
                    aria-describedby="cj-error"
                    aria-invalid=move || if error.with(Option::is_some) { "true" } else { "false" }
                    prop:value=move || text.get()
                    on:input=move |ev| text.set(event_target_value(&ev))
                ></textarea>
                <p id="cj-error" class="form-error" role="alert" data-testid="checks-json-error">
                    {move || error.get().map(|(_, _, m)| format!("⚠ {m}"))}
                </p>
                <div class="cj-actions">
                    <button type="button" class="primary" data-testid="checks-json-apply" on:click=move |_| apply()>{move || c.tr("cj_apply")}</button>
                    <button type="button" data-testid="checks-json-cancel" on:click=move |_| close()>{move || c.tr("cj_cancel")}</button>
                </div>
            </form>
        </dialog>
    }
}
