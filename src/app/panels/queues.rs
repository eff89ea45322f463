//! The queues panel: one card per queue, its messages head first with the TTL left,
//! the ones stuck behind the head marked OVERDUE, and the ones a quorum queue holds
//! aside (4.3's delayed retry, 4.4's `x-opt-delivery-time`) with their countdown and
//! why; then the delayed exchanges' stores.
//! Cards and chips are keyed by the run (`Track::run`) too: nothing drawn for one load is
//! reused for another load's queue or copy of the same name or number.

use delaylab_engine::cause::HeldBy;
use delaylab_engine::report::text::clock;
use delaylab_playground::i18n_qq44::say;
use leptos::prelude::*;

use super::ctx;
use super::delayed::DelayedCard;
use crate::app::runner::span;

/// Head chips drawn per queue while the clock plays (the snapshot has up to
/// `MAX_ENTRIES`, 60, all drawn when it stops): at a high speed every snapshot replaces
/// every chip, and 60 new chips a queue were the largest part of a frame in the
/// 200,000-order preset's release at 1000x (issue 29 item 10).
const CHIPS_PLAYING: usize = 12;

#[component]
pub fn Queues() -> impl IntoView {
    let c = ctx();
    let names = Memo::new(move |_| {
        let run = c.runner.with_value(|r| r.track.run);
        c.snap.with(|s| {
            s.queues
                .iter()
                .map(|q| (run, q.name.clone()))
                .collect::<Vec<_>>()
        })
    });
    let delayed = Memo::new(move |_| {
        c.snap.with(|s| {
            s.exchanges
                .iter()
                .filter(|x| x.is_delayed())
                .map(|x| x.name.clone())
                .collect::<Vec<_>>()
        })
    });
    view! {
        <section class="panel queues" aria-labelledby="queues-h">
            <h2 id="queues-h">{move || c.tr("queues")}</h2>
            <p class="hint">{move || c.tr("queues_hint")}</p>
            // Scrolls inside an embed (embed.css caps its height): reachable by keyboard (axe).
            <div class="queue-list" tabindex="0" aria-label=move || c.tr("queues")>
                <For each=move || names.get() key=|n| n.clone() children=move |(_, name)| view! { <QueueCard name /> } />
                <For each=move || delayed.get() key=|n| n.clone() children=move |name| view! { <DelayedCard name /> } />
            </div>
        </section>
    }
}

