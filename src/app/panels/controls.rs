//! The clock controls: play / pause, step, restart, speed, jump to a time, and the
//! clock's status line. Every move of the clock goes through `Ctx::seek` /
//! `Ctx::set_playing` / `Ctx::set_speed` (the pacer's rules).

use delaylab_engine::report::text::clock;
use leptos::prelude::*;

use super::{ctx, fmt_speed};
use crate::app::{parse_clock, AfterSeek};
use delaylab_playground::clock::TimeError;

/// The speed preset buttons (virtual ms per wall ms).
const SPEED_PRESETS: [f64; 5] = [1.0, 10.0, 100.0, 1000.0, 10000.0];
/// The slider's range: log10 of the speed, 0 (1x) to 5 (100,000x).
const SLIDER_MAX: &str = "5";

#[component]
pub fn Controls() -> impl IntoView {
    let c = ctx();
    let jump_text = RwSignal::new(String::new());
    let msg = RwSignal::new(None::<&'static str>);
    // Why the Jump box's text is not a time (said in the page's language when shown).
    let bad_time = RwSignal::new(None::<TimeError>);
    // The next marked moment (timeline.rs), else the next thing that happens.
    let step = move |_| match c.step_target() {
        Some(t) if c.seek(t, AfterSeek::Pause) => msg.set(None),
        Some(_) => msg.set(Some("seek_too_far")),
        None => {
            c.set_playing(false);
            msg.set(Some("nothing_next"))
        }
    };
    // The same seek as the host API's and a link's start time (Ctx::seek).
    let jump = move || {
        bad_time.set(None);
        match parse_clock(&jump_text.get_untracked()) {
            Ok(t) if c.seek(t, AfterSeek::Pause) => msg.set(None),
            Ok(_) => msg.set(Some("seek_too_far")),
            Err(e) => {
                msg.set(None);
                bad_time.set(Some(e));
            }
        }
    };
    let slider = move || c.speed.get().log10();
    view! {
        <section class="controls" aria-label=move || c.tr("controls")>
            <div class="ctl-group">
                <button
                    class="primary"
                    data-testid="play"
                    aria-pressed=move || if c.playing.get() { "true" } else { "false" }
                    on:click=move |_| c.set_playing(!c.playing.get_untracked())
                >
                    <span aria-hidden="true">{move || if c.playing.get() { "❚❚ " } else { "▶ " }}</span>
                    {move || if c.playing.get() { c.tr("pause") } else { c.tr("play") }}
                </button>
                <button data-testid="step" on:click=step title=move || c.tr("step_hint")>
                    <span aria-hidden="true">"⇥ "</span>
                    {move || c.tr("step")}
                </button>
                <button data-testid="restart" on:click=move |_| c.restart()>
                    <span aria-hidden="true">"↺ "</span>
                    {move || c.tr("restart")}
                </button>
            </div>
            <div class="ctl-group speed">
                <label for="speed">{move || c.tr("speed")}</label>
                <input
                    id="speed"
                    type="range"
                    min="0"
                    max=SLIDER_MAX
                    step="0.01"
                    data-testid="speed-slider"
                    aria-valuetext=move || fmt_speed(c.speed.get())
                    prop:value=move || slider().to_string()
                    on:input=move |ev| {
                        if let Some(v) = crate::app::input_number(&ev) {
                            c.set_speed(10f64.powf(v));
                        }
                    }
                />
                <output class="speed-value" data-testid="speed-value" for="speed">
                    {move || fmt_speed(c.speed.get())}
                </output>
                <div class="presets" role="group" aria-label=move || c.tr("speed_presets")>
                    {SPEED_PRESETS
                        .into_iter()
                        .map(|s| {
                            view! {
                                <button
                                    class="small"
                                    data-testid=format!("speed-{}", s as u64)
                                    aria-pressed=move || {
                                        if (c.speed.get() - s).abs() < 0.5 { "true" } else { "false" }
                                    }
                                    on:click=move |_| c.set_speed(s)
                                >
                                    {fmt_speed(s)}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
            </div>
            <form
                class="ctl-group jump"
                on:submit=move |ev| {
                    ev.prevent_default();
                    jump();
                }
            >
                <label for="jump">{move || c.tr("jump_to")}</label>
                <input
                    id="jump"
                    data-testid="jump-input"
                    placeholder="40:00, 2h17m"
                    size="9"
                    aria-invalid=move || if bad_time.with(Option::is_some) { "true" } else { "false" }
                    aria-describedby="jump-error"
                    prop:value=move || jump_text.get()
                    on:input=move |ev| jump_text.set(event_target_value(&ev))
                />
                <button type="submit" data-testid="jump-btn">
                    {move || c.tr("go")}
                </button>
            </form>
            // On a phone the publish form is a scroll away: this takes the reader there
            // (a button, not a #fragment: the address names the scenario).
            <button
                type="button"
                class="small go-publish"
                data-testid="go-publish"
                on:click=move |_| {
                    // The button in the middle of the screen, the form's fields above it
                    // (the sticky header and controls cover the top of the screen).
                    if let Some(el) = web_sys::window()
                        .and_then(|w| w.document())
                        .and_then(|d| d.query_selector("[data-testid=\"publish-btn\"]").ok().flatten())
                    {
                        let o = web_sys::ScrollIntoViewOptions::new();
                        o.set_block(web_sys::ScrollLogicalPosition::Center);
                        el.scroll_into_view_with_scroll_into_view_options(&o);
                    }
                }
            >
                {move || c.tr("publish")}
                <span aria-hidden="true">" ↓"</span>
            </button>
            <p class="ctl-status" role="status" data-testid="status">
                // Only while there is one: an empty status line takes no room (style.css).
                {move || bad_time.get().map(|e| view! {
                    <span id="jump-error" data-testid="jump-error">{move || format!("⚠ {}", e.text(c.lang.get()))}</span>
                })}
                {move || msg.get().map(|k| c.tr(k))}
                {move || c.jump_to.get().map(|t| format!("{} {}", c.tr("running_to"), clock(t)))}
                {move || {
                    let until = c.meta.with(|m| m.until_ms);
                    match until {
                        Some(u) if c.now() >= u && !c.playing.get() => {
                            format!("{} {}", c.tr("reached_until"), clock(u))
                        }
                        _ => String::new(),
                    }
                }}
                {move || {
                    // Play stopped where nothing was left to happen (no `until`).
                    c.quiet_at.get().filter(|_| !c.playing.get()).map(|t| {
                        view! {
                            <span data-testid="quiet-stop">
                                {format!("{} {} {}", c.tr("quiet_stop"), clock(t), c.tr("quiet_stop_after"))}
                            </span>
                        }
                    })
                }}
                {move || c.limit.get().map(|l| format!("⚠ {l}"))}
            </p>
            <crate::app::timeline::TimelineBar />
        </section>
    }
}
