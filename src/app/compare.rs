//! Compare mode: side by side on the playground's one clock, either the same workload
//! through two or more topologies (presets), or the loaded scenario on two RabbitMQ
//! versions (its `broker` overridden: the poison message on 3.10 and 4.0).
//!
//! Each lane is its own simulation (`delaylab_playground::compare::Lane`, the model with
//! its tests; this file holds signals and draws). Every animation frame the main clock
//! advances the scenario in the main view (lane 0's preset when comparing topologies,
//! the user's scenario when comparing versions); then every lane is advanced to exactly
//! that virtual time, so at 6:00 all lanes show 6:00. A lane that is ahead of the main
//! clock (the user restarted or jumped back) is rebuilt from its scenario and runs
//! forward again.
//!
//! ```text
//! main clock 0:00 ── 6:00 ─────────── 30:00 ─ 31:00
//! DLX + TTL       A,B wait   B overdue   A, B delivered (B late 24:00)
//! queue per TTL   A,B wait   B delivered A delivered           (late 0)
//! plugin          A,B stored B delivered A delivered           (late 0)
//!
//! poison message  0:00 ──── 0:21 ───────────── 0:30
//! RabbitMQ 3.10   redelivered every second, forever
//! RabbitMQ 4.0    21st nack: dead-lettered (delivery_limit), parked
//! ```
//!
//! Lane views are redrawn at most every [`REFRESH_MS`] of wall time (and once the clock
//! stops), so three lanes cost about one main view. "Run to the end" runs every lane
//! headless to its end for the final figures (typed rows: the engine's events and
//! lateness rule through the lanes' own runner, never the report's JSON).

use delaylab_engine::version::BrokerVersion;
use delaylab_playground::compare::{
    default_pair, on_version, run_to_end, FinalRow, Lane, LaneKey, LaneView,
};
use delaylab_playground::compare_parting::{first_parting, Parting};

use leptos::prelude::*;

use super::runner::span;
use super::{perf_now, preset_fetch, preset_text, Ctx};

pub use delaylab_playground::compare::MAX_LANES;

/// Wall ms between two redraws of the lanes while the clock runs.
const REFRESH_MS: f64 = 120.0;
/// Wall ms a frame may spend advancing all lanes (the main view has its own budget).
const LANE_BUDGET_MS: f64 = 6.0;

/// Sets of presets that carry the same workload through different topologies.
pub const SETS: [(&str, &[&str]); 1] = [(
    "hol",
    &[
        "head-of-line-blocking",
        "fix-one-queue-per-ttl",
        "fix-delayed-plugin",
    ],
)];

/// What compare mode puts side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Presets: the same workload through different topologies.
    Topologies,
    /// The loaded scenario on two broker versions.
    Versions,
    /// The way off the plugin: three presets, each on its own version (off_plugin.rs).
    OffPlugin,
}

/// The scenario a lane key runs: a preset's, or `base` on the key's version.
pub(super) fn scenario_of(
    key: &LaneKey,
    base: &delaylab_engine::scenario::Scenario,
) -> Option<delaylab_engine::scenario::Scenario> {
    match key {
        LaneKey::Preset(id) => delaylab_engine::scenario::load_str(preset_text(id)?).ok(),
        LaneKey::Version(v) => Some(on_version(base, *v)),
    }
}

/// Runs `then` once the files of the presets among lane keys `ids` are in: at once when
/// they are (embedded or fetched before), else after fetching them (a preset below the
/// gallery's fold or from the field: preset_fetch.rs), once. A failed fetch leaves its
/// lane out, as an unknown preset's.
fn with_lanes_fetched(ids: &[String], then: impl FnOnce() + 'static) {
    let missing: Vec<String> = ids.iter().filter(|k| lane_waits(k)).cloned().collect();
    if missing.is_empty() {
        return then();
    }
    leptos::task::spawn_local(async move {
        for id in &missing {
            // A preset lane's key is its id.
            let _ = preset_fetch::fetch(id).await;
        }
        then();
    });
}

