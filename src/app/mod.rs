//! The playground app: shared state (signals + a non-reactive runner and pacer), the
//! frame loop, and the page layout. What the page computes lives in the native crate
//! `delaylab_playground` (runner, pacer, forms, layout, lines, chart data); this module
//! and the panels only hold signals and draw.
//!
//! The clock (play, pause, speed, seek, the frame loop) is `clock.rs`.

pub mod autosave;
pub mod check_edit;
pub mod checked;
pub mod chunks;
pub mod clock;
pub mod compare;
pub mod compare_lanes;
pub mod compare_parting;
pub mod deferred;
pub mod edit;
pub mod edit_binding;
pub mod edit_exchange;
pub mod edit_queue;
pub mod embed;
pub mod embed_text;
pub mod for_load;
pub mod history;
pub mod host_api;
pub mod lazy_module;
pub mod loading;
pub mod module_wait;
pub mod off_plugin;
pub mod orders;
pub mod panels;
pub mod preset_fetch;
pub mod share;
pub mod strategies;
pub mod timeline;
pub mod topo_info;
pub mod topo_view;
pub mod version;
pub mod zh_fetch;

pub use delaylab_playground::{edit_rules, i18n, runner, topo};
pub use loading::{is_preset, preset_text};

use delaylab_engine::scenario::{self, Action, Scenario};
use delaylab_engine::snapshot::Snapshot;
use delaylab_engine::version::BrokerVersion;
use delaylab_playground::chips::ChipGate;
use delaylab_playground::host::TapHandle;
use delaylab_playground::pacer::Pacer;
use delaylab_playground::refresh::{self, Refresh, MAX_ALERTS, MAX_FLIGHTS};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

pub use delaylab_playground::clock::{TimeError, MAX_SEEK_MS};
pub use delaylab_playground::pacer::AfterSeek;
pub use delaylab_playground::presets::{preset_texts, PresetMeta, PresetRef, PresetTexts};
pub use delaylab_playground::stats::{Depths, Stats};

use i18n::{t, Lang};
use runner::{Alert, Batch, Move, Runner};

include!(concat!(env!("OUT_DIR"), "/presets.rs"));

/// The scenario loaded first: an order-timeout pipeline with a wait queue per delay, to
/// publish into (it opens on the newest live-checked version, `PresetMeta::opens_on`).
pub const SANDBOX: &str = include_str!("sandbox.json");

#[derive(Clone, Debug, PartialEq)]
pub struct Flight {
    pub id: u64,
    pub mv: Move,
    pub start: f64,
}

