//! Compare mode: the same workload through two or more topologies, side by side, on the
//! playground's one clock.
//!
//! Each lane is its own simulation ([`Runner`]) of one preset. Every animation frame the
//! main clock advances the scenario in the main view (lane 0's, loaded when compare mode
//! starts); then every lane is advanced to exactly that virtual time, so at 6:00 all lanes
//! show 6:00. A lane that is ahead of the main clock (the user restarted or jumped back)
//! is rebuilt from its scenario and runs forward again.
//!
//! ```text
//! main clock 0:00 ── 6:00 ─────────── 30:00 ─ 31:00
//! DLX + TTL       A,B wait   B overdue   A, B delivered (B late 24:00)
//! queue per TTL   A,B wait   B delivered A delivered           (late 0)
//! plugin          A,B stored B delivered A delivered           (late 0)
//! ```
//!
//! Lane views are redrawn at most every [`REFRESH_MS`] of wall time (and once the clock
//! stops), so three lanes cost about one main view. "Run to the end" runs every lane
//! headless to its end for the final figures.

use delaylab_engine::report::text::clock;
use delaylab_engine::snapshot::Snapshot;
use leptos::prelude::*;

use super::runner::{short, span, Batch, Runner};
use super::{perf_now, preset_text, Ctx, Stats};

/// Wall ms between two redraws of the lanes while the clock runs.
const REFRESH_MS: f64 = 120.0;
/// Wall ms a frame may spend advancing all lanes (the main view has its own budget).
const LANE_BUDGET_MS: f64 = 6.0;
/// Chips shown per queue, deliveries shown per lane.
const LANE_CHIPS: usize = 8;
const LANE_DELIVERIES: usize = 6;
/// At most this many lanes (each is a whole simulation).
pub const MAX_LANES: usize = 4;

/// Sets of presets that carry the same workload through different topologies.
pub const SETS: [(&str, &[&str]); 1] = [(
    "hol",
    &[
        "head-of-line-blocking",
        "fix-one-queue-per-ttl",
        "fix-delayed-plugin",
    ],
)];

struct Lane {
    id: String,
    runner: Runner,
    /// Lateness figures of the first `.1` deliveries: recomputed (a sort) only when a
    /// delivery was added, not on every redraw.
    stats: (Stats, usize),
}

impl Lane {
    fn new(id: &str) -> Option<Lane> {
        let s = delaylab_engine::scenario::load_str(preset_text(id)?).ok()?;
        Some(Lane {
            id: id.to_string(),
            runner: Runner::new(s).without_depth_samples(),
            stats: (Stats::default(), 0),
        })
    }

