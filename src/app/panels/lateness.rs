//! Lateness figures (count, mean, p99, max: the engine's rule) and the chart of every
//! delivery's lateness, then the queue-depth chart.
//!
//! Each dot names its delivery (tooltip, accessible name) and opens that message's
//! story in the inspector (click, Enter or Space); one dot at a time is in the tab
//! order and the arrow keys move between them.

use delaylab_playground::late_dots::{dots_built, named_dots, NamedDot};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::ctx;
use super::depths::DepthChart;
use super::inspector::{reveal_story, select_in_place, why, STORY_HEADING_ID};
use crate::app::runner::span;

#[component]
pub fn Lateness() -> impl IntoView {
    let c = ctx();
    // The dot in the tab order (the others are reached with the arrow keys).
    let focus_at = RwSignal::new(0usize);
    let dots = Memo::new(move |_| {
        let lang = c.lang.get();
        c.stats
            .with(|s| c.runner.try_with_value(|r| named_dots(s, &r.track, lang)))
            .unwrap_or_default()
    });
    // How many places have an element: while the clock moves the chart fills in a few
    // dots an update (`dots_built`: building all 300 at once made a 60-90 ms frame). A new
    // run's dots are new elements (the key holds the run): they start from none.
    let built = StoredValue::new((0, 0usize));
    let places = Memo::new(move |_| {
        let run = c.runner.with_value(|r| r.track.run);
        let before = match built.get_value() {
            (was, n) if was == run => n,
            _ => 0,
        };
        let n = dots_built(dots.with(Vec::len), before, c.calm.get());
        built.set_value((run, n));
        n
    });
    view! {
        <section class="panel lateness" aria-labelledby="late-h" data-testid="lateness">
            <h2 id="late-h">{move || c.tr("lateness")}</h2>
            <p class="hint">{move || c.tr("lateness_hint")}</p>
            <dl class="figures">
                <div>
                    <dt>{move || c.tr("delivered_n")}</dt>
                    <dd data-testid="late-count">{move || c.stats.with(|s| s.summary.count)}</dd>
                </div>
                <div>
                    <dt>{move || c.tr("mean")}</dt>
                    <dd data-testid="late-mean">{move || c.stats.with(|s| span(s.summary.mean_ms.round() as u64))}</dd>
                </div>
                <div>
                    <dt>"p99"</dt>
                    <dd data-testid="late-p99">{move || c.stats.with(|s| span(s.summary.p99_ms))}</dd>
                </div>
                <div>
                    <dt>{move || c.tr("max")}</dt>
                    <dd data-testid="late-max">{move || c.stats.with(|s| span(s.summary.max_ms))}</dd>
                </div>
                // Retries: deliveries of a message not handled since its first one (a
                // message that loops is never on time), with the longest wait since then.
                {move || {
                    (c.stats.with(|s| s.retries) > 0).then(|| {
                        view! {
                            <div class="retries">
                                <dt>{move || c.tr("retries")}</dt>
                                <dd data-testid="late-retries">
                                    {move || c.stats.with(|s| format!("{} · {} {}", s.retries, c.tr("unhandled_for"), span(s.retry_max_ms)))}
                                </dd>
                            </div>
                        }
                    })
                }}
            </dl>
            <p class="hint" id="late-dots-hint">{move || why(c, "why_dots")}</p>
            <svg class="chart" viewBox="0 0 640 150" role="group" aria-label=move || c.tr("chart_label") aria-describedby="late-dots-hint" data-testid="late-chart">
                <line x1="64" y1="120" x2="632" y2="120" class="axis" />
                <line x1="64" y1="10" x2="64" y2="120" class="axis" />
                <text x="58" y="16" class="tick" text-anchor="end">
                    {move || c.stats.with(|s| if s.chart_max_ms() > 0 { span(s.chart_max_ms()) } else { String::new() })}
                </text>
                <text x="58" y="122" class="tick" text-anchor="end">
                    "0"
                </text>
                <text x="632" y="142" class="tick" text-anchor="end">
                    {move || c.tr("deliveries_axis")}
                </text>
                // One element per place, each attribute following its own value: a new
                // delivery moves every dot (x is its index among all), and drawing the list
                // anew wrote all ten attributes of all 300 dots again, part of frames of
                // 50-85 ms at 1000x in the 200,000-order preset's release (issue 29 item
                // 10). Keyed by the run too, as the queues' chips are: a new load draws anew.
                <For
                    each=move || {
                        let run = c.runner.with_value(|r| r.track.run);
                        (0..places.get() as u64).map(move |i| (run, i))
                    }
                    key=|k| *k
                    children=move |(_, i)| dot(dots, places, i as usize, focus_at)
                />
            </svg>
            // The dot selected here, and the way to its story (the page stays put).
            <p class="late-selected" data-testid="late-selected" aria-live="polite">
                {move || {
                    let sel = c.selected.get()?;
                    let name = dots.with(|ds| ds.iter().find(|d| d.msg == sel).map(|d| d.name.clone()))?;
                    Some(view! {
                        <span>{name}" "</span>
                        <button class="small link" data-testid="late-story" on:click=move |_| reveal_story()>
                            {c.tr("late_story")}" ↓"
                        </button>
                    })
                }}
            </p>
            <h3 class="sub-h">{move || c.tr("depths")}</h3>
            <DepthChart />
        </section>
    }
}

