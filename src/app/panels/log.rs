//! The event log: newest first, every event in words, filtered by kind (the engine's
//! list of every kind it emits) and by text. Rows are keyed by (run, seq): a row drawn
//! for one load is never reused for another load's event.

use delaylab_engine::report::text::clock;
use delaylab_engine::EventKind;
use leptos::prelude::*;

use super::ctx;
use crate::app::i18n;
use crate::app::runner::{Level, LOG_CAP};

/// Lines drawn at most (the newest that pass the filters).
const SHOW: usize = 150;
/// The same while the clock plays: at a high speed every redraw replaces every line, and
/// 150 new lines were a frame of about 30 ms (the 200,000-order preset at 1000x); the
/// rest are drawn when it stops.
const SHOW_PLAYING: usize = 40;

#[component]
pub fn Log() -> impl IntoView {
    let c = ctx();
    let kind = RwSignal::new(String::new());
    let text = RwSignal::new(String::new());
    let lines = Memo::new(move |_| {
        let _ = c.log_rev.get();
        let k = kind.get();
        let q = text.get().to_lowercase();
        let lang = c.lang.get();
        let show = if c.calm.get() { SHOW } else { SHOW_PLAYING };
        c.runner
            .try_with_value(|r| {
                let total = r.track.log.len();
                let out: Vec<_> = r
                    .track
                    .log
                    .iter()
                    .rev()
                    .filter(|e| k.is_empty() || e.ev.kind.name() == k)
                    .map(|e| r.line(e, lang))
                    .filter(|x| {
                        q.is_empty()
                            || x.body.to_lowercase().contains(&q)
                            || x.place.to_lowercase().contains(&q)
                            || x.detail.to_lowercase().contains(&q)
                            || x.kind.contains(&q)
                            || i18n::t(lang, x.label).to_lowercase().contains(&q)
                            || x.msg.is_some_and(|m| format!("#{m}") == q)
                    })
                    .take(show)
                    .collect();
                // Newest first in the DOM: the list is drawn bottom-up (column-reverse), so
                // the newest line stays in view without reading the layout.
                (out, total)
            })
            .unwrap_or_default()
    });
    view! {
        <section class="panel log" aria-labelledby="log-h" data-testid="log">
            <h2 id="log-h">{move || c.tr("log")}</h2>
            <div class="log-filters">
                <label>
                    <span>{move || c.tr("kind")}</span>
                    <select data-testid="log-kind" on:change=move |ev| kind.set(event_target_value(&ev))>
                        <option value="">{move || c.tr("all")}</option>
                        {EventKind::ALL_KINDS
                            .iter()
                            .map(|k| view! { <option value=*k>{move || c.tr(i18n::kind_key(k))}</option> })
                            .collect_view()}
                    </select>
                </label>
                <label>
                    <span>{move || c.tr("search")}</span>
                    <input
                        data-testid="log-search"
                        type="search"
                        placeholder="B, order.dlx.queue, #2"
                        prop:value=move || text.get()
                        on:input=move |ev| text.set(event_target_value(&ev))
                    />
                </label>
                <span class="muted">
                    {move || {
                        lines.with(|(v, total)| format!("{} {} / {} ({} {})", c.tr("showing"), v.len(), total, c.tr("kept_max"), LOG_CAP))
                    }}
                </span>
            </div>
            <div class="log-lines" tabindex="0" aria-label=move || c.tr("log")>
                <For
                    each=move || lines.get().0
                    key=|l| (l.run, l.seq)
                    children=move |l| {
                        let msg = l.msg;
                        let cls = match l.level {
                            Level::Info => "logline",
                            Level::Good => "logline good",
                            Level::Warn => "logline warn",
                            Level::Bad => "logline bad",
                        };
                        let icon = match l.level {
                            Level::Info => " ",
                            Level::Good => "✓",
                            Level::Warn => "⚠",
                            Level::Bad => "✗",
                        };
                        let kind = l.kind;
                        let label = l.label;
                        view! {
                            <button
                                class=cls
                                data-testid="log-line"
                                data-kind=kind
                                data-body=l.body.clone()
                                disabled=msg.is_none()
                                on:click=move |_| c.selected.set(msg)
                            >
                                <span class="t">{clock(l.t_ms)}</span>
                                <span class="i" aria-hidden="true">{icon}</span>
                                <span class="k" data-label=label>{move || c.tr(label)}</span>
                                <span class="m">
                                    {msg.map(|m| format!("#{m} {}", l.body)).unwrap_or_default()}
                                </span>
                                <span class="w">{l.place.clone()}</span>
                                <span class="d">{l.detail.clone()}</span>
                            </button>
                        }
                    }
                />
            </div>
        </section>
    }
}
