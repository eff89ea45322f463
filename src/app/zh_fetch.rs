//! The Chinese texts of the presets, their checks and the UI words' tables, fetched as
//! data (`zh-texts.json`, see `delaylab_playground::zh_texts`): out of the start-up wasm,
//! which a reader of the English page waits for (issue 29 item 10: about 27 KB gzipped
//! for the presets', 6 KB for the words').
//!
//! Fetched at once when the page is in Chinese (the browser's language, a link's or an
//! embed's `lang`, the language switch; boot.js preloads it for a Chinese browser and an
//! embed's `?lang=zh`), else when the page is first idle after its mount, like the chunks
//! below the first screen, so that a later switch to 中文 finds them in. Counted as a
//! deferred part while on its way (`<html data-parts>`). Until they are in, the page shows
//! the English texts; a failed fetch says so where a failed load does (the gallery's error
//! line, in English then) and is tried again on the next switch to 中文.

use std::cell::Cell;

use delaylab_playground::zh_texts::{self, ZhTexts};
use leptos::prelude::*;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

use super::deferred::{idle, Pending, IDLE_TIMEOUT_MS};
use super::i18n::Lang;
use super::Ctx;

/// The file, beside the page (index.html copies it: `crates/playground/zh-texts.json`).
const URL: &str = "zh-texts.json";

// fetch as a promise of the body's text; an HTTP error is an error (a snippet file: the
// CSP forbids inline scripts). preset_fetch.rs fetches with it too.
#[wasm_bindgen(
    inline_js = "export function fetch_text(url) { return fetch(url).then((r) => { \
    if (!r.ok) throw new Error(`HTTP ${r.status}`); return r.text(); }); }"
)]
extern "C" {
    pub(super) fn fetch_text(url: &str) -> web_sys::js_sys::Promise;
}

thread_local! {
    /// A fetch on its way (one at a time).
    static FETCHING: Cell<bool> = const { Cell::new(false) };
}

/// Fetches the texts at the page's first idle moment, or at once when the page is (or
/// turns) Chinese. Counted as a deferred part from now until they are in.
pub fn start(c: Ctx) {
    Effect::new(move |_| {
        if c.lang.get() == Lang::Zh {
            fetch(c);
        }
    });
    let pending = Pending::start();
    leptos::task::spawn_local(async move {
        let _ = JsFuture::from(idle(IDLE_TIMEOUT_MS)).await;
        fetch(c);
        // The part is ready when the texts are in or failed: the fetch counts itself.
        drop(pending);
    });
}

fn fetch(c: Ctx) {
    if zh_texts::is_installed() || FETCHING.with(|f| f.replace(true)) {
        return;
    }
    let pending = Pending::start();
    leptos::task::spawn_local(async move {
        let _pending = pending;
        let got = match JsFuture::from(fetch_text(URL)).await {
            Ok(text) => ZhTexts::from_json(&text.as_string().unwrap_or_default()),
            Err(e) => Err(describe(&e)),
        };
        FETCHING.with(|f| f.set(false));
        match got {
            Ok(t) => {
                zh_texts::install(t);
                // Every view of a word, a preset's or a check's text reads the language:
                // redrawn.
                c.lang.update(|_| {});
            }
            Err(e) if c.lang.get_untracked() == Lang::Zh => c.load_error.set(Some(format!(
                "{}: {URL}: {e}",
                c.tr_untracked("zh_texts_failed")
            ))),
            // Not needed yet: tried again when the page turns to Chinese.
            Err(_) => {}
        }
    });
}

/// A fetch's error as its message.
pub(super) fn describe(e: &JsValue) -> String {
    web_sys::js_sys::Error::from(e.clone())
        .message()
        .as_string()
        .unwrap_or_else(|| format!("{e:?}"))
}
