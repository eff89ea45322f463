//! The gallery: one button per preset, in the UI language; the presets that replay a
//! reported failure or its fix are listed under "From the field" instead (`field.rs`,
//! fetched with the page's first chunk).

use leptos::prelude::*;

use super::ctx;
use crate::app::i18n::Lang;
use crate::app::preset_texts;

#[component]
pub fn Gallery() -> impl IntoView {
    let c = ctx();
    // A field preset (a `report`) has its place in "From the field", with its report.
    let items: Vec<_> = c
        .presets
        .get_value()
        .into_iter()
        .filter(|p| p.report.is_none())
        .collect();
    view! {
        <section class="panel gallery" aria-labelledby="gallery-h">
            // The lesson and the quiz built on these scenarios (www/), in the page's
            // language (the quiz reads ?lang=; the lesson is written in both).
            <nav class="learn" aria-label=move || c.tr("learn") data-testid="learn">
                <a href="www/lesson-head-of-line.html" data-testid="lesson-link">{move || c.tr("lesson_link")}</a>
                <a
                    href=move || if c.lang.get() == Lang::Zh { "www/quiz-head-of-line.html?lang=zh" } else { "www/quiz-head-of-line.html" }
                    data-testid="quiz-link"
                >
                    {move || c.tr("quiz_link")}
                </a>
            </nav>
            <h2 id="gallery-h">{move || c.tr("gallery")}</h2>
            <p class="hint">{move || c.tr("gallery_hint")}</p>
            {move || c.load_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <ul class="presets-list">
                {items
                    .into_iter()
                    .map(|p| {
                        let id = p.id.clone();
                        let id2 = p.id.clone();
                        view! {
                            <li>
                                <button
                                    class="preset"
                                    data-testid=format!("preset-{}", p.id)
                                    aria-current=move || {
                                        if c.preset.get() == id2 { Some("true") } else { None }
                                    }
                                    on:click=move |_| c.load(&id)
                                >
                                    <span class="preset-name">{let p = p.clone(); move || preset_texts(c.lang.get(), &p).name}</span>
                                    <span class="preset-desc">{let p = p.clone(); move || preset_texts(c.lang.get(), &p).description}</span>
                                </button>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
            <crate::app::deferred::Deferred load=crate::app::chunks::field_area />
        </section>
    }
}
