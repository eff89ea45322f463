//! The inspector: one message's story (every step with the rule that applied, from the
//! engine's causes: `delaylab_playground::story`), a mini timeline, the engine's own
//! events, and its properties and headers as published and as delivered.
//!
//! Whatever selects a message (a chip, a queue entry, a log line, a lateness dot, a
//! head named in another story) opens it here; the panel comes into view.

use delaylab_engine::report::text::clock;
use delaylab_playground::story;
use leptos::prelude::*;

use super::ctx;
use crate::app::runner::{self, TRACK_MSGS};

/// The story's heading: what keyboard users land on when a lateness dot opens a story.
pub const STORY_HEADING_ID: &str = "insp-h";

thread_local! {
    /// The next selection keeps the page where it is ([`select_in_place`]).
    static IN_PLACE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// A word of the story's views (`i18n_why`: not start-up code, see there), tracked as
/// `Ctx::tr` is.
pub(super) fn why(c: crate::app::Ctx, key: &'static str) -> &'static str {
    delaylab_playground::i18n_why::t(c.lang.get(), key)
}

/// Selects a message without bringing the inspector into view: a click on a chart keeps
/// the chart on screen (the chart says what is selected and offers the story).
pub fn select_in_place(c: crate::app::Ctx, msg: u32) {
    if c.selected.get_untracked() != Some(msg) {
        IN_PLACE.with(|f| f.set(true));
        c.selected.set(Some(msg));
    }
}

/// Brings the story into view (only as far as needed).
pub fn reveal_story() {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("inspector"))
    {
        let o = web_sys::ScrollIntoViewOptions::new();
        o.set_block(web_sys::ScrollLogicalPosition::Nearest);
        el.scroll_into_view_with_scroll_into_view_options(&o);
    }
}

#[component]
pub fn Inspector() -> impl IntoView {
    let c = ctx();
    let info = Memo::new(move |_| {
        let _ = c.rev.get();
        let id = c.selected.get()?;
        let lang = c.lang.get();
        c.runner.try_with_value(|r| {
            let entries = r.track.msgs.get(&id).map(|v| v.as_slice()).unwrap_or(&[]);
            let steps: Vec<_> = entries.iter().map(|e| r.line(e, lang)).collect();
            let (published, delivered) = runner::message_views(entries, &r.sim);
            let told = story::story(&r.track, &r.sim, id, lang);
            (
                id,
                r.track.body(id).to_string(),
                told,
                steps,
                published,
                delivered,
            )
        })
    });
    // Bring the story into view when a message is selected (only as far as needed),
    // unless it was selected in place.
    Effect::new(move |_| {
        let selected = c.selected.get().is_some();
        if !IN_PLACE.with(|f| f.replace(false)) && selected {
            request_animation_frame(reveal_story);
        }
    });
    view! {
        <section class="panel inspector" id="inspector" aria-labelledby=STORY_HEADING_ID data-testid="inspector">
            <h2 id=STORY_HEADING_ID tabindex="-1">{move || c.tr("inspector")}</h2>
            {move || match info.get() {
                None => view! { <p class="hint">{c.tr("inspector_hint")}</p> }.into_any(),
                Some((id, body, told, steps, published, delivered)) => {
                    let t0 = steps.first().map_or(0, |s| s.t_ms);
                    let t1 = steps.last().map_or(0, |s| s.t_ms).max(t0 + 1);
                    let dots = steps
                        .iter()
                        .map(|s| {
                            let x = 10.0 + 280.0 * (s.t_ms - t0) as f64 / (t1 - t0) as f64;
                            let cls = format!("dot lvl-{:?}", s.level).to_lowercase();
                            view! { <circle cx=x cy="14" r="5" class=cls /> }
                        })
                        .collect_view();
                    view! {
                        <p class="insp-title" data-testid="inspector-title">
                            <b>"#" {id}</b> " " {body}
                        </p>
                        {(id > TRACK_MSGS).then(|| view! { <p class="hint">{c.tr("not_tracked")}</p> })}
                        <svg class="mini-timeline" viewBox="0 0 300 28" aria-hidden="true">
                            <line x1="10" y1="14" x2="290" y2="14" class="axis" />
                            {dots}
                        </svg>
                        <h3 class="sub-h">{why(c, "why_story")}</h3>
                        <ol class="story" data-testid="story">
                            {told.steps.into_iter().map(story_step).collect_view()}
                        </ol>
                        <details class="insp-events">
                            <summary>{why(c, "why_events")}</summary>
                            // It scrolls: a keyboard user must reach it (axe's
                            // scrollable-region-focusable).
                            <ol class="steps" tabindex="0" aria-label=move || why(c, "why_events")>
                                {steps
                                    .into_iter()
                                    .map(|s| {
                                        let cls = format!("step lvl-{:?}", s.level).to_lowercase();
                                        view! {
                                            <li class=cls data-testid="inspector-step">
                                                <span class="t">{clock(s.t_ms)}</span>
                                                " "
                                                <span class="k">{c.tr(s.label)}</span>
                                                " "
                                                <span class="w">{s.place}</span>
                                                " "
                                                <span class="d">{s.detail}</span>
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ol>
                        </details>
                        {published
                            .map(|(p, h)| {
                                view! {
                                    <details open>
                                        <summary>{c.tr("as_published")}</summary>
                                        <pre class="json">"properties: " {p} "\nheaders: " {h}</pre>
                                    </details>
                                }
                            })}
                        // Every delivery, each as the consumer got it (a redelivery's
                        // x-delivery-count / x-acquired-count are its own); the last open.
                        {
                            let last = delivered.len();
                            delivered
                                .into_iter()
                                .map(|d| delivery_block(d, last))
                                .collect_view()
                        }
                    }
                        .into_any()
                }
            }}
        </section>
    }
}

/// One delivery as the consumer got it: "As delivered (2 of 26) at 0:00:01.000, from
/// orders.work to worker, redelivered", then its properties and headers.
fn delivery_block(d: runner::DeliveryView, last: usize) -> impl IntoView {
    let c = ctx();
    let key = if d.redelivered {
        "as_redelivered_n"
    } else {
        "as_delivered_n"
    };
    let title = move || {
        c.tr(key)
            .replace("{n}", &d.n.to_string())
            .replace("{of}", &last.to_string())
            .replace("{at}", &clock(d.t_ms))
            .replace("{queue}", &d.queue)
            .replace("{consumer}", &d.consumer)
    };
    view! {
        <details open=d.n == last data-testid="delivery" data-n=d.n>
            <summary>{title}</summary>
            <pre class="json" data-testid="delivered-headers" tabindex="0">
                "properties: " {d.properties} "\nheaders: " {d.headers}
            </pre>
        </details>
    }
}

/// One step: its time, what happened, and each rule that applied; the messages it
/// names (the heads it waited behind) open their own stories.
fn story_step(s: story::Step) -> impl IntoView {
    let c = ctx();
    let cls = format!("story-step lvl-{:?}", s.level).to_lowercase();
    let names = (!s.names.is_empty()).then(|| {
        view! {
            <p class="story-names">
                {why(c, "why_see")}
                {s.names
                    .into_iter()
                    .map(|(m, label)| {
                        view! {
                            " "
                            <button class="link" data-testid="story-name" on:click=move |_| c.selected.set(Some(m))>
                                {label}
                            </button>
                        }
                    })
                    .collect_view()}
            </p>
        }
    });
    view! {
        <li class=cls data-testid="story-step" data-kind=s.kind>
            <span class="t">{clock(s.t_ms)}</span>
            " "
            <b class="what">{s.what}</b>
            {(!s.why.is_empty())
                .then(|| {
                    view! {
                        <ul class="why">
                            {s.why.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}
                        </ul>
                    }
                })}
            {names}
        </li>
    }
}
