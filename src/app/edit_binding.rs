//! The "Add a binding" form: source exchange, destination (a queue or an exchange),
//! routing key, and arguments (`x-match` and the headers a headers exchange compares).
//! Judged by the engine's `queue.bind` / `exchange.bind` (404 for a missing end, 406
//! for a bad `x-match`; see `edit.rs`).

use delaylab_engine::scenario::Declare;
use leptos::prelude::*;

use super::edit::{
    apply, extra_args, tx, ExtraArgs, FieldError, FormOk, Outcome, Row, TextField, TextValue,
};
use super::edit_rules;
use super::for_load::ForLoad;
use super::Ctx;

/// RabbitMQ's predeclared exchanges a binding can start from (not the default one).
const BUILTINS: [&str; 5] = [
    "amq.direct",
    "amq.fanout",
    "amq.topic",
    "amq.headers",
    "amq.match",
];

#[component]
pub fn BindingForm() -> impl IntoView {
    let c = expect_context::<Ctx>();
    let out: Outcome = RwSignal::new(None);
    let to_exchange = RwSignal::new(false);
    let routing_key = RwSignal::new(String::new());
    let x_match = RwSignal::new(String::new());
    let rows = RwSignal::new(Vec::<Row>::new());
    let names = Memo::new(move |_| {
        let _ = c.load_rev.get();
        c.runner.with_value(|r| {
            let t = &r.scenario.topology;
            let xs: Vec<String> = t
                .exchanges
                .iter()
                .map(|x| x.name.clone())
                .chain(BUILTINS.iter().map(|s| s.to_string()))
                .collect();
            let qs: Vec<String> = t.queues.iter().map(|q| q.name.clone()).collect();
            (xs, qs)
        })
    });
    // The user's ends for this scenario; a new one suggests its first exchange and queue.
    let first = |queues: bool| {
        let m = Memo::new(move |_| {
            names.with(|(xs, qs)| {
                let list = if queues { qs } else { xs };
                list.first().cloned().unwrap_or_default()
            })
        });
        TextValue::from(ForLoad::<String>::new(c, m))
    };
    let source = first(false);
    let destination = first(true);
    let submit = move || {
        let form = edit_rules::BindingForm {
            source: source.get_untracked().trim().to_string(),
            destination: destination.get_untracked().trim().to_string(),
            to_exchange: to_exchange.get_untracked(),
            routing_key: routing_key.get_untracked(),
            x_match: x_match.get_untracked(),
            extra: extra_args(rows),
        };
        apply(c, out, |s| {
            edit_rules::add(s, Declare::Binding(form.def()?))
        });
    };
    view! {
        <details class="edit-part">
            <summary data-testid="edit-binding-open">{move || tx(c.lang.get(), "add_binding")}</summary>
            <form class="form" data-testid="edit-binding-form" on:submit=move |ev| { ev.prevent_default(); submit(); }>
                <TextField form="b" label="source" field="source" value=source out list="b-exchanges" />
                <div class="checks" role="radiogroup" aria-label=move || tx(c.lang.get(), "destination")>
                    <label class="check">
                        <input type="radio" name="b-dest-kind" data-testid="b-to-queue" prop:checked=move || !to_exchange.get() on:change=move |_| to_exchange.set(false) />
                        <span>{move || tx(c.lang.get(), "dest_queue")}</span>
                    </label>
                    <label class="check">
                        <input type="radio" name="b-dest-kind" data-testid="b-to-exchange" prop:checked=move || to_exchange.get() on:change=move |_| to_exchange.set(true) />
                        <span>{move || tx(c.lang.get(), "dest_exchange")}</span>
                    </label>
                </div>
                <TextField form="b" label="destination" field="destination" value=destination out list="b-dests" />
                <datalist id="b-exchanges">
                    {move || names.get().0.into_iter().map(|n| view! { <option value=n /> }).collect_view()}
                </datalist>
                <datalist id="b-dests">
                    {move || {
                        let (xs, qs) = names.get();
                        let list = if to_exchange.get() { xs } else { qs };
                        list.into_iter().map(|n| view! { <option value=n /> }).collect_view()
                    }}
                </datalist>
                <TextField form="b" label="routing_key" field="routing_key" value=routing_key out />
                <label>
                    <span>"x-match " <small>"(headers)"</small></span>
                    <select data-testid="b-x-match" prop:value=move || x_match.get() on:change=move |ev| x_match.set(event_target_value(&ev))>
                        <option value="">{move || tx(c.lang.get(), "x_match_none")}</option>
                        {["all", "any", "all-with-x", "any-with-x"].into_iter().map(|m| view! { <option value=m>{m}</option> }).collect_view()}
                    </select>
                </label>
                <FieldError out field="x-match" />
                <ExtraArgs rows prefix="b" out />
                <button type="submit" class="primary" data-testid="edit-binding-add">{move || tx(c.lang.get(), "add")}</button>
                <FormOk out />
            </form>
        </details>
    }
}
