//! "Delay strategies compared" (the panel at the foot of the playground) as a wasm module
//! of its own: a first load does not wait for it. The app (src/app/strategies.rs) draws
//! the panel's frame (heading, hint) and imports this module when the frame comes near
//! the screen, then calls:
//!
//! ```text
//! await init()                         wasm-bindgen's loader (the module's default export)
//! mount(body: HTMLElement, "en"|"zh")  draws the form, table, charts and verdicts in `body`
//! setLang("en"|"zh")                   the page's language changed
//! ```
//!
//! The panel is self-contained (its own Leptos root and signals): what it shares with the
//! app is the page's language, pushed in by `setLang`. What it computes is the engine's
//! (`delaylab_engine::strategies`) and the playground's (`strategy_costs`); this crate
//! only draws, in the page's language (`text`).

#[cfg(target_arch = "wasm32")]
mod text;
#[cfg(target_arch = "wasm32")]
mod view;

#[cfg(target_arch = "wasm32")]
mod entry {
    use std::cell::Cell;

    use delaylab_playground::i18n::Lang;
    use leptos::prelude::*;
    use wasm_bindgen::prelude::*;

    thread_local! {
        /// The page's language, once mounted (the module is single-threaded).
        static LANG: Cell<Option<RwSignal<Lang>>> = const { Cell::new(None) };
    }

    /// The language of a code the app passes (`Lang::code`); English if unknown.
    fn lang_of(code: &str) -> Lang {
        Lang::of_code(code).unwrap_or(Lang::En)
    }

    /// Draws the panel's body into `body`; a second call only sets the language (the
    /// panel is mounted once per page).
    #[wasm_bindgen]
    pub fn mount(body: web_sys::HtmlElement, lang: &str) {
        if LANG.with(Cell::get).is_some() {
            set_lang(lang);
            return;
        }
        let signal = RwSignal::new(lang_of(lang));
        LANG.with(|l| l.set(Some(signal)));
        // The handle lives as long as the page: the panel is never unmounted.
        leptos::mount::mount_to(
            body,
            move || view! { <super::view::StrategyCompare lang=signal /> },
        )
        .forget();
    }

    /// The page's language changed ("en" or "zh").
    #[wasm_bindgen(js_name = setLang)]
    pub fn set_lang(lang: &str) {
        if let Some(signal) = LANG.with(Cell::get) {
            signal.set(lang_of(lang));
        }
    }
}
