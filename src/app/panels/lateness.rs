//! Lateness figures (count, mean, p99, max: the engine's rule) and the chart of every
//! delivery's lateness, then the queue-depth chart.

use delaylab_playground::chart;
use leptos::prelude::*;

use super::ctx;
use super::depths::DepthChart;
use crate::app::runner::span;

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
                    <dd data-testid="late-count">{move || c.stats.with(|s| s.summary.count)}</dd>
                </div>
                <div>
                    <dt>{move || c.tr("mean")}</dt>
                    <dd data-testid="late-mean">{move || c.stats.with(|s| span(s.summary.mean_ms.round() as u64))}</dd>
                </div>
                <div>
                    <dt>"p99"</dt>
                    <dd data-testid="late-p99">{move || c.stats.with(|s| span(s.summary.p99_ms))}</dd>
                </div>
                <div>
                    <dt>{move || c.tr("max")}</dt>
                    <dd data-testid="late-max">{move || c.stats.with(|s| span(s.summary.max_ms))}</dd>
                </div>
                // Retries: deliveries of a message not handled since its first one (a
                // message that loops is never on time), with the longest wait since then.
                {move || {
                    (c.stats.with(|s| s.retries) > 0).then(|| {
                        view! {
                            <div class="retries">
                                <dt>{move || c.tr("retries")}</dt>
                                <dd data-testid="late-retries">
                                    {move || c.stats.with(|s| format!("{} · {} {}", s.retries, c.tr("unhandled_for"), span(s.retry_max_ms)))}
                                </dd>
                            </div>
                        }
                    })
                }}
            </dl>
            <svg class="chart" viewBox="0 0 640 150" role="img" aria-label=move || c.tr("chart_label")>
                <line x1="64" y1="120" x2="632" y2="120" class="axis" />
                <line x1="64" y1="10" x2="64" y2="120" class="axis" />
                <text x="58" y="16" class="tick" text-anchor="end">
                    {move || c.stats.with(|s| if s.chart_max_ms() > 0 { span(s.chart_max_ms()) } else { String::new() })}
                </text>
                <text x="58" y="122" class="tick" text-anchor="end">
                    "0"
                </text>
                <text x="632" y="142" class="tick" text-anchor="end">
                    {move || c.tr("deliveries_axis")}
                </text>
                {move || {
                    c.stats
                        .with(chart::lateness_dots)
                        .into_iter()
                        .map(|d| {
                            let cls = if d.retry {
                                "pt retry"
                            } else if d.late {
                                "pt late"
                            } else {
                                "pt"
                            };
                            view! { <circle cx=format!("{:.1}", d.x) cy=format!("{:.1}", d.y) r="3.5" class=cls data-retry=d.retry.to_string() /> }
                        })
                        .collect_view()
                }}
            </svg>
            <h3 class="sub-h">{move || c.tr("depths")}</h3>
            <DepthChart />
        </section>
    }
}
