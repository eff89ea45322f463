//! The loaded scenario: its name, tools (check, share, embed), what changes on the version
//! it runs on, description and what to watch, with the publish buttons a scenario made to
//! publish into needs first. A scenario with nothing to watch shows no what-to-watch line.

use delaylab_engine::version::BrokerVersion;
use delaylab_playground::preset_links::{self, Part};
use delaylab_playground::presets::SANDBOX_ID;
use delaylab_playground::quick_publish;
use leptos::prelude::*;

use super::ctx;
use crate::app::i18n::Lang;
use crate::app::runner::span;

/// The preset the sandbox offers as a comparison: the plugin, where it still runs.
const PLUGIN_PRESET: &str = "fix-delayed-plugin";

/// The newest version that runs the delayed-message plugin (the engine's profiles say).
fn newest_with_plugin() -> BrokerVersion {
    BrokerVersion::ALL
        .into_iter()
        .rev()
        .find(|v| v.profile().delayed_plugin)
        .unwrap_or_default()
}

#[component]
pub fn Watch() -> impl IntoView {
    let c = ctx();
    let checked_open = RwSignal::new(false);
    let version = crate::app::version::current(c);
    // Written for other versions than the one it runs on (loaded so, or switched): the
    // texts say so, next to the notice of what changes.
    let named = crate::app::version::of_scenario(c);
    let written_for = move || {
        // Every load: another scenario on the same version (a link followed from the
        // sandbox) leaves `named` as it was.
        c.load_rev.track();
        let on = named.get();
        let w = c.runner.with_value(|r| r.scenario.written_for());
        (!w.contains(&on)).then_some(w)
    };
    view! {
        <section class="panel watch" aria-labelledby="watch-h">
            <div class="watch-head">
                <h2 id="watch-h">
                    <span class="muted">{move || c.tr("scenario")}": "</span>
                    <span data-testid="scenario-name">{move || c.meta_texts().name}</span>
                </h2>
                <crate::app::checked::ScenarioTools open=checked_open />
                <crate::app::share::ShareTools />
                <crate::app::embed::EmbedButton />
            </div>
            // In a chunk (chunks.rs), fetched once the page works; hidden until opened.
            <crate::app::deferred::Deferred load=move || crate::app::chunks::checked_panel(checked_open) />
            // The notice of what changes on this version: its impacts and their words are
            // in the page's first chunk (chunks.rs), as what it opens next to it.
            <crate::app::deferred::Deferred load=crate::app::chunks::version_notice />
            <p class="desc">
                {move || {
                    written_for()
                        .map(|v| {
                            let range = delaylab_playground::impact_words::versions_text(&v);
                            let label = if c.lang.get() == Lang::Zh {
                                format!("(为 RabbitMQ {range} 编写)")
                            } else {
                                format!("(Written for RabbitMQ {range}.)")
                            };
                            view! { <span class="written-for" data-testid="written-for">{label}" "</span> }
                        })
                }}
                {move || c.meta_texts().description}
            </p>
            // Nothing to watch: no line at all (a bare label says nothing). On a version
            // the lesson is not written for, the written timeline is labelled with the
            // versions it holds on, and this run's own outcome follows, from its events.
            {move || {
                let texts = c.meta_texts();
                let label = match written_for() {
                    Some(v) => c
                        .tr("what_to_watch_on")
                        .replace("{on}", &delaylab_playground::impact_words::versions_text(&v)),
                    None => c.tr("what_to_watch").to_string(),
                };
                texts
                    .has_watch()
                    .then(|| {
                        view! {
                            <p class="watch-text" data-testid="watch">
                                <strong>
                                    <span aria-hidden="true">"◉ "</span>
                                    {label}
                                </strong>
                                " "
                                {linked(c, &texts.watch)}
                            </p>
                        }
                    })
            }}
            {move || {
                written_for().map(|_| {
                    let _ = c.rev.get();
                    let v = named.get();
                    let lang = c.lang.get();
                    let said = c.runner.with_value(|r| r.track.tally.words(lang));
                    view! {
                        <p class="watch-text this-run" data-testid="this-run" role="status">
                            <strong>{c.tr("this_run_on").replace("{v}", v.as_str())}</strong>
                            // Chinese punctuation is full-width: no space after its colon.
                            {(lang == Lang::En).then_some(" ")}
                            {said}
                        </p>
                    }
                })
            }}
            <QuickPublishRow />
            {move || {
                (c.preset.get() == SANDBOX_ID)
                    .then(|| {
                        let on = version.get();
                        let plugin_runs = on.profile().delayed_plugin;
                        let target = if plugin_runs { on } else { newest_with_plugin() };
                        let text = match (plugin_runs, c.lang.get()) {
                            (true, Lang::En) => "Compare: the delayed-message plugin (RabbitMQ 3.10 to 4.2 only), the same orders".to_string(),
                            (true, Lang::Zh) => "对比:延迟消息插件(仅 RabbitMQ 3.10 至 4.2),同样的订单".to_string(),
                            (false, Lang::En) => format!("The delayed-message plugin cannot run on RabbitMQ {on} (archived in 2026). Compare it on RabbitMQ {target}"),
                            (false, Lang::Zh) => format!("延迟消息插件无法在 RabbitMQ {on} 上运行(2026 年已归档)。在 RabbitMQ {target} 上对比"),
                        };
                        view! {
                            <p class="plugin-compare">
                                <button
                                    class="link"
                                    data-testid="plugin-compare"
                                    on:click=move |_| c.load_on(PLUGIN_PRESET, Some(target))
                                >
                                    {text} " →"
                                </button>
                            </p>
                        }
                    })
            }}
        </section>
    }
}

