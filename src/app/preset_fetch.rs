//! The files of the presets a first screen does not offer (the gallery's cards below the
//! list's fold, and the field presets), fetched when one is opened or compared (build.rs:
//! the start-up wasm holds their gallery entries only; issue 29 item 10). A file fetched
//! once is kept for the page's life (Back, Forward and a second opening load it at once).

use std::cell::RefCell;
use std::collections::HashMap;

use wasm_bindgen_futures::JsFuture;

use super::zh_fetch::{describe, fetch_text};
use super::FETCHED_PRESETS;

thread_local! {
    /// The files fetched so far, by preset id (leaked: `&'static str` as an embedded one).
    static FETCHED: RefCell<HashMap<String, &'static str>> = RefCell::new(HashMap::new());
}

/// Whether `id` is a preset whose file is fetched when opened (not embedded).
pub fn is_fetched_preset(id: &str) -> bool {
    FETCHED_PRESETS.iter().any(|(k, _)| *k == id)
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

/// The embed's chunk, after the fetched preset its address names (if any) is in: the
/// embed applies its options (a start time, autoplay) right after its load, which must
/// then be at once (a failed fetch: the load says so, as on the playground).
pub async fn embed_page() -> super::deferred::Loaded {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    if let Some(r) = super::PresetRef::parse(&hash).filter(|r| is_fetched_preset(&r.id)) {
        let _ = fetch(&r.id).await;
    }
    super::chunks::embed_page().await
}
