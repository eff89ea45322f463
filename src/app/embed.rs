//! Embed mode (`index.html?embed#FRAGMENT`): a compact playground for an iframe 320 to
//! 1200 px wide, and the full playground's "Embed" button that writes the iframe snippet.
//!
//! The URL carries everything: the fragment is the scenario (a share link's payload, or
//! a preset id such as `#head-of-line-blocking`), the query the embed's options:
//!
//! | option | meaning | default |
//! |---|---|---|
//! | `embed` | embed mode | - |
//! | `panels=clock,topology,queues` | what shows, in this order: `clock`, `topology`, `queues`, `watch`, `log`, `charts`, `inspector`, `publish`, `consumers`, `checks` | `clock,topology,queues` |
//! | `autoplay=1` | play once loaded | the link's, else off |
//! | `speed=100` | virtual ms per wall ms (1..=100000) | the link's, else 1 |
//! | `start=6m` | jump here first (`6:00`, `360000`, `6m`) | the link's, else 0 |
//! | `readonly=1` | no publish form, no consumer editing (even if listed) | the link's, else off |
//! | `lang=zh` | `en` or `zh` | the link's, else the browser's |
//! | `events=1` | send every engine event to the host (see host_api.rs) | off |
//! | `origins=https://a.example,https://b.example` | host pages allowed to drive it, besides the embed's own origin | none |
//!
//! Query options win over the link's view options. A bad option is ignored and named
//! under the header (as text). The header's "Open in delaylab" link opens the full
//! playground (this page's address without the query) with the scenario now shown.
//!
//! Timeline: the lesson page loads `../?embed&speed=300&panels=clock,topology,queues#head-of-line-blocking`;
//! the app mounts, sees `embed`, loads the preset, sets 300x, starts the host API (it
//! posts `ready` to the lesson page) and shows clock, topology and queues.

use delaylab_engine::report::text::clock;
use delaylab_playground::embed_size;
use delaylab_share::{decode_fragment, encode_fragment, make_link, LinkError, ViewOptions};
use leptos::prelude::*;

pub use super::embed_text::note_text;
use super::embed_text::tx;
use super::i18n::Lang;
use super::{host_api, is_preset, panels, parse_clock, topo_view, AfterSeek, Ctx};

/// Panels an embed can show, by their URL names.
pub(super) const PANELS: [&str; 10] = [
    "clock",
    "topology",
    "queues",
    "watch",
    "log",
    "charts",
    "inspector",
    "publish",
    "consumers",
    "checks",
];
const DEFAULT_PANELS: [&str; 3] = ["clock", "topology", "queues"];
/// At most this many option problems are listed (a hostile URL could have thousands).
const MAX_NOTES: usize = 5;

/// The embed's options, from the page's query and the fragment's view options.
#[derive(Clone, Debug, Default)]
pub struct EmbedOptions {
    pub panels: Vec<&'static str>,
    pub autoplay: bool,
    pub speed: Option<f64>,
    pub start_ms: Option<u64>,
    pub read_only: bool,
    pub lang: Option<Lang>,
    pub events: bool,
    pub origins: Vec<String>,
    /// Problems with the options, shown as text: what was written, and the key of the
    /// hint saying what is expected (translated when shown, [`note_text`]).
    pub notes: Vec<(String, &'static str)>,
}

/// The `events=1` option alone (read before the scenario loads; a bad value is named
/// by [`EmbedOptions::read`]).
fn events_requested() -> bool {
    let mut ignored = vec![];
    query()
        .and_then(|q| q.get("events"))
        .and_then(|v| flag("events", &v, &mut ignored))
        .unwrap_or(false)
}

/// True when the page was opened as an embed (`?embed`, `?embed=1`).
pub fn requested() -> bool {
    query().is_some_and(|q| q.has("embed"))
}

fn query() -> Option<web_sys::UrlSearchParams> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search).ok()
}

