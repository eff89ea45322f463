//! The way off the delayed-message plugin (issue 27 item 4), on the page: compare mode's
//! third choice (three presets, each on its own RabbitMQ version, a node lost halfway,
//! `delaylab_playground::off_plugin`), the lane figures it adds (the version, what was
//! lost with the node, what a quorum queue holds), the cost of each way at the workload's
//! scale (the strategy comparison's figures, computed here in slices), and the link from
//! a plugin preset's version notice on a version without the plugin.
//!
//! ```text
//! notice on fix-delayed-plugin@4.3 ─ "the plugin cannot run here: this is what replaces
//! it" ─▶ compare mode "off the plugin": lanes 4.2 | 4.3 | 4.4 on one clock
//!        ─▶ cost at scale: strategies plugin, dlx-per-queue, qq-delivery-time, sliced
//! ```

use std::cell::RefCell;

use delaylab_engine::strategies::report::{grouped, human_ms};
use delaylab_engine::strategies::Comparison;
use delaylab_playground::compare::{LaneKey, LaneView};
use delaylab_playground::off_plugin::{self, CostRow};
use delaylab_playground::quick_publish::works_label;
use leptos::prelude::*;

use super::compare::Mode;
use super::runner::span;
use super::{perf_now, Ctx};

/// Wall ms of work per slice of the scale run (then the page gets a turn).
const SLICE_MS: f64 = 12.0;
/// Work units per `Comparison::step` between two clock reads.
const STEP_BUDGET: u64 = 4096;

thread_local! {
    /// The scale figures, once computed: the workload is fixed, so once per page.
    static DONE: RefCell<Option<Vec<CostRow>>> = const { RefCell::new(None) };
}

/// What lanes starting with `first`, keyed `keys`, compare: versions of one scenario,
/// the way off the plugin (a link or the plugin notice opens it in its mode), or presets.
pub fn mode_of(first: &LaneKey, keys: &[String]) -> Mode {
    if first.version().is_some() {
        Mode::Versions
    } else if off_plugin::is_off_plugin(keys) {
        Mode::OffPlugin
    } else {
        Mode::Topologies
    }
}

/// The compare panel's heading for `mode`.
pub fn title_key(mode: Mode) -> &'static str {
    match mode {
        Mode::Topologies => "compare",
        Mode::Versions => "compare_versions",
        Mode::OffPlugin => "compare_off_plugin",
    }
}

/// The compare panel's hint for `mode`.
pub fn hint_key(mode: Mode) -> &'static str {
    match mode {
        Mode::Topologies => "compare_hint",
        Mode::Versions => "compare_versions_hint",
        Mode::OffPlugin => "compare_off_plugin_hint",
    }
}

/// A lane's extra figures: its version (the off-the-plugin lanes each run on their own)
/// and the messages lost with the node.
pub fn lane_figures(c: &Ctx, v: &LaneView) -> impl IntoView {
    let off = c.cmp.mode.get_untracked() == Mode::OffPlugin;
    let (version, lost) = (v.version, v.lost);
    let has_lost = lost > 0;
    view! {
        {off.then(|| view! {
            <div>
                <dt>"RabbitMQ"</dt>
                <dd data-testid="lane-version" title=version.label()>{version.as_str()}</dd>
            </div>
        })}
        {(off || has_lost).then(|| view! {
            <div class:lost=has_lost>
                <dt>{c.tr("lane_lost")}</dt>
                <dd data-testid="lane-lost">{if has_lost { format!("⚠ {lost}") } else { "0".into() }}</dd>
            </div>
        })}
    }
}

/// A lane queue's held messages (4.3 delayed retry, 4.4 `x-opt-delivery-time`): the
/// count and the first ones with their countdown.
pub fn held_chips(c: &Ctx, held: u64, chips: Vec<(String, u64)>) -> impl IntoView {
    (held > 0).then(|| {
        view! {
            <span class="count held-count" data-testid="lane-held">"◷ " {c.tr("held")} " " <b>{held}</b></span>
            <ol class="chips mini held">
                {chips
                    .into_iter()
                    .map(|(body, left)| view! {
                        <li class="chip held">
                            <span class="chip-body">{body}</span>
                            <span class="chip-ttl">{format!("◷ {}", span(left))}</span>
                        </li>
                    })
                    .collect_view()}
            </ol>
        }
    })
}

