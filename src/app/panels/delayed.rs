//! A delayed exchange's store (the plugin's), in due order, with `messages_delayed`.

use delaylab_engine::report::text::clock;
use leptos::prelude::*;

use super::ctx;
use crate::app::runner::span;

#[component]
pub fn DelayedCard(name: String) -> impl IntoView {
    let c = ctx();
    let n1 = name.clone();
    let data = Memo::new(move |_| {
        c.snap.with(|s| {
            let count = s.exchange(&n1).map_or(0, |x| x.messages_delayed);
            let items: Vec<(u32, String, u64, u64)> = s
                .delayed
                .iter()
                .filter(|d| d.exchange == n1)
                .map(|d| (d.msg, d.body.clone(), d.due_ms, d.remaining_ms))
                .collect();
            (count, items)
        })
    });
    view! {
        <article class="qcard delayed-card" data-testid=format!("delayed-{name}")>
            <header class="qhead">
                <h3 class="qname">
                    <span aria-hidden="true">"◷ "</span>
                    {name.clone()}
                </h3>
                <span class="counts">
                    <span class="count">
                        "messages_delayed " <b data-testid="messages-delayed">{move || data.with(|d| d.0)}</b>
                    </span>
                </span>
            </header>
            <p class="hint">{move || c.tr("delayed_store")}</p>
            <ol class="chips">
                {move || {
                    data.with(|d| {
                        d.1
                            .iter()
                            .map(|(msg, body, due, rem)| {
                                let msg = *msg;
                                view! {
                                    <li>
                                        <button
                                            class="chip delayed"
                                            class:selected=move || c.selected.get() == Some(msg)
                                            on:click=move |_| c.selected.set(Some(msg))
                                        >
                                            <span class="chip-body">{body.clone()}</span>
                                            <span class="chip-id">"#"{msg}</span>
                                            <span class="chip-ttl">
                                                {format!("◷ {} ({} {})", span(*rem), c.tr("due"), clock(*due))}
                                            </span>
                                        </button>
                                    </li>
                                }
                            })
                            .collect_view()
                    })
                }}
            </ol>
            {move || {
                data.with(|d| {
                    let shown = d.1.len() as u64;
                    (d.0 > shown).then(|| view! { <p class="more">"+" {d.0 - shown} " " {c.tr("more")}</p> })
                })
            }}
        </article>
    }
}
