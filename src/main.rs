//! delaylab-app: the browser playground (Leptos 0.8 CSR), built with Trunk.
//!
//! The app owns the clock and paces the engine (`delaylab_engine::Sim`) with
//! `requestAnimationFrame`; everything on screen is a view of engine snapshots and
//! events. On native targets `main` only explains how to build the app, so that
//! `cargo build --workspace` works without the wasm32 target.

/// Version shown in the page footer.
const VERSION: &str = env!("CARGO_PKG_VERSION");

#[cfg(target_arch = "wasm32")]
mod app;

/// The static first paint dist/index.html starts with (scripts/first-paint.mjs writes it
/// at build time: header, controls, gallery, starting scenario), shown until the app mounts.
#[cfg(target_arch = "wasm32")]
const FIRST_PAINT_ID: &str = "first-paint";

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
    // The takeover: the app is in the page now (mounting is synchronous), so the static
    // copy goes in this same task, before the browser paints again: never a frame with
    // both or neither. Missing (a page built without the hook) is fine.
    if let Some(first_paint) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(FIRST_PAINT_ID))
    {
        first_paint.remove();
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    println!(
        "delaylab-app {VERSION}: this is the browser app; build and serve it with trunk \
         (`bash scripts/serve.sh`). The command line is the `delaylab` binary (crates/cli)."
    );
}
