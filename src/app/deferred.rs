//! Parts of the page a first screen does not need, in wasm chunks of their own (issue 13
//! item 5: a slow phone line waits only for the start-up module before the playground
//! works). Unlike the modules of `lazy_module.rs` (a Leptos and a memory of their own),
//! a chunk is a piece of this very program: scripts/build-app.sh splits the linked wasm
//! at each `#[wasm_split(...)]` function (wasm_split_cli_support, the splitter Leptos's
//! `#[lazy]` uses), and the chunk shares the start-up module's memory, table and
//! reactive graph, so its views read the same `Ctx` as every other panel.
//!
//! ```text
//! mount ─ <Deferred load=chunks::queues_area /> ─ fetch + instantiate the chunk ─▶ its view
//!                                          └ failed: "could not load …" + Try again ─▶ fetch
//! ```
//!
//! A split function is called through its chunk's loader: the first call fetches the
//! chunk (and the chunks it shares code with), later calls run at once. Where the app is
//! not split (a native check), the call is a plain call.

use std::cell::Cell;
use std::future::Future;
use std::thread::LocalKey;

use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use send_wrapper::SendWrapper;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen_futures::JsFuture;

use super::Ctx;

/// How long a deferred part waits at most for the page to be idle before it is fetched
/// anyway (a page kept busy, by a fast clock, still gets its panels).
pub(super) const IDLE_TIMEOUT_MS: u32 = 1_000;

// requestIdleCallback as a promise (a snippet file: the CSP forbids inline scripts); a
// browser without it goes on after a macrotask.
#[wasm_bindgen(inline_js = "export function idle(ms) { return new Promise((done) => \
    self.requestIdleCallback ? requestIdleCallback(() => done(), { timeout: ms }) : setTimeout(done, 0)); }")]
extern "C" {
    pub(super) fn idle(timeout_ms: u32) -> web_sys::js_sys::Promise;
}

/// The page's root element says whether any deferred part is still on its way:
/// `<html data-parts="loading">` while one is, `"ready"` when none is (an outward sync,
/// for tests and tools that want the whole page: tests/browser/run.mjs waits for it).
const PARTS_ATTRIBUTE: &str = "data-parts";

thread_local! {
    /// Deferred parts fetched or drawn right now.
    static PENDING: Cell<u32> = const { Cell::new(0) };
    /// First parts (`Deferred first=true`) whose chunk is still on its way.
    static FIRST_LOADING: Cell<u32> = const { Cell::new(0) };
}

/// One count of `count` while the guard lives (its drop takes it back), `changed` called
/// after each change: what `Pending` and `first_loading` are.
struct Counted {
    count: &'static LocalKey<Cell<u32>>,
    changed: fn(),
}

impl Counted {
    fn start(count: &'static LocalKey<Cell<u32>>, changed: fn()) -> Self {
        count.with(|n| n.set(n.get() + 1));
        changed();
        Counted { count, changed }
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.count.with(|n| n.set(n.get().saturating_sub(1)));
        (self.changed)();
    }
}

/// A first part's chunk on its way, counted while the guard lives (dropped once it loaded
/// or failed, or with its part): the other deferred parts wait for none to be left.
fn first_loading() -> Counted {
    Counted::start(&FIRST_LOADING, || {})
}

/// Until no first part's chunk is on its way: a first load on a slow line gives its
/// bandwidth to what the first screen shows (the topology's chunks: 58 KB gzipped, of
/// the 447 KB all chunks weigh) before the rest. At 1.6 Mbps the topology was drawn
/// 1.64 s after the mount while fetched beside the others, 0.81 s after it first
/// (2026-12-07). Checked at each idle moment; a first part always settles (loaded,
/// failed, or removed), so this ends.
pub(super) async fn after_first_parts() {
    while FIRST_LOADING.with(|n| n.get()) > 0 {
        let _ = JsFuture::from(idle(IDLE_TIMEOUT_MS)).await;
    }
}

/// Until the page was idle once and no first part's chunk is on its way: when what the
/// first screen does not show is fetched (the deferred parts, the share codec's chunk).
pub(super) async fn after_first_screen() {
    let _ = JsFuture::from(idle(IDLE_TIMEOUT_MS)).await;
    after_first_parts().await;
}

/// One deferred part on its way, counted while it lives (dropped when the part is drawn,
/// failed, or was removed from the page before it came). A link or an autosave being read
/// (share.rs) counts too: the page is not what it will be until it is open.
pub struct Pending {
    _count: Counted,
}

impl Pending {
    pub fn start() -> Self {
        Pending {
            _count: Counted::start(&PENDING, show_parts),
        }
    }
}

fn show_parts() {
    let state = if PENDING.with(|n| n.get()) == 0 {
        "ready"
    } else {
        "loading"
    };
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute(PARTS_ATTRIBUTE, state);
    }
}

/// What a split view function gives: its view, or why its chunk did not load.
pub type Loaded = Result<AnyView, SplitLoaderError>;

/// Shows what `load` gives once its chunk is in (nothing until then: the parts deferred
/// sit below the first screen, or inside a panel that was just opened), fetched when the
/// page is first idle and no first part is on its way. `first`: a part of the first
/// screen (the topology), fetched at once, before the others. A failed load says so and
/// offers to try again (the splitter's loader does not keep a failure).
#[component]
pub fn Deferred<F, Fut>(load: F, #[prop(optional)] first: bool) -> impl IntoView
where
    F: Fn() -> Fut + Copy + Send + Sync + 'static,
    Fut: Future<Output = Loaded> + 'static,
{
    let c = expect_context::<Ctx>();
    let attempt = RwSignal::new(0_u32);
    move || {
        attempt.track();
        // The loader's future holds JavaScript promises (not Send); the page has one thread.
        // Fetched once the page is idle: at start, the reader's first click on the first
        // screen comes before the compile and the drawing of what is below it.
        let pending = Pending::start();
        let first_guard = first.then(first_loading);
        let fut = SendWrapper::new(async move {
            let _pending = pending;
            if first_guard.is_none() {
                after_first_screen().await;
            }
            let loaded = load().await;
            drop(first_guard);
            // Drawn in an idle moment of its own: a click that came meanwhile goes first.
            let _ = JsFuture::from(idle(IDLE_TIMEOUT_MS)).await;
            loaded
        });
        Suspend::new(async move {
            match fut.await {
                Ok(view) => view,
                Err(e) => view! {
                    <p class="form-error deferred-error" role="alert" data-testid="deferred-error">
                        "⚠ "{move || c.tr("deferred_failed")}" ("{e.to_string()}") "
                        <button on:click=move |_| attempt.update(|n| *n += 1)>{move || c.tr("try_again")}</button>
                    </p>
                }
                .into_any(),
            }
        })
    }
}