/// Dot `i` of `dots`: a control named after its delivery that opens its message's
/// story. Its attributes follow the dot now at place `i` (only what changed is set).
fn dot(
    dots: Memo<Vec<NamedDot>>,
    places: Memo<usize>,
    i: usize,
    focus_at: RwSignal<usize>,
) -> impl IntoView {
    let c = ctx();
    // This place's dot, compared with the last: a change elsewhere in the chart sets nothing
    // here. A place the list no longer reaches keeps its last dot: its element is about to
    // go (`places`), and may be asked first (an empty `cx` is an error in the console).
    let d = Memo::new(move |prev: Option<&Option<NamedDot>>| {
        dots.with(|ds| ds.get(i).cloned())
            .or_else(|| prev.cloned().flatten())
    });
    let msg = move || d.with(|d| d.as_ref().map(|d| d.msg));
    let cls = move || {
        d.with(|d| match d {
            Some(d) if d.retry => "pt retry",
            Some(d) if d.late => "pt late",
            _ => "pt",
        })
    };
    let cx = move || {
        d.with(|d| {
            d.as_ref()
                .map_or_else(String::new, |d| format!("{:.1}", d.x))
        })
    };
    let cy = move || {
        d.with(|d| {
            d.as_ref()
                .map_or_else(String::new, |d| format!("{:.1}", d.y))
        })
    };
    let name = move || d.with(|d| d.as_ref().map(|d| d.name.clone()).unwrap_or_default());
    let open = move |keyboard: bool| {
        let Some(msg) = d.with_untracked(|d| d.as_ref().map(|d| d.msg)) else {
            return;
        };
        // A click keeps the chart on screen (the line under it offers the story); the
        // keyboard goes to the story.
        if keyboard {
            c.selected.set(Some(msg));
        } else {
            select_in_place(c, msg);
        }
        focus_at.set(i);
        if keyboard {
            // The story is elsewhere on the page: take the keyboard there.
            request_animation_frame(|| {
                if let Some(h) = element(&format!("#{STORY_HEADING_ID}"))
                    .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
                {
                    let _ = h.focus();
                }
            });
        }
    };
    view! {
        // A group: the dot drawn, and a larger invisible circle a finger can hit.
        <g
            class="dot-btn"
            role="button"
            tabindex=move || if focus_at.get().min(places.get().saturating_sub(1)) == i { "0" } else { "-1" }
            aria-label=name
            data-testid="late-dot"
            data-i=i
            data-msg=msg
            on:click=move |_| open(false)
            on:keydown=move |ev: web_sys::KeyboardEvent| {
                let last = places.get_untracked().saturating_sub(1);
                let to = match ev.key().as_str() {
                    "Enter" | " " => {
                        ev.prevent_default();
                        return open(true);
                    }
                    "ArrowRight" | "ArrowUp" => (i + 1).min(last),
                    "ArrowLeft" | "ArrowDown" => i.saturating_sub(1),
                    "Home" => 0,
                    "End" => last,
                    _ => return,
                };
                ev.prevent_default();
                focus_at.set(to);
                if let Some(e) = element(&format!("[data-testid=\"late-dot\"][data-i=\"{to}\"]")).and_then(|e| e.dyn_into::<web_sys::SvgElement>().ok()) {
                    let _ = e.focus();
                }
            }
        >
            <title>{name}</title>
            <circle cx=cx cy=cy r="12" class="hit" />
            <circle cx=cx cy=cy r="4.5" class=cls class:selected=move || msg().is_some() && c.selected.get() == msg() />
        </g>
    }
}

fn element(selector: &str) -> Option<web_sys::Element> {
    web_sys::window()?
        .document()?
        .query_selector(selector)
        .ok()?
}