/// The link a plugin preset's version notice shows on a version without the plugin.
#[component]
pub fn OffPluginLink() -> impl IntoView {
    let c = expect_context::<Ctx>();
    let open = move |_| {
        if c.cmp.start(&c, &off_plugin::lane_ids()).is_ok() {
            scroll_to_compare();
        }
    };
    view! {
        <p class="off-plugin-link">
            <button class="link" data-testid="off-plugin-link" on:click=open>
                {move || c.tr("off_plugin_link")} " →"
            </button>
        </p>
    }
}

fn scroll_to_compare() {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("[data-testid=\"compare\"]").ok().flatten())
    {
        el.scroll_into_view();
    }
}

/// Each way's cost at the workload's scale: the strategy comparison's figures for
/// `scenarios/workloads/off-the-plugin.json`, run in slices on timers the first time the
/// table shows.
#[component]
pub fn CostAtScale() -> impl IntoView {
    let c = expect_context::<Ctx>();
    let file = off_plugin::workload_file();
    let rows = RwSignal::new(DONE.with(|d| d.borrow().clone()));
    let running = RwSignal::new(None::<&'static str>);
    if rows.get_untracked().is_none() {
        let (cmp, empty) = off_plugin::scale(&file);
        let cmp = StoredValue::new_local(cmp);
        rows.set(Some(empty.clone()));
        wasm_bindgen_futures::spawn_local(async move {
            loop {
                gloo_timers::future::TimeoutFuture::new(0).await;
                let Some((done, results, now)) = cmp.try_update_value(|c: &mut Comparison| {
                    let start = perf_now();
                    let mut done = false;
                    while !done && perf_now() - start < SLICE_MS {
                        done = c.step(STEP_BUDGET);
                    }
                    (done, c.results.clone(), c.running())
                }) else {
                    return; // the panel went away
                };
                let r = off_plugin::with_results(&empty, &results);
                if rows.try_set(Some(r.clone())).is_some() {
                    return;
                }
                let _ = running.try_set(now);
                if done {
                    DONE.with(|d| *d.borrow_mut() = Some(r));
                    return;
                }
            }
        });
    }
    let spec = file.spec.clone();
    let heading = move || {
        let delays: Vec<String> = spec.delays.iter().map(|d| span(d.delay_ms)).collect();
        delaylab_playground::i18n_qq44::say(
            c.lang.get(),
            "cost_title",
            &[
                ("n", &grouped(spec.count)),
                ("over", &span(spec.over_ms)),
                ("delays", &delays.join(", ")),
                ("file", off_plugin::WORKLOAD_FILE),
            ],
        )
    };
    view! {
        <div class="cost-at-scale" data-testid="cost-at-scale">
            <h3 class="sub-h" id="cost-h">{heading}</h3>
            {move || running.get().map(|n| view! { <p class="hint" data-testid="cost-running">{c.tr("cost_running")} " " <code>{n}</code></p> })}
            // It scrolls sideways on a phone: focusable, so a keyboard can scroll it.
            <div class="table-wrap" tabindex="0" role="region" aria-labelledby="cost-h">
                <table class="cmp-table">
                    <thead>
                        <tr>
                            <th scope="col">{move || c.tr("cost_way")}</th>
                            <th scope="col">{move || c.tr("cost_works_on")}</th>
                            <th scope="col">{move || c.tr("cost_objects")}</th>
                            <th scope="col">{move || c.tr("cost_peak")}</th>
                            <th scope="col">{move || c.tr("cost_work")}</th>
                            <th scope="col">{move || c.tr("cost_late")}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || {
                            let lang = c.lang.get();
                            rows.get()
                                .unwrap_or_default()
                                .into_iter()
                                .map(|r| {
                                    let works = works_label(&r.works_on, None, lang);
                                    let cells = match (&r.result, r.missing) {
                                        (_, true) => [c.tr("cost_missing").to_string(), String::new(), String::new(), String::new()],
                                        (None, false) => ["…".into(), "…".into(), "…".into(), "…".into()],
                                        (Some(x), false) => [
                                            grouped(x.broker_objects),
                                            grouped(x.peak_stored),
                                            format!("{:.1} {}", x.work_per_task, x.work_unit),
                                            format!("{} / {}", human_ms(x.lateness.p99_ms as f64), human_ms(x.lateness.max_ms as f64)),
                                        ],
                                    };
                                    view! {
                                        <tr data-testid=format!("cost-{}", r.strategy)>
                                            <th scope="row"><code>{r.strategy}</code> " · RabbitMQ " {r.version.as_str()}</th>
                                            <td>{works}</td>
                                            {cells.into_iter().map(|x| view! { <td>{x}</td> }).collect_view()}
                                        </tr>
                                    }
                                })
                                .collect_view()
                        }}
                    </tbody>
                </table>
            </div>
        </div>
    }
}
