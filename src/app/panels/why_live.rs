//! Under a queue's chips: the messages overdue behind its head, each saying live which
//! head it waits behind, since when, and when its own TTL passed (from the engine's
//! snapshot: `delaylab_playground::story::waiting_behind`); each opens its story.

use delaylab_playground::story::waiting_behind;
use leptos::prelude::*;

use super::ctx;

/// Overdue messages explained per queue at most (the count says how many there are).
const SHOWN: usize = 3;

#[component]
pub fn WaitingBehind(name: String) -> impl IntoView {
    let c = ctx();
    let lines = Memo::new(move |_| {
        let lang = c.lang.get();
        c.snap.with(|s| {
            let Some(q) = s.queue(&name) else {
                return Vec::new();
            };
            q.head
                .iter()
                .filter_map(|e| Some((e.msg, e.body.clone(), waiting_behind(q, e.copy, lang)?)))
                .take(SHOWN)
                .collect::<Vec<_>>()
        })
    });
    view! {
        {move || {
            let lines = lines.get();
            (!lines.is_empty())
                .then(|| {
                    view! {
                        <ul class="waiting" data-testid="waiting-behind">
                            {lines
                                .into_iter()
                                .map(|(msg, body, why)| {
                                    view! {
                                        <li>
                                            <button class="link" data-testid="waiting-msg" on:click=move |_| c.selected.set(Some(msg))>
                                                "⚠ #" {msg} " " {body}
                                            </button>
                                            " " <span data-testid="waiting-why">{why}</span>
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    }
                })
        }}
    }
}
