//! The clock's timeline (under the clock controls): a slider over the scenario's span
//! with the moments that teach marked on it; dragging it seeks, Page Down / Page Up go
//! to the next / previous mark, and Step stops at the next mark. The marks are
//! `delaylab_playground::marks` (a scout run ahead of the clock, in slices of the
//! frames' spare time: [`Ctx::scout_marks`]); the view model `timeline::Timeline`.
//!
//! ```text
//! frame ─ advance, settle ─ scout_marks (≤ SCOUT_IDLE_MS paused; playing, what is left
//!         of SCOUT_BUSY_FRAME_MS)
//!       ─ marks_rev bumped when marks were found ─ Timeline redrawn
//! load / user input (scenario changed) ─ a new scout from the runner's scenario
//! ```

use delaylab_playground::marks::Marks;
use delaylab_playground::timeline::{self, Timeline};
use leptos::prelude::*;

use super::{perf_now, AfterSeek, Ctx};

/// What the scout may spend of a frame while the clock stands still.
const SCOUT_IDLE_MS: f64 = 6.0;
/// While the clock runs, it looks ahead only in a frame that has spent less than this so
/// far, and up to it: a frame that runs the engine hard (the 200,000-order burst at
/// 1000x) is left alone, its marks were found while it stood still.
const SCOUT_BUSY_FRAME_MS: f64 = 5.0;
/// Without an `until`, the span is redrawn when the clock passes a step of this much.
const SPAN_STEP_MS: u64 = 60_000;
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
            SCOUT_BUSY_FRAME_MS - (perf_now() - wall)
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
    // The span follows the clock only without an `until`, and then by the minute: the
    // model is not rebuilt every frame.
    let span_now = Memo::new(move |_| {
        if c.meta.with(|m| m.until_ms.is_some()) {
            0
        } else {
            c.now().div_ceil(SPAN_STEP_MS) * SPAN_STEP_MS
        }
    });
    let model = Memo::new(move |_| {
        let _ = c.marks_rev.get();
        let lang = c.lang.get();
        let until = c.meta.with(|m| m.until_ms);
        let now = span_now.get();
        c.scout
            .with_value(|s| s.as_ref().map(|s| Timeline::of(&s.marks, until, now, lang)))
    });
    // Where the thumb is: the seek's target while one runs (a drag ahead of the engine).
    let shown = move || c.jump_to.get().unwrap_or_else(|| c.now());
    // The mark the clock stands on (a mark's look follows it without every mark
    // watching the clock).
    let here = Memo::new(move |_| {
        let t = shown();
        model.with(|m| m.as_ref().and_then(|m| m.tick_at(t)).map(|x| x.at_ms))
    });
    let seek = move |t: u64| {
        c.seek(t, AfterSeek::Pause);
    };
    // The line under the slider: the next mark, and how far the scout has looked.
    let note = Memo::new(move |_| {
        let t = shown();
        model.with(|tl| {
            let tl = tl.as_ref()?;
            let next = tl
                .next_after(t)
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
            Some(format!("{next} {more}"))
        })
    });
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let Some(tl) = model.get_untracked() else {
            return;
        };
        let now = c.now_untracked();
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
    // The slider stays one element whatever the marks do (a drag or the focus is never
    // cut short by a mark found meanwhile); its span and words follow the model.
    let end = move || model.with(|m| m.as_ref().map_or(timeline::MIN_SPAN_MS, |m| m.end_ms));
    view! {
        <div class="timeline" data-testid="timeline">
            <input
                type="range"
                class="tl-range"
                data-testid="timeline-range"
                min="0"
                max=move || end().to_string()
                step=move || model.with(|m| m.as_ref().map_or(1, |m| m.key_step_ms())).to_string()
                aria-label=move || c.tr("tl_label")
                aria-describedby="tl-keys"
                aria-valuetext=move || {
                    let lang = c.lang.get();
                    let t = shown();
                    model.with(|m| m.as_ref().map(|m| m.value_text(t, lang)).unwrap_or_default())
                }
                prop:value=move || shown().min(end()).to_string()
                on:input=move |ev| {
                    if let Some(v) = crate::app::input_number(&ev) {
                        seek(v.max(0.0).round() as u64);
                    }
                }
                on:keydown=on_key
            />
            // Drawn over the track; a click on one seeks there (the keys do too).
            <div class="tl-marks" aria-hidden="true">
                // Keyed: a mark found redraws itself, not the others.
                <For
                    each=move || model.with(|m| m.as_ref().map(|m| m.ticks.clone()).unwrap_or_default())
                    key=|t| (t.at_ms, t.text.clone(), (t.pct * 1000.0) as u64)
                    children=move |t| {
                        let at = t.at_ms;
                        view! {
                            <span
                                class="tl-mark"
                                data-testid="timeline-mark"
                                data-at=at.to_string()
                                class:tl-here=move || here.get() == Some(at)
                                style:left=format!("{:.3}%", t.pct)
                                title=t.text.clone()
                                on:click=move |_| seek(at)
                            ></span>
                        }
                    }
                />
                {move || model.with(|m| m.as_ref().and_then(|tl| tl.looked_to.map(|k| timeline::pct(k, tl.end_ms)))).map(|p| view! {
                    <span class="tl-unknown" style:left=format!("{p:.3}%")></span>
                })}
            </div>
            <p class="tl-note" data-testid="timeline-note">
                <span class="sr-only" id="tl-keys">{move || c.tr("tl_keys")}</span>
                {move || note.get()}
            </p>
        </div>
    }
}
