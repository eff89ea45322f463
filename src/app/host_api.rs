//! The postMessage API of an embedded playground (`?embed`): a host page (a lesson, a
//! course) drives the simulation and hears about deliveries.
//!
//! Contract (README, "Embedding"):
//! - in (host → iframe): `{type:"load", scenario:{...}}` (the scenario-format JSON object,
//!   checked by the engine's loader), `{type:"play"}`, `{type:"pause"}`,
//!   `{type:"seek", ms}` (virtual time; back in time replays from 0; the clock stops
//!   there, as with the Jump box: send `play` to go on), `{type:"speed", value}`
//!   (virtual ms per wall ms, 1..=100000), `{type:"subscribe", events:true|false}`,
//!   `{type:"status"}`.
//! - out (iframe → host): `ready` (once running, and again after each `load`), `status`,
//!   `delivered` (`id, body, queue, at_ms, late_ms`, one message per delivery), `event`
//!   (`events: [trace JSON...]`, one batch per frame, only when subscribed), `dropped`
//!   (how many deliveries / events were over the per-frame caps), `checks` (`checks`:
//!   the scenario's checks, each `id`, `label`, `kind`, `status` pending / passed /
//!   failed / undecided, `at_ms`, `seen`, `msg`, `body`, `expected`, `text`, as the
//!   engine's `checks::json` and the JavaScript package's `checks()` give them; sent at
//!   the start of each run (a load, a restart, a seek back: all pending) and in the
//!   frame a state changes; none for a scenario without checks), `error` (`message`,
//!   and `request`: the type of the message it answers, when known).
//! - out, to any parent: `size` (`height`, `width`: the embed's content in CSS px), at
//!   start and whenever it changes (a narrower column wraps more), so that the host can
//!   make the iframe exactly as tall as its content ([`report_size`]; the Embed button's
//!   snippet carries the few lines of script that do it). It carries nothing but those two
//!   numbers, so it goes to the parent whatever its origin (targetOrigin `*`): an embed
//!   on any site sizes itself without `origins=`.
//! - Only the parent window may talk to the embed, and only from an allowed origin: the
//!   embed's own origin, plus the `origins=` URL option. Anything else is ignored without
//!   an answer (answering would tell a stranger the embed exists). Replies go to the
//!   parent with `targetOrigin` = the host's origin, never `*`.
//!
//! Timeline (head-of-line-blocking, host on the same origin):
//!   wall 0.4 s  iframe → `{type:"ready", scenario:"Head-of-line blocking", until_ms:2400000, ...}`
//!   host → `{type:"speed", value:1000}`, `{type:"play"}`
//!   virtual 30:00.000  iframe → `{type:"delivered", id:1, body:"A", queue:"order.dlx.queue",
//!                       at_ms:1800000, late_ms:0}` then the same for B with `late_ms:1440000`
//!   host → `{type:"seek", ms:360000}`: the simulation restarts and runs to 6:00 (nothing
//!   is delivered by then: B waits behind A).
//!   With a check `{"name":"b-on-time", "delivered":{"body":"B","by":"6m"}}` in the
//!   scenario: `{type:"checks", checks:[{id:"b-on-time", status:"pending", ...}]}` at the
//!   restart, then, once the clock is past 6:00, `status:"failed", at_ms:360000`.
//!
//! Everything a host sends is data: names and bodies end up in text nodes only.
//!
//! No event is lost to a restart: the [`Tap`] that collects what the host hears is owned
//! by the app ([`Ctx::tap`], a [`TapHandle`](delaylab_playground::host::TapHandle)), created before the embed loads its
//! scenario, and every runner the app makes gets it before its first event
//! (`Ctx::new_runner`). A `seek` back in time (a new runner) therefore sends the
//! replayed run's events and deliveries exactly once, in order, after what the old run
//! had already sent. A `seek` is [`Ctx::seek`], the same as the Jump box.

use delaylab_engine::scenario;
use delaylab_playground::host::{parse_request, Request, Tap, MAX_MESSAGE_CHARS, PROTOCOL_VERSION};
use leptos::prelude::*;
use serde_json::{json, Value};
use web_sys::wasm_bindgen::JsValue;

use super::{AfterSeek, Ctx};