fn shown(v: &str) -> String {
    let s: String = v.chars().take(60).collect();
    if s.len() < v.len() {
        s + "…"
    } else {
        s
    }
}

fn flag(name: &str, v: &str, notes: &mut Vec<(String, &'static str)>) -> Option<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "" | "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => {
            notes.push((format!("{name}=\"{}\"", shown(v)), "hint_flag"));
            None
        }
    }
}

fn lang_of(v: &str) -> Option<Lang> {
    match v.trim().to_ascii_lowercase().as_str() {
        "en" => Some(Lang::En),
        "zh" | "zh-cn" => Some(Lang::Zh),
        _ => None,
    }
}

impl EmbedOptions {
    /// Reads the query; `view` (a share link's view options) fills what the query omits.
    pub fn read(view: &ViewOptions) -> EmbedOptions {
        let mut o = EmbedOptions {
            autoplay: view.autoplay,
            speed: view.speed,
            start_ms: view.start_ms,
            read_only: view.read_only,
            lang: view.lang.as_deref().and_then(lang_of),
            ..EmbedOptions::default()
        };
        let link_panels: Vec<&'static str> = view
            .panels
            .iter()
            .filter_map(|p| PANELS.iter().find(|k| **k == p.as_str()).copied())
            .collect();
        o.panels = if link_panels.is_empty() {
            DEFAULT_PANELS.to_vec()
        } else {
            link_panels
        };
        let Some(q) = query() else { return o };
        let mut notes = vec![];
        if let Some(v) = q.get("panels") {
            let mut list = vec![];
            for name in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                match PANELS.iter().find(|k| **k == name) {
                    Some(k) if !list.contains(k) => list.push(*k),
                    Some(_) => {}
                    None => notes.push((format!("panels: \"{}\"", shown(name)), "hint_panels")),
                }
            }
            if !list.is_empty() {
                o.panels = list;
            }
        }
        if let Some(v) = q.get("autoplay") {
            o.autoplay = flag("autoplay", &v, &mut notes).unwrap_or(o.autoplay);
        }
        for key in ["readonly", "read-only", "read_only"] {
            if let Some(v) = q.get(key) {
                o.read_only = flag(key, &v, &mut notes).unwrap_or(o.read_only);
            }
        }
        if let Some(v) = q.get("events") {
            o.events = flag("events", &v, &mut notes).unwrap_or(false);
        }
        if let Some(v) = q.get("speed") {
            match v.trim().parse::<f64>() {
                Ok(x) if (1.0..=100_000.0).contains(&x) => o.speed = Some(x),
                _ => notes.push((format!("speed=\"{}\"", shown(&v)), "hint_speed")),
            }
        }
        if let Some(v) = q.get("start") {
            match parse_clock(&v) {
                Ok(ms) if ms <= super::MAX_SEEK_MS => o.start_ms = Some(ms),
                _ => notes.push((format!("start=\"{}\"", shown(&v)), "hint_start")),
            }
        }
        if let Some(v) = q.get("lang") {
            match lang_of(&v) {
                Some(l) => o.lang = Some(l),
                None => notes.push((format!("lang=\"{}\"", shown(&v)), "hint_lang")),
            }
        }
        if let Some(v) = q.get("origins") {
            for item in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                match host_api::parse_origin(item) {
                    Ok(origin) if !o.origins.contains(&origin) => o.origins.push(origin),
                    Ok(_) => {}
                    Err(_) => notes.push((format!("origins: \"{}\"", shown(item)), "hint_origin")),
                }
            }
        }
        if o.read_only {
            o.panels.retain(|p| *p != "publish" && *p != "consumers");
        }
        let extra = notes.len().saturating_sub(MAX_NOTES);
        notes.truncate(MAX_NOTES);
        if extra > 0 {
            notes.push((format!("(+{extra})"), ""));
        }
        o.notes = notes;
        o
    }
}

