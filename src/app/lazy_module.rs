//! Wasm modules the app imports when they are first needed, not at start (issue 13 item
//! 5: a first load waits only for the app's own wasm): the code exporter
//! (`pkg-export/`, the Export code menu) and the strategy comparison (`pkg-strategies/`,
//! the panel at the foot of the page). Each is a wasm-bindgen `--target web` module that
//! scripts/build-js.sh builds and index.html copies into dist/.
//!
//! ```text
//! import(url) ─▶ default() (wasm-bindgen's init: fetches and instantiates its wasm)
//!             ─▶ Module { url, exports } ─▶ function("exportCode"), function("mount")...
//! ```
//!
//! A module not built yet: `scripts/build-page.mjs` puts a placeholder in its place
//! (exporting `delaylabPlaceholder`, with where `serve-status.js` is), while
//! `scripts/serve.sh` builds the real one in the background and says in `serve-status.js`
//! how that goes. The import then fails with [`ImportError::Building`] (what builds,
//! since when, where the log is), never a 404; `module_wait.rs` shows it and imports again
//! when the status says ready (a fresh URL: the placeholder stays in the module map).
//! A failure (the fetch, the init, a missing function) is an `Err` naming the module's
//! URL and what went wrong, for the panel to show: [`ImportError::Network`] when the
//! network failed, [`ImportError::Broken`] otherwise.

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen_futures::JsFuture;
use web_sys::js_sys::{Function, Promise, Reflect};
use web_sys::wasm_bindgen::{JsCast, JsValue};

/// An imported and initialised module.
#[derive(Clone)]
pub struct Module {
    url: String,
    exports: JsValue,
}

// `import()` is JavaScript syntax, not a function js_sys could bind; the CSP forbids
// `new Function`, so wasm-bindgen writes this as a file of its own (dist/snippets/).
#[wasm_bindgen(inline_js = "export function import_module(url) { return import(url); }")]
extern "C" {
    #[wasm_bindgen(catch)]
    fn import_module(url: &str) -> Result<Promise, JsValue>;
}

/// A thrown JavaScript value as text (an `Error`'s message, a string, else its debug form).
pub fn js_error(e: JsValue) -> String {
    if let Some(err) = e.dyn_ref::<web_sys::js_sys::Error>() {
        return String::from(err.message());
    }
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}

/// Why a module could not be imported.
#[derive(Clone, Debug, PartialEq)]
pub enum ImportError {
    /// A placeholder stands where the module will be (see the module docs).
    Building(Building),
    /// The module or its wasm could not be fetched: the network, or the server.
    Network(String),
    /// Anything else: a broken module, an init that threw, a missing function.
    Broken(String),
}

impl ImportError {
    /// The error as one line (a panel that has no better words for it).
    pub fn text(&self) -> String {
        match self {
            ImportError::Building(b) => format!("{}/ is not built yet", b.dir),
            ImportError::Network(t) | ImportError::Broken(t) => t.clone(),
        }
    }
}

impl From<String> for ImportError {
    fn from(s: String) -> ImportError {
        ImportError::Broken(s)
    }
}

/// What `serve-status.js` says of a module being built (see `scripts/serve.sh`).
#[derive(Clone, Debug, PartialEq)]
pub struct Building {
    /// The module's folder (`pkg-export`).
    pub dir: String,
    /// The status module's URL.
    pub status_url: String,
    pub status: BuildStatus,
}

#[derive(Clone, Debug, PartialEq)]
pub enum BuildStatus {
    /// serve.sh builds it: since when (ms since the epoch), about how long it takes in
    /// all (s), its log.
    Building {
        started_ms: f64,
        expected_s: f64,
        log: String,
    },
    /// Built: import it again.
    Ready,
    /// The build failed: its log.
    Failed { log: String },
    /// Nobody builds it (the page was built without it, not by serve.sh).
    Missing,
}

