//! "Delay strategies compared": one workload through every strategy of the seed articles
//! (polling, external stores, a timing wheel, the DLX variants, the plugin), with a
//! table, a lateness chart per strategy and a plain-language verdict from the numbers.
//!
//! Self-contained: its own signals and Leptos root (lib.rs); the app pushes the page's
//! language in. The engine's [`Comparison`] runs in slices of about `FRAME_BUDGET_MS`, one
//! per timer turn (gloo-timers: a hidden tab still runs them, throttled, where it would
//! get no animation frame), so even the full 200,000-task burst never freezes the tab; the
//! preset's count is capped at `BROWSER_DEFAULT_COUNT` until the user asks for the full
//! size.
//!
//! ```text
//! Run -> Workload::generate (seeded) -> Comparison::new(selected configs)
//! frame: step(4096) until 12 ms spent -> results grow row by row -> verdicts
//! ```
//!
//! Language: everything shown is in the page's language. The workload files and the
//! engine's result texts (`params`, `not_applicable`, `work_unit`, `human_ms`) are
//! English, for the CLI; in Chinese this module says the same from the numbers
//! ([`preset_texts`], [`params_text`], [`cells`], [`human`]). Strategy names stay as the
//! CLI spells them (`polling-scan`): they are what `--strategies` takes.

use delaylab_engine::scenario::duration::parse_duration;
use delaylab_engine::strategies::report::grouped;
use delaylab_engine::strategies::{
    load, load_workload_str, works_on_text, Comparison, Outage, OutageKind, StrategyResult,
    Workload, WorkloadFile, NAMES,
};
use delaylab_playground::strategy_costs::{self, CostChoice};
use leptos::prelude::*;

use delaylab_playground::i18n::Lang;

use super::text::{cells, human, preset_texts, tr, verdict, HEADER_KEYS};

/// Wall ms from the page's clock (slices are timed by it).
fn perf_now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// The workload presets (`scenarios/workloads/`).
const PRESETS: [(&str, &str); 4] = [
    (
        "promotion-burst",
        include_str!("../../../scenarios/workloads/promotion-burst.json"),
    ),
    (
        "reminder-ladder",
        include_str!("../../../scenarios/workloads/reminder-ladder.json"),
    ),
    (
        "any-delay-node-lost",
        include_str!("../../../scenarios/workloads/any-delay-node-lost.json"),
    ),
    (
        "plugin-backlog",
        include_str!("../../../scenarios/workloads/plugin-backlog.json"),
    ),
];
/// A preset of more than [`BROWSER_FULL_UP_TO`] tasks starts at this count in the
/// browser, until "full size" is pressed.
pub const BROWSER_DEFAULT_COUNT: u64 = 20_000;
/// Presets up to this many tasks start at their full size: the plugin's drift needs a
/// long backlog (plugin-backlog: 100,000 in 17 s, a few seconds of work in the tab).
pub const BROWSER_FULL_UP_TO: u64 = 100_000;
/// Wall ms of work per slice (then the page gets a turn).
const FRAME_BUDGET_MS: f64 = 12.0;
/// Work units per `Comparison::step` call between two clock reads.
const STEP_BUDGET: u64 = 4096;

/// The fields of the form, as typed.
#[derive(Clone, Copy)]
struct Form {
    preset: RwSignal<usize>,
    count: RwSignal<String>,
    over: RwSignal<String>,
    outage: RwSignal<String>,
    at: RwSignal<String>,
    downtime: RwSignal<String>,
    chosen: RwSignal<Vec<&'static str>>,
    /// Exact rules or RabbitMQ's measured speed for the broker strategies.
    costs: RwSignal<CostChoice>,
}

fn preset_file(i: usize) -> WorkloadFile {
    load_workload_str(PRESETS[i].1).expect("workload presets load (tested in crates/engine/tests)")
}

pub(super) fn dur_text(ms: u64) -> String {
    delaylab_engine::scenario::duration::format_duration(ms)
}