/// This page's address without query and fragment: the full playground.
pub fn app_base() -> String {
    web_sys::window()
        .and_then(|w| {
            let l = w.location();
            Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?))
        })
        .unwrap_or_default()
}

fn view_options(c: &Ctx) -> ViewOptions {
    ViewOptions {
        speed: Some(c.speed.get_untracked()),
        lang: Some(c.lang.get_untracked().code().to_string()),
        ..ViewOptions::default()
    }
}

/// Loads what the fragment names; `Err` is the problem (shown with share::describe).
fn load_fragment(c: &Ctx) -> Result<ViewOptions, LinkError> {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    let id = hash.trim_start_matches('#');
    if id.is_empty() {
        c.load("sandbox");
        return Ok(ViewOptions::default());
    }
    // A preset, maybe on a version (#fix-delayed-plugin@4.3).
    if let Some(r) = super::PresetRef::parse(id).filter(|r| is_preset(&r.id)) {
        c.load_on(&r.id, r.version);
        return Ok(ViewOptions::default());
    }
    let shared = decode_fragment(&hash)?;
    c.load_scenario("custom", shared.scenario);
    Ok(shared.view)
}

#[component]
fn Panel(name: &'static str) -> impl IntoView {
    let c = expect_context::<Ctx>();
    match name {
        "clock" => view! { <panels::Controls /> }.into_any(),
        "topology" => view! { <topo_view::Topology /> }.into_any(),
        "queues" => view! { <panels::Queues /> }.into_any(),
        "log" => view! { <panels::Log /> }.into_any(),
        "charts" => view! { <panels::Lateness /> }.into_any(),
        "inspector" => view! { <panels::Inspector /> }.into_any(),
        "publish" => view! { <panels::Publish /> }.into_any(),
        "consumers" => view! { <panels::Consumers /> }.into_any(),
        "checks" => view! { <panels::Checks /> }.into_any(),
        _ => view! {
            <section class="panel embed-watch" data-testid="watch">
                <p class="desc">{move || c.meta_texts().description}</p>
                // Nothing to watch: no line at all.
                {move || {
                    let texts = c.meta_texts();
                    texts.has_watch().then(|| view! {
                        <p class="watch-text">
                            <strong>"◉ "{c.tr("what_to_watch")}</strong>
                            " "
                            {texts.watch}
                        </p>
                    })
                }}
            </section>
        }
        .into_any(),
    }
}

