//! The playground app: shared state (signals + a non-reactive runner), the frame loop
//! that paces the simulation, and the page layout.
//!
//! Contract of the clock:
//! - Every runner the page shows is made by `Ctx::new_runner` (a load, a restart), which
//!   attaches the host tap (`Ctx::tap`, host_api.rs) before the runner's first event.
//! - Every move of the clock to a chosen time is [`Ctx::seek`]: the Jump box, the Step
//!   button, the host API's `seek`, a share link's or an embed's start time. Back in time
//!   restarts from 0 and replays; forward runs the engine to the time in slices of about
//!   10 ms per animation frame (`Ctx::frame`, the clock paused meanwhile, `jump_to` set);
//!   on arrival it plays if asked to ([`AfterSeek`]).

pub mod autosave;
pub mod checked;
pub mod compare;
pub mod edit;
pub mod edit_binding;
pub mod edit_exchange;
pub mod edit_queue;
pub mod edit_rules;
pub mod embed;
pub mod host_api;
pub mod i18n;
pub mod orders;
pub mod panels;
pub mod presets_zh;
pub mod runner;
pub mod share;
pub mod strategies;
pub mod topo;
pub mod topo_view;

use std::collections::BTreeSet;

use delaylab_engine::scenario::{self, ActionKind, PublishSpec, Scenario};
use delaylab_engine::snapshot::Snapshot;
use leptos::prelude::*;

use host_api::TapHandle;
use i18n::{t, Lang};
use runner::{Alert, Batch, Move, Runner};

include!(concat!(env!("OUT_DIR"), "/presets.rs"));

/// The scenario loaded first: an empty DLX delay pipeline to publish into.
pub const SANDBOX: &str = include_str!("sandbox.json");

/// The furthest [`Ctx::seek`] goes: 30 days of virtual time.
pub const MAX_SEEK_MS: u64 = 30 * 24 * 3_600_000;

/// What the clock does once a seek has arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterSeek {
    /// Stay paused at the time reached: the Jump box, Step, the host API's `seek` (the
    /// learner looks at that moment; Play goes on from it).
    Pause,
    /// Play (autoplay with a start time).
    Play,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PresetMeta {
    pub id: String,
    pub name: String,
    pub description: String,
    pub watch: String,
    pub until_ms: Option<u64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Flight {
    pub id: u64,
    pub mv: Move,
    pub start: f64,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub count: u64,
    pub mean: f64,
    pub p99: u64,
    pub max: u64,
    /// (delivery index, lateness) downsampled for the chart.
    pub points: Vec<(u64, u64)>,
    pub total: u64,
}

/// Ready counts per queue sampled over virtual time (for the depth chart).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Depths {
    pub samples: Vec<(u64, Vec<(String, u64)>)>,
    /// Minimum virtual time between samples; doubles each time the list is thinned.
    pub step: u64,
}