/// Normalises one `origins=` entry to an origin (`https://a.example`): scheme http or
/// https, a host, nothing after it but an optional "/".
pub fn parse_origin(text: &str) -> Result<String, String> {
    let t = text.trim();
    let shown: String = t.chars().take(80).collect();
    let url = web_sys::Url::new(t)
        .map_err(|_| format!("\"{shown}\" is not an origin like https://school.example"))?;
    let scheme_ok = url.protocol() == "https:" || url.protocol() == "http:";
    let bare = url.pathname() == "/"
        && url.search().is_empty()
        && url.hash().is_empty()
        && url.username().is_empty();
    if !scheme_ok || !bare || url.host().is_empty() {
        return Err(format!(
            "\"{shown}\" is not an origin like https://school.example (scheme and host only)"
        ));
    }
    Ok(url.origin())
}

/// Who may talk to this embed, and where replies go.
#[derive(Clone, Debug, Default)]
pub struct HostState {
    /// Allowed origins: the embed's own, then the `origins=` option's.
    pub allowed: Vec<String>,
    /// The parent's origin once known (and allowed); nothing is posted before.
    pub host_origin: Option<String>,
}

fn parent_window() -> Option<web_sys::Window> {
    let w = web_sys::window()?;
    let p = w.parent().ok().flatten()?;
    // A top-level page is its own parent: no host to talk to.
    (JsValue::from(&p) != JsValue::from(&w)).then_some(p)
}

/// The parent page's origin as the browser reports it (Chromium, Safari:
/// `location.ancestorOrigins`; others: the referrer), if it is allowed.
fn guess_host_origin(allowed: &[String]) -> Option<String> {
    let w = web_sys::window()?;
    // Not in web-sys: read `location.ancestorOrigins[0]` by reflection.
    let reflect = web_sys::js_sys::Reflect::get;
    let from_ancestors = reflect(&w.location(), &JsValue::from_str("ancestorOrigins"))
        .ok()
        .filter(|l| !l.is_undefined() && !l.is_null())
        .and_then(|l| reflect(&l, &JsValue::from_f64(0.0)).ok())
        .and_then(|o| o.as_string());
    let from_referrer = || {
        let r = w.document()?.referrer();
        web_sys::Url::new(&r).ok().map(|u| u.origin())
    };
    let o = from_ancestors.or_else(from_referrer)?;
    allowed.contains(&o).then_some(o)
}

fn post(st: StoredValue<HostState>, v: &Value) {
    let Some(origin) = st.with_value(|s| s.host_origin.clone()) else {
        return;
    };
    let Some(parent) = parent_window() else {
        return;
    };
    if let Ok(js) = web_sys::js_sys::JSON::parse(&v.to_string()) {
        let _ = parent.post_message(&js, &origin);
    }
}

fn error(st: StoredValue<HostState>, request: Option<String>, message: String) {
    post(
        st,
        &json!({"type": "error", "request": request, "message": message}),
    );
}

fn ready_message(c: &Ctx) -> Value {
    let (name, until) = c.meta.with_untracked(|m| (m.name.clone(), m.until_ms));
    json!({"type": "ready", "version": PROTOCOL_VERSION, "scenario": name, "until_ms": until, "now_ms": c.now_untracked()})
}

fn status_message(c: &Ctx) -> Value {
    let (name, until) = c.meta.with_untracked(|m| (m.name.clone(), m.until_ms));
    json!({
        "type": "status",
        "scenario": name,
        "until_ms": until,
        "now_ms": c.now_untracked(),
        "playing": c.playing.get_untracked(),
        "speed": c.speed.get_untracked(),
        "seeking_to_ms": c.jump_to.get_untracked(),
    })
}

fn handle(c: Ctx, st: StoredValue<HostState>, data: JsValue) {
    let text = if data.is_string() {
        return error(
            st,
            None,
            "a message must be an object like {\"type\": \"play\"}, not a string".into(),
        );
    } else {
        match web_sys::js_sys::JSON::stringify(&data)
            .ok()
            .and_then(|s| s.as_string())
        {
            Some(t) => t,
            None => return error(st, None, "the message cannot be read as JSON".into()),
        }
    };
    if text.len() > MAX_MESSAGE_CHARS {
        return error(
            st,
            None,
            format!(
                "the message is {} characters of JSON; the limit is {MAX_MESSAGE_CHARS}",
                text.len()
            ),
        );
    }
    let v: Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => return error(st, None, format!("the message is not JSON: {e}")),
    };
    let req = match parse_request(&v) {
        Ok(r) => r,
        Err((ty, m)) => return error(st, ty, m),
    };
    match req {
        Request::Load(s) => match scenario::load_str(&s.to_string()) {
            Ok(s) => {
                c.load_scenario("custom", s);
                post(st, &ready_message(&c));
            }
            Err(e) => error(
                st,
                Some("load".into()),
                format!("scenario {}: {}", e.path, e.message),
            ),
        },
        Request::Play => c.set_playing(true),
        Request::Pause => c.set_playing(false),
        // Checked against MAX_SEEK_MS by parse_request: seek cannot refuse it.
        Request::Seek(ms) => {
            c.seek(ms, AfterSeek::Pause);
        }
        Request::Speed(x) => c.set_speed(x),
        Request::Subscribe(on) => {
            if let Some(tap) = c.tap.get_value() {
                tap.borrow_mut().set_events(on);
            }
        }
        Request::Status => post(st, &status_message(&c)),
    }
}