/// The embed's page: header (name, clock, "Open in delaylab"), option notes, the panels.
#[component]
pub fn Embed() -> impl IntoView {
    let c = expect_context::<Ctx>();
    // Listen for a host before loading: the load's own events reach it too.
    host_api::tap_if_framed(&c, events_requested());
    let loaded = load_fragment(&c);
    let link_error = loaded.as_ref().err().cloned();
    let opts = EmbedOptions::read(&loaded.unwrap_or_default());
    if let Some(l) = opts.lang {
        c.lang.set(l);
    }
    if let Some(s) = opts.speed {
        c.set_speed(s);
    }
    // A start time is a seek (Ctx::seek, as the Jump box), then autoplay plays.
    let autoplay = opts.autoplay && link_error.is_none();
    match opts.start_ms {
        Some(t) => {
            let _ = c.seek(
                t,
                if autoplay {
                    AfterSeek::Play
                } else {
                    AfterSeek::Pause
                },
            );
        }
        None => c.set_playing(autoplay),
    }
    host_api::start(c, opts.origins.clone(), opts.events);

    let link = Memo::new(move |_| {
        let _ = c.meta.get();
        let _ = c.lang.get();
        c.runner
            .with_value(|r| make_link(&app_base(), &r.scenario, &view_options(&c)))
    });
    let lang = move || c.lang.get();
    let notes = opts.notes.clone();
    // The host hears how tall this is (host_api::report_size): its iframe fits it.
    let main_ref = NodeRef::<leptos::html::Main>::new();
    main_ref.on_load(|el| host_api::report_size(&el));
    view! {
        // Its own document in an iframe: one main landmark holding it all, the scenario's
        // name its heading (axe: landmark-one-main, page-has-heading-one, region).
        <main class="embed" data-testid="embed" node_ref=main_ref>
            <header class="embed-head">
                <h1 class="embed-name" data-testid="scenario-name">{move || c.meta_texts().name}</h1>
                <span class="embed-clock" role="timer" aria-live="off">
                    <span class="visually-hidden">{move || tx(lang(), "time")}" "</span>
                    <span class="clock-value" data-testid="clock">{move || clock(c.now())}</span>
                </span>
                <a
                    class="embed-open"
                    data-testid="open-full"
                    href=move || link.get()
                    target="_blank"
                    rel="noopener"
                    title=move || tx(lang(), "open_title")
                >
                    {move || tx(lang(), "open")}
                </a>
            </header>
            {link_error.map(|e| view! {
                <div class="embed-error" role="alert" data-testid="embed-error">
                    <p>{move || tx(lang(), "bad_link")} " " {move || super::share::describe(lang(), &e)}</p>
                    <p><a href=app_base() target="_blank" rel="noopener">{move || tx(lang(), "fresh")}</a></p>
                </div>
            })}
            {(!notes.is_empty()).then(|| view! {
                <p class="embed-notes" data-testid="embed-notes">
                    {move || {
                        let l = lang();
                        let list: Vec<String> = notes.iter().map(|n| note_text(l, n)).collect();
                        format!("{} {}", tx(l, "ignored"), list.join("; "))
                    }}
                </p>
            })}
            {move || c.load_error.get().map(|e| view! { <p class="embed-error" role="alert">{e}</p> })}
            <div class="embed-panels">
                {opts.panels.iter().map(|p| view! { <Panel name=*p /> }).collect_view()}
            </div>
        </main>
    }
}