thread_local! {
    /// Paths whose last import was a placeholder: imported again under a fresh URL.
    static STALE: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn absolute(path: &str) -> Result<String, String> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let base = document
        .base_uri()
        .map_err(js_error)?
        .ok_or("the page has no base URL")?;
    // Absolute: import() in the snippet would resolve against the snippet's own URL.
    Ok(web_sys::Url::new_with_base(path, &base)
        .map_err(js_error)?
        .href())
}

/// A rejected `import()` or fetch: a TypeError is the network's (Chromium's "Failed to
/// fetch dynamically imported module", Firefox's "error loading dynamically imported
/// module"); anything else is the module's own.
fn classify(url: &str, e: JsValue) -> ImportError {
    let text = format!("{url}: {}", js_error(e.clone()));
    if e.dyn_ref::<web_sys::js_sys::TypeError>().is_some() {
        ImportError::Network(text)
    } else {
        ImportError::Broken(text)
    }
}

fn field(obj: &JsValue, name: &str) -> JsValue {
    Reflect::get(obj, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

/// Imports `url` (a fresh copy each time: `?t=` + now).
async fn import_fresh(url: &str) -> Result<JsValue, ImportError> {
    let sep = if url.contains('?') { '&' } else { '?' };
    let url = format!("{url}{sep}t={}", web_sys::js_sys::Date::now());
    JsFuture::from(import_module(&url).map_err(|e| classify(&url, e))?)
        .await
        .map_err(|e| classify(&url, e))
}

/// Reads the build status a placeholder points at.
pub async fn build_status(dir: &str, status_url: &str) -> Building {
    let status = match import_fresh(status_url).await {
        Ok(m) => {
            let s = field(&m, "default");
            let text = |k: &str| field(&s, k).as_string().unwrap_or_default();
            let num = |k: &str| field(&s, k).as_f64().unwrap_or(0.0);
            match text("state").as_str() {
                "building" => BuildStatus::Building {
                    started_ms: num("started_ms"),
                    expected_s: num("expected_s"),
                    log: text("log"),
                },
                "ready" => BuildStatus::Ready,
                "failed" => BuildStatus::Failed { log: text("log") },
                _ => BuildStatus::Missing,
            }
        }
        // No status: nobody is building it.
        Err(_) => BuildStatus::Missing,
    };
    Building {
        dir: dir.to_string(),
        status_url: status_url.to_string(),
        status,
    }
}

/// Imports the module at `path` (relative to the page) and runs its wasm init.
pub async fn import(path: &str) -> Result<Module, ImportError> {
    let mut url = absolute(path)?;
    if STALE.with(|s| s.borrow().iter().any(|p| p == path)) {
        url = format!("{url}?built={}", web_sys::js_sys::Date::now());
    }
    let exports = JsFuture::from(import_module(&url).map_err(|e| classify(&url, e))?)
        .await
        .map_err(|e| classify(&url, e))?;
    let placeholder = field(&exports, "delaylabPlaceholder");
    if !placeholder.is_undefined() {
        STALE.with(|s| s.borrow_mut().push(path.to_string()));
        let dir = field(&placeholder, "dir").as_string().unwrap_or_default();
        let status_url = field(&placeholder, "status")
            .as_string()
            .unwrap_or_default();
        return Err(ImportError::Building(build_status(&dir, &status_url).await));
    }
    let module = Module { url, exports };
    let started = module
        .function("default")?
        .call0(&JsValue::UNDEFINED)
        .map_err(js_error)?;
    JsFuture::from(Promise::resolve(&started))
        .await
        .map_err(|e| classify(&module.url, e))?;
    Ok(module)
}

impl Module {
    /// The exported function `name`, or why not.
    pub fn function(&self, name: &str) -> Result<Function, String> {
        Reflect::get(&self.exports, &JsValue::from_str(name))
            .map_err(js_error)?
            .dyn_into::<Function>()
            .map_err(|_| format!("{}: no function `{name}`", self.url))
    }
}
