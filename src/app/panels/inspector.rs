//! The inspector: one message's path (every step, with a mini timeline) and its
//! properties and headers as published and as delivered.

use delaylab_engine::report::text::clock;
use leptos::prelude::*;

use super::ctx;
use crate::app::runner::{self, TRACK_MSGS};

#[component]
pub fn Inspector() -> impl IntoView {
    let c = ctx();
    let info = Memo::new(move |_| {
        let _ = c.rev.get();
        let id = c.selected.get()?;
        let lang = c.lang.get();
        c.runner.try_with_value(|r| {
            let body = r.track.body(id).to_string();
            let entries = r.track.msgs.get(&id).map(|v| v.as_slice()).unwrap_or(&[]);
            let steps: Vec<_> = entries.iter().map(|e| r.line(e, lang)).collect();
            let (published, delivered) = runner::message_views(entries, &r.sim);
            (id, body, steps, published, delivered)
        })
    });
    view! {
        <section class="panel inspector" aria-labelledby="insp-h" data-testid="inspector">
            <h2 id="insp-h">{move || c.tr("inspector")}</h2>
            {move || match info.get() {
                None => view! { <p class="hint">{c.tr("inspector_hint")}</p> }.into_any(),
                Some((id, body, steps, published, delivered)) => {
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
                        // It scrolls (style.css): focusable, so a keyboard can scroll it.
                        <ol class="steps" tabindex="0">
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
                        {published
                            .map(|(p, h)| {
                                view! {
                                    <details open>
                                        <summary>{c.tr("as_published")}</summary>
                                        <pre class="json">"properties: " {p} "\nheaders: " {h}</pre>
                                    </details>
                                }
                            })}
                        {delivered
                            .map(|(p, h)| {
                                view! {
                                    <details open>
                                        <summary>{c.tr("as_delivered")}</summary>
                                        <pre class="json" data-testid="delivered-headers" tabindex="0">
                                            "properties: " {p} "\nheaders: " {h}
                                        </pre>
                                    </details>
                                }
                            })}
                    }
                        .into_any()
                }
            }}
        </section>
    }
}
