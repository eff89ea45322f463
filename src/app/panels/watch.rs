//! The loaded scenario: its name, tools (check, share, embed), description and what to
//! watch. A scenario with nothing to watch shows no what-to-watch line at all.

use leptos::prelude::*;

use super::ctx;

#[component]
pub fn Watch() -> impl IntoView {
    let c = ctx();
    let checked_open = RwSignal::new(false);
    view! {
        <section class="panel watch" aria-labelledby="watch-h">
            <div class="watch-head">
                <h2 id="watch-h">
                    <span class="muted">{move || c.tr("scenario")}": "</span>
                    <span data-testid="scenario-name">{move || c.meta_texts().name}</span>
                </h2>
                <crate::app::checked::ScenarioTools open=checked_open />
                <crate::app::share::ShareTools />
                <crate::app::embed::EmbedButton />
            </div>
            // In a chunk (chunks.rs), fetched once the page works; hidden until opened.
            <crate::app::deferred::Deferred load=move || crate::app::chunks::checked_panel(checked_open) />
            <p class="desc">{move || c.meta_texts().description}</p>
            // Nothing to watch: no line at all (a bare label says nothing).
            {move || {
                let texts = c.meta_texts();
                texts
                    .has_watch()
                    .then(|| {
                        view! {
                            <p class="watch-text" data-testid="watch">
                                <strong>
                                    <span aria-hidden="true">"◉ "</span>
                                    {c.tr("what_to_watch")}
                                </strong>
                                " "
                                {texts.watch}
                            </p>
                        }
                    })
            }}
        </section>
    }
}