/// A text with the names of other presets as links that load them ("see Head-of-line
/// blocking"), in the page's language.
fn linked(c: crate::app::Ctx, text: &str) -> impl IntoView {
    let lang = c.lang.get();
    let own = c.preset.get();
    let names: Vec<(String, String)> = c.presets.with_value(|ps| {
        ps.iter()
            .map(|p| (p.id.clone(), crate::app::preset_texts(lang, p).name))
            .collect()
    });
    preset_links::split(text, &names, &own)
        .into_iter()
        .map(|part| match part {
            Part::Text(t) => t.into_any(),
            Part::Preset { id, name } => view! {
                <button class="link" data-testid="preset-link" data-preset=id.clone() on:click=move |_| c.load(&id)>
                    {name}
                </button>
            }
            .into_any(),
        })
        .collect_view()
}

/// Publish buttons for a scenario made to publish into (the sandbox), right under what
/// to watch: one per wait queue, and RabbitMQ 4.4's path (a quorum queue published to
/// with `x-opt-delivery-time`) with the same delays; each path labelled with the
/// versions it works on (the engine's probe, `quick_publish::works_on`), and said inert
/// on a version where it does not delay.
#[component]
fn QuickPublishRow() -> impl IntoView {
    let c = ctx();
    // Decided on the scenario as loaded: the user's own publishes (recorded into it)
    // do not take the buttons away.
    let made_to_publish_into = Memo::new(move |_| {
        let _ = c.load_rev.get();
        c.runner
            .try_with_value(|r| quick_publish::made_to_publish_into(&r.scenario))
            .unwrap_or(false)
    });
    let buttons = Memo::new(move |_| {
        if !made_to_publish_into.get() {
            return (Vec::new(), Vec::new());
        }
        c.snap
            .with(|s| (quick_publish::buttons(s), quick_publish::time_paths(s)))
    });
    // The versions each path delays on: asked once per load (a probe per version).
    let works = Memo::new(move |_| {
        let _ = c.load_rev.get();
        let (waits, times) = buttons.get();
        c.runner.with_value(|r| {
            let s = &r.scenario;
            let wait = quick_publish::works_on_every(s, &waits);
            let delay = waits.last().map_or(10_000, |w| w.ttl_ms);
            let time: Vec<Vec<BrokerVersion>> = times
                .iter()
                .map(|p| quick_publish::works_on(s, &p.action("probe".into(), 0, delay), delay))
                .collect();
            (wait, time)
        })
    });
    let publish = move |a: delaylab_engine::scenario::ActionKind| c.run_now(a);
    let next_body = move || {
        let n = c.runner.with_value(|r| r.track.bodies.len());
        quick_publish::body(n)
    };
    let version = crate::app::version::current(c);
    move || {
        let (waits, times) = buttons.get();
        if waits.is_empty() && times.is_empty() {
            return None;
        }
        let lang = c.lang.get();
        let (wait_on, time_on) = works.get();
        let delays = quick_publish::time_delays(&waits);
        let wait_group = (!waits.is_empty()).then(|| {
            let label = quick_publish::works_label(&wait_on, None, lang);
            view! {
                <div class="qp-path" data-testid="qp-wait">
                    <span class="qp-name">{c.tr("qp_wait")}</span>
                    <span class="qp-works" data-testid="qp-works">{label}</span>
                    {waits
                        .into_iter()
                        .map(|q| {
                            let label = format!("{} ({})", span_short(q.ttl_ms), q.routing_key);
                            let tid = format!("quick-publish-{}", q.routing_key);
                            let title = format!("{} → {} [{}] → {}", c.tr("publish"), q.exchange, q.routing_key, q.queue);
                            view! {
                                <button class="small" data-testid=tid title=title on:click=move |_| publish(q.action(next_body()))>
                                    {label}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
            }
        });
        let time_groups = times
            .into_iter()
            .zip(time_on)
            .map(|(p, on)| {
                let kind = c.tr("kind_quorum");
                let label = quick_publish::works_label(&on, Some(kind), lang);
                let v = version.get();
                // Inert here: said in the story's own words.
                let is_inert = !on.contains(&v);
                let inert = is_inert.then(|| {
                    let why = crate::app::i18n::t(lang, "why_dt_version");
                    let head = delaylab_playground::i18n_qq44::say(lang, "inert_on", &[("v", v.as_str())]);
                    view! { <span class="qp-inert" data-testid="qp-inert">{format!("{head} {why}")}</span> }
                });
                let name = delaylab_playground::i18n_qq44::say(lang, "qp_time", &[("queue", &p.queue)]);
                let buttons = delays
                    .iter()
                    .map(|d| {
                        let (p, d) = (p.clone(), *d);
                        let tid = format!("quick-time-{}", delaylab_playground::deliver_at::delay_text(d));
                        let title = format!("{} → {} [{}] → {}, x-opt-delivery-time = +{}", c.tr("publish"), p.exchange, p.routing_key, p.queue, span_short(d));
                        view! {
                            <button
                                class="small"
                                data-testid=tid
                                title=title
                                on:click=move |_| {
                                    let now = c.runner.with_value(|r| r.now());
                                    publish(p.action(next_body(), now, d))
                                }
                            >
                                {span_short(d)}
                            </button>
                        }
                    })
                    .collect_view();
                view! {
                    <div class="qp-path" data-testid="qp-time" class:inert=is_inert>
                        <span class="qp-name">{name}</span>
                        <span class="qp-works" data-testid="qp-works">{label}</span>
                        {buttons}
                        {inert}
                    </div>
                }
            })
            .collect_view();
        Some(view! {
            <div class="quick-publish" role="group" aria-label=move || c.tr("quick_publish")>
                <span class="muted">{move || c.tr("quick_publish")}</span>
                {wait_group}
                {time_groups}
            </div>
        })
    }
}

/// `30 min`, `5 min`, `10 s` for a button.
fn span_short(ms: u64) -> String {
    match ms {
        m if m >= 3_600_000 && m % 3_600_000 == 0 => format!("{} h", m / 3_600_000),
        m if m >= 60_000 && m % 60_000 == 0 => format!("{} min", m / 60_000),
        m if m % 1_000 == 0 => format!("{} s", m / 1_000),
        m => span(m),
    }
}
