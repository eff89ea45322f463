//! The panels around the topology: header, clock controls, gallery, queues, publish
//! form, inspector, lateness, event log.

use delaylab_engine::report::text::clock;
use delaylab_engine::scenario::{duration::parse_duration, ActionKind, Properties, PublishSpec};
use delaylab_engine::value::{FieldValue, Table};
use leptos::prelude::*;

use super::i18n::Lang;
use super::runner::{span, Level};
use super::{parse_clock, AfterSeek, Ctx};

fn ctx() -> Ctx {
    expect_context::<Ctx>()
}

fn fmt_speed(s: f64) -> String {
    delaylab_engine::strategies::report::grouped(s.round() as u64) + "x"
}

#[component]
pub fn Header() -> impl IntoView {
    let c = ctx();
    let lang_btn = move |l: Lang, label: &'static str, tid: &'static str| {
        view! {
            <button
                class="lang"
                data-testid=tid
                lang={if l == Lang::Zh { "zh-CN" } else { "en" }}
                aria-pressed=move || if c.lang.get() == l { "true" } else { "false" }
                on:click=move |_| c.lang.set(l)
            >
                {label}
            </button>
        }
    };
    view! {
        <header class="top">
            <div class="brand">
                <h1 class="app-title">"delaylab"</h1>
                <p class="tagline">{move || c.tr("tagline")}</p>
            </div>
            <div class="clock" role="timer" aria-live="off">
                <span class="clock-label">{move || c.tr("virtual_time")}</span>
                <span class="clock-value" data-testid="clock">{move || clock(c.now())}</span>
            </div>
            <div class="langs" role="group" aria-label="Language / 语言">
                {lang_btn(Lang::En, "English", "lang-en")}
                {lang_btn(Lang::Zh, "简体中文", "lang-zh")}
            </div>
        </header>
    }
}

