//! The scenario header's tools: the badge saying what was checked against a live broker
//! for this scenario on this version (`delaylab_playground::live_words`, from the
//! engine's `version::live`) with the panel listing each rule it uses and what the
//! live-broker conformance suite covers (tests/conformance/), and
//! the "Export definitions" button (the engine's `definitions.json`, downloaded) and the
//! "Export code" menu (panels/export_code.rs).

use delaylab_engine::amqp::exchange_args::DELAYED_TYPE;
use delaylab_engine::scenario::definitions::RABBIT_VERSION;
use delaylab_engine::scenario::ActionKind;
use delaylab_engine::version::live::{live_check, LiveCheck};
use delaylab_engine::version::BrokerVersion;
use delaylab_playground::live_words::{level, Level};
use delaylab_playground::per_load::PerLoad;
use leptos::prelude::*;
use web_sys::wasm_bindgen::{JsCast, JsValue};

use super::Ctx;

/// Rules 1-14 of Part A (rabbitmq-semantics.md), each checked by the conformance suite.
const RULES: [&str; 14] = [
    "chk_r1", "chk_r2", "chk_r3", "chk_r4", "chk_r5", "chk_r6", "chk_r7", "chk_r8", "chk_r9",
    "chk_r10", "chk_r11", "chk_r12", "chk_r13", "chk_r14",
];

