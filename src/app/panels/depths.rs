//! Ready counts per queue over virtual time, one dashed line per queue (the dash tells
//! the lines apart without colour), drawn as steps: a depth holds until something
//! changes it (`delaylab_playground::chart::depth_chart`).

use delaylab_engine::report::text::clock;
use delaylab_playground::chart::{self, DASHES};
use leptos::prelude::*;

use super::ctx;

#[component]
pub fn DepthChart() -> impl IntoView {
    let c = ctx();
    let chart = move || {
        let now = c.now();
        let d = c.depths.with(|d| chart::depth_chart(d, now));
        let legend = d
            .lines
            .iter()
            .map(|l| {
                view! {
                    <span class="lg-item">
                        <svg width="28" height="10" aria-hidden="true">
                            <line x1="0" y1="5" x2="28" y2="5" class=format!("depth d{}", l.style) stroke-dasharray=DASHES[l.style] />
                        </svg>
                        {l.queue.clone()}
                    </span>
                }
            })
            .collect_view();
        let lines = d
            .lines
            .into_iter()
            .map(|l| {
                view! { <polyline points=l.points class=format!("depth d{}", l.style) stroke-dasharray=DASHES[l.style] /> }
            })
            .collect_view();
        view! {
            <svg class="chart" viewBox="0 0 640 150" role="img" aria-label=c.tr("depths")>
                <line x1="64" y1="120" x2="632" y2="120" class="axis" />
                <line x1="64" y1="10" x2="64" y2="120" class="axis" />
                <text x="58" y="16" class="tick" text-anchor="end">{d.max}</text>
                <text x="58" y="122" class="tick" text-anchor="end">"0"</text>
                <text x="70" y="142" class="tick">{clock(d.t0_ms)}</text>
                <text x="632" y="142" class="tick" text-anchor="end">{clock(d.t1_ms)}</text>
                {lines}
            </svg>
            <p class="depth-legend">{legend}</p>
        }
    };
    view! { <div data-testid="depths">{chart}</div> }
}