#[component]
pub fn Controls() -> impl IntoView {
    let c = ctx();
    let jump_text = RwSignal::new(String::new());
    let msg = RwSignal::new(None::<&'static str>);
    let step = move |_| match c.runner.with_value(|r| r.next_at()) {
        Some(t) if c.seek(t, AfterSeek::Pause) => msg.set(None),
        Some(_) => msg.set(Some("seek_too_far")),
        None => {
            c.set_playing(false);
            msg.set(Some("nothing_next"))
        }
    };
    // The same seek as the host API's and a link's start time (Ctx::seek).
    let jump = move || match parse_clock(&jump_text.get_untracked()) {
        Ok(t) if c.seek(t, AfterSeek::Pause) => msg.set(None),
        Ok(_) => msg.set(Some("seek_too_far")),
        Err(_) => msg.set(Some("bad_time")),
    };
    let slider = move || c.speed.get().log10();
    view! {
        <section class="controls" aria-label=move || c.tr("controls")>
            <div class="ctl-group">
                <button
                    class="primary"
                    data-testid="play"
                    aria-pressed=move || if c.playing.get() { "true" } else { "false" }
                    on:click=move |_| c.set_playing(!c.playing.get_untracked())
                >
                    <span aria-hidden="true">{move || if c.playing.get() { "❚❚ " } else { "▶ " }}</span>
                    {move || if c.playing.get() { c.tr("pause") } else { c.tr("play") }}
                </button>
                <button data-testid="step" on:click=step title=move || c.tr("step_hint")>
                    <span aria-hidden="true">"⇥ "</span>
                    {move || c.tr("step")}
                </button>
                <button data-testid="restart" on:click=move |_| c.restart()>
                    <span aria-hidden="true">"↺ "</span>
                    {move || c.tr("restart")}
                </button>
            </div>
            <div class="ctl-group speed">
                <label for="speed">{move || c.tr("speed")}</label>
                <input
                    id="speed"
                    type="range"
                    min="0"
                    max="5"
                    step="0.01"
                    data-testid="speed-slider"
                    aria-valuetext=move || fmt_speed(c.speed.get())
                    prop:value=move || slider().to_string()
                    on:input=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                            c.set_speed(10f64.powf(v));
                        }
                    }
                />
                <output class="speed-value" data-testid="speed-value" for="speed">
                    {move || fmt_speed(c.speed.get())}
                </output>
                <div class="presets" role="group" aria-label=move || c.tr("speed_presets")>
                    {[1.0, 10.0, 100.0, 1000.0, 10000.0]
                        .into_iter()
                        .map(|s| {
                            view! {
                                <button
                                    class="small"
                                    data-testid=format!("speed-{}", s as u64)
                                    aria-pressed=move || {
                                        if (c.speed.get() - s).abs() < 0.5 { "true" } else { "false" }
                                    }
                                    on:click=move |_| c.set_speed(s)
                                >
                                    {fmt_speed(s)}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
            </div>
            <form
                class="ctl-group jump"
                on:submit=move |ev| {
                    ev.prevent_default();
                    jump();
                }
            >
                <label for="jump">{move || c.tr("jump_to")}</label>
                <input
                    id="jump"
                    data-testid="jump-input"
                    placeholder="40:00, 30m, 1h"
                    size="9"
                    prop:value=move || jump_text.get()
                    on:input=move |ev| jump_text.set(event_target_value(&ev))
                />
                <button type="submit" data-testid="jump-btn">
                    {move || c.tr("go")}
                </button>
            </form>
            <p class="ctl-status" role="status" data-testid="status">
                {move || msg.get().map(|k| c.tr(k))}
                {move || c.jump_to.get().map(|t| format!("{} {}", c.tr("running_to"), clock(t)))}
                {move || {
                    let until = c.meta.with(|m| m.until_ms);
                    match until {
                        Some(u) if c.now() >= u && !c.playing.get() => {
                            format!("{} {}", c.tr("reached_until"), clock(u))
                        }
                        _ => String::new(),
                    }
                }}
                {move || c.limit.get().map(|l| format!("⚠ {l}"))}
            </p>
        </section>
    }
}

#[component]
pub fn Gallery() -> impl IntoView {
    let c = ctx();
    let items = c.presets.get_value();
    view! {
        <section class="panel gallery" aria-labelledby="gallery-h">
            <h2 id="gallery-h">{move || c.tr("gallery")}</h2>
            <p class="hint">{move || c.tr("gallery_hint")}</p>
            {move || c.load_error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
            <ul class="presets-list">
                {items
                    .into_iter()
                    .map(|p| {
                        let id = p.id.clone();
                        let id2 = p.id.clone();
                        view! {
                            <li>
                                <button
                                    class="preset"
                                    data-testid=format!("preset-{}", p.id)
                                    aria-current=move || {
                                        if c.preset.get() == id2 { Some("true") } else { None }
                                    }
                                    on:click=move |_| c.load(&id)
                                >
                                    <span class="preset-name">{let p = p.clone(); move || super::preset_texts(c.lang.get(), &p).0}</span>
                                    <span class="preset-desc">{let p = p.clone(); move || super::preset_texts(c.lang.get(), &p).1}</span>
                                </button>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </section>
    }
}

#[component]
pub fn Watch() -> impl IntoView {
    let c = ctx();
    let checked_open = RwSignal::new(false);
    view! {
        <section class="panel watch" aria-labelledby="watch-h">
            <div class="watch-head">
                <h2 id="watch-h">
                    <span class="muted">{move || c.tr("scenario")}": "</span>
                    <span data-testid="scenario-name">{move || c.meta_texts().0}</span>
                </h2>
                <super::checked::ScenarioTools open=checked_open />
                <super::share::ShareTools />
                <super::embed::EmbedButton />
            </div>
            <super::checked::CheckedPanel open=checked_open />
            <p class="desc">{move || c.meta_texts().1}</p>
            <p class="watch-text" data-testid="watch">
                <strong>
                    <span aria-hidden="true">"◉ "</span>
                    {move || c.tr("what_to_watch")}
                </strong>
                " "
                {move || c.meta_texts().2}
            </p>
        </section>
    }
}

#[component]
pub fn Queues() -> impl IntoView {
    let c = ctx();
    let names = Memo::new(move |_| {
        c.snap
            .with(|s| s.queues.iter().map(|q| q.name.clone()).collect::<Vec<_>>())
    });
    let delayed = Memo::new(move |_| {
        c.snap.with(|s| {
            s.exchanges
                .iter()
                .filter(|x| x.kind == "x-delayed-message")
                .map(|x| x.name.clone())
                .collect::<Vec<_>>()
        })
    });
    view! {
        <section class="panel queues" aria-labelledby="queues-h">
            <h2 id="queues-h">{move || c.tr("queues")}</h2>
            <p class="hint">{move || c.tr("queues_hint")}</p>
            <div class="queue-list">
                <For each=move || names.get() key=|n| n.clone() children=move |name| view! { <QueueCard name /> } />
                <For each=move || delayed.get() key=|n| n.clone() children=move |name| view! { <DelayedCard name /> } />
            </div>
        </section>
    }
}

#[component]
fn QueueCard(name: String) -> impl IntoView {
    let c = ctx();
    let n1 = name.clone();
    let q = Memo::new(move |_| {
        c.snap.with(|s| {
            s.queue(&n1).map(|q| {
                (
                    q.ready,
                    q.unacked,
                    q.overdue,
                    q.message_ttl_ms,
                    q.dlx.clone(),
                    q.head.len() as u64,
                )
            })
        })
    });
    let n2 = name.clone();
    let entries = Memo::new(move |_| {
        c.snap.with(|s| {
            s.queue(&n2)
                .map(|q| {
                    q.head
                        .iter()
                        .map(|e| (e.copy, e.msg, e.body.clone()))
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    });
    let n3 = name.clone();
    let tid = format!("queue-{name}");
    view! {
        <article class="qcard" data-testid=tid aria-label={let n = name.clone(); move || format!("{} {n}", c.tr("queue_aria"))}>
            <header class="qhead">
                <h3 class="qname">{name.clone()}</h3>
                <span class="counts">
                    {move || {
                        q.get()
                            .map(|(r, u, o, _, _, _)| {
                                view! {
                                    <span class="count">{c.tr("ready")} " " <b>{r}</b></span>
                                    <span class="count">{c.tr("unacked")} " " <b>{u}</b></span>
                                    <span
                                        class={if o > 0 { "count overdue-count" } else { "count" }}
                                        data-testid="overdue-count"
                                    >
                                        {if o > 0 { "⚠ " } else { "" }}
                                        {c.tr("overdue")}
                                        " "
                                        <b>{o}</b>
                                    </span>
                                }
                            })
                    }}
                </span>
            </header>
            <ol class="chips" aria-label=move || c.tr("fifo")>
                <For
                    each=move || entries.get()
                    key=|e| e.0
                    children=move |(copy, msg, body)| {
                        let n = n3.clone();
                        let state = Memo::new(move |_| {
                            c.snap.with(|s| {
                                s.queue(&n)
                                    .and_then(|q| q.head.iter().position(|e| e.copy == copy).map(|i| (i, &q.head[i])))
                                    .map(|(i, e)| (i == 0, e.remaining_ms, e.overdue_ms, e.redelivered))
                            })
                        });
                        let is_over = move || state.get().is_some_and(|s| s.2.is_some());
                        view! {
                            <li>
                                <button
                                    class="chip"
                                    class:overdue=is_over
                                    class:head=move || state.get().is_some_and(|s| s.0)
                                    class:selected=move || c.selected.get() == Some(msg)
                                    data-testid="chip"
                                    on:click=move |_| c.selected.set(Some(msg))
                                >
                                    <span class="chip-body">{body.clone()}</span>
                                    <span class="chip-id">"#"{msg}</span>
                                    <span class="chip-ttl">
                                        {move || match state.get() {
                                            Some((_, _, Some(o), _)) => {
                                                format!("⚠ {} +{}", c.tr("overdue_tag"), span(o))
                                            }
                                            Some((_, Some(r), _, _)) => format!("◷ {}", span(r)),
                                            _ => c.tr("no_ttl").to_string(),
                                        }}
                                    </span>
                                </button>
                            </li>
                        }
                    }
                />
            </ol>
            {move || {
                q.get()
                    .and_then(|(r, _, _, _, _, shown)| {
                        (r > shown).then(|| view! { <p class="more">"+" {r - shown} " " {c.tr("more")}</p> })
                    })
            }}
            {move || {
                q.get()
                    .and_then(|(r, _, _, _, _, _)| (r == 0).then(|| view! { <p class="empty">{c.tr("empty")}</p> }))
            }}
        </article>
    }
}

#[component]
fn DelayedCard(name: String) -> impl IntoView {
    let c = ctx();
    let n1 = name.clone();
    let data = Memo::new(move |_| {
        c.snap.with(|s| {
            let count = s
                .exchanges
                .iter()
                .find(|x| x.name == n1)
                .map_or(0, |x| x.messages_delayed);
            let items: Vec<(u32, String, u64, u64)> = s
                .delayed
                .iter()
                .filter(|d| d.exchange == n1)
                .map(|d| (d.msg, d.body.clone(), d.due_ms, d.remaining_ms))
                .collect();
            (count, items)
        })
    });
    view! {
        <article class="qcard delayed-card" data-testid=format!("delayed-{name}")>
            <header class="qhead">
                <h3 class="qname">
                    <span aria-hidden="true">"◷ "</span>
                    {name.clone()}
                </h3>
                <span class="counts">
                    <span class="count">
                        "messages_delayed " <b data-testid="messages-delayed">{move || data.with(|d| d.0)}</b>
                    </span>
                </span>
            </header>
            <p class="hint">{move || c.tr("delayed_store")}</p>
            <ol class="chips">
                {move || {
                    data.with(|d| {
                        d.1
                            .iter()
                            .map(|(msg, body, due, rem)| {
                                let msg = *msg;
                                view! {
                                    <li>
                                        <button
                                            class="chip delayed"
                                            class:selected=move || c.selected.get() == Some(msg)
                                            on:click=move |_| c.selected.set(Some(msg))
                                        >
                                            <span class="chip-body">{body.clone()}</span>
                                            <span class="chip-id">"#"{msg}</span>
                                            <span class="chip-ttl">
                                                {format!("◷ {} ({} {})", span(*rem), c.tr("due"), clock(*due))}
                                            </span>
                                        </button>
                                    </li>
                                }
                            })
                            .collect_view()
                    })
                }}
            </ol>
            {move || {
                data.with(|d| {
                    let shown = d.1.len() as u64;
                    (d.0 > shown).then(|| view! { <p class="more">"+" {d.0 - shown} " " {c.tr("more")}</p> })
                })
            }}
        </article>
    }
}

fn explain(code: u16) -> &'static str {
    match code {
        406 => "err406",
        404 => "err404",
        541 => "err541",
        312 => "err312",
        0 => "err_nack",
        _ => "err_other",
    }
}

#[component]
pub fn Publish() -> impl IntoView {
    let c = ctx();
    let exchange = RwSignal::new("order.delay.exchange".to_string());
    let rk = RwSignal::new("order.create".to_string());
    let body = RwSignal::new("order-{n}".to_string());
    let expiration = RwSignal::new(String::new());
    let x_delay = RwSignal::new(String::new());
    let headers = RwSignal::new(String::new());
    let mandatory = RwSignal::new(false);
    let persistent = RwSignal::new(false);
    let count = RwSignal::new("1".to_string());
    let every = RwSignal::new("10s".to_string());
    let error = RwSignal::new(None::<String>);
    let done = RwSignal::new(None::<String>);

    let exchanges = Memo::new(move |_| {
        c.snap.with(|s| {
            s.exchanges
                .iter()
                .map(|x| (x.name.clone(), x.kind.clone()))
                .collect::<Vec<_>>()
        })
    });
    let keys = Memo::new(move |_| {
        let ex = exchange.get();
        c.snap.with(|s| {
            let mut k: Vec<String> = s
                .exchanges
                .iter()
                .filter(|x| x.name == ex)
                .flat_map(|x| x.bindings.iter().map(|b| b.routing_key.clone()))
                .collect();
            k.dedup();
            k
        })
    });
    let is_delayed = move || {
        exchanges.with(|xs| {
            xs.iter()
                .any(|(n, k)| *n == exchange.get() && k == "x-delayed-message")
        })
    };

    // A new scenario: preselect the exchange its actions publish to, and a key bound to it.
    Effect::new(move |_| {
        let _ = c.preset.get();
        let targets = c.targets.get_untracked();
        let xs = exchanges.get_untracked();
        let pick = targets
            .iter()
            .find(|t| xs.iter().any(|(n, _)| n == *t))
            .cloned()
            .or_else(|| xs.first().map(|x| x.0.clone()));
        if let Some(x) = pick {
            let key = c.snap.with_untracked(|s| {
                s.exchanges
                    .iter()
                    .find(|e| e.name == x)
                    .and_then(|e| e.bindings.first().map(|b| b.routing_key.clone()))
            });
            exchange.set(x);
            rk.set(key.unwrap_or_default());
        }
        error.set(None);
        done.set(None);
    });

    let quick = move |ms: u64| {
        if is_delayed() {
            x_delay.set(ms.to_string());
            expiration.set(String::new());
        } else {
            expiration.set(ms.to_string());
            x_delay.set(String::new());
        }
    };

    let submit = move || {
        error.set(None);
        done.set(None);
        let mut props = Properties::default();
        let exp = expiration.get_untracked();
        if !exp.trim().is_empty() {
            // Sent verbatim: the broker judges it (a bad one is a 406, as in real life).
            props.expiration = Some(exp.trim().to_string());
        }
        if persistent.get_untracked() {
            props.delivery_mode = Some(2);
        }
        let htext = headers.get_untracked();
        if !htext.trim().is_empty() {
            match serde_json::from_str::<serde_json::Value>(&htext) {
                Ok(serde_json::Value::Object(m)) => props.headers = Table::from_json_map(&m),
                Ok(_) => return error.set(Some(c.tr("headers_not_object").to_string())),
                Err(e) => return error.set(Some(format!("{} ({e})", c.tr("headers_bad_json")))),
            }
        }
        let xd = x_delay.get_untracked();
        let xd = xd.trim();
        if !xd.is_empty() {
            let v = match xd.parse::<i64>() {
                Ok(n) => FieldValue::Int(n),
                // A string x-delay reaches the plugin as a string (it refuses it: 541).
                Err(_) => FieldValue::str(xd),
            };
            props.headers.insert("x-delay", v);
        }
        let n: u32 = match count.get_untracked().trim().parse() {
            Ok(n) if (1..=10_000).contains(&n) => n,
            _ => return error.set(Some(c.tr("bad_count").to_string())),
        };
        let every_ms = if n > 1 {
            match parse_duration(every.get_untracked().trim()) {
                Ok(ms) => ms,
                Err(e) => return error.set(Some(format!("{}: {e}", c.tr("bad_every")))),
            }
        } else {
            0
        };
        let ex = exchange.get_untracked();
        let body_t = body.get_untracked();
        if body_t.len() > 64 * 1024 {
            return error.set(Some(c.tr("body_too_long").to_string()));
        }
        let spec = |i: u32| PublishSpec {
            exchange: ex.clone(),
            routing_key: rk.get_untracked(),
            body: body_t.replace("{n}", &i.to_string()),
            properties: props.clone(),
            mandatory: mandatory.get_untracked(),
        };
        let now = c.runner.with_value(|r| r.now());
        if n > 1 {
            c.publish_repeated(
                PublishSpec {
                    body: body_t.clone(),
                    ..spec(1)
                },
                n,
                every_ms,
            );
        } else {
            c.run_now(ActionKind::Publish(spec(1)));
        }
        done.set(Some(format!("{} {}", c.tr("published_at"), clock(now))));
    };

    view! {
        <section class="panel publish" aria-labelledby="publish-h" data-testid="publish">
            <h2 id="publish-h">{move || c.tr("publish")}</h2>
            <form
                class="form"
                on:submit=move |ev| {
                    ev.prevent_default();
                    submit();
                }
            >
                <label>
                    <span>{move || c.tr("exchange")}</span>
                    <select
                        data-testid="pub-exchange"
                        on:change=move |ev| exchange.set(event_target_value(&ev))
                        prop:value=move || exchange.get()
                    >
                        <option value="" selected=move || exchange.get().is_empty()>
                            "(AMQP default)"
                        </option>
                        {move || {
                            exchanges
                                .get()
                                .into_iter()
                                .filter(|(n, _)| !n.is_empty())
                                .map(|(n, k)| {
                                    let n2 = n.clone();
                                    view! {
                                        <option value=n.clone() selected=move || exchange.get() == n2>
                                            {format!("{n} ({k})")}
                                        </option>
                                    }
                                })
                                .collect_view()
                        }}
                    </select>
                </label>
                <label>
                    <span>{move || c.tr("routing_key")}</span>
                    <input
                        data-testid="pub-rk"
                        list="rk-list"
                        prop:value=move || rk.get()
                        on:input=move |ev| rk.set(event_target_value(&ev))
                    />
                    <datalist id="rk-list">
                        {move || keys.get().into_iter().map(|k| view! { <option value=k /> }).collect_view()}
                    </datalist>
                </label>
                <label>
                    <span>{move || c.tr("body")}</span>
                    <input
                        data-testid="pub-body"
                        prop:value=move || body.get()
                        on:input=move |ev| body.set(event_target_value(&ev))
                    />
                </label>
                <div class="row2">
                    <label>
                        <span>"expiration " <small>{move || c.tr("exp_unit")}</small></span>
                        <input
                            data-testid="pub-expiration"
                            inputmode="numeric"
                            placeholder="1800000"
                            prop:value=move || expiration.get()
                            on:input=move |ev| expiration.set(event_target_value(&ev))
                        />
                    </label>
                    <label>
                        <span>"x-delay " <small>{move || c.tr("xdelay_unit")}</small></span>
                        <input
                            data-testid="pub-xdelay"
                            inputmode="numeric"
                            placeholder="300000"
                            prop:value=move || x_delay.get()
                            on:input=move |ev| x_delay.set(event_target_value(&ev))
                        />
                    </label>
                </div>
                <div class="quick" role="group" aria-label=move || c.tr("quick_delay")>
                    <span class="quick-label">
                        {move || c.tr("quick_delay")} " → "
                        {move || if is_delayed() { "x-delay" } else { "expiration" }}
                    </span>
                    {[(5_000u64, "q_5s"), (30_000, "q_30s"), (300_000, "q_5min"), (1_800_000, "q_30min")]
                        .into_iter()
                        .map(|(ms, label)| {
                            view! {
                                <button
                                    type="button"
                                    class="small"
                                    data-testid=format!("quick-{ms}")
                                    on:click=move |_| quick(ms)
                                >
                                    {move || c.tr(label)}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
                <label>
                    <span>{move || c.tr("headers")} <small>" (JSON)"</small></span>
                    <textarea
                        data-testid="pub-headers"
                        rows="2"
                        placeholder="{\"order-id\": 1001}"
                        prop:value=move || headers.get()
                        on:input=move |ev| headers.set(event_target_value(&ev))
                    ></textarea>
                </label>
                <div class="row2">
                    <label>
                        <span>{move || c.tr("repeat")}</span>
                        <input
                            data-testid="pub-count"
                            type="number"
                            min="1"
                            max="10000"
                            prop:value=move || count.get()
                            on:input=move |ev| count.set(event_target_value(&ev))
                        />
                    </label>
                    <label>
                        <span>{move || c.tr("every")}</span>
                        <input
                            data-testid="pub-every"
                            placeholder="10s"
                            prop:value=move || every.get()
                            on:input=move |ev| every.set(event_target_value(&ev))
                        />
                    </label>
                </div>
                <div class="checks">
                    <label class="check">
                        <input
                            type="checkbox"
                            data-testid="pub-mandatory"
                            prop:checked=move || mandatory.get()
                            on:change=move |ev| mandatory.set(event_target_checked(&ev))
                        />
                        <span>"mandatory"</span>
                    </label>
                    <label class="check">
                        <input
                            type="checkbox"
                            prop:checked=move || persistent.get()
                            on:change=move |ev| persistent.set(event_target_checked(&ev))
                        />
                        <span>"delivery_mode 2"</span>
                    </label>
                </div>
                <button type="submit" class="primary" data-testid="publish-btn">
                    {move || c.tr("publish_btn")}
                </button>
                <p class="form-error" role="alert" data-testid="form-error">
                    {move || error.get().map(|e| format!("⚠ {e}"))}
                </p>
                <p class="form-ok" role="status">
                    {move || done.get()}
                </p>
            </form>
            <div class="alerts" data-testid="alerts" aria-live="polite">
                <For
                    each=move || c.alerts.get()
                    key=|a| a.seq
                    children=move |a| {
                        let code = a.code;
                        let msg = a.msg;
                        view! {
                            <div class="alert" data-testid="alert" role="alert">
                                <p class="alert-title">
                                    <span aria-hidden="true">"✗ "</span>
                                    <b>{if code == 0 { "nack".to_string() } else { code.to_string() }}</b>
                                    " · " {clock(a.t_ms)} " · "
                                    <button
                                        class="link"
                                        on:click=move |_| c.selected.set(msg)
                                    >
                                        {format!("#{} {}", msg.unwrap_or(0), a.body)}
                                    </button>
                                </p>
                                <p class="alert-explain">{move || c.tr(explain(code))}</p>
                                <p class="alert-raw">
                                    <span class="muted">"RabbitMQ: "</span>
                                    <code>{a.text.clone()}</code>
                                </p>
                            </div>
                        }
                    }
                />
            </div>
        </section>
    }
}

#[component]
pub fn Inspector() -> impl IntoView {
    let c = ctx();
    let info = Memo::new(move |_| {
        let _ = c.rev.get();
        let id = c.selected.get()?;
        let lang = c.lang.get();
        c.runner.try_with_value(|r| {
            let body = r.track.body(id).to_string();
            let entries = r.track.msgs.get(&id).map(|v| v.as_slice()).unwrap_or(&[]);
            let steps: Vec<_> = entries.iter().map(|e| r.line(e, lang)).collect();
            let (published, delivered) = super::runner::message_views(entries, &r.sim);
            (id, body, steps, published, delivered)
        })
    });
    view! {
        <section class="panel inspector" aria-labelledby="insp-h" data-testid="inspector">
            <h2 id="insp-h">{move || c.tr("inspector")}</h2>
            {move || match info.get() {
                None => view! { <p class="hint">{c.tr("inspector_hint")}</p> }.into_any(),
                Some((id, body, steps, published, delivered)) => {
                    let t0 = steps.first().map_or(0, |s| s.t_ms);
                    let t1 = steps.last().map_or(0, |s| s.t_ms).max(t0 + 1);
                    let dots = steps
                        .iter()
                        .map(|s| {
                            let x = 10.0 + 280.0 * (s.t_ms - t0) as f64 / (t1 - t0) as f64;
                            let cls = format!("dot lvl-{:?}", s.level).to_lowercase();
                            view! { <circle cx=x cy="14" r="5" class=cls /> }
                        })
                        .collect_view();
                    view! {
                        <p class="insp-title" data-testid="inspector-title">
                            <b>"#" {id}</b> " " {body}
                        </p>
                        {(id > super::runner::TRACK_MSGS).then(|| view! { <p class="hint">{c.tr("not_tracked")}</p> })}
                        <svg class="mini-timeline" viewBox="0 0 300 28" aria-hidden="true">
                            <line x1="10" y1="14" x2="290" y2="14" class="axis" />
                            {dots}
                        </svg>
                        <ol class="steps">
                            {steps
                                .into_iter()
                                .map(|s| {
                                    let cls = format!("step lvl-{:?}", s.level).to_lowercase();
                                    view! {
                                        <li class=cls data-testid="inspector-step">
                                            <span class="t">{clock(s.t_ms)}</span>
                                            " "
                                            <span class="k">{c.tr(super::i18n::kind_key(s.kind))}</span>
                                            " "
                                            <span class="w">{s.place}</span>
                                            " "
                                            <span class="d">{s.detail}</span>
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ol>
                        {published
                            .map(|(p, h)| {
                                view! {
                                    <details open>
                                        <summary>{c.tr("as_published")}</summary>
                                        <pre class="json">"properties: " {p} "\nheaders: " {h}</pre>
                                    </details>
                                }
                            })}
                        {delivered
                            .map(|(p, h)| {
                                view! {
                                    <details open>
                                        <summary>{c.tr("as_delivered")}</summary>
                                        <pre class="json" data-testid="delivered-headers">
                                            "properties: " {p} "\nheaders: " {h}
                                        </pre>
                                    </details>
                                }
                            })}
                    }
                        .into_any()
                }
            }}
        </section>
    }
}

#[component]
pub fn Lateness() -> impl IntoView {
    let c = ctx();
    view! {
        <section class="panel lateness" aria-labelledby="late-h" data-testid="lateness">
            <h2 id="late-h">{move || c.tr("lateness")}</h2>
            <p class="hint">{move || c.tr("lateness_hint")}</p>
            <dl class="figures">
                <div>
                    <dt>{move || c.tr("delivered_n")}</dt>
                    <dd data-testid="late-count">{move || c.stats.with(|s| s.count)}</dd>
                </div>
                <div>
                    <dt>{move || c.tr("mean")}</dt>
                    <dd data-testid="late-mean">{move || c.stats.with(|s| span(s.mean.round() as u64))}</dd>
                </div>
                <div>
                    <dt>"p99"</dt>
                    <dd data-testid="late-p99">{move || c.stats.with(|s| span(s.p99))}</dd>
                </div>
                <div>
                    <dt>{move || c.tr("max")}</dt>
                    <dd data-testid="late-max">{move || c.stats.with(|s| span(s.max))}</dd>
                </div>
            </dl>
            <svg class="chart" viewBox="0 0 640 150" role="img" aria-label=move || c.tr("chart_label")>
                <line x1="64" y1="120" x2="632" y2="120" class="axis" />
                <line x1="64" y1="10" x2="64" y2="120" class="axis" />
                <text x="58" y="16" class="tick" text-anchor="end">
                    {move || c.stats.with(|s| if s.max > 0 { span(s.max) } else { String::new() })}
                </text>
                <text x="58" y="122" class="tick" text-anchor="end">
                    "0"
                </text>
                <text x="632" y="142" class="tick" text-anchor="end">
                    {move || c.tr("deliveries_axis")}
                </text>
                {move || {
                    c.stats
                        .with(|s| {
                            let n = s.total.max(1) as f64;
                            let max = s.max.max(1) as f64;
                            s.points
                                .iter()
                                .map(|(i, l)| {
                                    let x = 70.0 + 556.0 * (*i as f64 + 0.5) / n;
                                    let y = 120.0 - 106.0 * (*l as f64) / max;
                                    let cls = if *l > 0 { "pt late" } else { "pt" };
                                    view! { <circle cx=format!("{x:.1}") cy=format!("{y:.1}") r="3.5" class=cls /> }
                                })
                                .collect_view()
                        })
                }}
            </svg>
            <h3 class="sub-h">{move || c.tr("depths")}</h3>
            <DepthChart />
        </section>
    }
}

#[component]
fn DepthChart() -> impl IntoView {
    let c = ctx();
    const DASH: [&str; 5] = ["", "8 4", "3 3", "12 4 3 4", "1 4"];
    let chart = move || {
        c.depths.with(|d| {
            let mut names: Vec<String> = vec![];
            for (_, v) in &d.samples {
                for (n, _) in v {
                    if !names.contains(n) {
                        names.push(n.clone());
                    }
                }
            }
            let t0 = 0;
            let t1 = d.samples.last().map_or(1, |s| s.0).max(t0 + 1);
            let max = d.samples.iter().flat_map(|s| s.1.iter().map(|x| x.1)).max().unwrap_or(0).max(1);
            let lines = names
                .iter()
                .enumerate()
                .map(|(i, n)| {
                    let pts: String = d
                        .samples
                        .iter()
                        .filter_map(|(t, v)| v.iter().find(|x| &x.0 == n).map(|x| (t, x.1)))
                        .map(|(t, r)| {
                            let x = 70.0 + 556.0 * (t - t0) as f64 / (t1 - t0) as f64;
                            let y = 120.0 - 106.0 * r as f64 / max as f64;
                            format!("{x:.1},{y:.1} ")
                        })
                        .collect();
                    view! { <polyline points=pts class=format!("depth d{}", i % 5) stroke-dasharray=DASH[i % 5] /> }
                })
                .collect_view();
            let legend = names
                .iter()
                .enumerate()
                .map(|(i, n)| {
                    view! {
                        <span class="lg-item">
                            <svg width="28" height="10" aria-hidden="true">
                                <line x1="0" y1="5" x2="28" y2="5" class=format!("depth d{}", i % 5) stroke-dasharray=DASH[i % 5] />
                            </svg>
                            {n.clone()}
                        </span>
                    }
                })
                .collect_view();
            view! {
                <svg class="chart" viewBox="0 0 640 150" role="img" aria-label=c.tr("depths")>
                    <line x1="64" y1="120" x2="632" y2="120" class="axis" />
                    <line x1="64" y1="10" x2="64" y2="120" class="axis" />
                    <text x="58" y="16" class="tick" text-anchor="end">{max}</text>
                    <text x="58" y="122" class="tick" text-anchor="end">"0"</text>
                    <text x="70" y="142" class="tick">{clock(t0)}</text>
                    <text x="632" y="142" class="tick" text-anchor="end">{clock(t1)}</text>
                    {lines}
                </svg>
                <p class="depth-legend">{legend}</p>
            }
        })
    };
    view! { <div data-testid="depths">{chart}</div> }
}

const KINDS: &[&str] = &[
    "published",
    "enqueued",
    "expired",
    "dead_lettered",
    "delayed",
    "delay_due",
    "delivered",
    "acked",
    "rejected",
    "requeued",
    "dropped",
    "returned",
    "confirmed",
    "error",
];

#[component]
pub fn Log() -> impl IntoView {
    let c = ctx();
    let kind = RwSignal::new(String::new());
    let text = RwSignal::new(String::new());
    const SHOW: usize = 150;
    let lines = Memo::new(move |_| {
        let _ = c.log_rev.get();
        let k = kind.get();
        let q = text.get().to_lowercase();
        let lang = c.lang.get();
        c.runner
            .try_with_value(|r| {
                let total = r.track.log.len();
                let out: Vec<_> = r
                    .track
                    .log
                    .iter()
                    .rev()
                    .filter(|e| k.is_empty() || e.ev.kind.name() == k)
                    .map(|e| r.line(e, lang))
                    .filter(|x| {
                        q.is_empty()
                            || x.body.to_lowercase().contains(&q)
                            || x.place.to_lowercase().contains(&q)
                            || x.detail.to_lowercase().contains(&q)
                            || x.kind.contains(&q)
                            || x.msg.is_some_and(|m| format!("#{m}") == q)
                    })
                    .take(SHOW)
                    .collect();
                // Newest first in the DOM: the list is drawn bottom-up (column-reverse), so
                // the newest line stays in view without reading the layout.
                (out, total)
            })
            .unwrap_or_default()
    });
    view! {
        <section class="panel log" aria-labelledby="log-h" data-testid="log">
            <h2 id="log-h">{move || c.tr("log")}</h2>
            <div class="log-filters">
                <label>
                    <span>{move || c.tr("kind")}</span>
                    <select data-testid="log-kind" on:change=move |ev| kind.set(event_target_value(&ev))>
                        <option value="">{move || c.tr("all")}</option>
                        {KINDS
                            .iter()
                            .map(|k| view! { <option value=*k>{move || c.tr(super::i18n::kind_key(k))}</option> })
                            .collect_view()}
                    </select>
                </label>
                <label>
                    <span>{move || c.tr("search")}</span>
                    <input
                        data-testid="log-search"
                        type="search"
                        placeholder="B, order.dlx.queue, #2"
                        prop:value=move || text.get()
                        on:input=move |ev| text.set(event_target_value(&ev))
                    />
                </label>
                <span class="muted">
                    {move || {
                        lines.with(|(v, total)| format!("{} {} / {} ({} {})", c.tr("showing"), v.len(), total, c.tr("kept_max"), super::runner::LOG_CAP))
                    }}
                </span>
            </div>
            <div class="log-lines" tabindex="0" aria-label=move || c.tr("log")>
                <For
                    each=move || lines.get().0
                    key=|l| l.seq
                    children=move |l| {
                        let msg = l.msg;
                        let cls = match l.level {
                            Level::Info => "logline",
                            Level::Good => "logline good",
                            Level::Warn => "logline warn",
                            Level::Bad => "logline bad",
                        };
                        let icon = match l.level {
                            Level::Info => " ",
                            Level::Good => "✓",
                            Level::Warn => "⚠",
                            Level::Bad => "✗",
                        };
                        let kind = l.kind;
                        view! {
                            <button
                                class=cls
                                data-testid="log-line"
                                data-kind=kind
                                data-body=l.body.clone()
                                disabled=msg.is_none()
                                on:click=move |_| c.selected.set(msg)
                            >
                                <span class="t">{clock(l.t_ms)}</span>
                                <span class="i" aria-hidden="true">{icon}</span>
                                <span class="k">{move || c.tr(super::i18n::kind_key(kind))}</span>
                                <span class="m">
                                    {msg.map(|m| format!("#{m} {}", l.body)).unwrap_or_default()}
                                </span>
                                <span class="w">{l.place.clone()}</span>
                                <span class="d">{l.detail.clone()}</span>
                            </button>
                        }
                    }
                />
            </div>
        </section>
    }
}

#[component]
pub fn Consumers() -> impl IntoView {
    use delaylab_engine::scenario::{AckMode, ConsumerSpec, Outcome, OutcomePlan};
    use delaylab_engine::Command;
    let c = ctx();
    let list = Memo::new(move |_| c.snap.with(|s| s.consumers.clone()));
    let queues = Memo::new(move |_| {
        c.snap
            .with(|s| s.queues.iter().map(|q| q.name.clone()).collect::<Vec<_>>())
    });
    let name = RwSignal::new("worker-1".to_string());
    let queue = RwSignal::new(String::new());
    let auto = RwSignal::new(false);
    let prefetch = RwSignal::new("10".to_string());
    let handle = RwSignal::new("100ms".to_string());
    let outcome = RwSignal::new("ack".to_string());
    let error = RwSignal::new(None::<String>);
    let add = move || {
        error.set(None);
        let n = name.get_untracked().trim().to_string();
        if n.is_empty() || n.len() > 255 {
            return error.set(Some(c.tr("c_bad_name").to_string()));
        }
        if list.with_untracked(|l| l.iter().any(|x| x.name == n && !x.stopped)) {
            return error.set(Some(c.tr("c_dup_name").to_string()));
        }
        let mut q = queue.get_untracked();
        if q.is_empty() {
            q = queues.with_untracked(|v| v.last().cloned().unwrap_or_default());
        }
        if q.is_empty() {
            return error.set(Some(c.tr("c_no_queue").to_string()));
        }
        let Ok(pf) = prefetch.get_untracked().trim().parse::<u32>() else {
            return error.set(Some(c.tr("c_bad_prefetch").to_string()));
        };
        let handle_ms = match parse_duration(handle.get_untracked().trim()) {
            Ok(ms) => ms,
            Err(e) => return error.set(Some(format!("{}: {e}", c.tr("bad_every")))),
        };
        let o = match outcome.get_untracked().as_str() {
            "reject" => Outcome::Reject,
            "requeue" => Outcome::Requeue,
            _ => Outcome::Ack,
        };
        c.command(Command::AddConsumer(ConsumerSpec {
            name: n.clone(),
            queue: q,
            ack: if auto.get_untracked() {
                AckMode::Auto
            } else {
                AckMode::Manual
            },
            prefetch: pf,
            handle_ms,
            outcome: OutcomePlan::Fixed(o),
            from_ms: c.now(),
            to_ms: None,
        }));
        let next = n
            .rsplit_once('-')
            .and_then(|(a, b)| b.parse::<u32>().ok().map(|k| format!("{a}-{}", k + 1)));
        name.set(next.unwrap_or_else(|| format!("{n}-2")));
    };
    view! {
        <section class="panel consumers" aria-labelledby="cons-h" data-testid="consumers">
            <h2 id="cons-h">{move || c.tr("consumers")}</h2>
            <ul class="cons-list">
                <For
                    each=move || list.get()
                    key=|x| format!("{x:?}")
                    children=move |x| {
                        let nm = x.name.clone();
                        let stopped = x.stopped;
                        view! {
                            <li class="cons" class:stopped=stopped>
                                <span class="cons-name">"⚙ " {x.name.clone()}</span>
                                <span class="muted">
                                    {
                                        let x = x.clone();
                                        // AMQP's words (auto-ack, prefetch, unacked, the outcome) stay; ours follow the language.
                                        move || format!(
                                            " ← {} · {} · prefetch {} · {} · {} · unacked {}{}",
                                            x.queue,
                                            if x.auto_ack { "auto-ack" } else { c.tr("manual_ack") },
                                            x.prefetch,
                                            delaylab_engine::scenario::duration::format_duration(x.handle_ms),
                                            x.outcome,
                                            x.unacked,
                                            if x.stopped {
                                                format!(" · {}", c.tr("c_stopped"))
                                            } else if !x.attached {
                                                format!(" · {}", c.tr("c_not_attached"))
                                            } else {
                                                String::new()
                                            },
                                        )
                                    }
                                </span>
                                {(!stopped)
                                    .then(|| {
                                        view! {
                                            <button
                                                class="small"
                                                data-testid=format!("stop-{nm}")
                                                on:click={
                                                    let nm = nm.clone();
                                                    move |_| c.command(Command::StopConsumer(nm.clone()))
                                                }
                                            >
                                                {move || c.tr("stop")}
                                            </button>
                                        }
                                    })}
                            </li>
                        }
                    }
                />
            </ul>
            <details>
                <summary>{move || c.tr("add_consumer")}</summary>
                <form
                    class="form"
                    on:submit=move |ev| {
                        ev.prevent_default();
                        add();
                    }
                >
                    <div class="row2">
                        <label>
                            <span>{move || c.tr("c_name")}</span>
                            <input prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev)) />
                        </label>
                        <label>
                            <span>{move || c.tr("c_queue")}</span>
                            <select data-testid="cons-queue" on:change=move |ev| queue.set(event_target_value(&ev))>
                                {move || {
                                    let qs = queues.get();
                                    let last = qs.last().cloned().unwrap_or_default();
                                    qs.into_iter()
                                        .map(|q| {
                                            let sel = q == last;
                                            view! { <option value=q.clone() selected=sel>{q.clone()}</option> }
                                        })
                                        .collect_view()
                                }}
                            </select>
                        </label>
                    </div>
                    <div class="row2">
                        <label>
                            <span>"prefetch"</span>
                            <input type="number" min="0" prop:value=move || prefetch.get() on:input=move |ev| prefetch.set(event_target_value(&ev)) />
                        </label>
                        <label>
                            <span>{move || c.tr("c_handle")}</span>
                            <input prop:value=move || handle.get() on:input=move |ev| handle.set(event_target_value(&ev)) />
                        </label>
                    </div>
                    <div class="row2">
                        <label>
                            <span>{move || c.tr("c_outcome")}</span>
                            <select on:change=move |ev| outcome.set(event_target_value(&ev))>
                                <option value="ack">"ack"</option>
                                <option value="reject">"reject (requeue=false)"</option>
                                <option value="requeue">"nack (requeue=true)"</option>
                            </select>
                        </label>
                        <label class="check">
                            <input type="checkbox" prop:checked=move || auto.get() on:change=move |ev| auto.set(event_target_checked(&ev)) />
                            <span>"auto-ack"</span>
                        </label>
                    </div>
                    <button type="submit" data-testid="add-consumer">{move || c.tr("add_consumer")}</button>
                    <p class="form-error" role="alert">{move || error.get().map(|e| format!("⚠ {e}"))}</p>
                </form>
            </details>
        </section>
    }
}

#[component]
pub fn ScenarioJson() -> impl IntoView {
    use delaylab_engine::scenario::{load_str, save::to_string_pretty};
    let c = ctx();
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    // True while the text holds the user's own edits (not yet loaded).
    let edited = StoredValue::new(false);
    let fill = move || {
        text.set(c.runner.with_value(|r| to_string_pretty(&r.scenario)));
        error.set(None);
        edited.set_value(false);
    };
    // A new scenario always shows; a user input recorded into the same scenario shows
    // unless it would overwrite the user's own edits.
    Effect::new(move |prev: Option<String>| {
        let preset = c.preset.get();
        let _ = c.scenario_rev.get();
        if prev.as_ref() != Some(&preset) || !edited.get_value() {
            fill();
        }
        preset
    });
    let apply = move || match load_str(&text.get_untracked()) {
        Ok(s) => {
            error.set(None);
            c.load_scenario("custom", s);
        }
        Err(e) => {
            let at = match (e.line, e.column) {
                (Some(l), Some(col)) => format!("{} {l}, {} {col}: ", c.tr("line"), c.tr("column")),
                _ => String::new(),
            };
            error.set(Some(format!("{at}{}: {}", e.path, e.message)));
        }
    };
    view! {
        <section class="panel json-editor" aria-labelledby="json-h">
            <details>
                <summary id="json-h">{move || c.tr("json_editor")}</summary>
                <p class="hint">{move || c.tr("json_hint")}</p>
                <textarea
                    class="json-text"
                    data-testid="scenario-json"
                    rows="16"
                    spellcheck="false"
                    aria-labelledby="json-h"
                    prop:value=move || text.get()
                    on:input=move |ev| {
                        edited.set_value(true);
                        text.set(event_target_value(&ev));
                    }
                ></textarea>
                <div class="json-actions">
                    <button class="primary" data-testid="json-load" on:click=move |_| apply()>{move || c.tr("json_load")}</button>
                    <button on:click=move |_| fill()>{move || c.tr("json_reset")}</button>
                </div>
                <p class="form-error" role="alert" data-testid="json-error">{move || error.get().map(|e| format!("⚠ {e}"))}</p>
            </details>
        </section>
    }
}
