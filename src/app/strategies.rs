//! The frame of "Delay strategies compared" (heading and hint); its body is a wasm module
//! of its own (crates/strategies-view, built into `pkg-strategies/`), imported when the
//! panel comes within [`NEAR_MARGIN`] of the screen: a first load does not wait for the
//! comparison (its view and the engine's strategies, ~50 KB gzipped) that sits at the
//! foot of the page. "Loading the comparison…" shows meanwhile; a failed import says why
//! and offers to try again. The page's language is pushed into the module (`setLang`)
//! whenever it changes: an outward sync.
//!
//! ```text
//! mount ─ IntersectionObserver(section, NEAR_MARGIN) ─ near ─▶ import pkg-strategies
//!       ─▶ mount(body, lang) ─▶ Ready        (or Failed(why) ─ "Try again" ─▶ import)
//! ```

use std::cell::Cell;
use std::rc::Rc;

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use web_sys::js_sys::{Array, Function};
use web_sys::wasm_bindgen::{JsCast, JsValue};
use web_sys::{IntersectionObserver, IntersectionObserverEntry, IntersectionObserverInit};

use super::lazy_module::{self, js_error, Building, ImportError};
use super::module_wait::ModuleWait;
use super::Ctx;

/// The module, relative to the page (scripts/build-js.sh builds it, index.html copies it).
const MODULE: &str = "pkg-strategies/delaylab_strategies_view.js";
/// How far below the screen the panel starts loading (CSS margin of the observer's root):
/// a reader scrolling down gets a head start, while a first load on a tall screen (the
/// panel's top is near 2,000 px at 1440 x 900 and 1920 x 1080) fetches nothing more. A
/// screen's worth (900 px) fetched it at the first load of a 1080 px high window. A shorter
/// scenario's page brings it near later (head-of-line: 1,166 px at 1440 x 900), after the
/// page is working, which is what firstload.test.mjs allows.
const NEAR_MARGIN: &str = "0px 0px 300px 0px";

/// Where the panel's body is.
#[derive(Clone, Debug, PartialEq)]
enum Slot {
    /// Not near the screen yet.
    Waiting,
    Loading,
    Ready,
    /// serve.sh is still building the module (module_wait.rs).
    Building(Building),
    /// The import or the mount failed: why.
    Failed(ImportError),
}

#[component]
pub fn StrategyCompare() -> impl IntoView {
    let c = expect_context::<Ctx>();
    let body = NodeRef::<leptos::html::Div>::new();
    let section = NodeRef::<leptos::html::Section>::new();
    let slot = RwSignal::new(Slot::Waiting);
    let set_lang = StoredValue::new_local(None::<Function>);
    let load = move || {
        if matches!(slot.get_untracked(), Slot::Loading | Slot::Ready) {
            return;
        }
        slot.set(Slot::Loading);
        wasm_bindgen_futures::spawn_local(async move {
            match mount_body(body, c.lang.get_untracked().code()).await {
                Ok(f) => {
                    set_lang.set_value(Some(f));
                    slot.set(Slot::Ready);
                }
                Err(ImportError::Building(b)) => slot.set(Slot::Building(b)),
                Err(why) => slot.set(Slot::Failed(why)),
            }
        });
    };
    section.on_load(move |el| when_near(&el, load));
    // Outward: the module's own signal follows the page's language.
    Effect::new(move |_| {
        let code = c.lang.get().code();
        set_lang.with_value(|f| {
            if let Some(f) = f {
                let _ = f.call1(&JsValue::NULL, &JsValue::from_str(code));
            }
        });
    });
    let status = move || match slot.get() {
        Slot::Waiting | Slot::Ready => None,
        Slot::Loading => Some(
            view! { <p class="hint" data-testid="strat-loading">{c.tr("strat_loading")}</p> }
                .into_any(),
        ),
        Slot::Building(b) => Some(
            view! {
                <ModuleWait
                    building=b
                    what=|l| delaylab_playground::i18n::t(l, "mod_what_strategies")
                    on_ready=Callback::new(move |_| load())
                />
            }
            .into_any(),
        ),
        Slot::Failed(why) => {
            let key = if matches!(why, ImportError::Network(_)) {
                "strat_load_network"
            } else {
                "strat_load_failed"
            };
            Some(
                view! {
                    <p class="error" role="alert" data-testid="strat-load-failed">
                        {c.tr(key)} " " {why.text()} " "
                        <button class="small" on:click=move |_| load()>{c.tr("try_again")}</button>
                    </p>
                }
                .into_any(),
            )
        }
    };
    view! {
        <section class="panel strategies" aria-labelledby="strat-h" data-testid="strategies" node_ref=section>
            <h2 id="strat-h">{move || c.tr("strat_title")}</h2>
            <p class="hint">{move || c.tr("strat_hint")}</p>
            {status}
            // The module's own Leptos root draws in here; this view never touches it.
            <div class="strat-slot" node_ref=body aria-busy=move || if slot.get() == Slot::Loading { "true" } else { "false" }></div>
        </section>
    }
}

/// Imports the module and mounts the body in `lang`; the module's `setLang`.
async fn mount_body(body: NodeRef<leptos::html::Div>, lang: &str) -> Result<Function, ImportError> {
    let module = lazy_module::import(MODULE).await?;
    let mount = module.function("mount")?;
    let set_lang = module.function("setLang")?;
    let el = body
        .get_untracked()
        .ok_or_else(|| "the panel is not in the page".to_string())?;
    mount
        .call2(&JsValue::NULL, &el, &JsValue::from_str(lang))
        .map_err(js_error)?;
    Ok(set_lang)
}

/// Runs `f` once, when `el` comes within [`NEAR_MARGIN`] of the screen (at once where the
/// browser has no IntersectionObserver).
fn when_near(el: &web_sys::Element, f: impl Fn() + 'static) {
    let f = Rc::new(f);
    let near_f = Rc::clone(&f);
    let once = Cell::new(true);
    let seen = move |entries: Array, observer: IntersectionObserver| {
        let near = entries.iter().any(|e| {
            e.unchecked_into::<IntersectionObserverEntry>()
                .is_intersecting()
        });
        if near && once.replace(false) {
            observer.disconnect();
            near_f();
        }
    };
    let callback = Closure::<dyn Fn(Array, IntersectionObserver)>::new(seen);
    let init = IntersectionObserverInit::new();
    init.set_root_margin(NEAR_MARGIN);
    match IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &init) {
        Ok(observer) => {
            observer.observe(el);
            // Called until it disconnects; one per page.
            callback.forget();
        }
        Err(_) => f(),
    }
}