/// Escapes text for an HTML attribute value in the snippet a user pastes elsewhere.
fn attr(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The speed an autoplaying snippet plays at when the page plays at 1x.
const SNIPPET_AUTOPLAY_SPEED: f64 = 100.0;

/// The iframe snippet for a scenario: `fragment` is its share-link fragment with the view
/// (time, speed, autoplay...), the query names the panels (and read-only, for a reader
/// who edits the snippet). The frame takes its column's width; its height follows the
/// embed's `size` messages (host_api.rs) through the snippet's script, which accepts them
/// only from the embed's origin and only for its own frame. Until the first one (or where
/// a site strips scripts) the frame starts at the height the panels usually take
/// (`embed_size`).
pub fn snippet(base: &str, fragment: &str, name: &str, read_only: bool) -> String {
    let mut src = format!("{base}?embed&panels={}", DEFAULT_PANELS.join(","));
    if read_only {
        src.push_str("&readonly=1");
    }
    let origin = web_sys::Url::new(base)
        .map(|u| u.origin())
        .unwrap_or_default();
    format!(
        "<iframe src=\"{}#{}\" title=\"{}\" data-delaylab-embed style=\"width:100%;height:{}px;border:0\" loading=\"lazy\"></iframe>\n\
         <script>addEventListener(\"message\",function(e){{var d=e.data;if(e.origin!==\"{}\"||!d||d.type!==\"size\")return;\
         document.querySelectorAll(\"iframe[data-delaylab-embed]\").forEach(function(f){{if(f.contentWindow===e.source)f.style.height=d.height+\"px\"}})}})</script>",
        attr(&src),
        attr(fragment),
        attr(&format!("delaylab: {name}")),
        embed_size::height_px(&DEFAULT_PANELS),
        attr(&origin),
    )
}

/// The full playground's "Embed" button and its snippet box.
#[component]
pub fn EmbedButton() -> impl IntoView {
    let c = expect_context::<Ctx>();
    let open = RwSignal::new(false);
    // The last copy's outcome; a new opening shows none.
    let copied = RwSignal::new(None::<bool>);
    let lang = move || c.lang.get();
    view! {
        <button
            class="small"
            data-testid="embed-btn"
            aria-expanded=move || if open.get() { "true" } else { "false" }
            aria-controls="embed-box"
            on:click=move |_| {
                copied.set(None);
                open.update(|o| *o = !*o)
            }
        >
            <span aria-hidden="true">"</> "</span>
            {move || tx(lang(), "embed")}
        </button>
        // The snippet box is in a chunk of its own (chunks.rs), fetched once the page works.
        <super::deferred::Deferred load=move || super::chunks::embed_box(open, copied) />
    }
}

/// The snippet box the "Embed" button opens: options, the iframe snippet, copy.
#[component]
pub fn EmbedBox(open: RwSignal<bool>, copied: RwSignal<Option<bool>>) -> impl IntoView {
    let c = expect_context::<Ctx>();
    let autoplay = RwSignal::new(false);
    let read_only = RwSignal::new(true);
    let text = Memo::new(move |_| {
        if !open.get() {
            return String::new();
        }
        // What "Copy link" would share now (the scenario with what the user did, the
        // time, speed, language, compare lanes): the embed opens where the page is.
        // Followed while paused; while playing, the time the box was last read.
        let _ = (
            c.meta.get(),
            c.scenario_rev.get(),
            c.load_rev.get(),
            c.lang.get(),
        );
        if !c.playing.get() {
            let _ = c.now();
        }
        let ro = read_only.get();
        let mut view = super::share::current_view(&c, ro);
        view.autoplay = autoplay.get();
        if view.autoplay && view.speed.is_none() {
            // Playing at 1x shows nothing moving for minutes: the snippet's old default.
            view.speed = Some(SNIPPET_AUTOPLAY_SPEED);
        }
        let (fragment, name) = c
            .runner
            .with_value(|r| (encode_fragment(&r.scenario, &view), r.scenario.name.clone()));
        snippet(&app_base(), &fragment, &name, ro)
    });
    let lang = move || c.lang.get();
    let copy = move |_| {
        super::share::write_clipboard(&text.get_untracked(), move |ok| copied.set(Some(ok)));
    };
    view! {
        <section id="embed-box" class="embed-box" data-testid="embed-box" hidden=move || !open.get() aria-labelledby="embed-h">
            <h3 id="embed-h">{move || tx(lang(), "embed_h")}</h3>
            <p class="hint">{move || tx(lang(), "embed_hint")}</p>
            <div class="embed-opts">
                <label class="check">
                    <input type="checkbox" prop:checked=move || autoplay.get() on:change=move |ev| autoplay.set(event_target_checked(&ev)) />
                    <span>{move || tx(lang(), "autoplay")}</span>
                </label>
                <label class="check">
                    <input type="checkbox" prop:checked=move || read_only.get() on:change=move |ev| read_only.set(event_target_checked(&ev)) />
                    <span>{move || tx(lang(), "read_only")}</span>
                </label>
            </div>
            <textarea
                class="embed-snippet"
                data-testid="embed-snippet"
                readonly
                rows="4"
                spellcheck="false"
                aria-label=move || tx(lang(), "embed_h")
                prop:value=move || text.get()
                on:focus=move |ev| {
                    use web_sys::wasm_bindgen::JsCast;
                    if let Some(t) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok()) {
                        t.select();
                    }
                }
            ></textarea>
            <div class="embed-actions">
                <button class="primary small" data-testid="embed-copy" on:click=copy>{move || tx(lang(), "copy")}</button>
                <button class="small" on:click=move |_| open.set(false)>{move || tx(lang(), "close")}</button>
                <span role="status" class="muted">
                    {move || copied.get().map(|ok| if ok { tx(lang(), "copied") } else { tx(lang(), "copy_failed") })}
                </span>
            </div>
        </section>
    }
}
