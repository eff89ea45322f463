//! delaylab-app: the browser playground (Leptos 0.8 CSR), built with Trunk.
//!
//! Placeholder for now: mounts a page that shows the name and the version.
//! On native targets `main` only explains how to build the app, so that
//! `cargo build --workspace` works without the wasm32 target.

/// Version shown in the page footer.
const VERSION: &str = env!("CARGO_PKG_VERSION");

#[cfg(target_arch = "wasm32")]
mod app {
    use leptos::prelude::*;

    #[component]
    pub fn App() -> impl IntoView {
        view! {
            <main class="app" data-testid="app">
                <h1 class="app-title">"delaylab"</h1>
                <p class="app-tagline">"A RabbitMQ delayed-messaging playground."</p>
                <p class="app-version" data-testid="version">"v" {super::VERSION}</p>
            </main>
        }
    }
}

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
