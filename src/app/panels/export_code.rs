//! "Export code": the loaded scenario as a program (issue 14 item 1). A button beside
//! "Export definitions" opens a panel: pick a language (every language of the exporter,
//! in its order; those without a generator are shown disabled, Spring says it is not run
//! here), read what the program leaves out and the code, highlighted, file by file; copy
//! it, download one file or the whole project as a zip.
//!
//! A view over `delaylab_playground::export_code` (which files, the zip's bytes, the
//! left-out list) and `code_highlight` (the spans): it computes nothing itself.
//!
//! The exporter is not in the app's wasm (issue 13 item 5: its six generators are ~94 KB
//! gzipped that few visitors use): the panel's first open imports its own module,
//! `pkg-export/delaylab_export.js` (crates/export-js, copied into dist/ by trunk), and
//! keeps it for later opens and languages; "Loading the exporter…" shows meanwhile and a
//! failed fetch says so.

use std::cell::RefCell;

use delaylab_playground::export_code::{
    choices, comment_lang, default_language, label, left_out_texts, scenario_json, status,
    status_note, Choice, CodeExport, CommentLang, Language, Status, Unavailable, TEXT_TYPE,
    ZIP_TYPE,
};
use leptos::prelude::*;
use web_sys::js_sys::Function;
use web_sys::wasm_bindgen::{JsCast, JsValue};

use super::ctx;
use crate::app::lazy_module::{self, js_error, Building, ImportError};
use crate::app::module_wait::ModuleWait;

/// How long a download's object URL lives (the browser reads it after the click).
pub const REVOKE_AFTER_MS: u32 = 10_000;
const BUTTON_ID: &str = "export-code-btn";
const PANEL_ID: &str = "export-code-panel";

/// Saves `blob` as the file `name`: an object URL and a temporary `<a download>`, the URL
/// revoked a little later (the browser reads it after the click returns).
fn save_blob(name: &str, blob: &web_sys::Blob) -> Result<(), JsValue> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let url = web_sys::Url::create_object_url_with_blob(blob)?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a")?.dyn_into()?;
    a.set_href(&url);
    a.set_download(name);
    a.set_attribute("hidden", "")?;
    document.body().ok_or("no body")?.append_child(&a)?;
    a.click();
    a.remove();
    gloo_timers::callback::Timeout::new(REVOKE_AFTER_MS, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
    Ok(())
}

/// Saves `text` as the file `name` of media type `mime`.
pub fn save_text(name: &str, mime: &str, text: &str) -> Result<(), JsValue> {
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let parts = web_sys::js_sys::Array::of1(&JsValue::from_str(text));
    save_blob(
        name,
        &web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)?,
    )
}

fn save_bytes(name: &str, mime: &str, bytes: &[u8]) -> Result<(), JsValue> {
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let parts = web_sys::js_sys::Array::of1(&web_sys::js_sys::Uint8Array::from(bytes));
    save_blob(
        name,
        &web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &opts)?,
    )
}

fn focus_id(id: &'static str) {
    // After the render: the element may have just become visible.
    gloo_timers::callback::Timeout::new(0, move || {
        if let Some(e) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(id))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = e.focus();
        }
    })
    .forget();
}

/// The exporter's module, relative to the page (scripts/build-js.sh builds it, index.html
/// copies it into dist/).
const EXPORTER_MODULE: &str = "pkg-export/delaylab_export.js";
/// The module's entry (crates/export-js: `#[wasm_bindgen(js_name = exportCode)]`).
const EXPORTER_FN: &str = "exportCode";

