//! Compare versions, first: where the two runs part (the first of the engine's events
//! that differs, `delaylab_playground::compare_parting`), each side's event in the log's
//! words, or that they never part. The figures follow in the lanes and the final table.

use delaylab_engine::report::text::clock;
use delaylab_engine::version::BrokerVersion;
use delaylab_playground::compare_parting::Parting;
use leptos::prelude::*;

use super::Ctx;

/// First, where the two version runs part: the first event that differs, each side's
/// in words (or nothing then); or that they never part.
#[component]
pub fn PartingBox(
    parting: RwSignal<Option<(BrokerVersion, BrokerVersion, Parting)>>,
) -> impl IntoView {
    let c = expect_context::<Ctx>();
    move || {
        let lang = c.lang.get();
        parting.get().map(|(a, b, p)| {
            let head = match p.at_ms {
                Some(t) => c
                    .tr("parting_at")
                    .replace("{t}", &clock(t))
                    .replace("{n}", &p.same.to_string()),
                None if p.complete => c.tr("parting_never").replace("{n}", &p.same.to_string()),
                None => c
                    .tr("parting_same_so_far")
                    .replace("{n}", &p.same.to_string()),
            };
            let side = |v: BrokerVersion, s: &delaylab_playground::compare_parting::Side| {
                let said = s.line(lang).map_or_else(
                    || c.tr("parting_nothing").to_string(),
                    |l| {
                        let body = if l.body.is_empty() {
                            String::new()
                        } else {
                            format!("\"{}\" ", l.body)
                        };
                        format!("{}{} {} {}", body, c.tr(l.label), l.place, l.detail)
                    },
                );
                view! {
                    <li data-testid="parting-side" data-version=v.as_str()>
                        <b>{format!("RabbitMQ {v}: ")}</b>
                        {said}
                    </li>
                }
            };
            let lines = p
                .at_ms
                .map(|_| view! { <ul>{side(a, &p.a)}{side(b, &p.b)}</ul> });
            view! {
                <div class="parting" data-testid="parting" role="status">
                    <p class="parting-head">{head}</p>
                    {lines}
                </div>
            }
        })
    }
}