impl Form {
    fn fill_from(&self, i: usize) {
        let f = preset_file(i);
        let count = if f.spec.count > BROWSER_FULL_UP_TO {
            BROWSER_DEFAULT_COUNT
        } else {
            f.spec.count
        };
        self.count.set(count.to_string());
        self.over.set(dur_text(f.spec.over_ms));
        let (kind, at, down) = match f.spec.outage {
            None => ("none", 0, 0),
            Some(Outage {
                at_ms,
                kind: OutageKind::Restart { downtime_ms },
            }) => ("restart", at_ms, downtime_ms),
            Some(Outage {
                at_ms,
                kind: OutageKind::Lose,
            }) => ("lose", at_ms, 0),
        };
        self.outage.set(kind.into());
        self.at.set(dur_text(at));
        self.downtime.set(dur_text(down));
    }

    /// The workload and the chosen configurations, or the key of what is wrong.
    fn build(&self) -> Result<(Workload, Vec<delaylab_engine::strategies::Config>), &'static str> {
        let mut f = preset_file(self.preset.get_untracked());
        let count: u64 = self
            .count
            .get_untracked()
            .trim()
            .replace(',', "")
            .parse()
            .map_err(|_| "bad_count")?;
        if count == 0 || count > load::MAX_TASKS {
            return Err("bad_count");
        }
        let dur = |s: RwSignal<String>| -> Result<u64, &'static str> {
            parse_duration(s.get_untracked().trim())
                .ok()
                .filter(|ms| *ms <= load::MAX_OVER_MS)
                .ok_or("bad_duration")
        };
        f.spec.count = count;
        f.spec.over_ms = dur(self.over)?;
        f.spec.outage = match self.outage.get_untracked().as_str() {
            "restart" => Some(Outage {
                at_ms: dur(self.at)?,
                kind: OutageKind::Restart {
                    downtime_ms: dur(self.downtime)?,
                },
            }),
            "lose" => Some(Outage {
                at_ms: dur(self.at)?,
                kind: OutageKind::Lose,
            }),
            _ => None,
        };
        let chosen = self.chosen.get_untracked();
        let configs: Vec<_> = NAMES
            .iter()
            .filter(|n| chosen.contains(n))
            .filter_map(|n| f.config(n))
            .collect();
        if configs.is_empty() {
            return Err("none_chosen");
        }
        // As `delaylab compare --costs` builds it (strategy_costs.rs, tested there).
        Ok((
            strategy_costs::workload(&f, self.costs.get_untracked()),
            configs,
        ))
    }
}

/// State of a run: the comparison (not reactive) and what the view shows.
#[derive(Clone, Copy)]
struct Run {
    cmp: StoredValue<Option<Comparison>, LocalStorage>,
    /// Bumped by every Run press: an older frame loop sees it and stops.
    generation: StoredValue<u64>,
    results: RwSignal<Vec<StrategyResult>>,
    /// (strategy running now, strategies in this run)
    progress: RwSignal<Option<(&'static str, usize)>>,
    /// The cost mode the figures shown come from (the switch may have moved since).
    mode: RwSignal<Option<CostChoice>>,
}

impl Run {
    fn start(
        &self,
        workload: Workload,
        configs: Vec<delaylab_engine::strategies::Config>,
        mode: CostChoice,
    ) {
        let total = configs.len();
        self.mode.set(Some(mode));
        self.generation.update_value(|g| *g += 1);
        let generation = self.generation.get_value();
        self.cmp.set_value(Some(Comparison::new(workload, configs)));
        self.results.set(Vec::new());
        self.progress.set(Some(("", total)));
        let run = *self;
        // Sliced on timers, not animation frames: a hidden tab gets no frames (the run
        // would stop until shown) but still runs timers, throttled.
        wasm_bindgen_futures::spawn_local(async move {
            while run.slice(generation, total) {
                gloo_timers::future::TimeoutFuture::new(0).await;
            }
        });
    }