thread_local! {
    /// The module's `exportCode`, once loaded (the app is single-threaded).
    static EXPORTER: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// Imports the exporter's module and keeps its `exportCode`.
async fn load_exporter() -> Result<(), ImportError> {
    let f = lazy_module::import(EXPORTER_MODULE)
        .await?
        .function(EXPORTER_FN)?;
    EXPORTER.with(|e| *e.borrow_mut() = Some(f));
    Ok(())
}

/// The loaded exporter's answer for `scenario` (its JSON) in `language`.
fn run_exporter(
    scenario: &str,
    language: Language,
    comments: CommentLang,
) -> Result<String, String> {
    EXPORTER.with(|e| {
        let e = e.borrow();
        let f = e.as_ref().ok_or("the exporter is not loaded")?;
        f.call3(
            &JsValue::NULL,
            &JsValue::from_str(scenario),
            &JsValue::from_str(language.as_str()),
            &JsValue::from_str(comments.as_str()),
        )
        .map_err(js_error)?
        .as_string()
        .ok_or_else(|| "the exporter returned no text".to_string())
    })
}

/// Where the exporter's module is.
#[derive(Clone, Debug, PartialEq)]
enum Loader {
    NotLoaded,
    Loading,
    Ready,
    /// serve.sh is still building the module (module_wait.rs).
    Building(Building),
    /// The fetch or the init failed: why (another open tries again).
    Failed(ImportError),
}

/// What the panel shows below the language picker.
#[derive(Clone, Debug, PartialEq)]
enum Shown {
    Closed,
    Loading,
    Building(Building),
    LoadFailed(ImportError),
    Export(Result<CodeExport, Unavailable>),
}

/// The "Export code" button of the scenario tools.
#[component]
pub fn ExportCodeButton(open: RwSignal<bool>) -> impl IntoView {
    let c = ctx();
    view! {
        <button
            class="small"
            id=BUTTON_ID
            data-testid="export-code"
            aria-expanded=move || if open.get() { "true" } else { "false" }
            aria-controls=PANEL_ID
            on:click=move |_| {
                let now_open = !open.get_untracked();
                open.set(now_open);
                if now_open {
                    focus_id(PANEL_ID);
                }
            }
        >
            <span aria-hidden="true">"</> "</span>
            {move || c.tr("export_code")}
        </button>
    }
}

/// What the last copy or download did, for the status line.
#[derive(Clone, Debug, PartialEq)]
enum Done {
    Copied(bool),
    Saved(String),
    Failed(String),
}

/// What an export depends on: the scenario (its preset and its edits; not the clock), the language
/// of the program and the UI language (of its comments).
#[derive(Clone, Debug, PartialEq)]
struct ExportKey {
    preset: String,
    scenario_rev: u64,
    language: Language,
    lang: crate::app::i18n::Lang,
}

#[component]
pub fn ExportCodePanel(open: RwSignal<bool>) -> impl IntoView {
    let c = ctx();
    let language = RwSignal::new(default_language());
    let file_index = RwSignal::new(0usize);
    // The last copy or download, with the export it was for: shown only while that export
    // is the one on screen (derived, so no effect has to clear it).
    let done = RwSignal::new(None::<(Done, ExportKey)>);
    let key = move || ExportKey {
        preset: c.preset.get(),
        scenario_rev: c.scenario_rev.get(),
        language: language.get(),
        lang: c.lang.get(),
    };
    // The exporter's module: imported on the first open (again on an open after a failure).
    // Outward: the effect starts a network import; `loader` only records how that outside
    // call is going (the panel reads it), it derives nothing from the scenario.
    let loader = RwSignal::new(Loader::NotLoaded);
    let reload = move || {
        loader.set(Loader::Loading);
        wasm_bindgen_futures::spawn_local(async move {
            loader.set(match load_exporter().await {
                Ok(()) => Loader::Ready,
                Err(ImportError::Building(b)) => Loader::Building(b),
                Err(why) => Loader::Failed(why),
            });
        });
    };
    Effect::new(move |_| {
        let start = matches!(
            loader.get_untracked(),
            Loader::NotLoaded | Loader::Failed(_) | Loader::Building(_)
        );
        if open.get() && start {
            reload();
        }
    });
    // The export of the scenario as it is now; computed only while the panel is open.
    let export = Memo::new(move |_| {
        if !open.get() {
            return Shown::Closed;
        }
        match loader.get() {
            Loader::NotLoaded | Loader::Loading => return Shown::Loading,
            Loader::Building(b) => return Shown::Building(b),
            Loader::Failed(why) => return Shown::LoadFailed(why),
            Loader::Ready => {}
        }
        let k = key();
        let (lang, comments, id) = (k.language, comment_lang(k.lang), k.preset);
        let scenario = c.runner.with_value(|r| scenario_json(&r.scenario));
        Shown::Export(
            run_exporter(&scenario, lang, comments)
                .map_err(Unavailable::Failed)
                .and_then(|text| CodeExport::from_json(&text, &id, lang, comments)),
        )
    });
    let note = move |d: Done| done.set(Some((d, untrack(key))));
    let close = move || {
        // The button is always shown: focus it now, before the panel (holding the focus)
        // is hidden, so the focus never falls back to the page.
        if let Some(e) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(BUTTON_ID))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = e.focus();
        }
        open.set(false);
    };
    let with_export = move |f: &dyn Fn(&CodeExport) -> Done| {
        if let Some(d) = export.with_untracked(|e| match e {
            Shown::Export(Ok(e)) => Some(f(e)),
            _ => None,
        }) {
            note(d);
        }
    };
    let copy = move |_| {
        let text = export.with_untracked(|e| match e {
            Shown::Export(Ok(e)) => Some(e.file(file_index.get_untracked()).contents.clone()),
            _ => None,
        });
        if let Some(text) = text {
            crate::app::share::write_clipboard(&text, move |ok| note(Done::Copied(ok)));
        }
    };
    let download = move |_| {
        with_export(&|e| {
            let i = file_index.get_untracked();
            let name = e.download_name(i).to_string();
            match save_text(&name, TEXT_TYPE, &e.file(i).contents) {
                Ok(()) => Done::Saved(name),
                Err(err) => Done::Failed(js_error(err)),
            }
        })
    };
    let download_zip = move |_| {
        with_export(&|e| match e.zip() {
            Ok(bytes) => match save_bytes(&e.zip_name(), ZIP_TYPE, &bytes) {
                Ok(()) => Done::Saved(e.zip_name()),
                Err(err) => Done::Failed(js_error(err)),
            },
            Err(err) => Done::Failed(err.to_string()),
        })
    };
    let lang_button = move |ch: Choice| {
        let l = ch.language;
        let tid = format!("code-lang-{}", l.as_str());
        view! {
            <button
                class="small"
                data-testid=tid
                aria-pressed=move || if language.get() == l { "true" } else { "false" }
                on:click=move |_| {
                    language.set(l);
                    file_index.set(0);
                }
            >
                {ch.label}
                {(ch.status != Status::Runs).then(|| view! {
                    <span class="code-lang-note">
                        {move || c.tr("code_golden")}
                    </span>
                })}
            </button>
        }
    };
    view! {
        <section
            id=PANEL_ID
            class="export-code-panel"
            data-testid="export-code-panel"
            aria-labelledby="export-code-h"
            tabindex="-1"
            hidden=move || !open.get()
            on:keydown=move |ev: web_sys::KeyboardEvent| {
                if ev.key() == "Escape" {
                    ev.prevent_default();
                    close();
                }
            }
        >
            <div class="checked-head">
                <h3 id="export-code-h">
                    <span aria-hidden="true">"</> "</span>
                    {move || c.tr("code_title")}
                </h3>
                <button class="small" data-testid="export-code-close" on:click=move |_| close()>
                    {move || c.tr("close")}
                </button>
            </div>
            <p class="hint">{move || c.tr("code_intro")}</p>
            <div class="code-langs" role="group" aria-label=move || c.tr("code_lang")>
                {choices().into_iter().map(lang_button).collect_view()}
            </div>
            {move || {
                let comments = comment_lang(c.lang.get());
                let st = status(language.get());
                status_note(st, comments).map(|n| view! {
                    <p class="warn-text code-status" data-testid="code-status">"⚠ "{n}</p>
                })
            }}
            {move || export.with(|e| match e {
                Shown::Closed => ().into_any(),
                Shown::Loading => view! {
                    <p class="muted code-loading" role="status" data-testid="code-loading">
                        {c.tr("code_loading")}
                    </p>
                }
                .into_any(),
                Shown::Building(b) => view! {
                    <ModuleWait
                        building=b.clone()
                        what=|l| delaylab_playground::i18n::t(l, "mod_what_export")
                        on_ready=Callback::new(move |_| reload())
                    />
                }
                .into_any(),
                Shown::LoadFailed(why) => view! {
                    <p class="form-error" role="alert" data-testid="code-error">
                        "⚠ "
                        {c.tr(if matches!(why, ImportError::Network(_)) { "code_load_network" } else { "code_load_failed" })}
                        ": "{why.text()}
                    </p>
                }
                .into_any(),
                Shown::Export(Err(Unavailable::NoFiles(l))) => view! {
                    <p class="form-error" data-testid="code-error">
                        {label(*l)}": "{c.tr("code_no_files")}
                    </p>
                }
                .into_any(),
                Shown::Export(Err(Unavailable::Failed(why))) => view! {
                    <p class="form-error" role="alert" data-testid="code-error">
                        "⚠ "{c.tr("code_failed")}": "{why.clone()}
                    </p>
                }
                .into_any(),
                Shown::Export(Ok(e)) => view! { <ExportView e=e.clone() file_index=file_index /> }.into_any(),
            })}
            <div class="code-actions">
                <button class="small" data-testid="code-copy" on:click=copy>
                    {move || c.tr("code_copy")}
                </button>
                <button class="small" data-testid="code-download" on:click=download>
                    <span aria-hidden="true">"⤓ "</span>{move || c.tr("code_download")}
                </button>
                <button class="small" data-testid="code-zip" on:click=download_zip>
                    <span aria-hidden="true">"⤓ "</span>{move || c.tr("code_zip")}
                </button>
            </div>
            <p class="code-done" role="status" data-testid="code-done">
                {move || done.get().filter(|(_, k)| *k == key()).map(|(d, _)| match d {
                    Done::Copied(true) => c.tr("code_copied").to_string(),
                    Done::Copied(false) => c.tr("code_copy_failed").to_string(),
                    Done::Saved(name) => format!("{} {name}", c.tr("code_saved")),
                    Done::Failed(err) => format!("⚠ {err}"),
                })}
            </p>
        </section>
    }
}

