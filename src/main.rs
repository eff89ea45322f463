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

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    println!(
        "delaylab-app {VERSION}: this is the browser app; build and serve it with trunk \
         (`bash scripts/serve.sh`). The command line is the `delaylab` binary (crates/cli)."
    );
}
