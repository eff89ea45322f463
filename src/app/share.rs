//! Share links in the full playground: the "Copy link" button, opening a link at start,
//! the read-only view, and the message a bad link gets.
//!
//! The link is `delaylab-share`'s (the CLI's `delaylab link` makes the same one): the
//! scenario as loaded or edited (not the state it reached: opening replays it, and the
//! engine is deterministic, so the recipient sees the same deliveries at the same times),
//! plus the view: speed, language, read-only, the time the sharer was looking at (the
//! recipient jumps there) and whether it was playing. What the user did through the
//! publish and consumer forms is recorded into the scenario (`Runner::record`), so it is
//! part of the link and replays at the same virtual times.
//!
//! Start (`start`, called once by `App`): a fragment `#v1.…` is a link; it loads, or a
//! notice says what is wrong (translated, the `LinkError` text) with "Start fresh". A
//! preset id (`#head-of-line-blocking`) was already loaded by `App`; no fragment at all
//! restores the autosave (`autosave.rs`). Nothing from a link is ever parsed as HTML:
//! names, bodies and descriptions go into text nodes.

use delaylab_playground::per_load::PerLoad;
use delaylab_share::{looks_like_link, LinkError, Shared, ViewOptions, MAX_FRAGMENT_CHARS};
use leptos::prelude::*;

use super::deferred::Pending;
use super::i18n::Lang;
use super::{autosave, chunks, AfterSeek, Ctx};

/// Share state, provided as a context by [`start`].
#[derive(Clone, Copy)]
pub struct Share {
    /// The page shows no editing controls (a read-only link was opened).
    pub read_only: RwSignal<bool>,
    /// What the next copied link says about read-only.
    pub link_read_only: RwSignal<bool>,
    pub problem: RwSignal<Option<Problem>>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// The link in the address bar.
    Link(LinkError),
    /// What localStorage held.
    Autosave(LinkError),
    /// The link reader (the share codec's chunk) could not be fetched: why.
    Unloaded(String),
}

