//! The page header: the title, the virtual clock, the language switch.

use delaylab_engine::report::text::clock;
use leptos::prelude::*;

use super::ctx;
use crate::app::i18n::Lang;

#[component]
pub fn Header() -> impl IntoView {
    let c = ctx();
    let lang_btn = move |l: Lang, label: &'static str, tid: &'static str| {
        view! {
            <button
                class="lang"
                data-testid=tid
                lang={if l == Lang::Zh { "zh-CN" } else { "en" }}
                aria-pressed=move || if c.lang.get() == l { "true" } else { "false" }
                on:click=move |_| c.lang.set(l)
            >
                {label}
            </button>
        }
    };
    view! {
        <header class="top">
            <div class="brand">
                <h1 class="app-title">"delaylab"</h1>
                <p class="tagline">{move || c.tr("tagline")}</p>
            </div>
            <div class="clock" role="timer" aria-live="off">
                <span class="clock-label">{move || c.tr("virtual_time")}</span>
                <span class="clock-value" data-testid="clock">{move || clock(c.now())}</span>
            </div>
            <div class="langs" role="group" aria-label="Language / 语言">
                {lang_btn(Lang::En, "English", "lang-en")}
                {lang_btn(Lang::Zh, "简体中文", "lang-zh")}
            </div>
        </header>
    }
}
