//! The presets' files, fetched (build.rs: the start-up wasm holds their gallery entries
//! only; issue 29 item 10): the gallery's own presets once the page is first idle after
//! its mount, like the chunks below the first screen (a click on a card then loads it at
//! once, as when they were embedded; counted as a deferred part meanwhile), any preset
//! when it is opened before that, a field preset when it is opened. A file fetched once
//! is kept for the page's life (Back, Forward and a second opening load it at once).
//!
//! ```text
//! mount ─ idle ─▶ scenarios/coupon-expiry-24h.json, scenarios/dead-letter-cycle.json, ...
//! click on a card ─ its file in? ─ yes ─▶ loaded at once
//!                                 └ no ──▶ fetched, then loaded (a deferred part meanwhile)
//! ```

use std::cell::RefCell;
use std::collections::HashMap;

use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::deferred::{idle, Pending, IDLE_TIMEOUT_MS};
use super::zh_fetch::{describe, fetch_text};
use super::{Ctx, PRESETS};

thread_local! {
    /// The files fetched so far, by preset id (leaked: `&'static str` as an embedded one).
    static FETCHED: RefCell<HashMap<String, &'static str>> = RefCell::new(HashMap::new());
}

/// Whether `id` is a listed preset (build.rs; the sandbox aside).
pub fn is_listed(id: &str) -> bool {
    PRESETS.iter().any(|(k, _)| *k == id)
}

/// Fetches the gallery's own presets' files (not the field presets') one after the other
/// once the page is first idle, each counted as a deferred part until it is in or failed
/// (a failure is said when that preset is opened: it is fetched again then).
pub fn start(c: Ctx) {
    let ids: Vec<String> = c.presets.with_value(|ps| {
        ps.iter()
            .filter(|p| p.report.is_none() && is_listed(&p.id))
            .map(|p| p.id.clone())
            .collect()
    });
    let pending = Pending::start();
    leptos::task::spawn_local(async move {
        let _pending = pending;
        let _ = JsFuture::from(idle(IDLE_TIMEOUT_MS)).await;
        for id in ids {
            let _ = fetch(&id).await;
        }
    });
}

/// Those of `ids` that are listed presets whose file is not in yet.
pub fn missing<'a>(ids: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    ids.into_iter()
        .filter(|id| is_listed(id) && fetched_text(id).is_none())
        .map(str::to_string)
        .collect()
}

/// Runs `then` once the files of `ids` are in (each fetched in turn), or says what failed
/// where a failed load does.
pub fn then_run(c: Ctx, ids: Vec<String>, then: impl FnOnce() + 'static) {
    let pending = Pending::start();
    leptos::task::spawn_local(async move {
        let _pending = pending;
        for id in &ids {
            if let Err(e) = fetch(id).await {
                c.load_error.set(Some(format!(
                    "{id}: {}: {e}",
                    c.tr_untracked("preset_fetch_failed")
                )));
                return;
            }
        }
        then();
    });
}

/// Its file, if it came already.
pub fn fetched_text(id: &str) -> Option<&'static str> {
    FETCHED.with(|f| f.borrow().get(id).copied())
}

/// Fetches its file (`scenarios/ID.json`, beside the page: index.html copies the folder).
pub async fn fetch(id: &str) -> Result<&'static str, String> {
    if let Some(text) = fetched_text(id) {
        return Ok(text);
    }
    let url = format!("scenarios/{id}.json");
    let text = JsFuture::from(fetch_text(&url))
        .await
        .map_err(|e| format!("{url}: {}", describe(&e)))?
        .as_string()
        .unwrap_or_default();
    let text: &'static str = Box::leak(text.into_boxed_str());
    FETCHED.with(|f| f.borrow_mut().insert(id.to_string(), text));
    Ok(text)
}

/// The embed's chunk, after the preset its address names (if any) is fetched: the
/// embed applies its options (a start time, autoplay) right after its load, which must
/// then be at once (a failed fetch: the load says so, as on the playground).
pub async fn embed_page() -> super::deferred::Loaded {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    if let Some(r) = super::PresetRef::parse(&hash).filter(|r| is_listed(&r.id)) {
        let _ = fetch(&r.id).await;
    }
    super::chunks::embed_page().await
}