fn tr(lang: Lang, key: &'static str) -> &'static str {
    let (en, zh) = match key {
        "copy_link" => ("Copy link", "复制链接"),
        "copied" => ("Link copied to the clipboard.", "链接已复制到剪贴板。"),
        "copy_by_hand" => (
            "Copy the link from the field above.",
            "请从上面的输入框手动复制链接。",
        ),
        "too_long" => (
            "This scenario is too large for a link; export it as a file instead.",
            "这个场景太大,无法放进链接;请改为导出文件。",
        ),
        "link_label" => ("Share link", "分享链接"),
        "ro_link" => ("read-only link", "只读链接"),
        "ro_badge" => ("Read-only view: editing is off.", "只读视图:已关闭编辑。"),
        "reset" => ("Reset", "重置"),
        "reset_hint" => (
            "Back to the gallery; forget the autosaved scenario",
            "回到场景库,并清除自动保存的场景",
        ),
        "bad_link" => ("This link could not be opened:", "无法打开这个链接:"),
        "bad_autosave" => (
            "The autosaved scenario could not be restored, so the playground starts fresh:",
            "无法恢复自动保存的场景,已重新开始:",
        ),
        "start_fresh" => ("Start fresh", "重新开始"),
        "codec_unloaded" => (
            "the part of the page that reads links could not be loaded; reload the page to try again",
            "读取链接的页面部分未能加载;请刷新页面重试",
        ),
        _ => (key, key),
    };
    if lang == Lang::Zh {
        zh
    } else {
        en
    }
}

/// The error in the UI language (English is `LinkError`'s own text).
pub fn describe(lang: Lang, e: &LinkError) -> String {
    if lang == Lang::En {
        return e.to_string();
    }
    match e {
        LinkError::NotALink => "这不是 delaylab 分享链接:'#' 后面应以 \"v1.\" 开头".into(),
        LinkError::UnknownVersion(v) => format!(
            "这个链接的版本是 {v},来自更新的 delaylab;本版本只能打开 1 到 {} 版的链接",
            delaylab_share::LINK_VERSION
        ),
        LinkError::TooLong { chars, limit } => format!("链接长 {chars} 个字符,上限是 {limit}"),
        LinkError::BadBase64(why) => format!("链接已损坏:{why}(请重新复制完整链接)"),
        LinkError::Truncated => "链接不完整:数据提前结束(请重新复制完整链接)".into(),
        LinkError::UnknownDictionary(d) => {
            format!("链接被改动过,或来自更新的 delaylab:它引用了本版本没有的字典 {d}")
        }
        LinkError::BadDeflate => "链接已损坏:压缩数据无效(请重新复制完整链接)".into(),
        LinkError::Tampered => "链接被改动过:内容与校验和不符(请重新复制完整链接)".into(),
        LinkError::TooLarge { limit } => format!("链接里的场景解压后超过 {limit} 字节的上限"),
        LinkError::BadPayload(why) => format!("链接的内容不是 delaylab 场景:{why}"),
        LinkError::InvalidScenario(l) => format!("链接里的场景无效:{}: {}", l.path, l.message),
        LinkError::InvalidView { path, message } => format!("链接的视图选项无效:{path}: {message}"),
    }
}

/// The view options of what the page shows now.
pub fn current_view(c: &Ctx, read_only: bool) -> ViewOptions {
    let speed = c.speed.get_untracked();
    let now = c.runner.with_value(|r| r.now());
    ViewOptions {
        speed: (speed != 1.0).then_some(speed),
        autoplay: c.playing.get_untracked(),
        start_ms: (now > 0).then_some(now),
        lang: Some(c.lang.get_untracked().code().to_string()),
        read_only,
        compare: c.cmp.ids.get_untracked(),
        ..ViewOptions::default()
    }
}

/// This page's address without its fragment.
fn base() -> String {
    let href = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    href.split('#').next().unwrap_or_default().to_string()
}

/// Loads a link's scenario and applies its view options.
pub fn open(c: &Ctx, sh: &Share, shared: Shared) {
    // The scenario of the entry the link was opened in (at start, or Back to it).
    c.load_as("custom", shared.scenario, super::history::Entry::Same);
    let v = shared.view;
    if let Some(l) = v.lang.as_deref().and_then(Lang::of_code) {
        c.lang.set(l);
    }
    if let Some(s) = v.speed {
        c.set_speed(s);
    }
    sh.read_only.set(v.read_only);
    sh.link_read_only.set(v.read_only);
    if !v.compare.is_empty() {
        // Lanes beside the link's own scenario (which stays in the main view); unknown
        // presets are skipped, fewer than two known leaves compare mode off.
        let _ = c.cmp.start_lanes(c, &v.compare, false);
    }
    // The sharer's time, as the Jump box goes there (Ctx::seek); then play if it was.
    let after = if v.autoplay {
        AfterSeek::Play
    } else {
        AfterSeek::Pause
    };
    match v.start_ms {
        Some(t) => {
            let _ = c.seek(t, after);
        }
        None => c.set_playing(v.autoplay),
    }
}

/// Opens a link's fragment (the share codec is a chunk: fetched first if need be), or
/// says what is wrong with it.
pub fn open_link(c: Ctx, sh: Share, fragment: String) {
    let pending = Pending::start();
    leptos::task::spawn_local(async move {
        let _pending = pending;
        match chunks::decode_link(fragment).await {
            Ok(Ok(shared)) => open(&c, &sh, shared),
            Ok(Err(e)) => sh.problem.set(Some(Problem::Link(e))),
            Err(e) => sh.problem.set(Some(Problem::Unloaded(e.to_string()))),
        }
    });
}

/// Back to the gallery with the sandbox: no fragment, no autosave, no notice.
pub fn start_fresh(c: &Ctx, sh: &Share) {
    sh.problem.set(None);
    sh.read_only.set(false);
    sh.link_read_only.set(false);
    c.load("sandbox");
    autosave::clear();
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("gallery-h"))
    {
        el.scroll_into_view();
    }
}

/// Called once by `App` after it loaded a preset named by the fragment (if any).
pub fn start(c: Ctx, hash: &str) {
    let sh = Share {
        read_only: RwSignal::new(false),
        link_read_only: RwSignal::new(false),
        problem: RwSignal::new(None),
    };
    provide_context(sh);
    // A link or an autosave is read by the share codec's chunk: the page shows the
    // sandbox (or the preset) until it is in, and autosave writes nothing meanwhile.
    let restoring = StoredValue::new(false);
    if looks_like_link(hash) {
        open_link(c, sh, hash.to_string());
    } else if let (true, Some(saved)) = (hash.is_empty(), autosave::saved()) {
        restoring.set_value(true);
        let pending = Pending::start();
        leptos::task::spawn_local(async move {
            let _pending = pending;
            match chunks::decode_link(saved).await {
                Ok(Ok(shared)) => open(&c, &sh, shared),
                Ok(Err(e)) => {
                    autosave::clear();
                    sh.problem.set(Some(Problem::Autosave(e)));
                }
                // Kept: the next visit may fetch the codec.
                Err(e) => sh.problem.set(Some(Problem::Unloaded(e.to_string()))),
            }
            restoring.set_value(false);
        });
    } else {
        // Fetched while the reader looks at the page ("Copy link" then copies at once),
        // once the first screen is in: at mount it took bandwidth and the main thread from
        // the topology's chunk and the reader's first click (its chunks: 44 KB gzip).
        leptos::task::spawn_local(async {
            super::deferred::after_first_screen().await;
            let _ = chunks::preload_share_codec().await;
        });
    }
    // The read-only view: CSS hides the editing controls (style.css, `.read-only`).
    Effect::new(move |_| {
        let on = sh.read_only.get();
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = if on {
                el.class_list().add_1("read-only")
            } else {
                el.class_list().remove_1("read-only")
            };
        }
    });
    autosave::watch(c, sh, restoring);
}

