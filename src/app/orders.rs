//! The order-timeout lab panel: the orders table beside the queues, live from the
//! snapshot, with the lab's counters. Shown only when the scenario has `orders`.
//!
//! Each row's state is a coloured badge that also says the state in words (colour is
//! never the only signal). A paid order closed by a message is flagged in its row with
//! a button that selects that message in the inspector (`Ctx::selected`).

use delaylab_engine::orders::view::{OrderRow, OrdersView};
use delaylab_engine::report::text::clock;
use leptos::prelude::*;

use super::Ctx;
use delaylab_playground::i18n_orders::t;

fn ctx() -> Ctx {
    expect_context::<Ctx>()
}

#[component]
pub fn Orders() -> impl IntoView {
    let c = ctx();
    let view_of = Memo::new(move |_| c.snap.with(|s| s.orders.clone()));
    let tr = move |k: &'static str| t(c.lang.get(), k);
    move || {
        let v: OrdersView = view_of.get()?;
        let shown = v.rows.len();
        let total = v.total;
        let rows = v.rows.clone();
        let bad = |n: u32| if n > 0 { "bad" } else { "" };
        Some(view! {
            <section class="panel orders" aria-labelledby="orders-h" data-testid="orders-panel">
                <h2 id="orders-h">{tr("orders")}</h2>
                <p class="hint">{tr("orders_hint")}</p>
                <dl class="orders-counters" data-testid="orders-counters">
                    <div><dt class="muted">{tr("policy")}</dt><dd><code>{v.policy}</code></dd></div>
                    <div><dt class="muted">{tr("paid_closed")}</dt>
                        <dd data-testid="paid-closed" class=bad(v.paid_closed)>{if v.paid_closed > 0 { "⚠ " } else { "" }}{v.paid_closed}</dd></div>
                    <div><dt class="muted">{tr("double_release")}</dt>
                        <dd data-testid="double-released" class=bad(v.stock_double_released)>{v.stock_double_released}</dd></div>
                    <div><dt class="muted">{tr("never_closed")}</dt>
                        <dd data-testid="never-closed" class=bad(v.never_closed)>{v.never_closed}</dd></div>
                    <div class="wide"><dt class="muted">{tr("orders_lateness")}</dt>
                        <dd>{format!("{} / {} / {}", clock(v.lateness_mean_ms), clock(v.lateness_p99_ms), clock(v.lateness_max_ms))}</dd></div>
                    <div><dt class="muted">{tr("queries")}</dt><dd>{v.db_queries}</dd></div>
                    <div><dt class="muted">{tr("rows")}</dt><dd>{v.rows_scanned}</dd></div>
                </dl>
                <div class="orders-scroll">
                    <table class="orders-table" data-testid="orders-table">
                        <caption class="muted">{format!("{} {shown} / {total}", tr("shown"))}</caption>
                        <thead>
                            <tr>
                                <th scope="col">{tr("order")}</th>
                                <th scope="col">{tr("state")}</th>
                                <th scope="col">{tr("created")}</th>
                                <th scope="col">{tr("deadline")}</th>
                                <th scope="col">{tr("ended")}</th>
                                <th scope="col">{tr("note")}</th>
                            </tr>
                        </thead>
                        <tbody>{rows.into_iter().map(|r| view! { <Row r /> }).collect_view()}</tbody>
                    </table>
                </div>
            </section>
        })
    }
}

#[component]
fn Row(r: OrderRow) -> impl IntoView {
    let c = ctx();
    let tr = move |k: &'static str| t(c.lang.get(), k);
    let status = r.status;
    let mistake = r.mistake_msg;
    let ended = match (r.paid_ms, r.ended_ms) {
        (Some(p), Some(e)) => format!("{} / {}", clock(p), clock(e)),
        (Some(p), None) => clock(p),
        (None, Some(e)) => format!("— / {}", clock(e)),
        (None, None) => String::new(),
    };
    let (twice, overdue) = (r.released_twice, r.overdue);
    view! {
        <tr data-testid=format!("order-{}", r.id) class:mistake=mistake.is_some()>
            <td>{format!("order-{}", r.id)}</td>
            <td>
                <span class="state" data-state=status>
                    {status} " · " {move || tr(status)}
                </span>
            </td>
            <td>{clock(r.created_ms)}</td>
            <td>{clock(r.deadline_ms)}</td>
            <td>{ended}</td>
            <td class="note">
                {mistake.map(|m| view! {
                    <span data-testid="mistake" class="flag-bad">
                        "✗ " {move || tr("mistake")} " "
                        <button class="link" data-testid="mistake-msg" on:click=move |_| c.selected.set(Some(m))>
                            {format!("#{m}")}
                        </button>
                    </span>
                })}
                {twice.then(|| view! { <span class="flag-bad">" ⚠ " {move || tr("twice")}</span> })}
                {overdue.then(|| view! { <span class="flag-warn">" ⚠ " {move || tr("orders_overdue")}</span> })}
            </td>
        </tr>
    }
}
