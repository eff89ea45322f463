//! What a panel shows while the module it needs is still being built by scripts/serve.sh
//! (`lazy_module::ImportError::Building`): what is building, since when, about how long
//! it takes and where its log is; it looks at `serve-status.js` every [`POLL_MS`] and,
//! once the status says ready, imports again by itself (no reload). A failed or missing
//! build says what to run instead.

use delaylab_playground::i18n::Lang;
use leptos::prelude::*;

use super::lazy_module::{build_status, BuildStatus, Building};
use super::Ctx;

/// How often the status is read while a module builds.
const POLL_MS: u32 = 3_000;

/// The note in words (`what`: the panel's module in words, e.g. "the code exporter").
fn note(b: &Building, what: &str, lang: Lang, now_ms: f64) -> String {
    let zh = lang == Lang::Zh;
    let dir = &b.dir;
    match &b.status {
        BuildStatus::Building {
            started_ms,
            expected_s,
            log,
        } => {
            let ago_min = ((now_ms - started_ms) / 60_000.0).max(0.0).round() as u64;
            let expected_min = (expected_s / 60.0).ceil().max(1.0) as u64;
            if zh {
                format!("{what}的模块({dir}/)仍在由 scripts/serve.sh 构建:{ago_min} 分钟前开始,在两个空闲 CPU 核上通常共需约 {expected_min} 分钟(日志:{log})。构建完成后这里会自动加载,无需刷新页面。")
            } else {
                format!("The module of {what} ({dir}/) is still being built by scripts/serve.sh: started {ago_min} min ago, usually about {expected_min} min in all on two idle cores (log: {log}). It loads here by itself when it is ready; no need to reload.")
            }
        }
        BuildStatus::Ready => {
            if zh {
                format!("{what}的模块({dir}/)已构建完成,正在加载…")
            } else {
                format!("The module of {what} ({dir}/) is built: loading it…")
            }
        }
        BuildStatus::Failed { log } => {
            if zh {
                format!(
                    "scripts/serve.sh 未能构建{what}的模块({dir}/):见 {log}。其余部分照常可用。"
                )
            } else {
                format!("scripts/serve.sh could not build the module of {what} ({dir}/): see {log}. The rest of the playground works.")
            }
        }
        BuildStatus::Missing => {
            if zh {
                format!("{what}的模块({dir}/)没有构建:运行 bash scripts/build-js.sh,再重新构建页面(或运行 bash scripts/serve.sh)。")
            } else {
                format!("The module of {what} ({dir}/) was not built with this page: run bash scripts/build-js.sh and build the page again (or run bash scripts/serve.sh).")
            }
        }
    }
}

/// The note, kept up to date; `on_ready` runs once the build is done.
#[component]
pub fn ModuleWait(
    building: Building,
    /// The panel's module in words, per language.
    what: fn(Lang) -> &'static str,
    on_ready: Callback<()>,
) -> impl IntoView {
    let c = expect_context::<Ctx>();
    let state = RwSignal::new(building);
    // Polls while the note is shown: once it is gone, its signal is too, and so is this.
    wasm_bindgen_futures::spawn_local(async move {
        while let Some(st) = state.try_get_untracked() {
            match st.status {
                BuildStatus::Ready => {
                    on_ready.run(());
                    return;
                }
                BuildStatus::Building { .. } => {}
                BuildStatus::Failed { .. } | BuildStatus::Missing => return,
            }
            gloo_timers::future::TimeoutFuture::new(POLL_MS).await;
            let next = build_status(&st.dir, &st.status_url).await;
            if state.try_set(next).is_some() {
                return;
            }
        }
    });
    view! {
        <p class="module-wait" role="status" data-testid="module-wait" data-state=move || match state.with(|s| s.status.clone()) {
            BuildStatus::Building { .. } => "building",
            BuildStatus::Ready => "ready",
            BuildStatus::Failed { .. } => "failed",
            BuildStatus::Missing => "missing",
        }>
            {move || {
                let lang = c.lang.get();
                // Redrawn at each look at the status: "minutes ago" stays true.
                state.with(|b| note(b, what(lang), lang, web_sys::js_sys::Date::now()))
            }}
        </p>
    }
}
