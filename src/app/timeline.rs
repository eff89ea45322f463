//! The clock's timeline (under the clock controls): a slider over the scenario's span
//! with the moments that teach marked on it; dragging it seeks, Page Down / Page Up go
//! to the next / previous mark, and Step stops at the next mark. The marks are
//! `delaylab_playground::marks` (a scout run ahead of the clock, in slices of the
//! frames' spare time: [`Ctx::scout_marks`]); the view model `timeline::Timeline`.
//!
//! ```text
//! frame ─ advance, settle ─ scout_marks (≤ SCOUT_IDLE_MS paused, ≤ SCOUT_BUSY_MS playing)
//!       ─ marks_rev bumped when marks were found ─ Timeline redrawn
//! load / user input (scenario changed) ─ a new scout from the runner's scenario
//! ```

use delaylab_playground::marks::Marks;
use delaylab_playground::pacer::FRAME_BUDGET_MS;
use delaylab_playground::timeline::{self, Timeline};
use leptos::prelude::*;

use super::{perf_now, AfterSeek, Ctx};

/// What the scout may spend of a frame while the clock stands still.
const SCOUT_IDLE_MS: f64 = 6.0;
/// ... and while it runs (only what the frame left of its budget, at most this).
const SCOUT_BUSY_MS: f64 = 2.0;
/// What Step may spend looking ahead for the next mark before it takes the next timer.
const STEP_LOOK_MS: f64 = 150.0;

/// The scout and the scenario it scouts (the load and the input it was made after).
pub struct Scout {
    key: (u64, u64),
    pub marks: Marks,
}

impl Ctx {
    fn scenario_key(&self) -> (u64, u64) {
        (
            self.load_rev.get_untracked(),
            self.scenario_rev.get_untracked(),
        )
    }

    /// The scout for the scenario as it is now (a new one after a load or an input).
    fn fresh_scout(&self) {
        let key = self.scenario_key();
        if self
            .scout
            .with_value(|s| s.as_ref().is_some_and(|s| s.key == key))
        {
            return;
        }
        let marks = self.runner.with_value(|r| Marks::new(&r.scenario));
        self.scout.set_value(Some(Scout { key, marks }));
        self.marks_rev.update(|r| *r += 1);
    }

    /// Looks ahead for marks with what the frame can spare (the frame began at `wall`).
    pub(super) fn scout_marks(&self, wall: f64) {
        self.fresh_scout();
        let budget = if self.busy() {
            (FRAME_BUDGET_MS - (perf_now() - wall)).clamp(0.0, SCOUT_BUSY_MS)
        } else {
            SCOUT_IDLE_MS
        };
        if budget <= 0.0 {
            return;
        }
        let deadline = perf_now() + budget;
        let found = self.scout.try_update_value(|s| {
            let Some(s) = s.as_mut() else { return false };
            if s.marks.done() {
                return false;
            }
            let rev = s.marks.rev;
            s.marks.scout(|| perf_now() > deadline);
            s.marks.rev != rev
        });
        if found == Some(true) {
            self.marks_rev.update(|r| *r += 1);
        }
    }

    /// Where Step goes: the next mark (looked for now if the scout is not there yet),
    /// else the next thing that happens by itself.
    pub fn step_target(&self) -> Option<u64> {
        self.fresh_scout();
        let now = self.runner.with_value(|r| r.now());
        let deadline = perf_now() + STEP_LOOK_MS;
        let mark = self
            .scout
            .try_update_value(|s| {
                let s = s.as_mut()?;
                let rev = s.marks.rev;
                let next = s.marks.scout_next_after(now, || perf_now() > deadline);
                Some((next, s.marks.rev != rev))
            })
            .flatten();
        if let Some((_, true)) = mark {
            self.marks_rev.update(|r| *r += 1);
        }
        let timer = self.runner.with_value(|r| r.next_at());
        mark.and_then(|m| m.0)
            // A stop of the run by a limit, or the end: the next timer is all there is.
            .or(timer)
    }
}

#[component]
pub fn TimelineBar() -> impl IntoView {
    let c = expect_context::<Ctx>();
    let model = Memo::new(move |_| {
        let _ = c.marks_rev.get();
        let lang = c.lang.get();
        let until = c.meta.with(|m| m.until_ms);
        let now = c.now();
        c.scout
            .with_value(|s| s.as_ref().map(|s| Timeline::of(&s.marks, until, now, lang)))
    });
    // Where the thumb is: the seek's target while one runs (a drag ahead of the engine).
    let shown = move || c.jump_to.get().unwrap_or_else(|| c.now());
    let seek = move |t: u64| {
        c.seek(t, AfterSeek::Pause);
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let Some(tl) = model.get_untracked() else {
            return;
        };
        let now = c.now();
        let to = match ev.key().as_str() {
            "PageDown" => tl.next_after(now),
            "PageUp" => tl.prev_before(now).or(Some(0)),
            _ => return,
        };
        ev.prevent_default();
        if let Some(t) = to {
            seek(t);
        }
    };
    view! {
        <div class="timeline" data-testid="timeline">
            {move || model.get().map(|tl| {
                let end = tl.end_ms;
                let step = tl.key_step_ms();
                let lang = c.lang.get();
                let tl_text = tl.clone();
                view! {
                    <input
                        type="range"
                        class="tl-range"
                        data-testid="timeline-range"
                        min="0"
                        max=end.to_string()
                        step=step.to_string()
                        aria-label=move || c.tr("tl_label")
                        aria-describedby="tl-keys"
                        aria-valuetext=move || tl_text.value_text(shown(), lang)
                        prop:value=move || shown().min(end).to_string()
                        on:input=move |ev| {
                            if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                                seek(v.max(0.0).round() as u64);
                            }
                        }
                        on:keydown=on_key
                    />
                    // Drawn over the track; a click on one seeks there (the keys do too).
                    <div class="tl-marks" aria-hidden="true">
                        {tl.ticks.iter().map(|t| {
                            let at = t.at_ms;
                            view! {
                                <span
                                    class="tl-mark"
                                    data-testid="timeline-mark"
                                    data-at=at.to_string()
                                    class:tl-here=move || shown() == at
                                    style:left=format!("{:.3}%", t.pct)
                                    title=t.text.clone()
                                    on:click=move |_| seek(at)
                                ></span>
                            }
                        }).collect_view()}
                        {tl.looked_to.map(|k| view! {
                            <span class="tl-unknown" style:left=format!("{:.3}%", timeline::pct(k, end))></span>
                        })}
                    </div>
                }
            })}
            <p class="tl-note" data-testid="timeline-note">
                <span class="sr-only" id="tl-keys">{move || c.tr("tl_keys")}</span>
                {move || model.get().map(|tl| {
                    let next = tl
                        .next_after(shown())
                        .and_then(|t| tl.tick_at(t))
                        .map(|t| format!("{} {}", c.tr("tl_next"), t.text))
                        .unwrap_or_else(|| c.tr("tl_none").to_string());
                    let more = if tl.cut_short {
                        c.tr("tl_cut_short")
                    } else if tl.looked_to.is_some() {
                        c.tr("tl_looking")
                    } else {
                        ""
                    };
                    format!("{next} {more}")
                })}
            </p>
        </div>
    }
}