/// Tells the parent page how tall the embed's content `el` is, now and whenever it
/// changes (a ResizeObserver), as `{type:"size", version, height, width}` (see the
/// module docs: the one message that goes to any parent).
pub fn report_size(el: &web_sys::Element) {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    if parent_window().is_none() {
        return;
    }
    let last = std::cell::Cell::new((0.0, 0.0));
    let target = el.clone();
    let send = move || {
        let Some(parent) = parent_window() else {
            return;
        };
        let r = target.get_bounding_client_rect();
        let scroll = web_sys::window()
            .and_then(|w| w.scroll_y().ok())
            .unwrap_or(0.0);
        let size = ((r.bottom() + scroll).ceil(), r.width().ceil());
        if size == last.get() {
            return;
        }
        last.set(size);
        let msg =
            json!({"type": "size", "version": PROTOCOL_VERSION, "height": size.0, "width": size.1});
        if let Ok(js) = web_sys::js_sys::JSON::parse(&msg.to_string()) {
            let _ = parent.post_message(&js, "*");
        }
    };
    let send = std::rc::Rc::new(send);
    let on_resize = {
        let send = std::rc::Rc::clone(&send);
        Closure::<dyn Fn()>::new(move || send())
    };
    if let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
        observer.observe(el);
        // Observes as long as the page lives.
        on_resize.forget();
    }
    send();
}

/// Posts what the tap collected since the last frame.
fn flush(c: &Ctx, st: StoredValue<HostState>) {
    let Some(tap) = c.tap.get_value() else { return };
    let out = tap.borrow_mut().take_messages();
    if st.with_value(|s| s.host_origin.is_none()) {
        return;
    }
    for m in out {
        post(st, &m);
    }
}

/// When the page is framed, starts collecting for the host: the current runner and
/// every later one get the tap. Called before the embed loads its scenario, so that
/// load's own events (the topology declared at t=0) are heard too. `events_on` is the
/// `events=1` option.
pub fn tap_if_framed(c: &Ctx, events_on: bool) {
    if parent_window().is_some() && c.tap.with_value(Option::is_none) {
        c.set_tap(Tap::new(events_on));
    }
}

/// Starts the API when the page is framed. `extra_origins` are the `origins=` option's
/// (already normalised); `events_on` is the `events=1` option (used when
/// [`tap_if_framed`] was not called first). Returns false when there is no parent to
/// talk to.
pub fn start(c: Ctx, extra_origins: Vec<String>, events_on: bool) -> bool {
    if parent_window().is_none() {
        return false;
    }
    tap_if_framed(&c, events_on);
    let own = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    let mut allowed = vec![own];
    for o in extra_origins {
        if !allowed.contains(&o) {
            allowed.push(o);
        }
    }
    let host_origin = guess_host_origin(&allowed);
    let st = StoredValue::new(HostState {
        allowed,
        host_origin,
    });
    let handle_ev = move |ev: web_sys::MessageEvent| {
        let origin = ev.origin();
        if !st.with_value(|s| s.allowed.contains(&origin)) {
            return;
        }
        let from_parent = match (ev.source(), parent_window()) {
            (Some(src), Some(p)) => JsValue::from(src) == JsValue::from(p),
            _ => false,
        };
        if !from_parent {
            return;
        }
        let first = st.with_value(|s| s.host_origin.as_deref() != Some(origin.as_str()));
        st.update_value(|s| s.host_origin = Some(origin));
        if first {
            post(st, &ready_message(&c));
        }
        handle(c, st, ev.data());
    };
    // The embed lives as long as the page: the listener is never removed.
    let _ = window_event_listener(leptos::ev::message, handle_ev);
    Effect::new(move |_| {
        let _ = c.rev.get();
        flush(&c, st);
    });
    post(st, &ready_message(&c));
    true
}
