//! Compare mode's results as drawn: a card per lane (its clock, deliveries, lateness,
//! queues, first parting) and the table "Run to the end" fills (`compare.rs` holds the
//! lanes' signals and the frame loop; `delaylab_playground::compare` the model).

use delaylab_engine::report::text::clock;
use delaylab_playground::compare::{deliveries_summary, deliveries_text, FinalRow, LaneView};
use leptos::prelude::*;

use super::compare::{ctx, lane_title, late_text, open_lane, scenario_of};
use super::runner::span;

/// Deliveries shown at each end of a final table row (the rest are counted).
const FINAL_KEEP: usize = 3;

#[component]
pub(super) fn Lanes() -> impl IntoView {
    let c = ctx();
    let cmp = c.cmp;
    view! {
        <div class="lanes" data-testid="lanes" aria-live="off">
            <For
                each=move || cmp.views.get()
                key=|v| (v.key.key(), v.now_ms, v.stats.total, v.queues.iter().map(|q| q.ready).sum::<u64>())
                children=move |v| view! { <LaneCard v /> }
            />
        </div>
    }
}

#[component]
fn LaneCard(v: LaneView) -> impl IntoView {
    let c = ctx();
    let key = v.key.clone();
    let bad = v.stats.summary.max_ms > 0;
    let version = v.key.version();
    let open = {
        let key = key.clone();
        move |_| {
            let s = c
                .cmp
                .scenarios()
                .into_iter()
                .find(|(k, _)| *k == key)
                .map(|(_, s)| s);
            open_lane(&c, &key, s)
        }
    };
    view! {
        <article class="lane" class:lane-version=version.is_some() data-testid=format!("lane-{}", v.key.slug())>
            <header class="lane-head">
                <button class="link lane-title" on:click=open>{let (k, name) = (v.key.clone(), v.name.clone()); move || lane_title(&c, &k, &name)}</button>
                <span class="lane-clock">{clock(v.now_ms)}</span>
            </header>
            {version
                .map(|ver| {
                    // The scenario's name in the page's language when it is the main view's.
                    let name = v.name.clone();
                    let shown = move || {
                        if c.meta.with(|m| m.name == name) { c.meta_texts().name } else { name.clone() }
                    };
                    view! { <p class="lane-sub" title=ver.label()>{shown}</p> }
                })}
            <dl class="figures lane-figures" class:late=bad>
                <div>
                    <dt>{move || c.tr("delivered_n")}</dt>
                    <dd data-testid="lane-delivered">{v.stats.summary.count}</dd>
                </div>
                <div>
                    <dt>{move || c.tr("mean")}</dt>
                    <dd>{span(v.stats.summary.mean_ms.round() as u64)}</dd>
                </div>
                <div>
                    <dt>"p99"</dt>
                    <dd>{span(v.stats.summary.p99_ms)}</dd>
                </div>
                <div>
                    <dt>{move || c.tr("max")}</dt>
                    <dd data-testid="lane-max">{late_text(v.stats.summary.max_ms)}</dd>
                </div>
                {super::off_plugin::lane_figures(&c, &v)}
            </dl>
            {v
                .queues
                .into_iter()
                .map(|q| {
                    let testid = format!("lane-q-{}", q.name);
                    view! {
                        <div class="lane-q" data-testid=testid>
                            <span class="qname">{q.name}</span>
                            <span class="count">{move || c.tr("ready")} " " <b>{q.ready}</b></span>
                            {(q.unacked > 0).then(|| view! { <span class="count">{move || c.tr("unacked")} " " <b>{q.unacked}</b></span> })}
                            {(q.overdue > 0)
                                .then(|| {
                                    view! {
                                        <span class="count overdue-count">"⚠ " {move || c.tr("overdue")} " " <b>{q.overdue}</b></span>
                                    }
                                })}
                            <ol class="chips mini">
                                {q
                                    .chips
                                    .into_iter()
                                    .map(|(body, rem, over)| {
                                        let ttl = match (rem, over) {
                                            (_, Some(o)) => format!("⚠ +{}", span(o)),
                                            (Some(r), _) => format!("◷ {}", span(r)),
                                            _ => String::new(),
                                        };
                                        view! {
                                            <li class="chip" class:overdue=over.is_some()>
                                                <span class="chip-body">{body}</span>
                                                <span class="chip-ttl">{ttl}</span>
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ol>
                            {super::off_plugin::held_chips(&c, q.held, q.held_chips)}
                        </div>
                    }
                })
                .collect_view()}
            {v
                .delayed
                .into_iter()
                .map(|(name, count, items)| {
                    view! {
                        <div class="lane-q">
                            <span class="qname">"◷ " {name}</span>
                            <span class="count">"messages_delayed " <b>{count}</b></span>
                            <ol class="chips mini">
                                {items
                                    .into_iter()
                                    .map(|(body, rem)| {
                                        view! {
                                            <li class="chip delayed">
                                                <span class="chip-body">{body}</span>
                                                <span class="chip-ttl">{format!("◷ {}", span(rem))}</span>
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ol>
                        </div>
                    }
                })
                .collect_view()}
            <p class="lane-outcome" data-testid="lane-outcome">
                {let o = v.outcome.clone(); move || o.words(c.lang.get())}
            </p>
            <p class="lane-delivered">
                <span class="sub">{move || c.tr("compare_when")} ": "</span>
                {if v.delivered.is_empty() { "—".to_string() } else { deliveries_text(&v.delivered) }}
            </p>
        </article>
    }
}

#[component]
pub(super) fn FinalTable(rows: RwSignal<Vec<FinalRow>>) -> impl IntoView {
    let c = ctx();
    move || {
        let r = rows.get();
        let by_version = r.first().is_some_and(|row| row.key.version().is_some());
        (!r.is_empty()).then(|| {
            view! {
                <h3 class="sub-h">{c.tr("compare_final")}</h3>
                <div class="table-wrap">
                    <table class="cmp-table">
                        <thead>
                            <tr>
                                <th scope="col">{c.tr(if by_version { "compare_version_col" } else { "topology" })}</th>
                                <th scope="col">{c.tr("delivered_n")}</th>
                                <th scope="col">{c.tr("mean")}</th>
                                <th scope="col">"p99"</th>
                                <th scope="col">{c.tr("max")}</th>
                                <th scope="col">{c.tr("lane_lost")}</th>
                                <th scope="col">{c.tr("compare_when")}</th>
                                <th scope="col">{c.tr("compare_outcome")}</th>
                            </tr>
                        </thead>
                        <tbody>
                            {r
                                .into_iter()
                                .map(|row| {
                                    let key = row.key.clone();
                                    let l = row.stats.summary;
                                    let open = move |_| {
                                        let base = c.runner.with_value(|r| r.scenario.clone());
                                        open_lane(&c, &key, scenario_of(&key, &base))
                                    };
                                    view! {
                                        <tr data-testid=format!("compare-{}", row.key.slug()) class:late={l.max_ms > 0}>
                                            <th scope="row">
                                                <button class="link" on:click=open>{let (k, name) = (row.key.clone(), row.name.clone()); move || lane_title(&c, &k, &name)}</button>
                                            </th>
                                            <td>{l.count}</td>
                                            <td>{span(l.mean_ms.round() as u64)}</td>
                                            <td>{span(l.p99_ms)}</td>
                                            <td class="max">{late_text(l.max_ms)}</td>
                                            <td data-testid="final-lost">{row.lost}</td>
                                            <td class="when">
                                                {deliveries_summary(&row.deliveries, FINAL_KEEP, c.tr("compare_more"))}
                                                {row.stopped.map(|why| view! { <span class="stopped" title=why>" ⚠ " {move || c.tr("compare_stopped")}</span> })}
                                            </td>
                                            <td class="outcome" data-testid="final-outcome">{row.outcome.words(c.lang.get())}</td>
                                        </tr>
                                    }
                                })
                                .collect_view()}
                        </tbody>
                    </table>
                </div>
            }
        })
    }
}