impl Depths {
    pub fn push(&mut self, t: u64, v: Vec<(String, u64)>) -> bool {
        if let Some((last, lv)) = self.samples.last() {
            if t < last + self.step.max(1) && *lv == v || t <= *last {
                return false;
            }
        }
        self.samples.push((t, v));
        if self.samples.len() > 400 {
            let mut i = 0;
            self.samples.retain(|_| {
                i += 1;
                i % 2 == 1
            });
            self.step = (self.step.max(1)) * 2;
        }
        true
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub struct ClockBase {
    pub wall: f64,
    pub virt: u64,
}

#[derive(Clone, Copy)]
pub struct Ctx {
    pub runner: StoredValue<Runner, LocalStorage>,
    pub lang: RwSignal<Lang>,
    pub snap: RwSignal<Snapshot>,
    /// Bumped when the log view should refresh (throttled while running fast).
    pub log_rev: RwSignal<u64>,
    pub log_dirty: StoredValue<bool>,
    pub log_refreshed: StoredValue<f64>,
    /// Wall time of the last snapshot, and whether the one shown is behind the engine.
    pub snap_at: StoredValue<f64>,
    pub snap_stale: StoredValue<bool>,
    pub alerts: RwSignal<Vec<Alert>>,
    pub flights: RwSignal<Vec<Flight>>,
    pub wall: RwSignal<f64>,
    pub playing: RwSignal<bool>,
    pub speed: RwSignal<f64>,
    pub selected: RwSignal<Option<u32>>,
    pub stats: RwSignal<Stats>,
    pub depths: RwSignal<Depths>,
    pub preset: RwSignal<String>,
    pub meta: RwSignal<PresetMeta>,
    pub targets: RwSignal<BTreeSet<String>>,
    pub rev: RwSignal<u64>,
    pub limit: RwSignal<Option<String>>,
    pub jump_to: RwSignal<Option<u64>>,
    /// Play once the pending jump arrives (see [`Ctx::seek`]).
    pub play_after_jump: StoredValue<bool>,
    /// What an embed's host page hears (host_api.rs). Owned here, not by the runner, so
    /// it outlives restarts and loads; None when no host listens.
    pub tap: StoredValue<Option<TapHandle>, LocalStorage>,
    pub base: StoredValue<ClockBase>,
    pub reduced_motion: StoredValue<bool>,
    pub next_flight: StoredValue<u64>,
    pub last_stats: StoredValue<f64>,
    pub presets: StoredValue<Vec<PresetMeta>>,
    pub load_error: RwSignal<Option<String>>,
    pub cmp: compare::Cmp,
    /// Bumped when a user input is written into the scenario (autosave watches it).
    pub scenario_rev: RwSignal<u64>,
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
    if l.to_lowercase().starts_with("zh") {
        Lang::Zh
    } else {
        Lang::En
    }
}

pub fn preset_text(id: &str) -> Option<&'static str> {
    if id == "sandbox" {
        return Some(SANDBOX);
    }
    PRESETS.iter().find(|(k, _)| *k == id).map(|(_, v)| *v)
}

/// A preset's (name, description, what to watch) in `lang` (Chinese from presets_zh.rs,
/// English from the preset file as the fallback).
pub fn preset_texts(lang: Lang, m: &PresetMeta) -> (String, String, String) {
    presets_zh::pick(
        lang == Lang::Zh,
        &m.id,
        (m.name.clone(), m.description.clone(), m.watch.clone()),
    )
}

fn meta_of(id: &str, s: &Scenario) -> PresetMeta {
    PresetMeta {
        id: id.to_string(),
        name: s.name.clone(),
        description: s.description.clone(),
        watch: s.watch.clone(),
        until_ms: s.until_ms,
    }
}

pub fn parse_clock(text: &str) -> Result<u64, String> {
    let text = text.trim();
    if text.contains(':') {
        let parts: Vec<&str> = text.split(':').collect();
        if parts.len() > 3 {
            return Err(text.to_string());
        }
        let mut ms: f64 = 0.0;
        for (i, p) in parts.iter().rev().enumerate() {
            let v: f64 = p.trim().parse().map_err(|_| text.to_string())?;
            if v < 0.0 || !v.is_finite() {
                return Err(text.to_string());
            }
            ms += v * [1000.0, 60_000.0, 3_600_000.0][i];
        }
        Ok(ms.round() as u64)
    } else {
        scenario::duration::parse_duration(text)
    }
}

impl Ctx {
    pub fn tr(&self, key: &'static str) -> &'static str {
        t(self.lang.get(), key)
    }

    /// The loaded scenario's texts in the UI language; an edited preset ("custom") keeps
    /// its preset's Chinese texts while its name is unchanged.
    pub fn meta_texts(&self) -> (String, String, String) {
        let lang = self.lang.get();
        self.meta.with(|m| {
            let id = self
                .presets
                .with_value(|ps| ps.iter().find(|p| p.name == m.name).map(|p| p.id.clone()));
            let m = PresetMeta {
                id: id.unwrap_or_else(|| m.id.clone()),
                ..m.clone()
            };
            preset_texts(lang, &m)
        })
    }

    pub fn now(&self) -> u64 {
        self.snap.with(|s| s.now_ms)
    }

    /// Loads a preset (or the sandbox) and resets everything.
    pub fn load(&self, id: &str) {
        let Some(text) = preset_text(id) else { return };
        match scenario::load_str(text) {
            Ok(s) => self.load_scenario(id, s),
            Err(e) => self
                .load_error
                .set(Some(format!("{}: {}", e.path, e.message))),
        }
    }

    /// Loads a scenario (a preset, or one edited as JSON) and resets everything.
    pub fn load_scenario(&self, id: &str, s: Scenario) {
        // The preset's name in the address, so a link opens it (#head-of-line-blocking).
        if let Some(loc) = web_sys::window().map(|w| w.location()) {
            let want = if id == "sandbox" || id == "custom" {
                String::new()
            } else {
                format!("#{id}")
            };
            if loc.hash().unwrap_or_default() != want {
                let _ = loc.set_hash(&want);
            }
        }
        self.meta.set(meta_of(id, &s));
        self.preset.set(id.to_string());
        self.load_error.set(None);
        self.runner.set_value(self.new_runner(s));
        self.reset_views();
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

    /// A publish repeated `count` times `every_ms` apart from now: recorded as one
    /// repeated action (`{n}` in the body is the run number), the first run at once.
    pub fn publish_repeated(&self, template: PublishSpec, count: u32, every_ms: u64) {
        let now = self.runner.with_value(|r| r.now());
        let body = |i: u32| template.body.replace("{n}", &i.to_string());
        let run = |i: u32| {
            ActionKind::Publish(PublishSpec {
                body: body(i),
                ..template.clone()
            })
        };
        let batch = self.runner.try_update_value(|r| {
            let repeat = Some(scenario::Repeat { count, every_ms });
            let kept = r.record(scenario::Action {
                at_ms: now,
                kind: ActionKind::Publish(template.clone()),
                repeat,
            });
            for i in 2..=count {
                r.schedule(
                    now.saturating_add(every_ms.saturating_mul(u64::from(i - 1))),
                    run(i),
                );
            }
            let mut b = Batch::default();
            r.run_unrecorded(run(1), &mut b);
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
        self.playing.set(false);
        self.jump_to.set(None);
        self.play_after_jump.set_value(false);
        self.selected.set(None);
        self.alerts.set(vec![]);
        self.flights.set(vec![]);
        self.limit.set(None);
        self.stats.set(Stats::default());
        self.depths.set(Depths::default());
        self.last_stats.set_value(-1e9);
        if let Some((targets, snap)) = self.runner.try_update_value(|r| {
            let _ = r.drain();
            (r.track.publish_targets.clone(), Snapshot::of(&r.sim))
        }) {
            self.targets.set(targets);
            self.snap.set(snap);
        }
        self.log_rev.update(|r| *r += 1);
        self.rev.update(|r| *r += 1);
    }

    /// Play or pause now; an explicit choice cancels a play promised after a seek.
    pub fn set_playing(&self, on: bool) {
        self.play_after_jump.set_value(false);
        if on {
            self.rebase_clock();
        }
        self.playing.set(on);
    }

    pub fn set_speed(&self, speed: f64) {
        let speed = speed.clamp(1.0, 100_000.0);
        self.rebase_clock();
        self.speed.set(speed);
    }

    /// Playing runs virtual time from here: the engine's clock (the snapshot shown may
    /// be a few frames behind it when traffic is heavy).
    fn rebase_clock(&self) {
        let virt = self.runner.with_value(|r| r.now());
        self.base.set_value(ClockBase {
            wall: perf_now(),
            virt,
        });
    }

    /// Moves the virtual clock to `ms`; see the module docs. Back in time restarts the
    /// simulation (a new runner, so a host hears the replay from its start) and replays
    /// to `ms`; forward (or after the restart) `frame` runs the engine there over as many
    /// frames as it takes, the clock paused so playing does not fight the jump; then
    /// `after` says whether it plays. False, and nothing done, beyond [`MAX_SEEK_MS`].
    pub fn seek(&self, ms: u64, after: AfterSeek) -> bool {
        if ms > MAX_SEEK_MS {
            return false;
        }
        self.set_playing(false);
        if ms < self.runner.with_value(|r| r.now()) {
            self.restart();
        }
        self.jump_to.set(Some(ms));
        self.play_after_jump.set_value(after == AfterSeek::Play);
        true
    }

    /// Applies what a batch of events changed to the signals.
    pub fn apply(&self, batch: Batch, wall: f64) {
        // Heavy traffic: redraw the broker's state at most ~12 times a second (the
        // simulation itself keeps going every frame); light traffic: every frame.
        let busy = self.playing.get_untracked() || self.jump_to.get_untracked().is_some();
        let heavy = batch.events > 40
            || self
                .runner
                .with_value(|r| !r.track.log.is_empty() && r.sim.live_copies() > 5_000);
        if busy && heavy && wall - self.snap_at.get_value() < 80.0 {
            self.snap_stale.set_value(true);
        } else {
            self.refresh_snapshot(wall);
        }
        self.apply_events(batch, wall, busy);
    }

    fn refresh_snapshot(&self, wall: f64) {
        let (snap, targets) = self
            .runner
            .with_value(|r| (Snapshot::of(&r.sim), r.track.publish_targets.clone()));
        self.snap_at.set_value(wall);
        self.snap_stale.set_value(false);
        if self.targets.with_untracked(|t| *t != targets) {
            self.targets.set(targets);
        }
        let sample: Vec<(String, u64)> = snap
            .queues
            .iter()
            .map(|q| (q.name.clone(), q.ready))
            .collect();
        let t = snap.now_ms;
        let mut d = self.depths.get_untracked();
        // The samples the runner took at its fixed steps since the last refresh, then now.
        let stepped = self
            .runner
            .try_update_value(|r| std::mem::take(&mut r.depth_log))
            .unwrap_or_default();
        let mut changed = false;
        for (at, v) in stepped {
            changed |= d.push(at, v);
        }
        if d.push(t, sample) || changed {
            self.depths.set(d);
        }
        self.snap.set(snap);
    }

    fn apply_events(&self, batch: Batch, wall: f64, busy: bool) {
        if batch.events > 0 {
            self.log_dirty.set_value(true);
        }
        if !batch.alerts.is_empty() {
            self.alerts.update(|a| {
                a.extend(batch.alerts);
                let n = a.len();
                if n > 6 {
                    a.drain(..n - 6);
                }
            });
        }
        if !batch.moves.is_empty() && !self.reduced_motion.get_value() {
            self.flights.update(|f| {
                for mv in batch.moves {
                    if f.len() >= 48 {
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
        if let Some(l) = batch.limit {
            self.limit.set(Some(l));
            self.playing.set(false);
        }
        let n = self.runner.with_value(|r| r.track.delivered.len() as u64);
        if n != self.stats.with_untracked(|s| s.total) {
            let last = self.last_stats.get_value();
            if !busy || (n < 2_000 && wall - last > 100.0) || wall - last > 500.0 {
                self.last_stats.set_value(wall);
                self.stats.set(
                    self.runner
                        .with_value(|r| compute_stats(&r.track.delivered)),
                );
            }
        }
        if batch.events > 0 {
            self.rev.update(|r| *r += 1);
        }
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

    /// One animation frame: advance the virtual clock, apply the events.
    fn frame(&self) {
        let wall = perf_now();
        self.wall.set(wall);
        let busy = self.playing.get_untracked() || self.jump_to.get_untracked().is_some();
        if !busy && self.snap_stale.get_value() {
            self.refresh_snapshot(wall);
        }
        if !busy
            && self.runner.with_value(|r| r.track.delivered.len() as u64)
                != self.stats.with_untracked(|s| s.total)
        {
            self.stats.set(
                self.runner
                    .with_value(|r| compute_stats(&r.track.delivered)),
            );
        }
        if self.log_dirty.get_value() && (!busy || wall - self.log_refreshed.get_value() > 700.0) {
            self.log_dirty.set_value(false);
            self.log_refreshed.set_value(wall);
            self.log_rev.update(|r| *r += 1);
        }
        if !self.flights.with_untracked(|f| f.is_empty()) {
            self.flights
                .update(|f| f.retain(|x| wall - x.start < 900.0));
        }
        let jump = self.jump_to.get_untracked();
        let playing = self.playing.get_untracked();
        if jump.is_none() && !playing {
            // Paused: lanes still catch up with a step, a restart or a user publish.
            self.cmp
                .follow(self.runner.with_value(|r| r.now()), wall, false);
            return;
        }
        let until = self.meta.with_untracked(|m| m.until_ms);
        let target = match jump {
            Some(j) => j,
            None => {
                let b = self.base.get_value();
                let t = b.virt as f64 + (wall - b.wall).max(0.0) * self.speed.get_untracked();
                let t = t.min(1e15) as u64;
                match until {
                    Some(u) if b.virt < u => t.min(u),
                    _ => t,
                }
            }
        };
        let deadline = wall + 10.0;
        let mut batch = Batch::default();
        let reached = self
            .runner
            .try_update_value(|r| r.advance_to(target, &mut batch, || perf_now() > deadline))
            .unwrap_or(true);
        let now = self.runner.with_value(|r| r.now());
        let mut arrived = false;
        if reached {
            if jump.is_some() {
                self.jump_to.set(None);
                arrived = true;
            }
            if playing && jump.is_none() {
                if let Some(u) = until {
                    if now >= u && self.base.get_value().virt < u {
                        self.playing.set(false);
                    }
                }
            }
        } else if playing {
            // Behind: the simulation needs more than a frame; follow it, never run away.
            self.base.set_value(ClockBase { wall, virt: now });
        }
        self.apply(batch, wall);
        self.cmp.follow(now, wall, busy);
        if arrived && self.play_after_jump.get_value() {
            self.set_playing(true);
        } else if arrived && playing {
            // Play was pressed during the jump: play on from where the jump arrived.
            self.rebase_clock();
        }
    }
}

pub fn compute_stats(delivered: &[(u32, u64, u64)]) -> Stats {
    let lates: Vec<u64> = delivered.iter().map(|d| d.2).collect();
    let v = delaylab_engine::report::lateness_summary(&lates);
    let max_points = 300usize;
    let n = delivered.len();
    let points = if n <= max_points {
        delivered
            .iter()
            .enumerate()
            .map(|(i, d)| (i as u64, d.2))
            .collect()
    } else {
        // One point per bucket: its largest lateness (what a learner must not miss).
        let mut pts = Vec::with_capacity(max_points);
        for b in 0..max_points {
            let lo = b * n / max_points;
            let hi = ((b + 1) * n / max_points).max(lo + 1).min(n);
            let (i, d) = delivered[lo..hi]
                .iter()
                .enumerate()
                .max_by_key(|(_, d)| d.2)
                .map(|(i, d)| (lo + i, d))
                .unwrap();
            pts.push((i as u64, d.2));
        }
        pts
    };
    Stats {
        count: v["count"].as_u64().unwrap_or(0),
        mean: v["mean"].as_f64().unwrap_or(0.0),
        p99: v["p99"].as_u64().unwrap_or(0),
        max: v["max"].as_u64().unwrap_or(0),
        points,
        total: n as u64,
    }
}

fn frame_loop(ctx: Ctx) {
    ctx.frame();
    request_animation_frame(move || frame_loop(ctx));
}

#[component]
pub fn App() -> impl IntoView {
    let mut presets: Vec<PresetMeta> = vec![];
    for (id, text) in std::iter::once(&("sandbox", SANDBOX)).chain(PRESETS.iter()) {
        if let Ok(s) = scenario::load_str(text) {
            presets.push(meta_of(id, &s));
        }
    }
    let first = scenario::load_str(SANDBOX).expect("the sandbox scenario loads");
    let runner = Runner::new(first.clone());
    let snap = Snapshot::of(&runner.sim);
    let targets = runner.track.publish_targets.clone();
    let ctx = Ctx {
        runner: StoredValue::new_local(runner),
        lang: RwSignal::new(browser_lang()),
        snap: RwSignal::new(snap),
        log_rev: RwSignal::new(0),
        log_dirty: StoredValue::new(false),
        log_refreshed: StoredValue::new(0.0),
        snap_at: StoredValue::new(0.0),
        snap_stale: StoredValue::new(false),
        alerts: RwSignal::new(vec![]),
        flights: RwSignal::new(vec![]),
        wall: RwSignal::new(0.0),
        playing: RwSignal::new(false),
        speed: RwSignal::new(1.0),
        selected: RwSignal::new(None),
        stats: RwSignal::new(Stats::default()),
        depths: RwSignal::new(Depths::default()),
        preset: RwSignal::new("sandbox".into()),
        meta: RwSignal::new(meta_of("sandbox", &first)),
        targets: RwSignal::new(targets),
        rev: RwSignal::new(0),
        limit: RwSignal::new(None),
        jump_to: RwSignal::new(None),
        play_after_jump: StoredValue::new(false),
        tap: StoredValue::new_local(None),
        base: StoredValue::new(ClockBase::default()),
        reduced_motion: StoredValue::new(prefers_reduced_motion()),
        next_flight: StoredValue::new(0),
        last_stats: StoredValue::new(-1e9),
        presets: StoredValue::new(presets),
        load_error: RwSignal::new(None),
        cmp: compare::Cmp::new(),
        scenario_rev: RwSignal::new(0),
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
    // Embed mode (?embed): a compact page that reads its own fragment and options.
    if embed::requested() {
        request_animation_frame(move || frame_loop(ctx));
        return view! { <embed::Embed /> }.into_any();
    }
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    let hash = hash.trim_start_matches('#');
    if !hash.is_empty() && preset_text(hash).is_some() {
        ctx.load(hash);
    }
    share::start(ctx, hash);
    request_animation_frame(move || frame_loop(ctx));

    view! {
        <div class="app" data-testid="app">
            <a class="skip" href="#main">{move || ctx.tr("skip")}</a>
            <panels::Header />
            <panels::Controls />
            <share::LinkNotice />
            <main id="main" class="grid">
                <aside class="area-left">
                    <panels::Gallery />
                    <panels::ScenarioJson />
                    <edit::EditTopology />
                </aside>
                <div class="area-watch">
                    <panels::Watch />
                </div>
                <div class="area-topo">
                    <topo_view::Topology />
                </div>
                <div class="area-queues">
                    <panels::Queues />
                    <orders::Orders />
                    <panels::Lateness />
                </div>
                <aside class="area-right">
                    <panels::Publish />
                    <panels::Consumers />
                    <panels::Inspector />
                </aside>
                <div class="area-wide">
                    <compare::Compare />
                    <strategies::StrategyCompare />
                    <panels::Log />
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