/// Saves `text` as a file (the export menu's download: a Blob and an object URL).
fn download(name: &str, text: &str) -> Result<(), JsValue> {
    crate::app::panels::export_code::save_text(name, "application/json", text)
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Exported {
    plugin: bool,
    left_out: bool,
}

#[component]
pub fn ScenarioTools(open: RwSignal<bool>) -> impl IntoView {
    let c = expect_context::<Ctx>();
    // The last export's note belongs to the scenario exported: a new one shows none.
    let exported = RwSignal::new(PerLoad::<Exported>::default());
    let version = crate::app::version::current(c);
    let error = RwSignal::new(None::<String>);
    let code_open = RwSignal::new(false);
    let export = move |_| {
        let (scenario, info) = c.runner.with_value(|r| {
            let s = &r.scenario;
            let t = &s.topology;
            let info = Exported {
                plugin: t.exchanges.iter().any(|x| x.kind == DELAYED_TYPE),
                left_out: t
                    .exchanges
                    .iter()
                    .any(|x| x.name.is_empty() || x.name.starts_with("amq."))
                    || t.queues.iter().any(|q| q.exclusive)
                    || s.actions
                        .iter()
                        .any(|a| matches!(a.kind, ActionKind::Declare(_))),
            };
            (s.clone(), info)
        });
        let load = c.load_now();
        leptos::task::spawn_local(async move {
            let saved = match crate::app::chunks::definitions_json(scenario).await {
                Ok(text) => download("definitions.json", &text)
                    .map_err(|e| e.as_string().unwrap_or_else(|| format!("{e:?}"))),
                Err(e) => Err(e.to_string()),
            };
            match saved {
                Ok(()) => {
                    error.set(None);
                    exported.update(|x| x.set(load, info));
                }
                Err(e) => {
                    exported.update(PerLoad::clear);
                    error.set(Some(e));
                }
            }
        });
    };
    let live = live_memo(c, version);
    view! {
        <div class="scenario-tools">
            <button
                class="checked-badge"
                class:unchecked=move || live.with(|l| level(l) == Level::None)
                class:partly=move || live.with(|l| level(l) == Level::Part)
                data-testid="checked-badge"
                aria-expanded=move || if open.get() { "true" } else { "false" }
                aria-controls="checked-panel"
                on:click=move |_| open.update(|o| *o = !*o)
            >
                // What was checked live for this scenario on this version (the rules it
                // uses that ran on a live broker: delaylab_engine::version::live).
                {move || {
                    let l = live.get();
                    let icon = match level(&l) {
                        Level::All => "✓",
                        Level::Part => "◐",
                        Level::None => "ⓘ",
                    };
                    view! {
                        <span class="check-icon" aria-hidden="true">{icon}</span>
                        {delaylab_playground::live_words::badge(c.lang.get(), &l)}
                    }
                }}
            </button>
            <crate::app::version::VersionPicker />
            <button class="small" data-testid="export-defs" on:click=export>
                <span aria-hidden="true">"⤓ "</span>
                {move || c.tr("export_defs")}
            </button>
            <crate::app::panels::export_code::ExportCodeButton open=code_open />
        </div>
        <div class="export-note" role="status" data-testid="export-note">
            {move || {
                exported.with(|x| x.get(&c.load_rev.get()).copied()).map(|x| view! {
                    <p>
                        {move || c.tr("export_done")} " "
                        <code class="cmd">"rabbitmqctl import_definitions definitions.json"</code>
                    </p>
                    {x.plugin.then(|| view! { <p class="warn-text">"⚠ "{move || c.tr("export_plugin")}</p> })}
                    {x.left_out.then(|| view! { <p class="muted">{move || c.tr("export_left_out")}</p> })}
                })
            }}
            {move || error.get().map(|e| view! { <p class="form-error">"⚠ "{e}</p> })}
        </div>
        // In a chunk (chunks.rs), fetched once the page works; hidden until opened.
        <crate::app::deferred::Deferred load=move || crate::app::chunks::export_code_panel(code_open) />
    }
}

/// What was checked live for the loaded scenario on the node's version now.
fn live_memo(c: Ctx, version: Memo<BrokerVersion>) -> Memo<LiveCheck> {
    Memo::new(move |_| {
        let v = version.get();
        c.preset.track();
        c.scenario_rev.track();
        c.runner.with_value(|r| live_check(&r.scenario, v))
    })
}

#[component]
pub fn CheckedPanel(open: RwSignal<bool>) -> impl IntoView {
    let c = expect_context::<Ctx>();
    let version = crate::app::version::current(c);
    let live = live_memo(c, version);
    let close = move || {
        open.set(false);
        if let Some(b) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| {
                d.query_selector("[data-testid=\"checked-badge\"]")
                    .ok()
                    .flatten()
            })
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = b.focus();
        }
    };
    view! {
        <section
            id="checked-panel"
            class="checked-panel"
            data-testid="checked-panel"
            aria-labelledby="checked-h"
            hidden=move || !open.get()
            on:keydown=move |ev: web_sys::KeyboardEvent| {
                if ev.key() == "Escape" {
                    ev.prevent_default();
                    close();
                }
            }
        >
            <div class="checked-head">
                <h3 id="checked-h">
                    <span class="check-icon" aria-hidden="true">"✓ "</span>
                    {move || c.tr("chk_title")}
                </h3>
                <button class="small" data-testid="checked-close" on:click=move |_| close()>
                    {move || c.tr("close")}
                </button>
            </div>
            // This scenario first: each rule it uses, checked live here or not.
            {move || {
                let l = live.get();
                let lang = c.lang.get();
                let notes = delaylab_engine::version::notes(l.version);
                view! {
                    <h4>{c.tr("live_for").replace("{v}", l.version.patch_release())}</h4>
                    <ul class="rules live-used" data-testid="live-used-list">
                        {l.used
                            .iter()
                            .map(|u| {
                                let (name, how) = delaylab_playground::live_words::used_line(lang, u, &notes);
                                let on = !u.cases.is_empty();
                                view! {
                                    <li data-testid="live-used" data-tag=u.tag data-live=if on { "true" } else { "false" }>
                                        {name}" "
                                        <span class="note-how" class:seen-live=on>"(" {how} ")"</span>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                }
            }}
            {move || {
                let v = version.get();
                (v != delaylab_engine::version::BrokerVersion::V3_10)
                    .then(|| view! {
                        <h4>{v.label()}": "{c.tr("ver_title")}</h4>
                        <crate::app::version::VersionNotes version=v />
                        <h4>"RabbitMQ 3.10.8"</h4>
                    })
            }}
            <p>{move || c.tr("chk_intro")}</p>
            <ol class="rules" data-testid="checked-rules">
                {RULES.into_iter().map(|k| view! { <li>{move || c.tr(k)}</li> }).collect_view()}
            </ol>
            <p>{move || c.tr("chk_defs")}</p>
            <p class="plugin-note" data-testid="checked-plugin">
                <strong>
                    <span aria-hidden="true">"ⓘ "</span>
                    {move || c.tr("chk_plugin_h")}
                </strong>
                " "
                {move || c.tr("chk_plugin")}
            </p>
            <p class="muted small-print">"RabbitMQ " {RABBIT_VERSION} " · tests/conformance/"</p>
        </section>
    }
}
