//! The loaded scenario: its name, tools (check, share, embed), what changes on the version
//! it runs on, description and what to watch, with the publish buttons a scenario made to
//! publish into needs first. A scenario with nothing to watch shows no what-to-watch line.

use delaylab_engine::version::BrokerVersion;
use delaylab_playground::preset_links::{self, Part};
use delaylab_playground::presets::SANDBOX_ID;
use delaylab_playground::quick_publish::{self, QuickPublish};
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
            <crate::app::version::VersionNotice />
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

/// Publish buttons for a scenario made to publish into (the sandbox): one per wait
/// queue, right under what to watch.
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
            return Vec::new();
        }
        c.snap.with(quick_publish::buttons)
    });
    let publish = move |q: &QuickPublish| {
        let n = c.runner.with_value(|r| r.track.bodies.len());
        c.run_now(q.action(quick_publish::body(n)));
    };
    move || {
        let list = buttons.get();
        (!list.is_empty()).then(|| {
            view! {
                <div class="quick-publish" role="group" aria-label=move || c.tr("quick_publish")>
                    <span class="muted">{move || c.tr("quick_publish")}</span>
                    {list
                        .into_iter()
                        .map(|q| {
                            let label = format!("{} ({})", span_short(q.ttl_ms), q.routing_key);
                            let tid = format!("quick-publish-{}", q.routing_key);
                            let title = format!("{} → {} [{}] → {}", c.tr("publish"), q.exchange, q.routing_key, q.queue);
                            view! {
                                <button class="small" data-testid=tid title=title on:click=move |_| publish(&q)>
                                    {label}
                                </button>
                            }
                        })
                        .collect_view()}
                </div>
            }
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