/// Whether lane key `k` is a preset whose file is fetched and not in yet.
fn lane_waits(k: &str) -> bool {
    matches!(LaneKey::parse(k), Some(LaneKey::Preset(id))
        if preset_text(&id).is_none() && preset_fetch::is_fetched_preset(&id))
}

/// The compare mode's state: the lanes (not reactive) and what is drawn of them.
#[derive(Clone, Copy)]
pub struct Cmp {
    lanes: StoredValue<Vec<Lane>, LocalStorage>,
    pub views: RwSignal<Vec<LaneView>>,
    /// The lanes' keys ([`LaneKey::key`], what a share link keeps); empty = compare mode off.
    pub ids: RwSignal<Vec<String>>,
    /// What the panel shows: the user's choice, or what the lanes a start names are.
    pub mode: RwSignal<Mode>,
    refreshed: StoredValue<f64>,
}

impl Cmp {
    pub fn new() -> Cmp {
        Cmp {
            lanes: StoredValue::new_local(vec![]),
            views: RwSignal::new(vec![]),
            ids: RwSignal::new(vec![]),
            mode: RwSignal::new(Mode::Topologies),
            refreshed: StoredValue::new(f64::NEG_INFINITY),
        }
    }

    /// Starts compare mode with these presets (unknown ones skipped, at most
    /// [`MAX_LANES`]); the first is loaded into the main view and the clock restarts.
    /// Err(n): only `n` of them are known presets, fewer than two.
    pub fn start(&self, ctx: &Ctx, ids: &[String]) -> Result<(), usize> {
        self.start_lanes(ctx, ids, true)
    }

    /// As [`Cmp::start`] for lane keys (presets, or `@4.0`: the main view's scenario on a
    /// version); `load_first: false` keeps the main view's scenario (a shared link opens
    /// its own scenario with the lanes beside it). Version lanes never load into the main
    /// view: it keeps the user's scenario, restarted so every clock is at 0:00.
    /// A lane whose preset's file is not in yet starts them all once it is (Ok meanwhile).
    pub fn start_lanes(&self, ctx: &Ctx, ids: &[String], load_first: bool) -> Result<(), usize> {
        if ids.iter().any(|k| lane_waits(k)) {
            let (cmp, c, keys) = (*self, *ctx, ids.to_vec());
            // Once: a fetch that failed leaves its lane out instead of being tried again.
            with_lanes_fetched(ids, move || {
                let _ = cmp.start_fetched_lanes(&c, &keys, load_first);
            });
            return Ok(());
        }
        self.start_fetched_lanes(ctx, ids, load_first)
    }

    /// [`Self::start_lanes`] with every lane's file in or given up on.
    fn start_fetched_lanes(
        &self,
        ctx: &Ctx,
        ids: &[String],
        load_first: bool,
    ) -> Result<(), usize> {
        let base = ctx.runner.with_value(|r| r.scenario.clone());
        let mut lanes: Vec<Lane> = ids
            .iter()
            .filter_map(|k| LaneKey::parse(k))
            .filter_map(|k| Some(Lane::new(k.clone(), scenario_of(&k, &base)?)))
            .take(MAX_LANES)
            .collect();
        if lanes.len() < 2 {
            return Err(lanes.len());
        }
        if load_first {
            match &lanes[0].key {
                LaneKey::Preset(id) => ctx.load(id),
                LaneKey::Version(_) => ctx.restart(),
            }
        }
        let keys: Vec<String> = lanes.iter().map(|l| l.key.key()).collect();
        self.mode
            .set(super::off_plugin::mode_of(&lanes[0].key, &keys));
        self.ids.set(keys);
        self.views.set(lanes.iter_mut().map(Lane::view).collect());
        self.lanes.set_value(lanes);
        Ok(())
    }

