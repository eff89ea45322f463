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
//! A failure (the fetch, the init, a missing function) is an `Err` naming the module's
//! URL and what went wrong, for the panel to show.

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

/// Imports the module at `path` (relative to the page) and runs its wasm init.
pub async fn import(path: &str) -> Result<Module, String> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let base = document
        .base_uri()
        .map_err(js_error)?
        .ok_or("the page has no base URL")?;
    // Absolute: import() in the snippet would resolve against the snippet's own URL.
    let url = web_sys::Url::new_with_base(path, &base)
        .map_err(js_error)?
        .href();
    let exports = JsFuture::from(import_module(&url).map_err(js_error)?)
        .await
        .map_err(|e| format!("{url}: {}", js_error(e)))?;
    let module = Module { url, exports };
    let started = module
        .function("default")?
        .call0(&JsValue::UNDEFINED)
        .map_err(js_error)?;
    JsFuture::from(Promise::resolve(&started))
        .await
        .map_err(|e| format!("{}: {}", module.url, js_error(e)))?;
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