/// Writes `text` to the clipboard, then `done(true)`; `done(false)` when the browser
/// has no clipboard or refuses (the user copies from the field by hand).
pub fn write_clipboard(text: &str, done: impl FnOnce(bool) + 'static) {
    let Some(nav) = web_sys::window().map(|w| w.navigator()) else {
        return done(false);
    };
    let promise = nav.clipboard().write_text(text);
    leptos::task::spawn_local(async move {
        done(wasm_bindgen_futures::JsFuture::from(promise).await.is_ok());
    });
}

/// Copies `text`, then says how it went, for the load the copy was made under.
fn copy_to_clipboard(text: &str, status: RwSignal<PerLoad<&'static str>>, load: u64) {
    write_clipboard(text, move |ok| {
        status.update(|s| s.set(load, if ok { "copied" } else { "copy_by_hand" }))
    });
}

/// "Copy link" (with its read-only choice) and "Reset", beside the scenario's name.
#[component]
pub fn ShareTools() -> impl IntoView {
    let c = expect_context::<Ctx>();
    let sh = expect_context::<Share>();
    // Both belong to the scenario they were made for: a new one shows neither.
    let link = RwSignal::new(PerLoad::<String>::default());
    let status = RwSignal::new(PerLoad::<&'static str>::default());
    let copy = move |_| {
        let load = c.load_now();
        let s = c.runner.with_value(|r| r.scenario.clone());
        let view = current_view(&c, sh.link_read_only.get_untracked());
        leptos::task::spawn_local(async move {
            let fragment = match chunks::encode_link(s, view).await {
                Ok(f) => f,
                Err(_) => return status.update(|st| st.set(load, "codec_unloaded")),
            };
            if fragment.len() > MAX_FRAGMENT_CHARS {
                link.update(PerLoad::clear);
                return status.update(|st| st.set(load, "too_long"));
            }
            let url = format!("{}#{fragment}", base());
            copy_to_clipboard(&url, status, load);
            link.update(|l| l.set(load, url));
        });
    };
    let l = move |k| tr(c.lang.get(), k);
    view! {
        <div class="share-tools">
            <button class="small" data-testid="copy-link" on:click=copy>
                {move || l("copy_link")}
            </button>
            <label class="check small-check">
                <input
                    type="checkbox"
                    data-testid="link-read-only"
                    prop:checked=move || sh.link_read_only.get()
                    on:change=move |ev| sh.link_read_only.set(event_target_checked(&ev))
                />
                <span>{move || l("ro_link")}</span>
            </label>
            <button class="small" data-testid="reset" title=move || l("reset_hint") on:click=move |_| start_fresh(&c, &sh)>
                <span aria-hidden="true">"↺ "</span>
                {move || l("reset")}
            </button>
        </div>
        <div class="share-note">
        {move || sh.read_only.get().then(|| view! { <p class="ro-badge" data-testid="read-only">{move || l("ro_badge")}</p> })}
        {move || {
            link.with(|l| l.get(&c.load_rev.get()).cloned())
                .map(|u| {
                    view! {
                        <div class="share-out">
                            <input
                                class="share-link"
                                data-testid="share-link"
                                readonly
                                aria-label=move || l("link_label")
                                prop:value=u
                                on:focus=move |ev| {
                                    use web_sys::wasm_bindgen::JsCast;
                                    if let Some(i) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                                        i.select();
                                    }
                                }
                            />
                        </div>
                    }
                })
        }}
        <p class="share-status" role="status" data-testid="share-status">{move || status.with(|s| s.get(&c.load_rev.get()).copied()).map(l)}</p>
        </div>
    }
}

/// The notice for a link (or an autosave) that did not open, with "Start fresh".
#[component]
pub fn LinkNotice() -> impl IntoView {
    let c = expect_context::<Ctx>();
    let sh = expect_context::<Share>();
    move || {
        sh.problem.get().map(|p| {
            let lang = c.lang.get();
            let (title, text) = match &p {
                Problem::Link(e) => (tr(lang, "bad_link"), describe(lang, e)),
                Problem::Autosave(e) => (tr(lang, "bad_autosave"), describe(lang, e)),
                Problem::Unloaded(why) => (tr(lang, "bad_link"), format!("{} ({why})", tr(lang, "codec_unloaded"))),
            };
            view! {
                <div class="link-problem" role="alert" data-testid="link-error">
                    <p>
                        <strong>"⚠ "{title}</strong>
                        " "
                        <span data-testid="link-error-text">{text}</span>
                    </p>
                    <button class="primary" data-testid="start-fresh" on:click=move |_| start_fresh(&c, &sh)>
                        {tr(lang, "start_fresh")}
                    </button>
                </div>
            }
        })
    }
}