    pub fn stop(&self) {
        self.ids.set(vec![]);
        self.views.set(vec![]);
        self.lanes.set_value(vec![]);
    }

    /// The lanes' keys and scenarios, for the "each run to its end" table.
    pub(super) fn scenarios(&self) -> Vec<(LaneKey, delaylab_engine::scenario::Scenario)> {
        self.lanes.with_value(|l| {
            l.iter()
                .map(|l| (l.key.clone(), l.scenario.clone()))
                .collect()
        })
    }

    /// Called every frame after the main view advanced: every lane to `main_now` (a lane
    /// ahead of it, after a restart or a jump back, starts over).
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
                    moved |= lane.follow(main_now, || perf_now() > deadline);
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
                    .try_update_value(|l| l.iter_mut().map(Lane::view).collect())
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

/// A lane's title in the page's language: a preset's name, or `RabbitMQ 4.0` and the
/// scenario's name for a version lane (`fallback` is the scenario's own name).
pub(super) fn lane_title(c: &Ctx, key: &LaneKey, fallback: &str) -> String {
    match key {
        LaneKey::Preset(id) => preset_name(c, id, fallback),
        LaneKey::Version(v) => format!("RabbitMQ {}", v.as_str()),
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

pub(super) fn ctx() -> Ctx {
    expect_context::<Ctx>()
}

pub(super) fn late_text(max_ms: u64) -> String {
    let mark = if max_ms > 0 { "⚠" } else { "✓" };
    format!("{mark} {}", span(max_ms))
}

/// Clicking a lane's title: a preset loads it; a version lane loads the scenario on that
/// version (as the version selector does).
pub(super) fn open_lane(
    c: &Ctx,
    key: &LaneKey,
    scenario: Option<delaylab_engine::scenario::Scenario>,
) {
    match (key, scenario) {
        (LaneKey::Preset(id), _) => c.load(id),
        (LaneKey::Version(_), Some(s)) => c.load_scenario("custom", s),
        (LaneKey::Version(_), None) => {}
    }
}

#[component]
pub fn Compare() -> impl IntoView {
    let c = ctx();
    let cmp = c.cmp;
    let rows = RwSignal::new(Vec::<FinalRow>::new());
    let chosen = RwSignal::new(SETS[0].1.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    let mode = cmp.mode;
    // The two versions picked; None = the default pair for the loaded scenario's version.
    let picked = RwSignal::new([None::<BrokerVersion>; 2]);
    let own = super::version::of_scenario(c);
    let versions = move || {
        let d = default_pair(own.get());
        let p = picked.get();
        [p[0].unwrap_or(d[0]), p[1].unwrap_or(d[1])]
    };
    let error = RwSignal::new(None::<String>);
    // Where the two version runs part (found when they start or run to their end).
    let parting = RwSignal::new(None::<(BrokerVersion, BrokerVersion, Parting)>);
    let find_parting = move || {
        if mode.get_untracked() != Mode::Versions {
            return parting.set(None);
        }
        let [a, b] = versions();
        let base = c.runner.with_value(|r| r.scenario.clone());
        parting.set(Some((
            a,
            b,
            first_parting(on_version(&base, a), on_version(&base, b)),
        )));
    };
    let keys = move || -> Result<Vec<String>, String> {
        match mode.get_untracked() {
            Mode::Topologies => Ok(chosen.get_untracked()),
            Mode::OffPlugin => Ok(delaylab_playground::off_plugin::lane_ids()),
            Mode::Versions => {
                let [a, b] = versions();
                if a == b {
                    return Err(c.tr_untracked("compare_same_version").to_string());
                }
                Ok([a, b].map(|v| LaneKey::Version(v).key()).to_vec())
            }
        }
    };
    let run_all = move || match keys() {
        Ok(k) => {
            error.set(None);
            find_parting();
            with_lanes_fetched(&k.clone(), move || {
                let base = c.runner.with_value(|r| r.scenario.clone());
                rows.set(
                    k.iter()
                        .filter_map(|k| LaneKey::parse(k))
                        .filter_map(|k| Some(run_to_end(k.clone(), scenario_of(&k, &base)?)))
                        .collect(),
                )
            })
        }
        Err(e) => error.set(Some(e)),
    };
    let side_by_side = move || match keys().map(|k| cmp.start(&c, &k)) {
        Ok(Ok(())) => {
            error.set(None);
            find_parting();
            c.set_playing(true);
        }
        Ok(Err(n)) => error.set(Some(format!(
            "{} ({n})",
            c.tr_untracked("compare_need_two")
        ))),
        Err(e) => error.set(Some(e)),
    };
    let presets = c.presets.get_value();
    let versions_mode = move || mode.get() == Mode::Versions;
    view! {
        <section class="panel compare" aria-labelledby="cmp-h" data-testid="compare">
            <h2 id="cmp-h">{move || c.tr(super::off_plugin::title_key(mode.get()))}</h2>
            <fieldset class="cmp-mode" data-testid="cmp-mode">
                <legend class="sr-only">{move || c.tr("compare_mode")}</legend>
                {[(Mode::Topologies, "topologies", "compare_mode_topologies"), (Mode::Versions, "versions", "compare_mode_versions"), (Mode::OffPlugin, "off-plugin", "compare_mode_off_plugin")]
                    .map(|(m, slug, key)| {
                        view! {
                            <label class="cmp-mode-opt">
                                <input
                                    type="radio"
                                    name="cmp-mode"
                                    data-testid=format!("cmp-mode-{slug}")
                                    prop:checked=move || mode.get() == m
                                    on:change=move |_| {
                                        mode.set(m);
                                        rows.set(vec![]);
                                        error.set(None);
                                        parting.set(None);
                                    }
                                />
                                {move || c.tr(key)}
                            </label>
                        }
                    })
                    .collect_view()}
            </fieldset>
            <p class="hint">{move || c.tr(super::off_plugin::hint_key(mode.get()))}</p>
            <Show when=move || mode.get() == Mode::Topologies>
            <details class="cmp-pick-wrap">
            <summary>{move || c.tr("compare_pick")} ": " {move || chosen.with(|v| v.len())}</summary>
            <fieldset class="cmp-pick">
                <legend class="sr-only">{move || c.tr("compare_pick")}</legend>
                {presets
                    .clone()
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
            </Show>
            <Show when=versions_mode>
                <div class="cmp-versions" data-testid="cmp-versions">
                    {[(0usize, "a", "compare_version_a"), (1, "b", "compare_version_b")]
                        .map(|(i, slug, key)| {
                            view! {
                                <label class="cmp-version">
                                    {move || c.tr(key)} " "
                                    <select
                                        data-testid=format!("cmp-version-{slug}")
                                        on:change=move |ev| {
                                            if let Some(v) = BrokerVersion::parse(&event_target_value(&ev)) {
                                                picked.update(|p| p[i] = Some(v));
                                            }
                                        }
                                    >
                                        {BrokerVersion::ALL
                                            .into_iter()
                                            .map(|v| {
                                                view! {
                                                    <option value=v.as_str() title=v.label() selected=move || versions()[i] == v>
                                                        {format!("RabbitMQ {}", v.as_str())}
                                                    </option>
                                                }
                                            })
                                            .collect_view()}
                                    </select>
                                </label>
                            }
                        })
                        .collect_view()}
                    <span class="sub">{move || c.meta_texts().name}</span>
                </div>
            </Show>
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
            <super::compare_parting::PartingBox parting />
            <super::compare_lanes::Lanes />
            <super::compare_lanes::FinalTable rows />
            <Show when=move || mode.get() == Mode::OffPlugin><super::off_plugin::CostAtScale /></Show>
        </section>
    }
}