#[derive(Clone, Copy)]
pub struct Ctx {
    // The non-reactive side: the simulation and what paces it.
    pub runner: StoredValue<Runner, LocalStorage>,
    /// What an embed's host page hears (host_api.rs). Owned here, not by the runner, so
    /// it outlives restarts and loads; None when no host listens.
    pub tap: StoredValue<Option<TapHandle>, LocalStorage>,
    pub pacer: StoredValue<Pacer>,
    pub refresh: StoredValue<Refresh>,
    pub next_flight: StoredValue<u64>,
    /// One chip on an edge at a time (`delaylab_playground::chips`).
    pub chips: StoredValue<ChipGate>,
    pub reduced_motion: StoredValue<bool>,
    pub presets: StoredValue<Vec<PresetMeta>>,
    // What the views read.
    pub lang: RwSignal<Lang>,
    pub snap: RwSignal<Snapshot>,
    /// Bumped when the log view should refresh (paced while running fast).
    pub log_rev: RwSignal<u64>,
    pub alerts: RwSignal<Vec<Alert>>,
    pub flights: RwSignal<Vec<Flight>>,
    pub wall: RwSignal<f64>,
    /// The pacer's state, copied for the views by `sync_clock`.
    pub playing: RwSignal<bool>,
    /// Lists that draw fewer rows while the clock moves (the log, the queues' chips) draw
    /// them all (`Refresh::calm`, set each frame by `settle`).
    pub calm: RwSignal<bool>,
    pub speed: RwSignal<f64>,
    pub jump_to: RwSignal<Option<u64>>,
    /// Where play stopped because nothing was left to happen (the pacer's `quiet_at`).
    pub quiet_at: RwSignal<Option<u64>>,
    pub selected: RwSignal<Option<u32>>,
    pub stats: RwSignal<Stats>,
    pub depths: RwSignal<Depths>,
    pub preset: RwSignal<String>,
    pub meta: RwSignal<PresetMeta>,
    pub targets: RwSignal<runner::PublishTargets>,
    pub rev: RwSignal<u64>,
    pub limit: RwSignal<Option<String>>,
    pub load_error: RwSignal<Option<String>>,
    pub cmp: compare::Cmp,
    /// Bumped when a user input is written into the scenario (autosave watches it).
    pub scenario_rev: RwSignal<u64>,
    /// Bumped once per scenario load (not on a restart): the key of every view value
    /// that belongs to one scenario (`delaylab_playground::per_load::PerLoad`).
    pub load_rev: RwSignal<u64>,
    /// Back, Forward and Undo over loads (off in an embed: an iframe's history entries
    /// would be its host page's).
    pub hist: history::History,
    /// What changes for the loaded scenario on the version it runs on (`version.rs`).
    /// Local: it keeps the scenario it is about (not `Sync`).
    pub notice: RwSignal<Option<version::Notice>, LocalStorage>,
    /// The timeline's marks and the scout that finds them (timeline.rs).
    pub scout: StoredValue<Option<timeline::Scout>, LocalStorage>,
    pub marks_rev: RwSignal<u64>,
}

/// A time typed into the Jump box or an embed's `start=` (`delaylab_playground::clock`),
/// its decimals read by the browser: Rust's float parser is not start-up code.
pub fn parse_clock(text: &str) -> Result<u64, TimeError> {
    delaylab_playground::clock::parse_clock_with(text, |p| {
        Some(web_sys::js_sys::Number::parse_float(p)).filter(|v| !v.is_nan())
    })
}

/// A range input's value as a number (the browser's `valueAsNumber`: its value is always
/// one), None when it is not (an input of another type).
pub fn input_number<E: JsCast>(ev: &E) -> Option<f64> {
    let input = ev
        .unchecked_ref::<web_sys::Event>()
        .target()?
        .dyn_into::<web_sys::HtmlInputElement>()
        .ok()?;
    Some(input.value_as_number()).filter(|v| !v.is_nan())
}

pub fn perf_now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

fn prefers_reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

fn browser_lang() -> Lang {
    let l = web_sys::window()
        .and_then(|w| w.navigator().language())
        .unwrap_or_default();
    // ASCII only: `str::to_lowercase` would link Unicode's case tables into the start-up
    // module for two letters.
    if l.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("zh")) {
        Lang::Zh
    } else {
        Lang::En
    }
}

