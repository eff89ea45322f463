//! The "Add an exchange" form: name, type (with `x-delayed-type` for the delayed-message
//! plugin's `x-delayed-message`), durable, auto-delete, internal, alternate-exchange.
//! Judged by the engine's `exchange.declare` (see `edit.rs`).

use delaylab_engine::amqp::exchange_args::DELAYED_TYPE;
use delaylab_engine::scenario::Declare;
use leptos::prelude::*;

use super::edit::{apply, tx, FieldError, Flags, FormOk, Outcome, TextField};
use super::edit_rules;
use super::Ctx;

static TYPES: [&str; 5] = ["direct", "fanout", "topic", "headers", DELAYED_TYPE];

#[component]
pub fn ExchangeForm() -> impl IntoView {
    let c = expect_context::<Ctx>();
    let out: Outcome = RwSignal::new(None);
    let name = RwSignal::new("my.exchange".to_string());
    let kind = RwSignal::new("direct".to_string());
    let delayed_type = RwSignal::new("direct".to_string());
    let durable = RwSignal::new(true);
    let auto_delete = RwSignal::new(false);
    let internal = RwSignal::new(false);
    let alternate = RwSignal::new(String::new());
    let submit = move || {
        let form = edit_rules::ExchangeForm {
            name: name.get_untracked(),
            kind: kind.get_untracked(),
            delayed_type: delayed_type.get_untracked(),
            durable: durable.get_untracked(),
            auto_delete: auto_delete.get_untracked(),
            internal: internal.get_untracked(),
            alternate_exchange: alternate.get_untracked(),
        };
        apply(c, out, |s| {
            edit_rules::add(s, Declare::Exchange(form.def()?))
        });
    };
    let select = move |field: &'static str,
                       value: RwSignal<String>,
                       options: &'static [&'static str]| {
        view! {
            <select
                data-testid=format!("ex-{field}")
                prop:value=move || value.get()
                on:change=move |ev| value.set(event_target_value(&ev))
            >
                {options.iter().map(|t| view! { <option value=*t selected=move || value.get() == *t>{*t}</option> }).collect_view()}
            </select>
        }
    };
    view! {
        <details class="edit-part">
            <summary data-testid="edit-exchange-open">{move || tx(c.lang.get(), "add_exchange")}</summary>
            <form class="form" data-testid="edit-exchange-form" on:submit=move |ev| { ev.prevent_default(); submit(); }>
                <TextField form="ex" label="name" field="name" value=name out />
                <label>
                    <span>{move || tx(c.lang.get(), "type")}</span>
                    {select("type", kind, &TYPES)}
                </label>
                <FieldError out field="type" />
                <Show when=move || kind.get() == DELAYED_TYPE>
                    <label>
                        <span>"x-delayed-type"</span>
                        {select("x-delayed-type", delayed_type, &TYPES[..4])}
                    </label>
                </Show>
                <FieldError out field="x-delayed-type" />
                <Flags form="ex" durable auto_delete third="internal" third_value=internal out />
                <TextField form="ex" label="alternate-exchange" field="alternate-exchange" value=alternate out />
                <button type="submit" class="primary" data-testid="edit-exchange-add">{move || tx(c.lang.get(), "add")}</button>
                <FormOk out />
            </form>
        </details>
    }
}