/// One export: what it leaves out, the file tabs and the highlighted code.
#[component]
fn ExportView(e: CodeExport, file_index: RwSignal<usize>) -> impl IntoView {
    let c = ctx();
    let (left_out_h, nothing_left_out) = left_out_texts(e.comments);
    let left_out = if e.left_out.is_empty() {
        view! { <p class="muted code-left-out" data-testid="code-left-out">{nothing_left_out}</p> }
            .into_any()
    } else {
        view! {
            <div class="code-left-out warn-box" data-testid="code-left-out">
                <strong>"⚠ "{left_out_h}</strong>
                <ul>{e.left_out.iter().map(|l| view! { <li>{l.clone()}</li> }).collect_view()}</ul>
            </div>
        }
        .into_any()
    };
    let tabs = e
        .files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            view! {
                <button
                    class="small code-file"
                    data-file=f.path.clone()
                    aria-pressed=move || if file_index.get() == i { "true" } else { "false" }
                    on:click=move |_| file_index.set(i)
                >
                    {f.path.clone()}
                </button>
            }
        })
        .collect_view();
    let e2 = e.clone();
    let code = move || {
        let i = file_index.get();
        let text = &e2.file(i).contents;
        e2.highlighted(i)
            .into_iter()
            .map(|sp| {
                let s = text[sp.range].to_string();
                match sp.tok.class() {
                    Some(class) => view! { <span class=class>{s}</span> }.into_any(),
                    None => s.into_any(),
                }
            })
            .collect_view()
    };
    view! {
        {left_out}
        <div class="code-files" role="group" aria-label=move || c.tr("code_files")>{tabs}</div>
        <pre
            class="code"
            data-testid="code-text"
            data-lang=e.language.as_str()
            tabindex="0"
            role="region"
            aria-label=move || c.tr("code_files")
        >
            <code>{code}</code>
        </pre>
    }
}