impl Ctx {
    /// A word in the page's language, tracked (a view redraws when the language changes).
    pub fn tr(&self, key: &'static str) -> &'static str {
        t(self.lang.get(), key)
    }

    /// The same, read once: for an event handler (a tracked read there is what Leptos
    /// warns about).
    pub fn tr_untracked(&self, key: &'static str) -> &'static str {
        t(self.lang.get_untracked(), key)
    }

    /// The loaded scenario's texts in the UI language (see `presets::loaded_texts`).
    pub fn meta_texts(&self) -> PresetTexts {
        let lang = self.lang.get();
        self.meta.with(|m| {
            self.presets
                .with_value(|ps| delaylab_playground::presets::loaded_texts(lang, m, ps))
        })
    }

    /// The clock as the views show it (tracked: a view redraws when it moves).
    pub fn now(&self) -> u64 {
        self.snap.with(|s| s.now_ms)
    }

    /// The same, read once without tracking: for an event handler or a host message
    /// (a tracked read there is what Leptos warns about, "accessed outside a reactive
    /// tracking context").
    pub fn now_untracked(&self) -> u64 {
        self.snap.with_untracked(|s| s.now_ms)
    }

    /// The one way a runner for the page is made: with the host tap (if any) attached
    /// before the simulation's first event, so a host never misses one.
    fn new_runner(&self, s: Scenario) -> Runner {
        Runner::with_tap(s, self.tap.get_value())
    }

    /// Starts tapping the event stream for a host page: the current runner from now on,
    /// and every later one from its start.
    pub fn set_tap(&self, tap: TapHandle) {
        self.tap.set_value(Some(tap.clone()));
        self.runner.update_value(|r| r.set_tap(Some(tap)));
    }

    /// A consumer command now (add / stop), effects shown at once.
    pub fn command(&self, cmd: delaylab_engine::Command) {
        if let Some(b) = self.runner.try_update_value(|r| {
            let mut b = Batch::default();
            r.command(cmd, &mut b);
            b
        }) {
            self.scenario_rev.update(|v| *v += 1);
            self.apply(b, perf_now());
        }
    }

    /// A user action (a repeated publish: the engine schedules its runs), recorded into
    /// the scenario; the runs due now are shown at once.
    pub fn run_scheduled(&self, action: Action) {
        let batch = self.runner.try_update_value(|r| {
            let mut b = Batch::default();
            let kept = r.run_scheduled(action, &mut b);
            (b, kept)
        });
        if let Some((b, kept)) = batch {
            self.after_input(kept);
            self.apply(b, perf_now());
        }
    }

    /// After a user input: the scenario changed (autosave, link); say so if it is full.
    fn after_input(&self, kept: bool) {
        self.scenario_rev.update(|v| *v += 1);
        if !kept {
            self.limit.set(Some(
                t(self.lang.get_untracked(), "record_full").to_string(),
            ));
        }
    }

    /// Re-creates the simulation from the loaded scenario (time 0).
    pub fn restart(&self) {
        let (s, recorded) = self.runner.with_value(|r| (r.scenario.clone(), r.recorded));
        let mut r = self.new_runner(s);
        r.recorded = recorded;
        self.runner.set_value(r);
        self.reset_views();
    }

    fn reset_views(&self) {
        let until = self.meta.with_untracked(|m| m.until_ms);
        self.pacer.update_value(|p| p.reset(until));
        self.sync_clock();
        self.selected.set(None);
        self.flights.set(vec![]);
        self.chips.update_value(ChipGate::clear);
        self.limit.set(None);
        self.stats.set(Stats::default());
        self.refresh.update_value(Refresh::reset);
        if let Some((targets, snap, alerts, depths)) = self.runner.try_update_value(|r| {
            let _ = r.drain();
            (
                r.track.publish_targets.clone(),
                Snapshot::of(&r.sim),
                // What the broker refused while declaring the topology, as any refusal.
                r.start_alerts.clone(),
                r.depths.clone().unwrap_or_default(),
            )
        }) {
            self.targets.set(targets);
            self.snap.set(snap);
            self.alerts.set(alerts);
            self.depths.set(depths);
        }
        self.log_rev.update(|r| *r += 1);
        self.rev.update(|r| *r += 1);
    }

    /// Applies what a batch of events changed to the signals.
    pub fn apply(&self, batch: Batch, wall: f64) {
        let busy = self.busy();
        let heavy = self.runner.with_value(|r| {
            refresh::heavy(batch.events, r.track.log.is_empty(), r.sim.live_copies())
        });
        if self
            .refresh
            .try_update_value(|f| f.snapshot_due(busy, heavy, wall))
            .unwrap_or(true)
        {
            self.refresh_snapshot(wall);
        }
        self.apply_events(batch, wall, busy);
    }

    fn refresh_snapshot(&self, wall: f64) {
        let (snap, targets) = self
            .runner
            .with_value(|r| (Snapshot::of(&r.sim), r.track.publish_targets.clone()));
        self.refresh.update_value(|f| f.snapshot_taken(wall));
        if self.targets.with_untracked(|t| *t != targets) {
            self.targets.set(targets);
        }
        // The depth record (kept by the runner after every instant), when it moved on.
        let rev = self.depths.with_untracked(|d| d.rev);
        if let Some(Some(d)) = self
            .runner
            .try_with_value(|r| r.depths.as_ref().filter(|d| d.rev != rev).cloned())
        {
            self.depths.set(d);
        }
        self.snap.set(snap);
    }

    fn apply_events(&self, batch: Batch, wall: f64, busy: bool) {
        if batch.events > 0 {
            self.refresh.update_value(Refresh::log_changed);
        }
        if !batch.alerts.is_empty() {
            self.alerts.update(|a| {
                a.extend(batch.alerts);
                let n = a.len();
                if n > MAX_ALERTS {
                    a.drain(..n - MAX_ALERTS);
                }
            });
        }
        self.fly(batch.moves, wall);
        if let Some(l) = batch.limit {
            self.limit.set(Some(l));
            self.pacer.update_value(Pacer::stop);
            self.sync_clock();
        }
        let n = self.runner.with_value(|r| r.track.delivered.len() as u64);
        if n != self.stats.with_untracked(|s| s.total)
            && self
                .refresh
                .try_update_value(|f| f.stats_due(busy, n, wall))
                .unwrap_or(true)
        {
            self.stats
                .set(self.runner.with_value(|r| Stats::of(&r.track.delivered)));
        }
        // A check settled by the clock alone (no event) is news too (the Checks panel,
        // an embed's host).
        if batch.events > 0 || batch.checks {
            self.rev.update(|r| *r += 1);
        }
    }

    /// Starts the chips of `moves`, and of the moves that waited for their edge.
    pub(super) fn fly(&self, moves: Vec<Move>, wall: f64) {
        if self.reduced_motion.get_value()
            || (moves.is_empty() && !self.chips.with_value(ChipGate::waiting))
        {
            return;
        }
        let fly = self
            .chips
            .try_update_value(|g| g.admit(moves, wall))
            .unwrap_or_default();
        if fly.is_empty() {
            return;
        }
        self.flights.update(|f| {
            for mv in fly {
                if f.len() >= MAX_FLIGHTS {
                    break;
                }
                let id = self.next_flight.get_value() + 1;
                self.next_flight.set_value(id);
                f.push(Flight {
                    id,
                    mv,
                    start: wall,
                });
            }
        });
    }

    /// Runs the user's action now and shows its effects at once.
    pub fn run_now(&self, action: delaylab_engine::scenario::ActionKind) {
        let batch = self.runner.try_update_value(|r| {
            let mut b = Batch::default();
            let kept = r.run_now(action, &mut b);
            (b, kept)
        });
        if let Some((b, kept)) = batch {
            self.after_input(kept);
            self.apply(b, perf_now());
        }
    }
}

#[component]
pub fn App() -> impl IntoView {
    // The gallery's entries from the presets' texts, not loaded (PresetMeta::of_text: the
    // loader's full check of every preset was a tenth of the mount); a preset is loaded,
    // and checked, when it is opened. Of the presets a first screen does not offer (below
    // the gallery's fold, from the field) the start-up module holds these entries only
    // (build.rs); their files are fetched when opened.
    let mut presets: Vec<PresetMeta> = std::iter::once(&("sandbox", SANDBOX))
        .chain(PRESETS.iter())
        .chain(FETCHED_PRESETS.iter())
        .filter_map(|(id, text)| PresetMeta::of_text(id, text).ok())
        .collect();
    // In file-name order after the sandbox, as build.rs lists the files (the gallery lists
    // them so): by `ID.json`, not the id (`x-fix.json` comes before `x.json`).
    delaylab_engine::sort::sort_by_key(&mut presets[1..], |p| format!("{}.json", p.id));
    let mut first = scenario::load_str(SANDBOX).expect("the sandbox scenario loads");
    let opens_on = PresetMeta::of("sandbox", &first).opens_on();
    first.broker = (opens_on != BrokerVersion::default()).then_some(opens_on);
    let runner = Runner::new(first.clone());
    let start_alerts = runner.start_alerts.clone();
    let start_depths = runner.depths.clone().unwrap_or_default();
    let snap = Snapshot::of(&runner.sim);
    let targets = runner.track.publish_targets.clone();
    let ctx = Ctx {
        runner: StoredValue::new_local(runner),
        tap: StoredValue::new_local(None),
        pacer: StoredValue::new(Pacer::new(first.until_ms)),
        refresh: StoredValue::new(Refresh::default()),
        next_flight: StoredValue::new(0),
        chips: StoredValue::new(ChipGate::default()),
        reduced_motion: StoredValue::new(prefers_reduced_motion()),
        presets: StoredValue::new(presets),
        lang: RwSignal::new(browser_lang()),
        snap: RwSignal::new(snap),
        log_rev: RwSignal::new(0),
        alerts: RwSignal::new(start_alerts),
        flights: RwSignal::new(vec![]),
        wall: RwSignal::new(0.0),
        playing: RwSignal::new(false),
        calm: RwSignal::new(true),
        speed: RwSignal::new(1.0),
        jump_to: RwSignal::new(None),
        quiet_at: RwSignal::new(None),
        selected: RwSignal::new(None),
        stats: RwSignal::new(Stats::default()),
        depths: RwSignal::new(start_depths),
        preset: RwSignal::new("sandbox".into()),
        meta: RwSignal::new(PresetMeta::of("sandbox", &first)),
        targets: RwSignal::new(targets),
        rev: RwSignal::new(0),
        limit: RwSignal::new(None),
        load_error: RwSignal::new(None),
        cmp: compare::Cmp::new(),
        scenario_rev: RwSignal::new(0),
        load_rev: RwSignal::new(0),
        hist: history::History::new(),
        notice: RwSignal::new_local(None),
        scout: StoredValue::new_local(None),
        marks_rev: RwSignal::new(0),
    };
    provide_context(ctx);
    Effect::new(move |_| {
        let l = ctx.lang.get();
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = el.set_attribute("lang", if l == Lang::Zh { "zh-CN" } else { "en" });
        }
    });
    // The presets' Chinese texts: a file of their own, not the start-up wasm's data.
    zh_fetch::start(ctx);
    // Embed mode (?embed): a compact page that reads its own fragment and options.
    if embed::requested() {
        request_animation_frame(move || clock::frame_loop(ctx));
        return view! { <deferred::Deferred load=preset_fetch::embed_page /> }.into_any();
    }
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    let hash = hash.trim_start_matches('#');
    if !hash.is_empty() {
        ctx.load_address(hash, history::Entry::Same);
    }
    share::start(ctx, hash);
    history::start(ctx);
    request_animation_frame(move || clock::frame_loop(ctx));

    view! {
        <div class="app" data-testid="app">
            <a class="skip" href="#main">{move || ctx.tr("skip")}</a>
            <panels::Header />
            <panels::Controls />
            <deferred::Deferred load=chunks::link_notice />
            <history::UndoNote />
            <main id="main" class="grid">
                <aside class="area-left" aria-label=move || ctx.tr("area_left")>
                    <panels::Gallery />
                    <panels::ScenarioJson />
                    <edit::EditTopology />
                </aside>
                <div class="area-watch">
                    <panels::Watch />
                </div>
                <div class="area-topo">
                    <deferred::Deferred load=chunks::topology_area first=true />
                </div>
                <div class="area-queues">
                    <deferred::Deferred load=chunks::queues_area />
                </div>
                <aside class="area-right" aria-label=move || ctx.tr("area_right")>
                    <deferred::Deferred load=chunks::right_area />
                </aside>
                <div class="area-wide">
                    <deferred::Deferred load=chunks::wide_area />
                </div>
            </main>
            <footer class="foot">
                <span>"delaylab "</span>
                <span data-testid="version">"v" {crate::VERSION}</span>
                <span>" · "{move || ctx.tr("footer")}</span>
            </footer>
        </div>
    }
    .into_any()
}