#[component]
fn QueueCard(name: String) -> impl IntoView {
    let c = ctx();
    // The run this card was drawn for (the panel keys cards by it).
    let run = c.runner.with_value(|r| r.track.run);
    let n1 = name.clone();
    let q = Memo::new(move |_| {
        c.snap.with(|s| {
            s.queue(&n1).map(|q| {
                (
                    q.ready,
                    q.unacked,
                    q.overdue,
                    q.message_ttl_ms,
                    q.dlx.clone(),
                    q.held_total,
                )
            })
        })
    });
    let nh = name.clone();
    let held = Memo::new(move |_| {
        c.snap.with(|s| {
            s.queue(&nh)
                .map(|q| {
                    q.held
                        .iter()
                        .map(|h| {
                            (
                                h.msg,
                                h.body.clone(),
                                h.by,
                                h.ready_at_ms,
                                h.remaining_ms,
                                h.attempt,
                            )
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    let n2 = name.clone();
    let entries = Memo::new(move |_| {
        let shown = if c.calm.get() {
            usize::MAX
        } else {
            CHIPS_PLAYING
        };
        c.snap.with(|s| {
            s.queue(&n2)
                .map(|q| {
                    q.head
                        .iter()
                        .take(shown)
                        .map(|e| (run, e.copy, e.msg, e.body.clone()))
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    let n3 = name.clone();
    let tid = format!("queue-{name}");
    view! {
        <article class="qcard" data-testid=tid aria-label={let n = name.clone(); move || format!("{} {n}", c.tr("queue_aria"))}>
            <header class="qhead">
                <h3 class="qname">{name.clone()}</h3>
                <span class="counts">
                    {move || {
                        q.get()
                            .map(|(r, u, o, _, _, h)| {
                                view! {
                                    <span class="count">{c.tr("ready")} " " <b>{r}</b></span>
                                    <span class="count">{c.tr("unacked")} " " <b>{u}</b></span>
                                    <span
                                        class={if o > 0 { "count overdue-count" } else { "count" }}
                                        data-testid="overdue-count"
                                    >
                                        {if o > 0 { "⚠ " } else { "" }}
                                        {c.tr("overdue")}
                                        " "
                                        <b>{o}</b>
                                    </span>
                                    {(h > 0).then(|| view! {
                                        <span class="count held-count" data-testid="held-count">
                                            {c.tr("held")} " " <b>{h}</b>
                                        </span>
                                    })}
                                }
                            })
                    }}
                </span>
            </header>
            <ol class="chips" aria-label=move || c.tr("fifo")>
                <For
                    each=move || entries.get()
                    key=|e| (e.0, e.1)
                    children=move |(_, copy, msg, body)| {
                        let n = n3.clone();
                        let state = Memo::new(move |_| {
                            c.snap.with(|s| {
                                s.queue(&n)
                                    .and_then(|q| q.head.iter().position(|e| e.copy == copy).map(|i| (i, &q.head[i])))
                                    .map(|(i, e)| (i == 0, e.remaining_ms, e.overdue_ms, e.redelivered))
                            })
                        });
                        let is_over = move || state.get().is_some_and(|s| s.2.is_some());
                        // How a redelivered message came back (a nack, a reject...), as
                        // the run has it.
                        let back = move || {
                            state.get().filter(|s| s.3).map(|_| {
                                let key = c.runner.with_value(|r| crate::app::runner::came_back(&r.track, msg));
                                view! { <span class="chip-back" data-testid="chip-back">{c.tr(key)}</span> }
                            })
                        };
                        view! {
                            <li>
                                <button
                                    class="chip"
                                    class:overdue=is_over
                                    class:head=move || state.get().is_some_and(|s| s.0)
                                    class:selected=move || c.selected.get() == Some(msg)
                                    data-testid="chip"
                                    on:click=move |_| c.selected.set(Some(msg))
                                >
                                    <span class="chip-body">{body.clone()}</span>
                                    <span class="chip-id">"#"{msg}</span>
                                    {back}
                                    <span class="chip-ttl">
                                        {move || match state.get() {
                                            Some((_, _, Some(o), _)) => {
                                                format!("⚠ {} +{}", c.tr("overdue_tag"), span(o))
                                            }
                                            Some((_, Some(r), _, _)) => format!("◷ {}", span(r)),
                                            _ => c.tr("no_ttl").to_string(),
                                        }}
                                    </span>
                                </button>
                            </li>
                        }
                    }
                />
            </ol>
            <super::why_live::WaitingBehind name=name.clone() />
            // The ready messages without a chip: fewer chips are drawn while the clock plays.
            {move || {
                let drawn = entries.with(Vec::len) as u64;
                q.get()
                    .and_then(|(r, ..)| {
                        (r > drawn).then(|| view! { <p class="more">"+" {r - drawn} " " {c.tr("more")}</p> })
                    })
            }}
            // Held aside (delayed retry, x-opt-delivery-time): in the queue, not ready,
            // released at its time; the countdown and why.
            {move || {
                let list = held.get();
                (!list.is_empty())
                    .then(|| {
                        let lang = c.lang.get();
                        view! {
                            <ol class="chips held" aria-label=move || c.tr("held_list") data-testid="held">
                                {list
                                    .into_iter()
                                    .map(|(msg, body, by, at, left, attempt)| {
                                        let left = span(left);
                                        let when = match by {
                                            HeldBy::DelayedRetry => say(lang, "held_retry", &[("left", &left), ("n", &attempt.to_string())]),
                                            HeldBy::DeliveryTime => say(lang, "held_due", &[("left", &left), ("at", &clock(at))]),
                                        };
                                        let back = c.runner.with_value(|r| crate::app::runner::came_back(&r.track, msg));
                                        view! {
                                            <li>
                                                <button
                                                    class="chip held"
                                                    class:selected=move || c.selected.get() == Some(msg)
                                                    data-testid="held-chip"
                                                    data-by=by.as_str()
                                                    on:click=move |_| c.selected.set(Some(msg))
                                                >
                                                    <span class="chip-body">{body}</span>
                                                    <span class="chip-id">"#"{msg}</span>
                                                    <span class="chip-back" data-testid="chip-back">{c.tr(back)}</span>
                                                    <span class="chip-ttl">{when}</span>
                                                </button>
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ol>
                        }
                    })
            }}
            {move || {
                q.get()
                    .and_then(|(r, u, _, _, _, h)| {
                        (r == 0 && u == 0 && h == 0).then(|| view! { <p class="empty">{c.tr("empty")}</p> })
                    })
            }}
        </article>
    }
}
