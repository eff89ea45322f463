//! The "Add a queue" form: name, type (classic / quorum), durable, auto-delete,
//! exclusive, the delay-related `x-` arguments, and free arguments (key, type, value).
//! Judged by the engine's `queue.declare` (see `edit.rs`): `x-message-ttl -1`,
//! `x-overflow bogus` or quorum + exclusive get RabbitMQ's 406 at their field.

use delaylab_engine::scenario::Declare;
use leptos::prelude::*;

use super::edit::{
    apply, extra_args, tx, ExtraArgs, FieldError, Flags, FormOk, Outcome, Row, TextField,
};
use super::edit_rules::{self, QUEUE_ARGS};
use super::Ctx;

/// Unit hints of the argument boxes, same order as `QUEUE_ARGS`.
const HINTS: [&str; 8] = ["ms", "", "", "", "", "", "ms", ""];

#[component]
pub fn QueueForm() -> impl IntoView {
    let c = expect_context::<Ctx>();
    let out: Outcome = RwSignal::new(None);
    let name = RwSignal::new("my.queue".to_string());
    let quorum = RwSignal::new(false);
    let durable = RwSignal::new(true);
    let auto_delete = RwSignal::new(false);
    let exclusive = RwSignal::new(false);
    let args: [RwSignal<String>; 8] = std::array::from_fn(|_| RwSignal::new(String::new()));
    let rows = RwSignal::new(Vec::<Row>::new());
    let submit = move || {
        let form = edit_rules::QueueForm {
            name: name.get_untracked(),
            quorum: quorum.get_untracked(),
            durable: durable.get_untracked(),
            auto_delete: auto_delete.get_untracked(),
            exclusive: exclusive.get_untracked(),
            args: args.map(|a| a.get_untracked()),
            extra: extra_args(rows),
        };
        apply(c, out, |s| edit_rules::add(s, Declare::Queue(form.def()?)));
    };
    view! {
        <details class="edit-part">
            <summary data-testid="edit-queue-open">{move || tx(c.lang.get(), "add_queue")}</summary>
            <form class="form" data-testid="edit-queue-form" on:submit=move |ev| { ev.prevent_default(); submit(); }>
                <TextField form="q" label="name" field="name" value=name out />
                <label>
                    <span>{move || tx(c.lang.get(), "type")} " " <small>"(x-queue-type)"</small></span>
                    <select
                        data-testid="q-type"
                        prop:value=move || if quorum.get() { "quorum" } else { "classic" }
                        on:change=move |ev| quorum.set(event_target_value(&ev) == "quorum")
                    >
                        <option value="classic">"classic"</option>
                        <option value="quorum">"quorum"</option>
                    </select>
                </label>
                <FieldError out field="x-queue-type" />
                <Flags form="q" durable auto_delete third="exclusive" third_value=exclusive out />
                {QUEUE_ARGS
                    .into_iter()
                    .zip(args)
                    .zip(HINTS)
                    .map(|((key, value), hint)| {
                        let list = if key == "x-overflow" { "overflow-list" } else { "" };
                        view! { <TextField form="q" label=key field=key value out hint list /> }
                    })
                    .collect_view()}
                <datalist id="overflow-list">
                    <option value="drop-head" />
                    <option value="reject-publish" />
                    <option value="reject-publish-dlx" />
                </datalist>
                <ExtraArgs rows prefix="q" out />
                <button type="submit" class="primary" data-testid="edit-queue-add">{move || tx(c.lang.get(), "add")}</button>
                <FormOk out />
            </form>
        </details>
    }
}