    /// One slice of the run (about [`FRAME_BUDGET_MS`] of work); true while more is left
    /// and this run is still the current one.
    fn slice(self, generation: u64, total: usize) -> bool {
        if self.generation.get_value() != generation {
            return false;
        }
        let start = perf_now();
        let (done, finished, running) = self
            .cmp
            .try_update_value(|c| {
                let c = c.as_mut()?;
                let mut done = false;
                while !done && perf_now() - start < FRAME_BUDGET_MS {
                    done = c.step(STEP_BUDGET);
                }
                Some((done, c.results.len(), c.running().unwrap_or("")))
            })
            .flatten()
            .unwrap_or((true, 0, ""));
        if finished != self.results.with_untracked(|r| r.len()) {
            let rs = self
                .cmp
                .with_value(|c| c.as_ref().map(|c| c.results.clone()).unwrap_or_default());
            self.results.set(rs);
        }
        if done {
            self.progress.set(None);
        } else {
            self.progress.set(Some((running, total)));
        }
        !done
    }
}

/// The panel's body (the app draws its frame: heading and hint); `lang` is the page's.
#[component]
pub fn StrategyCompare(lang: RwSignal<Lang>) -> impl IntoView {
    let lang = move || lang.get();
    let form = Form {
        preset: RwSignal::new(0),
        count: RwSignal::new(String::new()),
        over: RwSignal::new(String::new()),
        outage: RwSignal::new("none".into()),
        at: RwSignal::new(String::new()),
        downtime: RwSignal::new(String::new()),
        chosen: RwSignal::new(NAMES.to_vec()),
        costs: RwSignal::new(CostChoice::default()),
    };
    form.fill_from(0);
    let run = Run {
        cmp: StoredValue::new_local(None),
        generation: StoredValue::new(0),
        results: RwSignal::new(Vec::new()),
        progress: RwSignal::new(None),
        mode: RwSignal::new(None),
    };
    let error = RwSignal::new(None::<&'static str>);
    let on_run = move |_| match form.build() {
        Ok((w, configs)) => {
            error.set(None);
            run.start(w, configs, form.costs.get_untracked());
        }
        Err(key) => error.set(Some(key)),
    };
    let full_count = move || preset_file(form.preset.get()).spec.count;
    view! {
        <div class="strat-body" data-testid="strat-body">
            <fieldset class="strat-form">
                <legend>{move || tr(lang(), "workload")}</legend>
                <select
                    data-testid="strat-preset"
                    aria-label=move || tr(lang(), "workload")
                    on:change=move |ev| {
                        let i = event_target_value(&ev).parse().unwrap_or(0);
                        form.preset.set(i);
                        form.fill_from(i);
                    }
                >
                    {PRESETS
                        .iter()
                        .enumerate()
                        .map(|(i, (id, text))| {
                            let file = load_workload_str(text).ok();
                            let name = move || file.as_ref().map_or_else(|| id.to_string(), |f| preset_texts(lang(), id, f).0);
                            view! { <option value=i.to_string() selected=i == 0>{name}</option> }
                        })
                        .collect_view()}
                </select>
                <p class="hint" data-testid="strat-description">
                    {move || {
                        let i = form.preset.get();
                        preset_texts(lang(), PRESETS[i].0, &preset_file(i)).1
                    }}
                </p>
                <label>
                    {move || tr(lang(), "count")}
                    <input data-testid="strat-count" size="8" prop:value=move || form.count.get() on:input=move |ev| form.count.set(event_target_value(&ev)) />
                </label>
                <button
                    data-testid="strat-full"
                    on:click=move |_| form.count.set(full_count().to_string())
                >
                    {move || format!("{} ({})", tr(lang(), "full"), grouped(full_count()))}
                </button>
                <label>
                    {move || tr(lang(), "over")}
                    <input data-testid="strat-over" size="5" prop:value=move || form.over.get() on:input=move |ev| form.over.set(event_target_value(&ev)) />
                </label>
                <label>
                    {move || tr(lang(), "outage")}
                    <select data-testid="strat-outage" prop:value=move || form.outage.get() on:change=move |ev| form.outage.set(event_target_value(&ev))>
                        {["none", "restart", "lose"]
                            .map(|k| view! { <option value=k>{move || tr(lang(), k)}</option> })
                            .collect_view()}
                    </select>
                </label>
                <Show when=move || form.outage.get() != "none">
                    <label>
                        {move || tr(lang(), "at")}
                        <input data-testid="strat-at" size="5" prop:value=move || form.at.get() on:input=move |ev| form.at.set(event_target_value(&ev)) />
                    </label>
                </Show>
                <Show when=move || form.outage.get() == "restart">
                    <label>
                        {move || tr(lang(), "downtime")}
                        <input data-testid="strat-downtime" size="5" prop:value=move || form.downtime.get() on:input=move |ev| form.downtime.set(event_target_value(&ev)) />
                    </label>
                </Show>
            </fieldset>
            <fieldset class="strat-pick">
                <legend>{move || tr(lang(), "strategies")}</legend>
                {NAMES
                    .map(|n| {
                        view! {
                            <label class="strat-check">
                                <input
                                    type="checkbox"
                                    data-testid=format!("strat-pick-{n}")
                                    prop:checked=move || form.chosen.with(|v| v.contains(&n))
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        form.chosen.update(|v| {
                                            v.retain(|x| *x != n);
                                            if on {
                                                v.push(n);
                                            }
                                        });
                                    }
                                />
                                <code>{n}</code>
                            </label>
                        }
                    })
                    .collect_view()}
            </fieldset>
            <CostSwitch costs=form.costs lang=Signal::derive(lang) />
            <p class="strat-actions">
                <button class="primary" data-testid="strat-run" on:click=on_run>{move || tr(lang(), "run")}</button>
                <span role="status" data-testid="strat-status">
                    {move || match run.progress.get() {
                        Some((name, total)) => format!("{} {} ({}/{})", tr(lang(), "running"), name, run.results.with(|r| r.len()), total),
                        None if run.results.with(|r| !r.is_empty()) => tr(lang(), "done").to_string(),
                        None => String::new(),
                    }}
                </span>
                <span class="error" role="alert">{move || error.get().map(|k| tr(lang(), k))}</span>
            </p>
            {move || {
                run.mode
                    .get()
                    .filter(|_| run.results.with(|r| !r.is_empty()))
                    .map(|m| {
                        view! {
                            <p class="strat-mode" class:measured=m == CostChoice::Measured data-testid="strat-mode" data-mode=m.cli_name()>
                                {tr(lang(), m.note_key())}
                            </p>
                        }
                    })
            }}
            <ResultTable results=run.results lang=Signal::derive(lang) />
            <div class="strat-cards">
                <For each=move || run.results.get() key=|r| (r.name, r.tasks, r.delivered, r.lateness.max_ms) let:r>
                    <StrategyCard r=r lang=Signal::derive(lang) />
                </For>
            </div>
        </div>
    }
}

/// "exact rules | with RabbitMQ's speed (3.10.8, 2 cores)": the cost mode of the next run.
#[component]
fn CostSwitch(costs: RwSignal<CostChoice>, lang: Signal<Lang>) -> impl IntoView {
    view! {
        <fieldset class="strat-costs" data-testid="strat-costs">
            <legend>{move || tr(lang.get(), "costs")}</legend>
            {CostChoice::ALL
                .map(|c| {
                    view! {
                        <label class="strat-cost">
                            <input
                                type="radio"
                                name="strat-costs"
                                value=c.cli_name()
                                data-testid=format!("strat-costs-{}", c.cli_name())
                                prop:checked=move || costs.get() == c
                                on:change=move |ev| {
                                    if let Some(c) = CostChoice::parse(&event_target_value(&ev)) {
                                        costs.set(c);
                                    }
                                }
                            />
                            {move || tr(lang.get(), c.label_key())}
                        </label>
                    }
                })
                .collect_view()}
            <span class="hint">{move || tr(lang.get(), "costs_hint")}</span>
        </fieldset>
    }
}

#[component]
fn ResultTable(results: RwSignal<Vec<StrategyResult>>, lang: Signal<Lang>) -> impl IntoView {
    view! {
        // It scrolls sideways on a phone (style.css): focusable, so a keyboard can scroll it.
        <div class="strat-table-wrap" tabindex="0">
            <table class="strat-table" data-testid="strat-table">
                <thead>
                    <tr>{HEADER_KEYS.map(|k| view! { <th scope="col">{move || tr(lang.get(), k)}</th> }).collect_view()}</tr>
                </thead>
                <tbody>
                    {move || {
                        let lang = lang.get();
                        results
                            .get()
                            .iter()
                            .map(|r| {
                                let cells = cells(r, lang);
                                let name = r.name;
                                // The versions the strategy runs on at all (the engine's
                                // rule: the plugin up to 4.2, D27; x-opt-delivery-time
                                // from 4.4, D34).
                                let works = works_on_text(name);
                                if cells.len() < HEADER_KEYS.len() - 2 {
                                    return view! {
                                        <tr data-testid=format!("strat-row-{name}")>
                                            <th scope="row"><code>{name}</code></th>
                                            <td data-testid="strat-works-on">{works}</td>
                                            <td colspan="9">{cells[0].clone()}</td>
                                        </tr>
                                    }
                                        .into_any();
                                }
                                view! {
                                    <tr data-testid=format!("strat-row-{name}")>
                                        <th scope="row"><code>{name}</code></th>
                                        <td data-testid="strat-works-on">{works}</td>
                                        {cells.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}
                                    </tr>
                                }
                                    .into_any()
                            })
                            .collect_view()
                    }}
                </tbody>
            </table>
        </div>
    }
}

/// Chart area in the SVG's own units (the playground's charts use the same frame).
const W: f64 = 320.0;
const H: f64 = 120.0;
const LEFT: f64 = 48.0;
const BOTTOM: f64 = 100.0;
const TOP: f64 = 8.0;

#[component]
fn StrategyCard(r: StrategyResult, lang: Signal<Lang>) -> impl IntoView {
    let name = r.name;
    let points = &r.series;
    let (lo_t, hi_t) = (
        points.first().map_or(0, |p| p.due_ms),
        points.last().map_or(1, |p| p.due_ms).max(1),
    );
    let lo = points
        .iter()
        .map(|p| p.max_ms.min(p.mean_ms as i64))
        .min()
        .unwrap_or(0)
        .min(0) as f64;
    let hi = (points.iter().map(|p| p.max_ms).max().unwrap_or(0) as f64).max(lo + 1.0);
    let x = move |t: u64| LEFT + (W - LEFT - 6.0) * (t - lo_t) as f64 / (hi_t - lo_t).max(1) as f64;
    let y = move |v: f64| BOTTOM - (BOTTOM - TOP) * (v - lo) / (hi - lo);
    let mean_line: String = points
        .iter()
        .map(|p| format!("{:.1},{:.1} ", x(p.due_ms), y(p.mean_ms)))
        .collect();
    let dots = points
        .iter()
        .map(|p| {
            let cls = if p.max_ms > 0 { "pt late" } else { "pt" };
            view! { <circle cx=format!("{:.1}", x(p.due_ms)) cy=format!("{:.1}", y(p.max_ms as f64)) r="2.2" class=cls /> }
        })
        .collect_view();
    let zero_y = format!("{:.1}", y(0.0));
    let has_points = !points.is_empty();
    let r2 = r.clone();
    view! {
        <article class="strat-card" data-testid=format!("strat-card-{name}")>
            <h3><code>{name}</code></h3>
            {has_points
                .then(|| {
                    view! {
                    <svg class="chart" viewBox=format!("0 0 {W} {H}") role="img" aria-label=move || format!("{name}: {}", tr(lang.get(), "chart"))>
                        <line x1=LEFT y1=BOTTOM x2=W - 6.0 y2=BOTTOM class="axis" />
                        <line x1=LEFT y1=TOP x2=LEFT y2=BOTTOM class="axis" />
                        <line x1=LEFT y1=zero_y.clone() x2=W - 6.0 y2=zero_y class="axis" />
                        <text x=LEFT - 4.0 y=TOP + 8.0 class="tick" text-anchor="end">{move || human(lang.get(), hi)}</text>
                        <text x=LEFT - 4.0 y=BOTTOM class="tick" text-anchor="end">{move || if lo < 0.0 { human(lang.get(), lo) } else { "0".into() }}</text>
                        <text x=LEFT y=H - 4.0 class="tick">{move || human(lang.get(), lo_t as f64)}</text>
                        <text x=W - 6.0 y=H - 4.0 class="tick" text-anchor="end">{move || human(lang.get(), hi_t as f64)}</text>
                        <polyline points=mean_line class="depth d0" />
                        {dots}
                    </svg>
                    }
                })}
            <p class="verdict" data-testid=format!("strat-verdict-{name}")>{move || verdict(&r2, lang.get())}</p>
        </article>
    }
}
