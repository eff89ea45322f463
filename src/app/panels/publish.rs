//! The publish form and the broker's refusals it hears about. The form's values are a
//! [`PublishForm`] (checked in the native crate); a repeated publish is one action with
//! `repeat` that the engine schedules.

use delaylab_engine::report::text::clock;
use delaylab_playground::deliver_at::{self, DeliverWhen};
use delaylab_playground::publish_form::{PublishForm, MAX_REPEAT_COUNT};
use leptos::prelude::*;

use super::ctx;
use crate::app::for_load::ForLoad;

/// The quick-delay buttons: (delay in ms, label key). They fill `x-delay` on a delayed
/// exchange, "deliver at" where a queue holds a delivery time (4.4 quorum), `expiration`
/// otherwise.
const QUICK_DELAYS: [(u64, &str); 4] = [
    (5_000, "q_5s"),
    (30_000, "q_30s"),
    (300_000, "q_5min"),
    (1_800_000, "q_30min"),
];

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
    let d = PublishForm::default();
    let body = RwSignal::new(d.body);
    let expiration = RwSignal::new(d.expiration);
    let x_delay = RwSignal::new(d.x_delay);
    let deliver_when = RwSignal::new(d.deliver_when);
    let deliver_at = RwSignal::new(d.deliver_at);
    let headers = RwSignal::new(d.headers);
    let mandatory = RwSignal::new(d.mandatory);
    let persistent = RwSignal::new(d.persistent);
    let count = RwSignal::new(d.count);
    let every = RwSignal::new(d.every);
    // The last publish's notes belong to the scenario it went to.
    let error = ForLoad::<Option<String>>::empty(c);
    let done = ForLoad::<Option<String>>::empty(c);

    let exchanges = Memo::new(move |_| {
        c.snap.with(|s| {
            s.exchanges
                .iter()
                .map(|x| (x.name.clone(), x.kind.clone(), x.is_delayed()))
                .collect::<Vec<_>>()
        })
    });
    // A new scenario preselects the exchange its actions publish to and a key bound to
    // it (declared or not); what the user picks holds until the next scenario.
    let suggested = Memo::new(move |_| {
        let _ = c.load_rev.get();
        let targets = c.targets.get_untracked();
        let xs = exchanges.get_untracked();
        let pick = targets
            .iter()
            .find(|t| xs.iter().any(|(n, _, _)| n == *t))
            .cloned()
            .or_else(|| xs.first().map(|x| x.0.clone()))
            // Not declared on this version (the plugin's exchange on 4.3): still the one
            // the scenario publishes to, named as such in the select.
            .or_else(|| targets.first().cloned());
        match pick {
            Some(x) => {
                let key = c.snap.with_untracked(|s| {
                    s.exchange(&x)
                        .and_then(|e| e.bindings.first().map(|b| b.routing_key.clone()))
                });
                (x, key.unwrap_or_default())
            }
            None => (d.exchange.clone(), d.routing_key.clone()),
        }
    });
    let exchange =
        ForLoad::<String>::new(c, Signal::derive(move || suggested.with(|s| s.0.clone())));
    let rk = ForLoad::<String>::new(c, Signal::derive(move || suggested.with(|s| s.1.clone())));
    let keys = Memo::new(move |_| {
        let ex = exchange.get();
        c.snap.with(|s| {
            let mut k: Vec<String> = s
                .exchange(&ex)
                .into_iter()
                .flat_map(|x| x.bindings.iter().map(|b| b.routing_key.clone()))
                .collect();
            k.dedup();
            k
        })
    });
    let is_delayed = move || {
        exchanges.with(|xs| {
            xs.iter()
                .any(|(n, _, delayed)| *n == exchange.get() && *delayed)
        })
    };

    // What x-opt-delivery-time would do where this exchange and key publish, on the
    // loaded scenario's version: the engine's answer (deliver_at::preview).
    let version = crate::app::version::current(c);
    let preview = Memo::new(move |_| {
        let (ex, key, v) = (exchange.get(), rk.get(), version.get());
        let _ = (c.load_rev.get(), c.scenario_rev.get());
        c.runner
            .with_value(|r| deliver_at::preview(&r.scenario, v, &ex, &key, None))
    });
    let offers = move || preview.with(|p| p.offers());
    let quick = move |ms: u64| {
        expiration.set(String::new());
        x_delay.set(String::new());
        deliver_at.set(String::new());
        if is_delayed() {
            x_delay.set(ms.to_string());
        } else if offers() {
            deliver_when.set(DeliverWhen::In);
            deliver_at.set(deliver_at::delay_text(ms));
        } else {
            expiration.set(ms.to_string());
        }
    };

    let submit = move || {
        error.clear();
        done.clear();
        let form = PublishForm {
            exchange: exchange.get_untracked(),
            routing_key: rk.get_untracked(),
            body: body.get_untracked(),
            expiration: expiration.get_untracked(),
            x_delay: x_delay.get_untracked(),
            deliver_when: deliver_when.get_untracked(),
            // Not offered here (no queue would hold it): not written, the form said why.
            deliver_at: if preview.with_untracked(|p| p.offers()) {
                deliver_at.get_untracked()
            } else {
                String::new()
            },
            headers: headers.get_untracked(),
            mandatory: mandatory.get_untracked(),
            persistent: persistent.get_untracked(),
            count: count.get_untracked(),
            every: every.get_untracked(),
        };
        let (now, runs) = c.runner.with_value(|r| (r.now(), r.sim.messages_so_far()));
        match form.action(now, runs) {
            Ok(action) if action.repeat.is_some() => c.run_scheduled(action),
            Ok(action) => c.run_now(action.kind),
            Err(e) => return error.set(Some(e.text(c.lang.get_untracked()))),
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
                        // The exchange the scenario publishes to, when the broker has none
                        // of that name (refused on this version, deleted): named, so the
                        // form does not go blank, and a publish to it gets the broker's 404.
                        {move || {
                            let x = exchange.get();
                            let missing = !x.is_empty()
                                && !exchanges.with(|l| l.iter().any(|(n, _, _)| *n == x));
                            missing.then(|| {
                                let text = format!("{x} ({})", c.tr("pub_x_missing"));
                                view! { <option value=x selected=true>{text}</option> }
                            })
                        }}
                        {move || {
                            exchanges
                                .get()
                                .into_iter()
                                .filter(|(n, _, _)| !n.is_empty())
                                .map(|(n, k, _)| {
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
                        {move || {
                            if is_delayed() {
                                "x-delay"
                            } else if offers() {
                                "x-opt-delivery-time"
                            } else {
                                "expiration"
                            }
                        }}
                    </span>
                    {QUICK_DELAYS
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
                <fieldset class="deliver-at" data-testid="deliver-at" class:offered=offers>
                    <legend>{move || c.tr("deliver_at")} " " <small>"x-opt-delivery-time"</small></legend>
                    <Show when=offers>
                        <div class="row2">
                            <select
                                data-testid="pub-deliver-when"
                                aria-label=move || c.tr("dw_label")
                                on:change=move |ev| {
                                    if let Some(w) = DeliverWhen::parse(&event_target_value(&ev)) {
                                        deliver_when.set(w);
                                    }
                                }
                            >
                                {DeliverWhen::ALL
                                    .into_iter()
                                    .map(|w| {
                                        let key = if w == DeliverWhen::In { "dw_in" } else { "dw_at" };
                                        view! {
                                            <option value=w.as_str() selected=move || deliver_when.get() == w>
                                                {move || c.tr(key)}
                                            </option>
                                        }
                                    })
                                    .collect_view()}
                            </select>
                            <input
                                data-testid="pub-deliver-at"
                                aria-label=move || c.tr("dw_label")
                                placeholder=move || if deliver_when.get() == DeliverWhen::In { "30m" } else { "30:00" }
                                prop:value=move || deliver_at.get()
                                on:input=move |ev| deliver_at.set(event_target_value(&ev))
                            />
                        </div>
                    </Show>
                    <p class="hint" data-testid="deliver-at-status">
                        {move || deliver_at::status(&preview.get(), c.lang.get())}
                        {move || {
                            (offers() && count.with(|n| n.trim() != "1"))
                                .then(|| format!(" {}", c.tr("dt_repeat")))
                        }}
                    </p>
                </fieldset>
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
                            max=MAX_REPEAT_COUNT.to_string()
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
                    key=|a| (a.run, a.seq)
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
