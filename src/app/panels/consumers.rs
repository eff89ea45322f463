//! The consumers: the list (stop one) and the add-consumer form, a [`ConsumerForm`]
//! checked in the native crate.

use delaylab_engine::scenario::Outcome;
use delaylab_engine::Command;
use delaylab_playground::consumer_form::{next_name, ConsumerForm};
use leptos::prelude::*;

use super::ctx;

#[component]
pub fn Consumers() -> impl IntoView {
    let c = ctx();
    let list = Memo::new(move |_| c.snap.with(|s| s.consumers.clone()));
    let queues = Memo::new(move |_| {
        c.snap
            .with(|s| s.queues.iter().map(|q| q.name.clone()).collect::<Vec<_>>())
    });
    let d = ConsumerForm::default();
    let name = RwSignal::new(d.name);
    let queue = RwSignal::new(d.queue);
    let auto = RwSignal::new(d.auto_ack);
    let prefetch = RwSignal::new(d.prefetch);
    let handle = RwSignal::new(d.handle);
    let outcome = RwSignal::new(d.outcome);
    let error = RwSignal::new(None::<String>);
    let add = move || {
        error.set(None);
        let form = ConsumerForm {
            name: name.get_untracked(),
            queue: queue.get_untracked(),
            auto_ack: auto.get_untracked(),
            prefetch: prefetch.get_untracked(),
            handle: handle.get_untracked(),
            outcome: outcome.get_untracked(),
        };
        let spec = list.with_untracked(|l| {
            let active: Vec<&str> = l
                .iter()
                .filter(|x| !x.stopped)
                .map(|x| x.name.as_str())
                .collect();
            queues.with_untracked(|qs| form.spec(c.now_untracked(), &active, qs))
        });
        match spec {
            Ok(spec) => {
                let added = spec.name.clone();
                c.command(Command::AddConsumer(spec));
                name.set(next_name(&added));
            }
            Err(e) => error.set(Some(e.text(c.lang.get_untracked()))),
        }
    };
    view! {
        <section class="panel consumers" aria-labelledby="cons-h" data-testid="consumers">
            <h2 id="cons-h">{move || c.tr("consumers")}</h2>
            <ul class="cons-list">
                <For
                    each=move || list.get()
                    key=|x| format!("{x:?}")
                    children=move |x| {
                        let nm = x.name.clone();
                        let stopped = x.stopped;
                        view! {
                            <li class="cons" class:stopped=stopped>
                                <span class="cons-name">"⚙ " {x.name.clone()}</span>
                                <span class="muted">
                                    {
                                        let x = x.clone();
                                        // AMQP's words (auto-ack, prefetch, unacked, the outcome) stay; ours follow the language.
                                        move || format!(
                                            " ← {} · {} · prefetch {} · {} · {} · unacked {}{}",
                                            x.queue,
                                            if x.auto_ack { "auto-ack" } else { c.tr("manual_ack") },
                                            x.prefetch,
                                            delaylab_engine::scenario::duration::format_duration(x.handle_ms),
                                            x.outcome,
                                            x.unacked,
                                            if x.stopped {
                                                format!(" · {}", c.tr("c_stopped"))
                                            } else if !x.attached {
                                                format!(" · {}", c.tr("c_not_attached"))
                                            } else {
                                                String::new()
                                            },
                                        )
                                    }
                                </span>
                                {(!stopped)
                                    .then(|| {
                                        view! {
                                            <button
                                                class="small"
                                                data-testid=format!("stop-{nm}")
                                                on:click={
                                                    let nm = nm.clone();
                                                    move |_| c.command(Command::StopConsumer(nm.clone()))
                                                }
                                            >
                                                {move || c.tr("stop")}
                                            </button>
                                        }
                                    })}
                            </li>
                        }
                    }
                />
            </ul>
            <details>
                <summary>{move || c.tr("add_consumer")}</summary>
                <form
                    class="form"
                    on:submit=move |ev| {
                        ev.prevent_default();
                        add();
                    }
                >
                    <div class="row2">
                        <label>
                            <span>{move || c.tr("c_name")}</span>
                            <input prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev)) />
                        </label>
                        <label>
                            <span>{move || c.tr("c_queue")}</span>
                            <select data-testid="cons-queue" on:change=move |ev| queue.set(event_target_value(&ev))>
                                {move || {
                                    let qs = queues.get();
                                    let last = qs.last().cloned().unwrap_or_default();
                                    qs.into_iter()
                                        .map(|q| {
                                            let sel = q == last;
                                            view! { <option value=q.clone() selected=sel>{q.clone()}</option> }
                                        })
                                        .collect_view()
                                }}
                            </select>
                        </label>
                    </div>
                    <div class="row2">
                        <label>
                            <span>"prefetch"</span>
                            <input type="number" min="0" prop:value=move || prefetch.get() on:input=move |ev| prefetch.set(event_target_value(&ev)) />
                        </label>
                        <label>
                            <span>{move || c.tr("c_handle")}</span>
                            <input prop:value=move || handle.get() on:input=move |ev| handle.set(event_target_value(&ev)) />
                        </label>
                    </div>
                    <div class="row2">
                        <label>
                            <span>{move || c.tr("c_outcome")}</span>
                            <select on:change=move |ev| outcome.set(event_target_value(&ev))>
                                <option value=Outcome::Ack.name()>"ack"</option>
                                <option value=Outcome::Reject.name()>"reject (requeue=false)"</option>
                                <option value=Outcome::Requeue.name()>"nack (requeue=true)"</option>
                            </select>
                        </label>
                        <label class="check">
                            <input type="checkbox" prop:checked=move || auto.get() on:change=move |ev| auto.set(event_target_checked(&ev)) />
                            <span>"auto-ack"</span>
                        </label>
                    </div>
                    <button type="submit" data-testid="add-consumer">{move || c.tr("add_consumer")}</button>
                    <p class="form-error" role="alert">{move || error.get().map(|e| format!("⚠ {e}"))}</p>
                </form>
            </details>
        </section>
    }
}