    fn stats(&mut self) -> Stats {
        let d = &self.runner.track.delivered;
        if self.stats.1 != d.len() {
            self.stats = (Stats::of(d), d.len());
        }
        self.stats.0.clone()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct QueueLine {
    pub name: String,
    pub ready: u64,
    pub overdue: u64,
    /// (body, remaining TTL, overdue by) of the first messages, head first.
    pub chips: Vec<(String, Option<u64>, Option<u64>)>,
}

/// A delayed exchange in a lane: (name, messages_delayed, first (body, remaining ms) in due order).
pub type DelayedLine = (String, u64, Vec<(String, u64)>);

#[derive(Clone, Debug, PartialEq)]
pub struct LaneView {
    pub id: String,
    pub name: String,
    pub now_ms: u64,
    pub queues: Vec<QueueLine>,
    pub delayed: Vec<DelayedLine>,
    /// The last deliveries: (body, at, late).
    pub delivered: Vec<(String, u64, u64)>,
    pub stats: Stats,
}

fn view_of(lane: &mut Lane) -> LaneView {
    let stats = lane.stats();
    let r = &lane.runner;
    let snap = Snapshot::of(&r.sim);
    let queues = snap
        .queues
        .iter()
        .map(|q| QueueLine {
            name: q.name.clone(),
            ready: q.ready,
            overdue: q.overdue,
            chips: q
                .head
                .iter()
                .take(LANE_CHIPS)
                .map(|e| (short(&e.body), e.remaining_ms, e.overdue_ms))
                .collect(),
        })
        .collect();
    let delayed = snap
        .exchanges
        .iter()
        .filter(|x| x.is_delayed())
        .map(|x| {
            let items = snap
                .delayed
                .iter()
                .filter(|d| d.exchange == x.name)
                .take(LANE_CHIPS)
                .map(|d| (short(&d.body), d.remaining_ms))
                .collect();
            (x.name.clone(), x.messages_delayed, items)
        })
        .collect();
    let d = &r.track.delivered;
    let delivered = d[d.len().saturating_sub(LANE_DELIVERIES)..]
        .iter()
        .map(|(m, at, late)| (short(r.track.body(*m)), *at, *late))
        .collect();
    LaneView {
        id: lane.id.clone(),
        name: r.scenario.name.clone(),
        now_ms: r.now(),
        queues,
        delayed,
        delivered,
        stats,
    }
}

/// The compare mode's state: the lanes (not reactive) and what is drawn of them.
#[derive(Clone, Copy)]
pub struct Cmp {
    lanes: StoredValue<Vec<Lane>, LocalStorage>,
    pub views: RwSignal<Vec<LaneView>>,
    /// The presets of the lanes; empty = compare mode off.
    pub ids: RwSignal<Vec<String>>,
    refreshed: StoredValue<f64>,
}

impl Cmp {
    pub fn new() -> Cmp {
        Cmp {
            lanes: StoredValue::new_local(vec![]),
            views: RwSignal::new(vec![]),
            ids: RwSignal::new(vec![]),
            refreshed: StoredValue::new(-1e9),
        }
    }

    /// Starts compare mode with these presets (unknown ones skipped, at most
    /// [`MAX_LANES`]); the first is loaded into the main view and the clock restarts.
    /// Err(n): only `n` of them are known presets, fewer than two.
    pub fn start(&self, ctx: &Ctx, ids: &[String]) -> Result<(), usize> {
        self.start_lanes(ctx, ids, true)
    }

    /// As [`Cmp::start`]; `load_first: false` keeps the main view's scenario (a shared
    /// link opens its own scenario with the lanes beside it).
    pub fn start_lanes(&self, ctx: &Ctx, ids: &[String], load_first: bool) -> Result<(), usize> {
        let mut lanes: Vec<Lane> = ids
            .iter()
            .take(MAX_LANES)
            .filter_map(|id| Lane::new(id))
            .collect();
        if lanes.len() < 2 {
            return Err(lanes.len());
        }
        if load_first {
            ctx.load(&lanes[0].id);
        }
        self.ids.set(lanes.iter().map(|l| l.id.clone()).collect());
        self.views.set(lanes.iter_mut().map(view_of).collect());
        self.lanes.set_value(lanes);
        Ok(())
    }

    pub fn stop(&self) {
        self.ids.set(vec![]);
        self.views.set(vec![]);
        self.lanes.set_value(vec![]);
    }

    /// Called every frame after the main view advanced: every lane to `main_now`.
    pub fn follow(&self, main_now: u64, wall: f64, busy: bool) {
        if self.lanes.with_value(Vec::is_empty) {
            return;
        }
        let deadline = wall + LANE_BUDGET_MS;
        let moved = self
            .lanes
            .try_update_value(|lanes| {
                let mut moved = false;
                for lane in lanes.iter_mut() {
                    if lane.runner.now() > main_now {
                        // The main clock went back (restart, reload): start this lane over.
                        if let Some(fresh) = Lane::new(&lane.id) {
                            *lane = fresh;
                        }
                    }
                    if lane.runner.now() < main_now {
                        let mut b = Batch::default();
                        lane.runner
                            .advance_to(main_now, &mut b, || perf_now() > deadline);
                        moved = true;
                    }
                }
                moved
            })
            .unwrap_or(false);
        let stale = self
            .views
            .with_untracked(|v| v.first().is_some_and(|l| l.now_ms != main_now));
        if (moved || stale) && (!busy || wall - self.refreshed.get_value() > REFRESH_MS) {
            self.refreshed.set_value(wall);
            self.views.set(
                self.lanes
                    .try_update_value(|l| l.iter_mut().map(view_of).collect())
                    .unwrap_or_default(),
            );
        }
    }
}

impl Default for Cmp {
    fn default() -> Cmp {
        Cmp::new()
    }
}

/// A preset's name in the page's language (the lanes and the picker show presets;
/// `fallback` is the scenario's own name, for an id that is not a preset).
fn preset_name(c: &Ctx, id: &str, fallback: &str) -> String {
    let lang = c.lang.get();
    c.presets
        .with_value(|ps| {
            ps.iter()
                .find(|p| p.id == id)
                .map(|p| super::preset_texts(lang, p).name)
        })
        .unwrap_or_else(|| fallback.to_string())
}

fn ctx() -> Ctx {
    expect_context::<Ctx>()
}

/// One preset run headless to its end: the final lateness figures and deliveries.
#[derive(Clone, Debug, PartialEq)]
struct FinalRow {
    id: String,
    name: String,
    /// The report's `lateness_ms`: count, mean, p99, max.
    late: (u64, f64, u64, u64),
    deliveries: Vec<(String, u64, u64)>,
}

fn run_to_end(id: &str) -> Option<FinalRow> {
    let s = delaylab_engine::scenario::load_str(preset_text(id)?).ok()?;
    let v = delaylab_engine::report::run(&s);
    let l = &v["lateness_ms"];
    let late = (
        l["count"].as_u64()?,
        l["mean"].as_f64()?,
        l["p99"].as_u64()?,
        l["max"].as_u64()?,
    );
    let field = |d: &serde_json::Value, k: &str| d[k].as_u64().unwrap_or(0);
    let deliveries = v["deliveries"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|d| {
            (
                short(d["body"].as_str().unwrap_or("")),
                field(d, "delivered_at_ms"),
                field(d, "late_ms"),
            )
        })
        .collect();
    Some(FinalRow {
        id: id.to_string(),
        name: s.name.clone(),
        late,
        deliveries,
    })
}

fn late_text(max_ms: u64) -> String {
    let mark = if max_ms > 0 { "⚠" } else { "✓" };
    format!("{mark} {}", span(max_ms))
}

#[component]
pub fn Compare() -> impl IntoView {
    let c = ctx();
    let cmp = c.cmp;
    let rows = RwSignal::new(Vec::<FinalRow>::new());
    let chosen = RwSignal::new(SETS[0].1.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    let error = RwSignal::new(None::<String>);
    let run_all = move || {
        rows.set(
            chosen
                .get_untracked()
                .iter()
                .filter_map(|id| run_to_end(id))
                .collect(),
        )
    };
    let side_by_side = move || match cmp.start(&c, &chosen.get_untracked()) {
        Ok(()) => {
            error.set(None);
            c.set_playing(true);
        }
        Err(n) => error.set(Some(format!("{} ({n})", c.tr("compare_need_two")))),
    };
    let presets = c.presets.get_value();
    view! {
        <section class="panel compare" aria-labelledby="cmp-h" data-testid="compare">
            <h2 id="cmp-h">{move || c.tr("compare")}</h2>
            <p class="hint">{move || c.tr("compare_hint")}</p>
            <details class="cmp-pick-wrap">
            <summary>{move || c.tr("compare_pick")} ": " {move || chosen.with(|v| v.len())}</summary>
            <fieldset class="cmp-pick">
                <legend class="sr-only">{move || c.tr("compare_pick")}</legend>
                {presets
                    .into_iter()
                    .filter(|p| p.id != "sandbox")
                    .map(|p| {
                        let id = p.id.clone();
                        let id2 = id.clone();
                        view! {
                            <label class="cmp-opt">
                                <input
                                    type="checkbox"
                                    data-testid=format!("cmp-pick-{id}")
                                    prop:checked=move || chosen.with(|v| v.contains(&id))
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        chosen.update(|v| {
                                            v.retain(|x| *x != id2);
                                            if on && v.len() < MAX_LANES {
                                                v.push(id2.clone());
                                            }
                                        });
                                    }
                                />
                                {let id = p.id.clone(); let name = p.name.clone(); move || preset_name(&c, &id, &name)}
                            </label>
                        }
                    })
                    .collect_view()}
            </fieldset>
            </details>
            <div class="cmp-actions">
                <button class="primary" data-testid="compare-live" on:click=move |_| side_by_side()>
                    {move || c.tr("compare_live")}
                </button>
                <button data-testid="compare-run" on:click=move |_| run_all()>{move || c.tr("compare_run")}</button>
                {move || {
                    (!cmp.ids.with(Vec::is_empty))
                        .then(|| {
                            view! {
                                <button data-testid="compare-stop" on:click=move |_| cmp.stop()>
                                    {move || c.tr("compare_stop")}
                                </button>
                            }
                        })
                }}
            </div>
            <p class="form-error" role="alert">{move || error.get().map(|e| format!("⚠ {e}"))}</p>
            <Lanes />
            <FinalTable rows />
        </section>
    }
}

#[component]
fn Lanes() -> impl IntoView {
    let c = ctx();
    let cmp = c.cmp;
    view! {
        <div class="lanes" data-testid="lanes" aria-live="off">
            <For
                each=move || cmp.views.get()
                key=|v| (v.id.clone(), v.now_ms, v.stats.total, v.queues.iter().map(|q| q.ready).sum::<u64>())
                children=move |v| view! { <LaneCard v /> }
            />
        </div>
    }
}

#[component]
fn LaneCard(v: LaneView) -> impl IntoView {
    let c = ctx();
    let id = v.id.clone();
    let bad = v.stats.summary.max_ms > 0;
    view! {
        <article class="lane" data-testid=format!("lane-{}", v.id)>
            <header class="lane-head">
                <button class="link" on:click=move |_| c.load(&id)>{let (id, name) = (v.id.clone(), v.name.clone()); move || preset_name(&c, &id, &name)}</button>
                <span class="lane-clock">{clock(v.now_ms)}</span>
            </header>
            <dl class="figures lane-figures" class:late=bad>
                <div>
                    <dt>{c.tr("delivered_n")}</dt>
                    <dd>{v.stats.summary.count}</dd>
                </div>
                <div>
                    <dt>{c.tr("mean")}</dt>
                    <dd>{span(v.stats.summary.mean_ms.round() as u64)}</dd>
                </div>
                <div>
                    <dt>"p99"</dt>
                    <dd>{span(v.stats.summary.p99_ms)}</dd>
                </div>
                <div>
                    <dt>{c.tr("max")}</dt>
                    <dd data-testid="lane-max">{late_text(v.stats.summary.max_ms)}</dd>
                </div>
            </dl>
            {v
                .queues
                .into_iter()
                .map(|q| {
                    view! {
                        <div class="lane-q">
                            <span class="qname">{q.name}</span>
                            <span class="count">{c.tr("ready")} " " <b>{q.ready}</b></span>
                            {(q.overdue > 0)
                                .then(|| {
                                    view! {
                                        <span class="count overdue-count">"⚠ " {c.tr("overdue")} " " <b>{q.overdue}</b></span>
                                    }
                                })}
                            <ol class="chips mini">
                                {q
                                    .chips
                                    .into_iter()
                                    .map(|(body, rem, over)| {
                                        let ttl = match (rem, over) {
                                            (_, Some(o)) => format!("⚠ +{}", span(o)),
                                            (Some(r), _) => format!("◷ {}", span(r)),
                                            _ => String::new(),
                                        };
                                        view! {
                                            <li class="chip" class:overdue=over.is_some()>
                                                <span class="chip-body">{body}</span>
                                                <span class="chip-ttl">{ttl}</span>
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ol>
                        </div>
                    }
                })
                .collect_view()}
            {v
                .delayed
                .into_iter()
                .map(|(name, count, items)| {
                    view! {
                        <div class="lane-q">
                            <span class="qname">"◷ " {name}</span>
                            <span class="count">"messages_delayed " <b>{count}</b></span>
                            <ol class="chips mini">
                                {items
                                    .into_iter()
                                    .map(|(body, rem)| {
                                        view! {
                                            <li class="chip delayed">
                                                <span class="chip-body">{body}</span>
                                                <span class="chip-ttl">{format!("◷ {}", span(rem))}</span>
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ol>
                        </div>
                    }
                })
                .collect_view()}
            <p class="lane-delivered">
                <span class="sub">{c.tr("compare_when")} ": "</span>
                {if v.delivered.is_empty() { "—".to_string() } else { deliveries_text(&v.delivered) }}
            </p>
        </article>
    }
}

fn deliveries_text(d: &[(String, u64, u64)]) -> String {
    d.iter()
        .map(|(b, t, l)| {
            if *l > 0 {
                format!("{b} {} (+{})", clock(*t), span(*l))
            } else {
                format!("{b} {}", clock(*t))
            }
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

#[component]
fn FinalTable(rows: RwSignal<Vec<FinalRow>>) -> impl IntoView {
    let c = ctx();
    move || {
        let r = rows.get();
        (!r.is_empty()).then(|| {
            view! {
                <h3 class="sub-h">{c.tr("compare_final")}</h3>
                <div class="table-wrap">
                    <table class="cmp-table">
                        <thead>
                            <tr>
                                <th scope="col">{c.tr("topology")}</th>
                                <th scope="col">{c.tr("delivered_n")}</th>
                                <th scope="col">{c.tr("mean")}</th>
                                <th scope="col">"p99"</th>
                                <th scope="col">{c.tr("max")}</th>
                                <th scope="col">{c.tr("compare_when")}</th>
                            </tr>
                        </thead>
                        <tbody>
                            {r
                                .into_iter()
                                .map(|row| {
                                    let id = row.id.clone();
                                    view! {
                                        <tr data-testid=format!("compare-{}", row.id) class:late={row.late.3 > 0}>
                                            <th scope="row">
                                                <button class="link" on:click=move |_| c.load(&id)>{let (id, name) = (row.id.clone(), row.name.clone()); move || preset_name(&c, &id, &name)}</button>
                                            </th>
                                            <td>{row.late.0}</td>
                                            <td>{span(row.late.1.round() as u64)}</td>
                                            <td>{span(row.late.2)}</td>
                                            <td class="max">{late_text(row.late.3)}</td>
                                            <td class="when">{deliveries_text(&row.deliveries)}</td>
                                        </tr>
                                    }
                                })
                                .collect_view()}
                        </tbody>
                    </table>
                </div>
            }
        })
    }
}
